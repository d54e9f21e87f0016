// The trainer API (issue 18): attn.trainingTasks(), createTrainer(), loadTrainer() and every method
// of a Trainer, through the built wasm module: what each returns, determinism (the same seed gives
// the same bits; step(a) + step(b) == step(a + b)), save -> JSON -> load continuing exactly,
// parameters against the layout, predict's attention, head ablation, the two builds agreeing, and
// every bad input an AttentionError naming the problem, the module usable afterwards.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { Trainer, loadAttention } from 'attnbook';
import { refuses, trainerSuite } from './trainer-helpers.js';

let attn;
const suite = trainerSuite((loaded) => {
  attn = loaded;
}); // trainers made by trainer() are disposed of after the tests
const { trainer } = suite;

const sameBits = (a, b, what) => {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) assert.ok(Object.is(a[i], b[i]), `${what}[${i}]: ${a[i]} vs ${b[i]}`);
};

describe('trainingTasks', () => {
  test('lists reverse, sort, lookup, retrieval2d and text with their layouts and defaults', () => {
    const tasks = attn.trainingTasks();
    assert.deepEqual(
      tasks.map((t) => t.id),
      ['reverse', 'sort', 'lookup', 'retrieval2d', 'text'],
    );
    for (const t of tasks) {
      const text = t.id === 'text' ? ['alphabet', 'heldOut', 'unigramBits'] : [];
      assert.deepEqual(Object.keys(t), [
        'id',
        'title',
        'description',
        'vocab',
        'inputLength',
        'answerLength',
        'seqLen',
        ...text,
        'defaults',
      ]);
      assert.ok(t.title.length > 0 && t.description.length > 20, t.id);
      assert.equal(t.seqLen, t.inputLength + t.answerLength - 1, t.id);
      assert.deepEqual(Object.keys(t.defaults), [
        'layers',
        'heads',
        'dModel',
        'mlp',
        'dMlp',
        'layerNorm',
        'learningRate',
        'weightDecay',
        'batchSize',
      ]);
      assert.equal(t.defaults.dModel % t.defaults.heads, 0, t.id);
    }
    const byId = Object.fromEntries(tasks.map((t) => [t.id, t]));
    assert.deepEqual([byId.reverse.vocab, byId.reverse.inputLength, byId.reverse.answerLength], [11, 7, 6]);
    assert.deepEqual([byId.lookup.vocab, byId.lookup.inputLength, byId.lookup.answerLength], [19, 10, 1]);
    assert.deepEqual(JSON.parse(JSON.stringify(tasks)), tasks, 'plain JSON');
  });
});

describe('createTrainer', () => {
  test('config: the options given over the task defaults, every field filled in; task: its entry', () => {
    const t = trainer({ task: 'sort', seed: 9, learningRate: 0.003, precision: 'float64' });
    const sort = attn.trainingTasks().find((x) => x.id === 'sort');
    assert.deepEqual(t.config, {
      task: 'sort',
      seed: 9,
      ...sort.defaults,
      learningRate: 0.003,
      weightDecay: sort.defaults.weightDecay,
      beta1: 0.9,
      beta2: 0.999,
      eps: 1e-8,
      batchSize: sort.defaults.batchSize,
      precision: 'float64',
    });
    assert.deepEqual(Object.keys(t.config), [
      'task',
      'seed',
      'layers',
      'heads',
      'dModel',
      'mlp',
      'dMlp',
      'layerNorm',
      'learningRate',
      'weightDecay',
      'beta1',
      'beta2',
      'eps',
      'batchSize',
      'precision',
    ]);
    assert.deepEqual(t.task, sort);
    assert.ok(Object.isFrozen(t.config) && Object.isFrozen(t.task.defaults));
    assert.ok(t instanceof Trainer);
    // the resolved config recreates the same trainer
    const u = trainer({ ...t.config });
    t.step(2);
    u.step(2);
    sameBits(u.exportState().weights, t.exportState().weights, 'weights');
  });

  test('seed defaults to 1 and precision to float32', () => {
    const t = trainer({ task: 'retrieval2d' });
    assert.equal(t.config.seed, 1);
    assert.equal(t.config.precision, 'float32');
  });

  test('a Trainer cannot be constructed directly', () => {
    assert.throws(() => new Trainer({}), /create trainers with attn\.createTrainer\(\)/);
  });
});

describe('step', () => {
  test('counts steps; loss is NaN before the first step, then finite and falling', () => {
    const t = trainer({ task: 'reverse', seed: 2 });
    const zero = t.step(0);
    assert.equal(zero.step, 0);
    assert.ok(Number.isNaN(zero.loss));
    const first = t.step();
    assert.equal(first.step, 1);
    assert.ok(first.loss > 1.5 && first.loss < 4, `first loss ${first.loss}`); // ≈ ln 11 = 2.4
    const later = t.step(30);
    assert.equal(later.step, 31);
    assert.ok(later.loss < first.loss, `loss ${first.loss} -> ${later.loss}`);
    assert.deepEqual(t.step(0), later, 'step(0) changes nothing');
  });

  test('determinism: the same config and seed give bitwise the same weights; another seed others', () => {
    const [a, b, c] = [1, 1, 2].map((seed) => trainer({ task: 'lookup', seed }));
    for (const t of [a, b, c]) t.step(4);
    sameBits(a.exportState().weights, b.exportState().weights, 'weights');
    assert.notDeepEqual(a.exportState().weights, c.exportState().weights);
  });

  test('step(a) then step(b) equals step(a + b), bit for bit', () => {
    const split = trainer({ task: 'sort', seed: 4 });
    const whole = trainer({ task: 'sort', seed: 4 });
    split.step(2);
    const last = split.step(3);
    const all = whole.step(5);
    assert.deepEqual(last, all);
    const [s, w] = [split.exportState(), whole.exportState()];
    sameBits(s.weights, w.weights, 'weights');
    sameBits(s.m, w.m, 'm');
    sameBits(s.v, w.v, 'v');
    assert.deepEqual(s.data, w.data);
  });
});

describe('exportState and loadTrainer', () => {
  test('the state is plain versioned JSON; save at step n, JSON, load: continues exactly as uninterrupted', () => {
    const original = trainer({ task: 'lookup', seed: 5 });
    const uninterrupted = trainer({ task: 'lookup', seed: 5 });
    original.setHeadEnabled(1, 0, false);
    uninterrupted.setHeadEnabled(1, 0, false);
    original.step(3);
    const state = original.exportState();
    assert.equal(state.format, 'attnbook-trainer');
    assert.equal(state.version, 1);
    assert.deepEqual(Object.keys(state), [
      'format',
      'version',
      'config',
      'step',
      'weights',
      'm',
      'v',
      'data',
      'lastLoss',
      'headEnabled',
    ]);
    assert.deepEqual(state.config, original.config);
    assert.equal(state.step, 3);
    assert.ok(Array.isArray(state.weights) && state.weights.length === state.m.length);
    assert.equal(state.v.length, state.weights.length);
    assert.match(state.data.state, /^\d+$/);
    assert.match(state.data.increment, /^\d*[13579]$/);
    assert.deepEqual(state.headEnabled, [true, true, false, true]);
    const text = JSON.stringify(state);
    assert.deepEqual(JSON.parse(text), state, 'JSON keeps every number exactly');

    const restored = attn.loadTrainer(JSON.parse(text));
    suite.keep(restored);
    assert.deepEqual(restored.config, original.config);
    assert.equal(restored.step(0).loss, original.step(0).loss);
    const a = original.step(4);
    const b = restored.step(4);
    const c = uninterrupted.step(7);
    assert.deepEqual(b, a);
    assert.deepEqual(c, a);
    const [sa, sb, sc] = [original, restored, uninterrupted].map((t) => t.exportState());
    sameBits(sb.weights, sa.weights, 'restored weights');
    sameBits(sc.weights, sa.weights, 'uninterrupted weights');
    sameBits(sb.m, sc.m, 'm');
    sameBits(sb.v, sc.v, 'v');
    assert.deepEqual(sb.headEnabled, sa.headEnabled);
    assert.deepEqual(restored.evaluate({ samples: 32 }), original.evaluate({ samples: 32 }));
  });

  test('a non-finite weight is named as parameters() names it (final_ln.gain, layer0.mlp.b_in)', () => {
    const t = trainer({ task: 'sort', seed: 1, mlp: true, layerNorm: true });
    const state = t.exportState();
    const names = Object.entries(t.parameters());
    const offset = (wanted) => {
      let at = 0;
      for (const [name, p] of names) {
        if (name === wanted) return at;
        at += p.data.length;
      }
      return assert.fail(wanted);
    };
    for (const [name, index, text] of [
      ['final_ln.gain', 3, 'final_ln.gain[3]'],
      ['layer0.mlp.b_in', 0, 'layer0.mlp.b_in[0]'],
      ['layer0.head1.W_K', 5, 'layer0.head1.W_K[0, 5]'],
    ]) {
      const weights = state.weights.slice();
      weights[offset(name) + index] = Infinity;
      refuses(
        () => attn.loadTrainer({ ...state, weights }),
        'ValueError',
        new RegExp(`^loadTrainer: ${text.replace(/[.[\]]/g, '\\$&')} is Infinity; weights must be finite$`),
      );
    }
  });

  test('a fresh trainer exports lastLoss null, and loads back', () => {
    const t = trainer({ task: 'retrieval2d', seed: 8 });
    const state = t.exportState();
    assert.equal(state.lastLoss, null);
    assert.deepEqual(state.headEnabled, [true]);
    const u = attn.loadTrainer(JSON.parse(JSON.stringify(state)));
    suite.keep(u);
    assert.ok(Number.isNaN(u.step(0).loss));
    assert.deepEqual(u.step(2), t.step(2));
  });
});

describe('parameters', () => {
  const expectedLayout = ({ layers, heads, dModel: D, mlp, dMlp, layerNorm }, { vocab: V, seqLen: T }) => {
    const M = dMlp || 4 * D;
    const out = [
      ['embed.token', [V, D]],
      ['embed.position', [T, D]],
    ];
    for (let l = 0; l < layers; l++) {
      if (layerNorm) out.push([`layer${l}.ln1.gain`, [D]], [`layer${l}.ln1.bias`, [D]]);
      for (let h = 0; h < heads; h++) {
        for (const w of ['W_Q', 'W_K', 'W_V']) out.push([`layer${l}.head${h}.${w}`, [D, D / heads]]);
      }
      out.push([`layer${l}.W_O`, [D, D]]);
      if (mlp) {
        if (layerNorm) out.push([`layer${l}.ln2.gain`, [D]], [`layer${l}.ln2.bias`, [D]]);
        out.push([`layer${l}.mlp.W_in`, [D, M]], [`layer${l}.mlp.b_in`, [M]]);
        out.push([`layer${l}.mlp.W_out`, [M, D]], [`layer${l}.mlp.b_out`, [D]]);
      }
    }
    if (layerNorm) out.push(['final_ln.gain', [D]], ['final_ln.bias', [D]]);
    out.push(['unembed', [D, V]]);
    return out;
  };

  for (const options of [
    { task: 'reverse', seed: 1 },
    { task: 'sort', seed: 1, layers: 2, heads: 4, mlp: true, dMlp: 24, layerNorm: true },
  ]) {
    test(`names and shapes follow the layout, values the exported weights (${JSON.stringify(options)})`, () => {
      const t = trainer(options);
      t.step(1);
      const params = t.parameters();
      const layout = expectedLayout(t.config, t.task);
      assert.deepEqual(
        Object.entries(params).map(([name, p]) => [name, p.shape]),
        layout,
      );
      assert.ok(Object.hasOwn(params, 'layer0.head1.W_Q'));
      const { weights } = t.exportState();
      let offset = 0;
      for (const [name, p] of Object.entries(params)) {
        assert.ok(p.data instanceof Float32Array, name);
        assert.equal(
          p.data.length,
          p.shape.reduce((a, b) => a * b, 1),
          name,
        );
        for (let i = 0; i < p.data.length; i++) {
          assert.equal(p.data[i], Math.fround(weights[offset + i]), `${name}[${i}]`);
        }
        offset += p.data.length;
      }
      assert.equal(offset, weights.length, 'every weight is in one tensor');
      if (t.config.layerNorm) assert.ok(params['final_ln.gain'].data.every((g) => g !== 0));
    });
  }
});

describe('sample, predict and evaluate', () => {
  test('sample: the same seed gives the same example; reverse and sort answers are right', () => {
    for (const [id, answerOf] of [
      ['reverse', (digits) => [...digits].reverse()],
      ['sort', (digits) => [...digits].sort((a, b) => a - b)],
    ]) {
      const t = trainer({ task: id, seed: 1 });
      const e = t.sample(42);
      assert.deepEqual(t.sample(42), e);
      assert.notDeepEqual(t.sample(43), e);
      assert.equal(e.input.length, 7);
      assert.equal(e.input[6], 10, "'=' ends the input");
      assert.deepEqual(e.answer, answerOf(e.input.slice(0, 6)));
    }
  });

  test('predict: answerLength tokens in the vocabulary, attention (layers, heads, T, T) causal rows summing to 1', () => {
    for (const id of ['reverse', 'lookup']) {
      const t = trainer({ task: id, seed: 3 });
      t.step(3);
      const { layers, heads } = t.config;
      const { seqLen: T, answerLength, vocab } = t.task;
      const { output, attention } = t.predict(t.sample(5).input);
      assert.equal(output.length, answerLength);
      assert.ok(output.every((x) => Number.isInteger(x) && x >= 0 && x < vocab));
      assert.ok(attention.data instanceof Float32Array);
      assert.deepEqual(attention.shape, [layers, heads, T, T]);
      for (let row = 0; row < layers * heads * T; row++) {
        const q = row % T;
        let sum = 0;
        for (let k = 0; k < T; k++) {
          const w = attention.data[row * T + k];
          if (k > q) assert.equal(w, 0, `row ${row} key ${k} is in the future`);
          else assert.ok(w >= 0, `row ${row} key ${k}`);
          sum += w;
        }
        assert.ok(Math.abs(sum - 1) < 1e-6, `row ${row} sums to ${sum}`);
      }
      // typed arrays are inputs too
      assert.deepEqual(t.predict(Int32Array.from(t.sample(5).input)).output, output);
    }
  });

  test('evaluate: the same seed the same numbers, within [0, 1]; trains up on reverse', () => {
    const t = trainer({ task: 'reverse', seed: 1 });
    const before = t.evaluate();
    assert.deepEqual(t.evaluate({ samples: 256, seed: 12345 }), before, 'the defaults');
    assert.ok(before.accuracy >= 0 && before.accuracy <= 1);
    assert.notDeepEqual(t.evaluate({ seed: 1 }), before);
    t.step(60);
    const afterTraining = t.evaluate({ samples: 128 });
    assert.ok(afterTraining.accuracy > before.accuracy + 0.3, `${before.accuracy} -> ${afterTraining.accuracy}`);
    assert.ok(afterTraining.loss < before.loss);
    // greedy predict agrees with the evaluation's right answers on a sample
    const e = t.sample(77);
    const right = t.predict(e.input).output.filter((x, i) => x === e.answer[i]).length;
    assert.ok(right >= 3, `${right} of 6 right after 60 steps`);
  });
});

describe('setHeadEnabled', () => {
  test("an ablated head's weights are still reported; in a 2-layer model the next layer's attention changes", () => {
    const t = trainer({ task: 'lookup', seed: 2 });
    t.step(20);
    const input = t.sample(3).input;
    const on = t.predict(input).attention;
    t.setHeadEnabled(0, 1, false);
    const off = t.predict(input).attention;
    const T = t.task.seqLen;
    const layer = (a, l) => a.data.subarray(l * 2 * T * T, (l + 1) * 2 * T * T);
    assert.deepEqual(layer(off, 0), layer(on, 0), 'layer 0 reads the same inputs: its weights are unchanged');
    assert.notDeepEqual(layer(off, 1), layer(on, 1), 'layer 1 reads a residual without head 0.1');
    assert.deepEqual(t.exportState().headEnabled, [true, false, true, true]);
    t.setHeadEnabled(0, 1, true);
    assert.deepEqual(t.predict(input).attention, on, 'restoring the head restores the model exactly');
  });

  test('ablating every head of a trained reverse model ruins it; restoring them gives the same evaluation', () => {
    const t = trainer({ task: 'reverse', seed: 1 });
    t.step(60);
    const trained = t.evaluate({ samples: 64 });
    t.setHeadEnabled(0, 0, false);
    t.setHeadEnabled(0, 1, false);
    const ablated = t.evaluate({ samples: 64 });
    assert.ok(ablated.accuracy < trained.accuracy - 0.3, `${trained.accuracy} -> ${ablated.accuracy}`);
    t.setHeadEnabled(0, 0, true);
    t.setHeadEnabled(0, 1, true);
    assert.deepEqual(t.evaluate({ samples: 64 }), trained);
  });

  test('an ablated head gets no gradient: its W_Q, W_K, W_V do not change while training', () => {
    const t = trainer({ task: 'reverse', seed: 6 });
    t.setHeadEnabled(0, 1, false);
    const before = t.parameters();
    t.step(3);
    const after = t.parameters();
    for (const w of ['W_Q', 'W_K', 'W_V']) {
      assert.deepEqual(after[`layer0.head1.${w}`], before[`layer0.head1.${w}`], w);
      assert.notDeepEqual(after[`layer0.head0.${w}`], before[`layer0.head0.${w}`], w);
    }
  });
});

describe('dispose', () => {
  test('frees the wasm memory; later calls say the trainer was disposed; dispose twice is harmless', () => {
    const t0 = attn.createTrainer({ task: 'reverse', seed: 1 }); // the first trainer makes the core's task table
    t0.dispose();
    const before = attn.memory().inUseBytes;
    const t = attn.createTrainer({ task: 'sort', seed: 1, layers: 2, mlp: true });
    t.step(2);
    t.predict(t.sample(1).input);
    assert.ok(attn.memory().inUseBytes > before + 100000, 'the trainer holds its weights in wasm memory');
    t.dispose();
    assert.equal(attn.memory().inUseBytes, before);
    assert.equal(t.disposed, true);
    for (const [method, args] of [
      ['step', [1]],
      ['evaluate', []],
      ['sample', [1]],
      ['predict', [[1, 2, 3, 4, 5, 6, 10]]],
      ['setHeadEnabled', [0, 0, false]],
      ['parameters', []],
      ['exportState', []],
    ]) {
      refuses(() => t[method](...args), 'Error', new RegExp(`^${method}: this trainer was disposed$`));
    }
    t.dispose();
    assert.equal(attn.memory().inUseBytes, before);
  });
});

describe('the SIMD and scalar builds', () => {
  // Both run the same core; the float64 reference is plain loops (clang does not reorder
  // floating-point sums without fast-math), so they agree to the last bit or nearly; the
  // float32 path (SIMD128 kernels against scalar ones) agrees within float32 rounding.
  const TOLERANCE = { float64: 1e-12, float32: 1e-5 };
  for (const precision of ['float64', 'float32']) {
    test(`agree on one step from the same state (${precision}, max |difference| <= ${TOLERANCE[precision]})`, async () => {
      const [simd, scalar] = await Promise.all([loadAttention({ simd: true }), loadAttention({ simd: false })]);
      assert.equal(simd.simd, true);
      assert.equal(scalar.simd, false);
      const origin = simd.createTrainer({ task: 'sort', seed: 3, precision });
      origin.step(5);
      const state = origin.exportState();
      origin.dispose();
      const results = [simd, scalar].map((engine) => {
        const t = engine.loadTrainer(state);
        const { loss } = t.step(1);
        const { weights } = t.exportState();
        t.dispose();
        return { loss, weights };
      });
      let maxDiff = 0;
      for (let i = 0; i < state.weights.length; i++) {
        const d = Math.abs(results[0].weights[i] - results[1].weights[i]) / Math.max(1, Math.abs(state.weights[i]));
        maxDiff = Math.max(maxDiff, d);
      }
      const lossDiff = Math.abs(results[0].loss - results[1].loss);
      test.diagnostic?.(`${precision}: max weight difference ${maxDiff}, loss difference ${lossDiff}`);
      console.log(`SIMD vs scalar, ${precision}: max weight difference ${maxDiff}, loss difference ${lossDiff}`);
      assert.ok(maxDiff <= TOLERANCE[precision], `max weight difference ${maxDiff}`);
      assert.ok(lossDiff <= TOLERANCE[precision] * 10, `loss difference ${lossDiff}`);
    });
  }
});

describe('bad input to a trainer: an AttentionError naming the problem, the trainer usable afterwards', () => {
  let t;
  before(() => {
    t = trainer({ task: 'reverse', seed: 1 });
  });
  const input = [1, 2, 3, 4, 5, 6, 10];
  const rows = [
    ['step', ['3'], 'TypeError', /^step: count must be a number, got the string "3"$/],
    ['step', [1.5], 'ValueError', /^step: count is 1\.5; it must be a whole number from 0 to 100000/],
    ['step', [-1], 'ValueError', /^step: count is -1; it must be a whole number from 0 to 100000/],
    ['step', [NaN], 'ValueError', /^step: count is NaN; it must be a whole number/],
    [
      'step',
      [100001],
      'ValueError',
      /^step: count is 100001; it must be a whole number from 0 to 100000 \(step in several calls/,
    ],
    ['step', [null], 'TypeError', /^step: count must be a number, got null$/],
    ['evaluate', ['fast'], 'TypeError', /^evaluate: options must be an object such as \{ samples: 256, seed: 12345 \}/],
    ['evaluate', [{ samples: 0 }], 'ShapeError', /^evaluate: samples is 0; it must be >= 1$/],
    [
      'evaluate',
      [{ samples: 2.5 }],
      'ValueError',
      /^evaluate: samples is 2\.5; it must be a whole number from 0 to 100000$/,
    ],
    [
      'evaluate',
      [{ samples: 1e6 }],
      'ValueError',
      /^evaluate: samples is 1000000; it must be a whole number from 0 to 100000$/,
    ],
    [
      'evaluate',
      [{ seed: -1 }],
      'ValueError',
      /^evaluate: seed is -1; it must be a whole number from 0 to 9007199254740991$/,
    ],
    ['evaluate', [{ sample: 10 }], 'TypeError', /^evaluate: sample is not an option; the options are samples, seed$/],
    ['sample', [], 'TypeError', /^sample: seed must be a number, got undefined$/],
    ['sample', [0.5], 'ValueError', /^sample: seed is 0\.5; it must be a whole number from 0 to 9007199254740991$/],
    ['sample', [2 ** 53], 'ValueError', /^sample: seed is 9007199254740992; it must be a whole number/],
    ['predict', ['1234561'], 'TypeError', /^predict: input must be an array of token ids, got the string "1234561"$/],
    ['predict', [[1, 2, 3]], 'ShapeError', /^predict: input has 3 tokens; reverse inputs have 7$/],
    ['predict', [[...input, 1]], 'ShapeError', /^predict: input has 8 tokens; reverse inputs have 7$/],
    ['predict', [[]], 'ShapeError', /^predict: input has 0 tokens; reverse inputs have 7$/],
    ['predict', [[1, 2, 3, 11, 5, 6, 10]], 'ValueError', /^predict: input\[3\] is 11; reverse tokens are 0\.\.10$/],
    ['predict', [[1, 2, 3, 4, 5, 6, -1]], 'ValueError', /^predict: input\[6\] is -1; reverse tokens are 0\.\.10$/],
    ['predict', [[1, 2.5, 3, 4, 5, 6, 10]], 'ValueError', /^predict: input\[1\] is 2\.5; reverse tokens are 0\.\.10$/],
    ['predict', [[2 ** 40, 2, 3, 4, 5, 6, 10]], 'ValueError', /^predict: input\[0\] is 1099511627776; reverse tokens/],
    ['predict', [[NaN, 2, 3, 4, 5, 6, 10]], 'ValueError', /^predict: input\[0\] is NaN; reverse tokens are 0\.\.10$/],
    ['predict', [['1', 2, 3, 4, 5, 6, 10]], 'TypeError', /^predict: input\[0\] is the string "1", not a token id$/],
    [
      'setHeadEnabled',
      [1, 0, false],
      'ShapeError',
      /^setHeadEnabled: layer 1 is out of range; the model has layers 0\.\.0$/,
    ],
    [
      'setHeadEnabled',
      [0, 2, false],
      'ShapeError',
      /^setHeadEnabled: head 2 is out of range; each layer has heads 0\.\.1$/,
    ],
    ['setHeadEnabled', [0, -1, false], 'ValueError', /^setHeadEnabled: head is -1; it must be a whole number >= 0$/],
    [
      'setHeadEnabled',
      [0, 0, 'off'],
      'TypeError',
      /^setHeadEnabled: enabled must be true or false, got the string "off"$/,
    ],
    ['setHeadEnabled', ['0', 0, true], 'TypeError', /^setHeadEnabled: layer must be a number, got the string "0"$/],
  ];
  for (const [method, args, kind, message] of rows) {
    test(`${method}(${args.map((a) => JSON.stringify(a) ?? String(a)).join(', ')}): ${kind}`, () => {
      const state = JSON.stringify(t.exportState());
      refuses(() => t[method](...args), kind, message);
      assert.equal(JSON.stringify(t.exportState()), state, 'the trainer is unchanged');
      assert.equal(t.predict(input).output.length, 6, 'and still answers');
    });
  }

  test('createTrainer with bad options leaves the module usable and the heap as it was', () => {
    const before = attn.memory().inUseBytes;
    refuses(() => attn.createTrainer({ task: 'reverse', dModel: 2048, layers: 1 }), 'MemoryError', /MiB to train/);
    refuses(
      () => attn.createTrainer({ task: 'reverse', heads: 5 }),
      'ShapeError',
      /heads \(5\) must divide dModel \(32\)/,
    );
    refuses(
      () => attn.createTrainer({ task: 'reverse', learningRate: Infinity }),
      'ValueError',
      /learningRate is Infinity/,
    );
    assert.equal(attn.memory().inUseBytes, before);
    const u = attn.createTrainer({ task: 'retrieval2d', seed: 1 });
    assert.equal(u.step(1).step, 1);
    u.dispose();
    assert.equal(attn.memory().inUseBytes, before);
  });
});
