// The causal-masking labs' pure models (web/src/labs/causal-masking/*-model.js and the mask
// presets of attn-mask-painter), in Node with the real engine: the checks' values, the fully
// masked rows, Exercise 3's check, the band-versus-convolution matrices, readouts and errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
import { emptyRows, maskFor } from '../../web/src/cells/figures/mask-presets.js';
import {
  CAUSAL_CHECKS,
  causalPrintout,
  computeCausal,
  describeCausal,
  TRIL,
} from '../../web/src/labs/causal-masking/causal-attention-model.js';
import {
  computeMaskLab,
  describeMaskLab,
  fullyMasked,
  MASK_CHECKS,
} from '../../web/src/labs/causal-masking/mask-lab-model.js';
import {
  BAND,
  checkWindow3,
  describeWindow,
  windowWeights,
} from '../../web/src/labs/causal-masking/local-window-model.js';
import {
  bandWeights,
  convMatrix,
  convRange,
  describeBandConv,
  rowsSideBySide,
} from '../../web/src/labs/causal-masking/band-conv-model.js';
import {
  checksFrom,
  explainCoreError,
  maskStats,
  rowReadout,
  weightsCsv,
} from '../../web/src/labs/causal-masking/masks-model.js';
import { codeParams } from '../../web/src/labs/causal-masking/causal-masking-code.js';
import { batchOf, rowOf } from '../../web/src/labs/common/qkv-lab.js';

const T = 5;
const engine = await loadAttention();

/** An engine whose attention output is off by `by` in its first entry (a broken core). */
const offBy = (by) => ({
  ...engine,
  randn: (...a) => engine.randn(...a),
  attentionReference: (...a) => engine.attentionReference(...a),
  attention: (...a) => {
    const r = engine.attention(...a);
    const data = Float32Array.from(r.output.data);
    data[0] += by;
    return { ...r, output: { ...r.output, data } };
  },
});

test('mask presets: none, causal (j ≤ i), window (|i − j| ≤ w), custom (fitted, new cells allowed)', () => {
  assert.deepEqual(maskFor('none', 2), [
    [1, 1],
    [1, 1],
  ]);
  assert.deepEqual(TRIL[0], [1, 0, 0, 0, 0]);
  assert.deepEqual(TRIL[4], [1, 1, 1, 1, 1]);
  assert.deepEqual(maskFor('window', 4, 1)[0], [1, 1, 0, 0]);
  assert.deepEqual(maskFor('custom', 3, 0, [[0, 1]]), [
    [0, 1, 1],
    [1, 1, 1],
    [1, 1, 1],
  ]);
  assert.deepEqual(
    emptyRows([
      [1, 0],
      [0, 0],
      [0, 0],
    ]),
    [1, 2],
  );
});

test('causal example: zero weight on the future, nothing above the diagonal, ≤ 1e-6 from the reference', () => {
  const r = computeCausal(engine, 0);
  assert.equal(r.future, 0);
  assert.equal(r.above, 0);
  assert.ok(r.diff <= 1e-6 && r.diff === Math.max(r.diffFused, r.diffWeights), `diff ${r.diff}`);
  assert.deepEqual(r.weights.shape, [2, T, T]);
  assert.match(causalPrintout(r), /FUTURE positions: 0\.000000 {2}\(should be exactly 0\)/);
  assert.match(describeCausal(r, 1), /batch 1 .*counted from 0/);
  assert.match(describeCausal(null, 0), /not computed yet/);
  // a core whose output drifted would be caught by the reference check
  assert.ok(computeCausal(offBy(1e-3), 0).diff > 1e-6);
});

test('painted mask: blocked cells get 0, rows sum to 1, fully masked rows are zeros and counted', () => {
  const allowed = maskFor('causal', T);
  allowed[2] = [0, 0, 0, 0, 0];
  const r = computeMaskLab(engine, 0, allowed);
  assert.equal(r.blocked, 0);
  assert.ok(r.rowError <= 1e-6, `row error ${r.rowError}`);
  assert.ok(r.diff <= 1e-6, `diff ${r.diff}`);
  assert.equal(r.fullyMaskedRows, 2); // row 2 in each of the two batches
  const f = fullyMasked(r, 1);
  assert.deepEqual(f.rows, [2]);
  assert.deepEqual(f.weights, [0, 0, 0, 0, 0]);
  assert.deepEqual(f.output, Array(8).fill(0));
  assert.match(describeMaskLab(r, 0), /12 of 25 cells allowed/); // the triangle's 15 less row 2's 3
  assert.match(describeMaskLab(r, 0), /row 2 allows no key/);
  assert.equal(fullyMasked(computeMaskLab(engine, 0, maskFor('none', T)), 0), null);
  assert.ok(computeMaskLab(offBy(1e-3), 0, maskFor('none', T)).diff > 1e-6);
});

test('maskStats measures weight on blocked cells and row sums over allowed rows only', () => {
  const allowed = maskFor('causal', T);
  const weights = new Float32Array(2 * T * T);
  for (let b = 0; b < 2; b++) for (let i = 0; i < T; i++) weights[(b * T + i) * T] = 1; // all on key 0
  assert.deepEqual(maskStats(weights, allowed), { blocked: 0, rowError: 0 });
  weights[1] = 0.25; // query 0 puts weight on the blocked key 1
  const s = maskStats(weights, allowed);
  assert.equal(s.blocked, 0.25);
  assert.equal(s.rowError, 0.25);
});

test('Exercise 3: only the width-3 band is correct; a wrong mask names its cells, counted from 0', () => {
  assert.equal(checkWindow3(BAND).correct, true);
  const causal = checkWindow3(maskFor('causal', T));
  assert.equal(causal.correct, false);
  // how many cells are wrong and where, never which: the causal triangle blocks the 4 cells just
  // above the diagonal and allows the 6 more than one step back
  assert.equal(
    causal.message,
    '10 cells are wrong: 4 cells inside the band, |i − j| ≤ 1, blocked; 6 cells below it (keys more than one step back) allowed.',
  );
  assert.doesNotMatch(causal.message, /q\d|k\d/, 'no cell named');
  assert.equal(
    checkWindow3(maskFor('none', T)).message,
    '12 cells are wrong: 6 cells above it (keys more than one step ahead) allowed; 6 cells below it (keys more than one step back) allowed.',
  );
  const oneOff = BAND.map((row) => [...row]);
  oneOff[0][2] = 1;
  assert.equal(
    checkWindow3(oneOff).message,
    '1 cell is wrong: 1 cell above it (keys more than one step ahead) allowed.',
  );
  assert.match(checkWindow3([[1]]).message, /must be 5 × 5/);
  assert.match(checkWindow3('nonsense').message, /must be 5 × 5/);
  const w = batchOf(windowWeights(engine, BAND).weights, 0);
  assert.deepEqual(w.shape, [T, T]);
  assert.equal(rowOf(w, 0)[2], 0);
  assert.match(describeWindow(BAND, checkWindow3(BAND)), /13 of 25 cells; .*Correct/);
});

test('band versus convolution: the band sums to 1 per row, the kernel gives constant diagonals', () => {
  const band = bandWeights(engine);
  for (let i = 0; i < T; i++) {
    const row = rowOf(band, i);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-6, `row ${i}`);
    row.forEach((x, j) => Math.abs(i - j) > 1 && assert.equal(x, 0));
  }
  const conv = convMatrix([-1, 2, -1]);
  assert.deepEqual(conv[0], [2, -1, 0, 0, 0]); // row 0 loses the tap for offset −1
  assert.deepEqual(conv[2], [0, -1, 2, -1, 0]);
  assert.deepEqual(convRange([0.25, 0.5, 0.25]), [0, 1]);
  assert.deepEqual(convRange([-1, 2, -1]), [-1, 2]);
  assert.deepEqual(convRange([3, 3, 3]), [0, 3]);
  const rows = rowsSideBySide(band, conv);
  assert.equal(rows.length, T);
  assert.deepEqual(rows[4].conv, [0, 0, 0, -1, 2]);
  assert.match(describeBandConv([-1, 2, -1]), /\[-1, 2, -1\]/);
});

test('readouts, CSV rows, code parameters and errors in the learner’s words', () => {
  const r = computeCausal(engine, 0);
  const view = { data: r.weights.data.subarray(0, T * T), shape: [T, T] };
  assert.equal(
    rowReadout(view, { row: 0, col: 3 }),
    'query 0 takes [1.00, 0.00, 0.00, 0.00, 0.00] from keys 0 to 4, sum 1.0000',
  );
  assert.equal(rowReadout(view, null), null);
  const csv = weightsCsv(view);
  assert.deepEqual(csv[0], ['query \\ key', '0', '1', '2', '3', '4']);
  assert.equal(csv.length, T + 1);
  assert.equal(csv[1][0], 0);
  const params = codeParams({ ...r, allowed: TRIL });
  assert.equal(params.Q.length, 2);
  assert.equal(params.mask[0][1], false);
  assert.equal(codeParams(null), null);
  for (const kind of ['MemoryError', 'ShapeError', 'ValueError', 'TypeError', undefined]) {
    const text = explainCoreError({ kind, message: 'weights[1] is -0.200000003' });
    assert.doesNotMatch(text, /weights\[1\]|-0\.2/);
    assert.match(text, /last ones that were/);
  }
});

test('every check reads a number the lab computes, and passes on the lesson’s defaults', () => {
  const pass = (spec, x) => (spec.comparison === 'eq' ? x === spec.threshold : x <= spec.threshold);
  const results = [
    [CAUSAL_CHECKS, computeCausal(engine, 0)],
    [MASK_CHECKS, computeMaskLab(engine, 0, TRIL)],
  ];
  for (const [specs, result] of results) {
    assert.equal(specs.length, 3);
    const checks = checksFrom(specs, result);
    assert.deepEqual(
      checks.map((c) => c.name),
      specs.map((s) => s.name),
    );
    assert.ok(checks.every((c, k) => typeof c.value === 'number' && c.value === result[specs[k].value]));
    assert.ok(
      checksFrom(specs, undefined).every((c) => c.value === undefined),
      'pending before a result',
    );
    for (const spec of specs) {
      assert.equal(typeof result[spec.value], 'number', `${spec.name} reads result.${spec.value}`);
      assert.ok(pass(spec, result[spec.value]), `${spec.name}: ${result[spec.value]}`);
    }
  }
});
