// The learning-to-attend lab's pure model (web/src/labs/learning-to-attend/trainer-model.js) in
// Node, against the real engine where it describes the engine's trainer: the layouts and token
// texts, the probes and their answers, the learner's input read and judged, the size and memory of
// every configuration the lab offers (against trainer.parameters()), a config read back into the
// lab's settings, one head's rows of predict's attention, the curves and the PyTorch parameters;
// the fewest-heads search (fewest-heads-model.js) against trying every subset, on tables and on a
// model the engine trained, and its verdicts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
import {
  attendedTokens,
  curveDomain,
  curveSeries,
  describeTrainer,
  expectedAnswer,
  headList,
  HEADS,
  inputText,
  judgeAnswer,
  LAYOUTS,
  MAX_STEPS,
  parseInput,
  positionLabels,
  PROBES,
  RATES,
  readSavedModel,
  seqLen,
  settingsOf,
  TASKS,
  tokenText,
  trainerOptions,
  WIDTHS,
} from '../../web/src/labs/learning-to-attend/trainer-model.js';
import { headRows, strongestKey, trainerChecks } from '../../web/src/labs/learning-to-attend/trainer-heads-model.js';
import {
  costSummary,
  formatBytes,
  msPerStep,
  parameterCount,
} from '../../web/src/labs/learning-to-attend/trainer-cost-model.js';
import {
  TORCH_STEPS,
  torchSteps,
  torchParams,
  TRAINER_TORCH,
} from '../../web/src/labs/learning-to-attend/trainer-torch-model.js';
import {
  judgeFewest,
  MAX_SEARCH_HEADS,
  searchFewestHeads,
  SOLVED,
  subsetsOfSize,
  subsetsUpTo,
} from '../../web/src/labs/learning-to-attend/fewest-heads-model.js';

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

test('a saved model file is read back with its settings; a file that is not one says what is wrong', () => {
  const t = engine.createTrainer(trainerOptions({ ...DEFAULTS, task: 'sort', seed: 3 }));
  t.step(4);
  const state = JSON.parse(JSON.stringify(t.exportState(), (_, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));
  t.dispose();
  const read = readSavedModel(JSON.stringify(state));
  assert.equal(read.state.step, 4);
  assert.deepEqual(read.settings, { ...DEFAULTS, task: 'sort', seed: 3 });
  assert.match(readSavedModel('{"format":').message, /not JSON/);
  assert.match(readSavedModel('[1, 2]').message, /not a model saved by this lab/);
  assert.match(
    readSavedModel(JSON.stringify({ ...state, step: MAX_STEPS + 1 })).message,
    /step must be a whole number/,
  );
  assert.match(
    readSavedModel(JSON.stringify({ ...state, config: { ...state.config, layers: 3 } })).message,
    /3 layers/,
  );
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

/** Every subset of 0..n-1 (as sorted index arrays), by brute force over bit masks. */
const everySubset = (n) =>
  Array.from({ length: 2 ** n }, (_, mask) => Array.from({ length: n }, (_, i) => i).filter((i) => mask & (1 << i)));

/** The true minimum by trying all 2^n subsets: { size, solutions } (size null when none solves). */
function bruteMinimum(n, accuracyOf) {
  const solving = everySubset(n).filter((kept) => accuracyOf(kept) >= SOLVED);
  if (!solving.length) return { size: null, solutions: [] };
  const size = Math.min(...solving.map((k) => k.length));
  return {
    size,
    solutions: solving
      .filter((k) => k.length === size)
      .map((k) => k.join(','))
      .sort(),
  };
}

test('subsets of each size, in order; the counts add up to 2^n', () => {
  assert.deepEqual(
    [...subsetsOfSize(4, 2)],
    [
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ],
  );
  assert.deepEqual([...subsetsOfSize(3, 0)], [[]]);
  assert.deepEqual([...subsetsOfSize(3, 3)], [[0, 1, 2]]);
  assert.deepEqual([...subsetsOfSize(2, 3)], []);
  for (let n = 1; n <= MAX_SEARCH_HEADS; n += 1) {
    const all = Array.from({ length: n + 1 }, (_, k) => [...subsetsOfSize(n, k)]).flat();
    assert.equal(all.length, 2 ** n, `n = ${n}`);
    assert.equal(new Set(all.map((k) => k.join(','))).size, 2 ** n, `n = ${n}: no subset twice`);
    assert.equal(subsetsUpTo(n, n), 2 ** n);
  }
  assert.equal(subsetsUpTo(8, 2), 1 + 8 + 28);
});

test('the fewest-heads search finds the true minimum, also where knocking a head out helps', async () => {
  // three heads: each pair but {1, 2} fails, {1, 2} solves, and all three together solve too;
  // greedy removal from all three (drop the head that costs least) would keep head 0 and fail
  const table = { '': 0.1, 0: 0.6, 1: 0.3, 2: 0.2, '0,1': 0.9, '0,2': 0.9, '1,2': 0.98, '0,1,2': 0.99 };
  const progress = [];
  const found = await searchFewestHeads(3, (kept) => table[kept.join(',')], { onProgress: (p) => progress.push(p) });
  assert.deepEqual(found, { size: 2, solutions: [[1, 2]], tried: 7, total: 8 });
  assert.deepEqual(
    progress.map((p) => p.tried),
    [1, 2, 3, 4, 5, 6, 7],
  );
  // random accuracy tables (seeded), against trying all 2^n subsets; some where nothing solves
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let trial = 0; trial < 60; trial += 1) {
    const n = 1 + (trial % MAX_SEARCH_HEADS);
    const accuracy = new Map(
      everySubset(n).map((k) => [k.join(','), random() < 0.25 ? 0.97 + 0.03 * random() : random() * 0.97]),
    );
    const accuracyOf = (kept) => accuracy.get(kept.join(','));
    const found = await searchFewestHeads(n, async (kept) => accuracyOf(kept));
    const truth = bruteMinimum(n, accuracyOf);
    assert.equal(found.size, truth.size, `trial ${trial}`);
    assert.deepEqual(found.solutions.map((k) => k.join(',')).sort(), truth.solutions, `trial ${trial}`);
    assert.equal(found.tried, truth.size === null ? 2 ** n : subsetsUpTo(n, truth.size), `trial ${trial}`);
  }
  await assert.rejects(
    searchFewestHeads(9, () => 1),
    /the model has 9 heads; trying every subset is offered up to 8/,
  );
  await assert.rejects(
    searchFewestHeads(0, () => 1),
    /the model has 0 heads/,
  );
});

for (const config of [
  { task: 'reverse', layers: 1, heads: 2, dModel: 32, seed: 1 },
  { task: 'reverse', layers: 2, heads: 2, dModel: 32, seed: 2 },
]) {
  test(`the fewest heads of a model the engine trained (${config.layers} × ${config.heads} heads): the search agrees with every subset tried`, async () => {
    const t = engine.createTrainer(config);
    try {
      for (let steps = 0; steps < 400 && t.evaluate({ samples: 256, seed: 12345 }).accuracy < 0.99; steps += 50)
        t.step(50);
      const heads = headList(config.layers, String(config.heads));
      const accuracyOf = (kept) => {
        heads.forEach((h, i) => t.setHeadEnabled(h.layer, h.head, kept.includes(i)));
        return t.evaluate({ samples: 256, seed: 12345 }).accuracy;
      };
      const full = accuracyOf(heads.map((_, i) => i));
      assert.ok(full >= SOLVED, `trained: ${full}`);
      const found = await searchFewestHeads(heads.length, accuracyOf);
      const truth = bruteMinimum(heads.length, accuracyOf);
      assert.equal(found.size, truth.size);
      assert.deepEqual(found.solutions.map((k) => k.join(',')).sort(), truth.solutions);
      assert.ok(accuracyOf([]) < SOLVED, 'with no head the model cannot copy the digits');
      // the verdicts on this model's heads: every subset, judged as the exercise judges it
      for (const kept of everySubset(heads.length)) {
        const v = judgeFewest({ heads, kept, full, keptAccuracy: accuracyOf(kept), search: found });
        const solves = accuracyOf(kept) >= SOLVED;
        assert.equal(v.correct, solves && kept.length === found.size, `kept ${kept}: ${v.message}`);
        assert.equal(v.mistake, v.correct ? null : solves ? 'not-fewest' : 'not-solved', `kept ${kept}`);
      }
    } finally {
      t.dispose();
    }
  });
}

test('the fewest-heads verdicts say what is wrong, in words', () => {
  const heads = headList(2, '2');
  const search = {
    size: 2,
    solutions: [
      [0, 3],
      [1, 3],
    ],
    tried: 11,
    total: 16,
  };
  const untrained = judgeFewest({ heads, kept: [0, 1, 2, 3], full: 0.62, keptAccuracy: 0.62, search });
  assert.equal(untrained.correct, false);
  assert.equal(untrained.mistake, 'untrained');
  assert.match(untrained.message, /with every head on, the model gets 62\.0 %, under 97 %/);
  const notSolved = judgeFewest({ heads, kept: [3], full: 0.99, keptAccuracy: 0.41, search });
  assert.equal(notSolved.mistake, 'not-solved');
  assert.match(
    notSolved.message,
    /with layer 1, head 1 left on, the model gets 41\.0 %: under 97 %, so that head does not/,
  );
  const none = judgeFewest({ heads, kept: [], full: 0.99, keptAccuracy: 0.1, search });
  assert.match(none.message, /no head at all/);
  const more = judgeFewest({ heads, kept: [0, 1, 3], full: 0.99, keptAccuracy: 0.985, search });
  assert.equal(more.mistake, 'not-fewest');
  assert.match(more.message, /3 heads left on still solve it \(98\.5 %\), but fewer can/);
  const right = judgeFewest({ heads, kept: [1, 3], full: 0.99, keptAccuracy: 0.975, search });
  assert.equal(right.correct, true);
  assert.equal(right.mistake, null);
  assert.match(
    right.message,
    /^2 heads \(layer 0, head 1; layer 1, head 1\) are the fewest: with them the model gets 97\.5 %/,
  );
  assert.match(
    right.message,
    /all 5 subsets of fewer heads stay under 97 % \(11 of the 16 subsets tried\)\. One other set of 2 heads also works\./,
  );
});
