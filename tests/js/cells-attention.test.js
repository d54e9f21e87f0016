// The attention cell's model (web/src/cells/figures/attention-model.js) with the real engine, and
// the pure parts of the attribute wiring (web/src/cells/base/wiring.js), in Node.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
import { FieldError, formatField, parseField } from '../../web/src/cells/base/state-fields.js';
import {
  ATTENTION_FIELDS,
  AttentionInputError,
  computeAttention,
  describeAttention,
  explainAttention,
  labels,
  parseMask,
  scaleText,
  shapeProblem,
  tauText,
} from '../../web/src/cells/figures/attention-model.js';
import {
  allValues,
  describeValue,
  formatValue,
  readableNames,
  readList,
  readNumber,
  readValue,
} from '../../web/src/cells/base/wiring.js';

const Q = [
  [1, 0],
  [0, 2],
  [1, 1],
];
const K = [
  [1, 0],
  [0, 1],
  [2, 1],
];
const V = [
  [1, 2],
  [3, 4],
  [5, 6],
];

/** The test's own float64 oracle: softmax(q kᵀ·scale/τ with blocked keys at −∞) and its product with v. */
function oracle(q, k, v, { allowed, scale = 1 / Math.sqrt(q[0].length), tau = 1 }) {
  const weights = q.map((qi, i) => {
    const s = k.map((kj, j) => (allowed(i, j) ? (qi.reduce((a, x, e) => a + x * kj[e], 0) * scale) / tau : -Infinity));
    const m = Math.max(...s);
    if (m === -Infinity) return s.map(() => 0);
    const e = s.map((x) => Math.exp(x - m));
    const z = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / z);
  });
  const output = weights.map((w) => v[0].map((_, c) => w.reduce((a, x, j) => a + x * v[j][c], 0)));
  return { weights, output };
}

function assertClose(actual, expected, tol, what) {
  actual.flat().forEach((x, i) => {
    const want = expected.flat()[i];
    assert.ok(Math.abs(x - want) <= tol, `${what}: entry ${i} is ${x}, expected ${want}`);
  });
}

const state = (overrides = {}) => ({ q: Q, k: K, v: V, mask: 'causal', temperature: 1, scale: null, ...overrides });

test('the mask attribute: none, causal or rows of 0/1, through the cell’s settings table', () => {
  const spec = ATTENTION_FIELDS.mask;
  assert.equal(parseField('causal', 'mask', spec), 'causal');
  assert.equal(parseField(' none ', 'mask', spec), 'none');
  assert.deepEqual(parseField('1,0;1,1', 'mask', spec), [
    [1, 0],
    [1, 1],
  ]);
  assert.equal(formatField([[1, 0]], spec), '1,0');
  assert.equal(formatField('causal', spec), 'causal');
  assert.throws(
    () => parseMask('1,0.5;1,1', 'mask'),
    (e) => e instanceof FieldError && /mask\[0\]\[1\]: 0\.5 is not 0/.test(e.message),
  );
  assert.throws(() => parseMask('upper', 'mask'), /mask: "upper" is not none, causal or rows of 0 and 1/);
  assert.throws(() => parseMask('1,0;1', 'mask'), /mask: row 1 has 1 entries, row 0 has 2/);
  assert.throws(() => parseField('1,x;2,3', 'q', ATTENTION_FIELDS.q), /q\[0\]\[1\]: "x" is not a number/);
  assert.throws(() => parseField('-1', 'temperature', ATTENTION_FIELDS.temperature), /temperature: -1 is outside/);
});

test('inputs that do not fit together are refused in words that name the attribute', () => {
  assert.equal(shapeProblem(state()), '');
  assert.match(
    shapeProblem(state({ k: [[1, 0, 0]] })),
    /^Attribute k: each key has 3 numbers but each query in q has 2/,
  );
  assert.match(shapeProblem(state({ v: [[1, 2]] })), /^Attribute v: 1 rows but k has 3 keys/);
  assert.match(
    shapeProblem(state({ mask: [[1, 0]] })),
    /^Attribute mask: 1 × 2, but 3 queries and 3 keys need a 3 × 3 mask/,
  );
  assert.match(shapeProblem(state({ q: [Array(17).fill(1)] })), /^Attribute q: rows of 17 numbers; at most 16/);
});

test('the cell’s values come from the core: softmax(q kᵀ/√d + mask) v, with the checks it shows', async () => {
  const engine = await loadAttention();
  const r = computeAttention(engine, state());
  const want = oracle(Q, K, V, { allowed: (i, j) => j <= i });
  assertClose(r.weights, want.weights, 1e-6, 'weights');
  assertClose(r.output, want.output, 1e-5, 'output');
  assert.equal(r.weights[0][1], 0, 'causal: query 0 gives key 1 no weight');
  assert.equal(r.logits[0][2], -Infinity, 'a blocked key’s score is −∞');
  assert.equal(r.fullyMaskedRows, 0);
  assert.ok(r.maxRowSumError <= 1e-6, `row sums ${r.maxRowSumError}`);
  assert.ok(r.weightsError <= r.weightsTolerance && r.outputError <= r.outputTolerance);
  assert.ok(r.weightsTolerance >= 1e-5 && r.outputTolerance >= r.weightsTolerance);

  const scaled = computeAttention(engine, state({ mask: 'none', temperature: 2, scale: 0.5 }));
  assertClose(scaled.weights, oracle(Q, K, V, { allowed: () => true, scale: 0.5, tau: 2 }).weights, 1e-6, 'τ = 2');

  const cold = computeAttention(engine, state({ mask: 'none', temperature: 0 }));
  assert.deepEqual(cold.weights[2], [0, 0, 1], 'τ = 0: the argmax takes all');
  const hot = computeAttention(engine, state({ mask: 'none', temperature: Infinity }));
  assertClose(hot.weights[0], [1 / 3, 1 / 3, 1 / 3], 1e-7, 'τ = ∞: equal weights');

  const blocked = computeAttention(
    engine,
    state({
      mask: [
        [1, 0, 0],
        [0, 0, 0],
        [1, 1, 1],
      ],
    }),
  );
  assert.equal(blocked.fullyMaskedRows, 1);
  assert.deepEqual(blocked.weights[1], [0, 0, 0]);
  assert.deepEqual(blocked.output[1], [0, 0]);
  assert.equal(blocked.maxRowSumError, 1, 'the row with no key sums to 0, and the report says so');
});

test('bad inputs throw the learner’s words; an engine error never reaches the page as it is', async () => {
  const engine = await loadAttention();
  assert.throws(
    () => computeAttention(engine, state({ v: [[1, 2]] })),
    (e) => e instanceof AttentionInputError && explainAttention(e).startsWith('Attribute v:'),
  );
  const raw = new Error('attention: q has E = 2 but k has E = 3 (q [1, 2], k [1, 3])');
  assert.doesNotMatch(explainAttention(raw), /E = 2|q \[1, 2\]/);
  // a core that returned other weights would be caught by the reference check
  const wrong = {
    attention: (q, k, v, o) => {
      const r = engine.attention(q, k, v, o);
      r.weights.data[0] += 1e-3;
      return r;
    },
    attentionReference: (...args) => engine.attentionReference(...args),
    rowStochasticReport: (a) => engine.rowStochasticReport(a),
  };
  const r = computeAttention(wrong, state());
  assert.ok(r.weightsError > r.weightsTolerance, `gap ${r.weightsError}`);
});

test('display helpers: labels from 0, the scale and τ as written, a text alternative with the numbers', () => {
  assert.equal(labels('q', 3), 'q0,q1,q2');
  assert.equal(scaleText(null, 2), '1/√2');
  assert.equal(scaleText(0.5, 2), '0.5');
  assert.equal(tauText(Infinity), '∞');
  assert.match(describeAttention(state(), null), /3 queries over 3 keys, mask causal .*: not computed yet/);
  assert.match(
    describeAttention(state(), { weights: [[1, 0]], output: [[1, 2]] }),
    /Weights, row 0: 1\.000, 0\.000\. Output, row 0: 1\.000, 2\.000\./,
  );
});

/** A stand-in for a cell: settings, results and an id, as wiring.js reads them. */
class FakeCell {
  static stateFields = { temperature: { type: 'number', default: 1 }, mask: { type: 'enum', values: ['causal'] } };
  static outputs = ['weights', 'maxRowSumError'];
  id = 'att';
  temperature = 2;
  mask = 'causal';
  weights = [
    [1, 0],
    [0.25, 0.75],
  ];
  maxRowSumError = 1e-8;
}

test('value-of: a setting or a result of the cell, or one entry of it, counted from 0', () => {
  const cell = new FakeCell();
  assert.deepEqual(readableNames(cell), ['temperature', 'mask', 'weights', 'maxRowSumError']);
  assert.deepEqual(readValue(cell, 'weights[1]'), { value: [0.25, 0.75] });
  assert.deepEqual(readValue(cell, 'weights[1][1]'), { value: 0.75 });
  assert.deepEqual(readNumber(cell, 'temperature'), { value: 2 });
  assert.deepEqual(readList(cell, 'weights[0]'), { value: [1, 0] });
  cell.weights = undefined; // not computed yet: nothing to show, and no error
  assert.deepEqual(readValue(cell, 'weights[1][0]'), { value: undefined });
});

test('value-of that cannot be read says why, naming the attribute and what the cell has', () => {
  const cell = new FakeCell();
  const error = (read) => read.error ?? assert.fail(`no error: ${JSON.stringify(read)}`);
  assert.match(
    error(readValue(cell, 'weight')),
    /^Attribute value-of: #att has no value "weight" \(it has temperature, mask, weights, maxRowSumError\)/,
  );
  assert.match(error(readValue(cell, '')), /^Attribute value-of is missing/);
  assert.match(error(readValue(cell, 'weights[-1]')), /^Attribute value-of: "weights\[-1\]" is not a name such as/);
  assert.match(
    error(readValue(cell, 'weights[2]')),
    /^Attribute value-of: weights has entries \[0\] to \[1\], so no \[2\]/,
  );
  assert.match(error(readValue(cell, 'temperature[0]')), /temperature is a number, which has no entry \[0\]/);
  assert.match(error(readNumber(cell, 'weights')), /weights is a 2 × 2 matrix, not one number; try weights\[0\]\[0\]/);
  assert.match(error(readNumber(cell, 'weights[0]')), /is a list of 2 numbers, not one number; try weights\[0\]\[0\]/);
  assert.match(error(readList(cell, 'weights')), /not a list of numbers\. Pick one row, such as weights\[0\]/);
  assert.match(error(readList(cell, 'mask')), /mask is "causal", not a list of numbers/);
});

test('printing and code: values as NumPy prints them, every computed value for the code’s placeholders', () => {
  assert.equal(formatValue(0.5, 2), '0.50');
  assert.equal(formatValue([1, -0.00001], 3), '[1.000, 0.000]');
  assert.equal(
    formatValue(
      [
        [1, 22.5],
        [-3, -Infinity],
      ],
      1,
    ),
    '[[ 1.0, 22.5],\n [-3.0, -inf]]',
  );
  assert.equal(describeValue(null), 'not set');
  const cell = new FakeCell();
  cell.maxRowSumError = undefined;
  assert.deepEqual(Object.keys(allValues(cell)), ['temperature', 'mask', 'weights']);
});
