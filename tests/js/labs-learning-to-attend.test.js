// The learning-to-attend lab's pure model (web/src/labs/learning-to-attend/trainer-model.js) in
// Node, against the real engine where it describes the engine's trainer: the layouts and token
// texts, the probes and their answers, the learner's input read and judged, the size and memory of
// every configuration the lab offers (against trainer.parameters()), a config read back into the
// lab's settings, one head's rows of predict's attention, the curves and the PyTorch parameters.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
import {
  attendedTokens,
  costSummary,
  curveDomain,
  curveSeries,
  describeTrainer,
  expectedAnswer,
  formatBytes,
  headList,
  headRows,
  HEADS,
  inputText,
  judgeAnswer,
  LAYOUTS,
  MAX_STEPS,
  msPerStep,
  parameterCount,
  parseInput,
  positionLabels,
  PROBES,
  RATES,
  seqLen,
  settingsOf,
  strongestKey,
  TASKS,
  tokenText,
  TORCH_STEPS,
  torchSteps,
  trainerChecks,
  torchParams,
  TRAINER_TORCH,
  trainerOptions,
  WIDTHS,
} from '../../web/src/labs/learning-to-attend/trainer-model.js';

const engine = await loadAttention();
const DEFAULTS = { layers: 1, heads: '2', dModel: '32', learningRate: '0.01', seed: 1 };

test("the lab's layouts are the engine's tasks", () => {
  const tasks = engine.trainingTasks();
  for (const id of TASKS) {
    const task = tasks.find((t) => t.id === id);
    assert.ok(task, id);
    const layout = LAYOUTS[id];
    assert.equal(layout.vocab, task.vocab, `${id} vocab`);
    assert.equal(layout.inputLength, task.inputLength, `${id} input length`);
    assert.equal(layout.answerLength, task.answerLength, `${id} answer length`);
    assert.equal(seqLen(id), task.seqLen, `${id} seqLen`);
    assert.equal(layout.mlp, task.defaults.mlp, `${id} MLP`);
    assert.equal(layout.layers, task.defaults.layers, `${id} default layers`);
  }
});

test('tokens as text, and the probes with their right answers', () => {
  assert.deepEqual(
    Array.from({ length: 11 }, (_, i) => tokenText('reverse', i)),
    [...'0123456789='],
  );
  assert.deepEqual(
    Array.from({ length: 19 }, (_, i) => tokenText('lookup', i)),
    [...'abcdefgh0123456789?'],
  );
  assert.deepEqual(expectedAnswer('reverse', PROBES.reverse), [9, 5, 1, 4, 1, 3]);
  assert.deepEqual(expectedAnswer('sort', PROBES.sort), [1, 2, 2, 5, 7, 8]);
  assert.deepEqual(expectedAnswer('lookup', PROBES.lookup), [15]);
  assert.equal(inputText('lookup', PROBES.lookup), 'a3 c7 f1 h5 ? c');
  assert.equal(inputText('reverse', PROBES.reverse), '314159');
  assert.deepEqual(positionLabels('reverse', PROBES.reverse, [9, 5, 1, 4, 1, 3]).slice(5), [
    '5:9',
    '6:=',
    '7:9',
    '8:5',
    '9:1',
    '10:4',
    '11:1',
  ]);
  assert.equal(attendedTokens('lookup', PROBES.lookup, [15]).length, seqLen('lookup'));
  // the engine's samples agree with expectedAnswer
  for (const task of TASKS) {
    const t = engine.createTrainer({ task, seed: 4 });
    for (let seed = 1; seed <= 20; seed++) {
      const { input, answer } = t.sample(seed);
      assert.deepEqual(expectedAnswer(task, input), answer, `${task} sample ${seed}`);
      assert.deepEqual(parseInput(task, inputText(task, input)).input, input, `${task} sample ${seed} as text`);
    }
    t.dispose();
  }
});

test("the learner's input: read, refused in plain words, judged token by token", () => {
  assert.deepEqual(parseInput('reverse', '3 1 4 1 5 9').input, [3, 1, 4, 1, 5, 9, 10]);
  assert.deepEqual(parseInput('sort', '314159=').input, [3, 1, 4, 1, 5, 9, 10]);
  assert.match(parseInput('reverse', '31415').error, /six digits; that is 5/);
  assert.match(parseInput('reverse', '31x159').error, /digits 0 to 9 only/);
  assert.deepEqual(parseInput('lookup', 'A3 c7 f1 h5 ? c').input, PROBES.lookup);
  assert.match(parseInput('lookup', 'a3 a7 f1 h5 ? a').error, /must be different/);
  assert.match(parseInput('lookup', 'a3 c7 f1 h5 ? b').error, /b is not/);
  assert.match(parseInput('lookup', 'a3 c7').error, /four pairs/);
  const judged = judgeAnswer('reverse', PROBES.reverse, [9, 5, 1, 4, 2, 3]);
  assert.deepEqual(
    judged.map((j) => j.ok),
    [true, true, true, true, false, true],
  );
  assert.equal(judged[4].right, '1');
  assert.equal(judged[4].text, '2');
});

test('size and memory of every configuration the lab offers match the engine; layers × heads ≤ 8', () => {
  for (const task of TASKS) {
    for (const layers of [1, 2]) {
      for (const heads of HEADS) {
        for (const dModel of WIDTHS) {
          assert.ok(layers * Number(heads) <= 8);
          const settings = { ...DEFAULTS, task, layers, heads, dModel };
          const t = engine.createTrainer(trainerOptions(settings));
          const count = Object.values(t.parameters()).reduce((n, p) => n + p.data.length, 0);
          assert.equal(parameterCount(settings), count, `${task} ${layers}×${heads} D=${dModel}`);
          t.dispose();
          const cost = costSummary(settings);
          assert.equal(cost.bytes, 32 * count);
          assert.ok(cost.msPerStep > 0 && Number.isFinite(cost.msPerStep));
          assert.match(cost.text, /weights, .* to train; about .* ms a step/);
        }
      }
    }
  }
  const small = { ...DEFAULTS, task: 'reverse' };
  const large = { ...DEFAULTS, task: 'reverse', layers: 2, heads: '4', dModel: '64' };
  assert.ok(msPerStep(large) > 4 * msPerStep(small), 'a wider, deeper model is estimated slower');
  assert.equal(formatBytes(2048), '2 KiB');
  assert.equal(formatBytes(3 * 1024 * 1024), '3.0 MiB');
});

test("a trainer's config reads back as the lab's settings; others are refused with a reason", () => {
  for (const task of TASKS) {
    for (const learningRate of RATES) {
      const settings = { ...DEFAULTS, task, learningRate, seed: 999 };
      const t = engine.createTrainer(trainerOptions(settings));
      assert.deepEqual(settingsOf(t.config).settings, settings);
      t.dispose();
    }
  }
  const config = engine.createTrainer({ task: 'sort', seed: 3 }).config;
  assert.match(settingsOf({ ...config, layers: 3 }).error, /3 layers/);
  assert.match(settingsOf({ ...config, heads: 8, dModel: 32 }).error, /8 heads/);
  assert.match(settingsOf({ ...config, seed: 1000 }).error, /seed is 1000/);
  assert.match(settingsOf({ ...config, mlp: false }).error, /MLP/);
  assert.match(settingsOf({ ...config, task: 'retrieval2d' }).error, /retrieval2d/);
});

test("a head's rows of predict's attention: causal, rows sum to 1; the strongest key; the head list", () => {
  const t = engine.createTrainer({ task: 'reverse', seed: 1, heads: 2 });
  t.step(300);
  const { output, attention } = t.predict(PROBES.reverse);
  assert.deepEqual(attention.shape, [1, 2, 12, 12]);
  for (const head of [0, 1]) {
    const rows = headRows(attention, 0, head);
    assert.equal(rows.length, 12);
    rows.forEach((row, r) => {
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, `head ${head} row ${r} sums to 1`);
      assert.ok(
        row.slice(r + 1).every((w) => w === 0),
        `head ${head} row ${r}: no weight on later positions`,
      );
    });
  }
  // trained for 300 steps, the model reverses the probe, and reading position 8 some head looks at 3
  assert.deepEqual(output, expectedAnswer('reverse', PROBES.reverse));
  const looks = [0, 1].map((h) => strongestKey(headRows(attention, 0, h), 8).col);
  assert.ok(looks.includes(3), `reading position 8 a head looks at position 3 (heads look at ${looks})`);
  const checks = trainerChecks(attention);
  assert.deepEqual(
    checks.map((c) => c.name),
    ['row-sums', 'causal'],
  );
  assert.ok(checks[0].value <= checks[0].threshold, `row sums within ${checks[0].value}`);
  assert.equal(checks[1].value, 0);
  // a weight put on a later position is caught
  const broken = { data: Float32Array.from(attention.data), shape: attention.shape };
  broken.data[1] = 0.5; // layer 0, head 0, row 0, column 1
  assert.equal(trainerChecks(broken)[1].value, 0.5);
  assert.ok(trainerChecks(broken)[0].value > 0.4);
  t.dispose();
  assert.deepEqual(
    headList(2, '2').map((h) => h.key),
    ['0.0', '0.1', '1.0', '1.1'],
  );
  assert.equal(headList(1, '4')[3].name, 'layer 0, head 3');
});

test('curves, the text alternative and the PyTorch parameters', () => {
  assert.deepEqual(curveDomain(0), [0, 100]);
  assert.deepEqual(curveDomain(101), [0, 200]);
  assert.deepEqual(curveDomain(MAX_STEPS), [0, 6400]);
  const history = [
    { step: 25, loss: 2, accuracy: 0.1 },
    { step: 50, loss: 1, accuracy: 0.5 },
  ];
  assert.deepEqual(curveSeries(history).loss, [
    [
      [25, 2],
      [50, 1],
    ],
  ]);
  assert.deepEqual(curveSeries(history).accuracy[0][1], [50, 0.5]);
  const text = describeTrainer({
    settings: { ...DEFAULTS, task: 'reverse' },
    step: 50,
    loss: 1,
    accuracy: 0.5,
    probe: { input: PROBES.reverse, output: [9, 5, 1, 4, 1, 3] },
  });
  assert.match(text, /Reverse six digits: a model of 1 layer with 2 heads each, width 32/);
  assert.match(text, /after 50 steps; loss 1\.000; accuracy 50\.0 %; its answer to 314159 is 9 5 1 4 1 3 \(right\)/);
  const params = torchParams({ ...DEFAULTS, task: 'sort', seed: 3 });
  assert.deepEqual(params, {
    task: 'sort',
    layers: 1,
    heads: 2,
    d_model: 32,
    mlp: true,
    lr: 0.01,
    seed: 3,
    steps: TORCH_STEPS.sort,
  });
  for (const name of Object.keys(params)) assert.ok(TRAINER_TORCH.includes(`{{${name}}}`), name);
  // the defaults train for the full count; the largest models for fewer steps, never under 100
  for (const task of TASKS) {
    assert.equal(torchSteps({ ...DEFAULTS, task, layers: LAYOUTS[task].layers }), TORCH_STEPS[task], task);
  }
  assert.equal(torchSteps({ ...DEFAULTS, task: 'sort', layers: 2, heads: '4', dModel: '64' }), 100);
  assert.equal(torchSteps({ ...DEFAULTS, task: 'lookup', layers: 2, heads: '4', dModel: '64' }), 400);
});
