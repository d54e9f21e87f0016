// The convex-combinations lab's pure model (web/src/labs/convex-combinations/convex-mix-model.js),
// in Node with the real engine: Normalise, the "keep Σα = 1" rescaling, the loop, y from the
// core, the learner's words for a refusal, the picture's rows and the printed output.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
import {
  barDomain,
  computeMix,
  describeMix,
  dimLabels,
  explainMixError,
  exportRows,
  keepSumEdit,
  loopTerms,
  mixChecks,
  normaliseWeights,
  printout,
  stripRows,
  weightsReport,
  yAttribute,
} from '../../web/src/labs/convex-combinations/convex-mix-model.js';
import { NUMPY_CODE, TORCH_CODE } from '../../web/src/labs/convex-combinations/convex-mix-code.js';

const V = [
  [1, 0, 0],
  [0, 2, 0],
  [0, 0, 3],
  [1, 1, 1],
];
const decimalSum = (xs) => Math.round(xs.reduce((a, b) => a + b, 0) * 1e4);

test('Normalise clips negatives, divides by the sum and keeps the sum exactly 1 in 4 decimals', () => {
  assert.deepEqual(normaliseWeights([0.4, -0.1, 0.2, 0.3]), [0.4445, 0, 0.2222, 0.3333]);
  assert.deepEqual(normaliseWeights([-1, -2]), [0.5, 0.5]);
  assert.equal(decimalSum(normaliseWeights([0.3, 0.3, 0.3])), 1e4);
});

test('keep Σα = 1: the dragged weight is set, the others share the rest in their old proportions', () => {
  const next = keepSumEdit([0.4, 0.1, 0.2, 0.3], 0, 0.7);
  assert.equal(next[0], 0.7);
  assert.equal(decimalSum(next), 1e4, `sum of ${next}`);
  // 0.1 : 0.2 : 0.3 kept, scaled to 0.3 in all
  assert.deepEqual(next.slice(1), [0.05, 0.1, 0.15]);
  // pushed to 1: all the weight on that position; back down from there, from the drag's start
  assert.deepEqual(keepSumEdit([0.4, 0.1, 0.2, 0.3], 2, 1), [0, 0, 1, 0]);
  assert.deepEqual(keepSumEdit([0.4, 0.1, 0.2, 0.3], 2, 0.2), [0.4, 0.1, 0.2, 0.3]);
  // out of range and negative weights: kept in [0, 1], negatives count as 0, nothing left → equal shares
  assert.deepEqual(keepSumEdit([0.5, 0.5], 1, -0.3), [1, 0]);
  assert.deepEqual(keepSumEdit([0.4, -0.1, 0.2, 0.3], 3, 0.5), [0.3333, 0, 0.1667, 0.5]);
  assert.deepEqual(keepSumEdit([1, 0, 0], 0, 0.4), [0.4, 0.3, 0.3]);
  assert.deepEqual(keepSumEdit([1], 0, 0.3), [1]);
  // every step of a drag stays a convex combination
  for (let v = 0; v <= 1; v += 0.01) {
    const w = keepSumEdit([0.4, 0.1, 0.2, 0.3], 1, v);
    assert.equal(decimalSum(w), 1e4, `sum at ${v}: ${w}`);
    assert.ok(
      w.every((x) => x >= 0),
      `non-negative at ${v}: ${w}`,
    );
  }
});

test('the loop adds α_j v_j in float32, term by term', () => {
  const { terms, loop } = loopTerms([0.4, 0.1, 0.2, 0.3], V);
  assert.equal(terms.length, 4);
  assert.deepEqual(terms[1].term, [0, Math.fround(0.1 * 2), 0]);
  assert.deepEqual(loop, terms[3].running);
  assert.ok(Math.abs(loop[2] - 0.9) < 1e-6);
});

test('y comes from the core and agrees with the loop; the rules are the core’s report', async () => {
  const engine = await loadAttention();
  const mix = computeMix(engine, [0.4, 0.1, 0.2, 0.3], V);
  assert.equal(yAttribute(mix.y), '0.7,0.5,0.9');
  assert.ok(mix.diff <= 1e-6, `diff ${mix.diff}`);
  const rules = weightsReport(engine, [0.4, 0.1, 0.2, 0.3], V);
  assert.ok(rules.okNonNegative && rules.okSum);
  assert.match(printout([0.4, 0.1, 0.2, 0.3], V, rules, mix), /\[OK\] Loop sum and matrix multiplication verified\./);
  assert.match(describeMix([0.4, 0.1, 0.2, 0.3], V, rules, mix), /y = α V = \(0\.7, 0\.5, 0\.9\)/);
  const checks = mixChecks(rules, mix);
  assert.deepEqual(
    checks.map((c) => c.name),
    ['check-nonnegative', 'check-sum', 'check-agree'],
  );
  assert.ok(checks[0].value >= 0 && checks[1].value <= checks[1].threshold && checks[2].value <= checks[2].threshold);
  // a drag in keep Σα = 1 mode gives weights the core accepts, and y moves towards the value pushed up
  const dragged = keepSumEdit([0.4, 0.1, 0.2, 0.3], 2, 0.8);
  const moved = computeMix(engine, dragged, V);
  assert.ok(moved.y[2] > 2.3, `y moved towards v2 = (0, 0, 3): ${moved.y}`);
});

test('a refused α: the core throws, the lab says why in the learner’s words, never the engine’s', async () => {
  const engine = await loadAttention();
  for (const [alpha, words] of [
    [[0.4, -0.1, 0.2, 0.3], /α1 = −0\.1 is negative, so y is not a mixture of the values/],
    [[0.45, 0.1, 0.2, 0.3], /The weights add up to 1\.05, not 1/],
    [[0.5, 0.5], /There are 2 weights but 4 values/],
  ]) {
    let error;
    try {
      computeMix(engine, alpha, V);
    } catch (e) {
      error = e;
    }
    assert.ok(error, `the core refuses ${alpha}`);
    const text = explainMixError(error, alpha, V);
    assert.match(text, words);
    assert.doesNotMatch(text, /weights\[|convexCombination|ValueError|ShapeError/, text);
  }
  const rules = weightsReport(engine, [0.4, -0.1, 0.2, 0.3], V);
  assert.equal(rules.okNonNegative, false);
  assert.match(printout([0.4, -0.1, 0.2, 0.3], V, rules, null), /AssertionError: Weights must be non-negative!/);
  assert.equal(weightsReport(engine, [0.5, 0.5], V), null);
  assert.equal(yAttribute(null), '');
  // the checks: Rule 1's measured minimum is below its threshold, the agreement waits for a y
  const [nonNegative, sumsToOne, agree] = mixChecks(rules, null);
  assert.ok(nonNegative.value < nonNegative.threshold && nonNegative.comparison === 'ge');
  assert.ok(sumsToOne.value > sumsToOne.threshold, `|Σα − 1| = ${sumsToOne.value}`);
  assert.equal(agree.value, undefined);
  assert.deepEqual(mixChecks(null, null), []);
});

test('the picture: one row per coordinate, identical entries share a label, y and a stray sum marked', () => {
  const { rows, domain } = stripRows(V, [0.7, 0.5, 0.9], null);
  assert.deepEqual(
    rows.map((r) => r.label),
    ['dim 0', 'dim 1', 'dim 2'],
  );
  assert.deepEqual(rows[0].groups, [
    { x: 0, label: 'v1, v2' },
    { x: 1, label: 'v0, v3' },
  ]);
  assert.deepEqual(rows[1].span, [0, 2]);
  assert.equal(rows[2].mark, 0.9);
  assert.ok(domain[0] < 0 && domain[1] > 3);
  const stray = stripRows(V, null, [-2, 0.5, 0.9]);
  assert.equal(stray.rows[0].stray, -2);
  assert.equal(stray.rows[0].mark, null);
  assert.ok(stray.domain[0] <= -2);
  assert.deepEqual(dimLabels(2), ['dim 0', 'dim 1']);
});

test('bars, exports and code: [0, 1] while the sum is kept, positions and coordinates from 0', () => {
  assert.deepEqual(barDomain([0.4, 0.6], true), [0, 1]);
  for (const [alpha, keep] of [
    [[0.4, -0.1], true],
    [[0.4, 0.6], false],
  ]) {
    const [lo, hi] = barDomain(alpha, keep);
    assert.ok(lo <= -0.5 && hi >= 1, `room for a negative weight: ${lo}, ${hi}`);
  }
  assert.deepEqual(exportRows([0.5, 0.5], [[1], [3]], [2]), [
    ['position', 'alpha', 'v_0'],
    [0, 0.5, 1],
    [1, 0.5, 3],
    ['y (alpha @ V)', '', 2],
  ]);
  for (const code of [NUMPY_CODE, TORCH_CODE]) assert.match(code, /\{\{V\}\}[\s\S]*\{\{alpha\}\}[\s\S]*\{\{y\}\}/);
});
