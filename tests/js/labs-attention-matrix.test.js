// The attention-matrix lab's pure model (web/src/labs/attention-matrix/attention-matrix-model.js)
// in Node with the real engine: the seeded draws, A = softmax(S) and Y = AV from the core, one row
// taken apart term by term, the printout and the text alternative.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
import {
  computeAttentionMatrix,
  describeAttentionMatrix,
  DIMS,
  drawInputs,
  DV,
  fixed,
  matrixChecks,
  printout,
  rowTerms,
  sameMatrix,
  T,
  TOKENS,
  vector,
} from '../../web/src/labs/attention-matrix/attention-matrix-model.js';

const engine = await loadAttention();

test('the draws: V (5 × 4) then S (5 × 5) from one seeded stream, rounded to 2 decimals, the same for the same seed', () => {
  const a = drawInputs(engine, 42);
  const b = drawInputs(engine, 42);
  const c = drawInputs(engine, 7);
  assert.equal(a.V.length, T);
  assert.ok(a.V.every((row) => row.length === DV));
  assert.equal(a.S.length, T);
  assert.ok(a.S.every((row) => row.length === T));
  assert.ok(sameMatrix(a.S, b.S) && sameMatrix(a.V, b.V));
  assert.ok(!sameMatrix(a.S, c.S));
  for (const x of [...a.V.flat(), ...a.S.flat()]) assert.equal(Math.round(x * 100) / 100, x);
  assert.ok(!Object.is(Math.min(...a.S.flat().map((x) => (x === 0 ? x : 1))), -0), 'no −0 in the draws');
});

test('A is row-stochastic, Y = AV has the shape (T, d_v), and each row of Y is its weighted sum of the rows of V', () => {
  const { V, S } = drawInputs(engine, 42);
  const r = computeAttentionMatrix(engine, V, S);
  assert.ok(r.report.maxRowSumError <= 1e-6);
  assert.ok(r.report.minEntry >= 0);
  assert.ok(r.shapeOk);
  assert.deepEqual(r.Y.shape, [T, DV]);
  const [sums, nonNegative, shape] = matrixChecks(r);
  assert.ok(sums.value <= sums.threshold && nonNegative.value >= nonNegative.threshold && shape.pass);
  assert.equal(shape.label, 'Y.shape = (5, 4), expected (T, d_v) = (5, 4)');
  for (let i = 0; i < T; i++) {
    const t = rowTerms(r, i);
    assert.ok(Math.abs(t.total - 1) <= 1e-6, `row ${i} sums to ${t.total}`);
    for (let d = 0; d < DV; d++) {
      const mixture = t.products.reduce((s, p) => s + p[d], 0);
      assert.ok(Math.abs(mixture - t.y[d]) <= 1e-5, `y_${i}[${d}]: Σ_j A_ij v_j = ${mixture}, core ${t.y[d]}`);
      const column = V.map((v) => v[d]);
      assert.ok(t.y[d] >= Math.min(...column) - 1e-6 && t.y[d] <= Math.max(...column) + 1e-6, 'inside the hull');
    }
  }
  // the softmax ignores a constant added to a row: row 2 of A is unchanged
  const shifted = S.map((row, i) => (i === 2 ? row.map((x) => x + 3) : row));
  const r2 = computeAttentionMatrix(engine, V, shifted);
  rowTerms(r2, 2).weights.forEach((w, j) => assert.ok(Math.abs(w - rowTerms(r, 2).weights[j]) < 1e-6));
});

test('a wrong shape of S is refused with what was wrong', () => {
  const { V } = drawInputs(engine, 1);
  assert.throws(() => computeAttentionMatrix(engine, V, [[1, 2]]), /S must be 5 × 5, got 1 × 2/);
});

test('display: labels counted from 0, real minus signs, the printout and the text alternative', () => {
  assert.deepEqual(TOKENS, ['Token 0', 'Token 1', 'Token 2', 'Token 3', 'Token 4']);
  assert.deepEqual(DIMS, ['d0', 'd1', 'd2', 'd3']);
  assert.equal(fixed(-0.001, 2), '0.00');
  assert.equal(fixed(-1.5, 2), '−1.50');
  assert.equal(vector([0.5, -0.25], 3), '[0.500, −0.250]');
  const { V, S } = drawInputs(engine, 42);
  const r = computeAttentionMatrix(engine, V, S);
  const text = printout(r);
  assert.match(text, /Attention Matrix A shape: \(5, 5\)/);
  assert.match(text, /Output Matrix Y shape: \(5, 4\) \[Preserves \(T, dv\)\]/);
  assert.match(describeAttentionMatrix(r, 3, 42, false), /seed 42.*Row 3: weights .*; y3 = \[/);
  assert.match(describeAttentionMatrix(r, 0, 42, true), /typed by hand/);
  assert.match(describeAttentionMatrix(null, 0, 42, false), /not computed yet/);
});
