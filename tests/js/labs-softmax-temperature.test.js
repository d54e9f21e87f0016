// The softmax-temperature labs' pure models (web/src/labs/softmax-temperature/*-model.js), in Node
// with the real engine: the oracle, the derived values, the comparison at several temperatures,
// the naive-versus-stable demonstration and the text alternatives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
import {
  computeSoftmaxLab,
  describeSoftmaxLab,
  formatTau,
  logitDomain,
  positionLabels,
  SOFTMAX_LAB_CODE,
  softmaxChecks,
} from '../../web/src/labs/softmax-temperature/softmax-lab-model.js';
import {
  comparisonCheck,
  comparisonPrintout,
  comparisonRows,
  computeComparison,
  describeComparison,
  formatWeight,
} from '../../web/src/labs/softmax-temperature/temperature-compare-model.js';
import {
  computeStability,
  describeStability,
  naiveSoftmax,
  naiveSummary,
  naiveVerdict,
  STABILITY_PRESETS,
  stabilityChecks,
  stabilityTable,
} from '../../web/src/labs/softmax-temperature/softmax-stability-model.js';

const LOGITS = [1.2, 4.5, 2, 0.8];
const engine = await loadAttention();
/** The oracle: the core's float64 softmax of the same float32 logits. */
const reference = (logits, temperature) => Array.from(engine.softmaxReference(logits, { temperature }).data);

test('the oracle (the core’s softmaxReference): the formula at τ, the argmax one-hot at τ = 0 (ties share), uniform at τ = ∞', () => {
  const w = reference(LOGITS, 1);
  assert.ok(Math.abs(w[1] - 0.8743615) < 1e-6, `α₁ = ${w[1]}`);
  assert.deepEqual(reference([1, 3, 3], 0), [0, 0.5, 0.5]);
  assert.deepEqual(reference([1, 3, 3, 0], Infinity), [0.25, 0.25, 0.25, 0.25]);
});

test('the lab’s values come from the core and its checks measure real gaps', () => {
  const r = computeSoftmaxLab(engine, LOGITS, 1);
  assert.ok(r.referenceGap <= 1e-6, `gap ${r.referenceGap}`);
  assert.equal(r.coldGap, 0);
  assert.equal(r.hotGap, 0);
  assert.ok(Math.abs(r.entropy - 0.5001) < 1e-4, `H = ${r.entropy}`);
  assert.ok(Math.abs(r.effective - Math.exp(r.entropy)) < 1e-5);
  assert.ok(Math.abs(r.sum - 1) < 1e-6);
  // a core that returned other weights would be caught by the reference check
  const wrong = {
    softmax: (s, o) => ({ data: engine.softmax(s, o).data.map((x, i) => (i ? x : x + 1e-3)) }),
    softmaxReference: (s, o) => engine.softmaxReference(s, o),
    entropy: (w) => engine.entropy(w),
    effectivePositions: (w) => engine.effectivePositions(w),
  };
  assert.ok(computeSoftmaxLab(wrong, LOGITS, 1).referenceGap > 1e-6);
});

test('display helpers: positions counted from 0, τ with three significant digits, a logit range that holds the logits', () => {
  assert.deepEqual(positionLabels(3), ['Pos 0', 'Pos 1', 'Pos 2']);
  assert.deepEqual([0, 0.01, 0.25, 1, 10 ** 0.4, 5, 25.12, 100, Infinity].map(formatTau), [
    '0',
    '0.0100',
    '0.250',
    '1.00',
    '2.51',
    '5.00',
    '25.1',
    '100.0',
    '∞',
  ]);
  const [lo, hi] = logitDomain([-7.5, 9]);
  assert.ok(lo <= -7.5 && hi >= 9);
  assert.deepEqual(
    logitDomain([1, 2])
      .slice(0, 2)
      .map((x) => x <= -2 || x >= 6),
    [true, true],
  );
  assert.match(describeSoftmaxLab([1, 2], 0, null), /not computed yet/);
  assert.match(
    describeSoftmaxLab(LOGITS, 0.25, computeSoftmaxLab(engine, LOGITS, 0.25)),
    /temperature 0\.250: weights/,
  );
  assert.match(SOFTMAX_LAB_CODE, /\{\{logits\}\}/);
});

test('the comparison: the source’s three temperatures from the core, rows summing to 1, the numbers the lesson quotes', () => {
  const c = computeComparison(engine, LOGITS, [0.25, 1, 5]);
  assert.equal(c.rows.length, 3);
  c.rows.forEach((row, k) => {
    const expected = reference(LOGITS, c.temperatures[k]);
    row.forEach((w, j) => assert.ok(Math.abs(w - expected[j]) < 1e-6, `τ = ${c.temperatures[k]}, position ${j}`));
  });
  assert.ok(c.rowSumGap <= 1e-6, `row sums ${c.rowSumGap}`);
  // "at τ = 0.25 position 1 holds all but about 5e-5; at τ = 5 the weights lie between 0.18 and 0.39"
  assert.ok(Math.abs(1 - c.rows[0][1] - 5e-5) < 1e-5, `1 − α₁ = ${1 - c.rows[0][1]}`);
  assert.ok(Math.min(...c.rows[2]) > 0.18 && Math.max(...c.rows[2]) < 0.39);
  assert.deepEqual(comparisonCheck(c, [0.25, 1, 5]), {
    label: 'max |row sum − 1| over the three temperatures',
    threshold: 1e-6,
    comparison: 'le',
    value: c.rowSumGap,
    python: 'max(abs(float(custom_softmax(logits, temperature=t).sum()) - 1) for t in temperatures)',
  });
  assert.match(comparisonPrintout(c), /^τ = 0\.25: α = \[/);
  assert.deepEqual(comparisonRows(LOGITS, c)[0], [
    'position',
    'logit',
    'weight at tau=0.25',
    'weight at tau=1',
    'weight at tau=5',
  ]);
  assert.match(describeComparison(LOGITS, c), /at τ = 5: 0\.199/);
  // the table keeps tiny weights readable: 4.5e−5 is not 0.0000
  assert.deepEqual([0, 0.87436, 4.54e-5, 1.84e-6].map(formatWeight), ['0.0000', '0.8744', '4.5e−5', '1.8e−6']);
});

test('stability: the naive formula is NaN exactly when the limits say so; the core is finite and ignores a shift', () => {
  const big = computeStability(engine, [1000, 1001, 1002]);
  assert.ok(big.naiveNaN && big.predictedNaN && big.overflows);
  assert.deepEqual(big.naive.exps, [Infinity, Infinity, Infinity]);
  assert.equal(big.nonFinite, 0);
  assert.ok(big.sumGap <= 1e-6 && big.shiftGap <= 1e-6);
  assert.deepEqual(
    big.stable.map((w) => w.toFixed(4)),
    ['0.0900', '0.2447', '0.6652'],
  );
  const table = stabilityTable(big);
  assert.deepEqual(table[0], ['0', '1000', 'Infinity', 'NaN', '−2', '0.0900']);
  assert.deepEqual(table.at(-1), ['Σ', '', 'Infinity', 'NaN', '', '1.0000']);
  assert.match(naiveVerdict(big), /overflows float64/);
  assert.match(naiveSummary(big), /Infinity \/ Infinity is NaN/);
  assert.match(describeStability([1000, 1001, 1002], big), /Naive softmax: NaN, NaN, NaN\. Stable/);

  const small = computeStability(engine, [1, 2, 3]);
  assert.ok(!small.naiveNaN && !small.predictedNaN);
  assert.match(naiveVerdict(small), /finite here/);
  const under = computeStability(engine, [-1000, -999, -998]);
  assert.ok(under.naiveNaN && under.predictedNaN && !under.overflows, 'every exp underflows: 0 / 0');
  assert.match(naiveVerdict(under), /underflows/);
  assert.deepEqual(naiveSoftmax([0]).weights, [1]);
  // every preset shows what it says
  for (const p of STABILITY_PRESETS)
    assert.equal(computeStability(engine, p.logits).naiveNaN, !/both work/.test(p.what));
});

test('the checks as data: four for the lab, four for the stability lab, pending until computed', () => {
  const r = { ...computeSoftmaxLab(engine, LOGITS, 1), comparison: computeComparison(engine, LOGITS, [0.25, 1, 5]) };
  const lab = softmaxChecks(r, 4, [0.25, 1, 5]);
  assert.deepEqual(
    lab.map((c) => c.id),
    ['check-reference', 'check-cold', 'check-hot', 'check-rows'],
  );
  assert.equal(lab[2].label, 'τ → ∞: max |α − 1/4|');
  for (const c of lab) assert.ok(c.value <= c.threshold, `${c.label}: ${c.value}`);
  assert.ok(
    softmaxChecks(undefined, 4, [1]).every((c) => c.value === undefined),
    'pending before a result',
  );
  const big = stabilityChecks(computeStability(engine, [1000, 1001, 1002]));
  assert.equal(big[0].pass, true);
  for (const c of big.slice(1)) assert.ok(c.value <= c.threshold, `${c.label}: ${c.value}`);
  assert.equal(stabilityChecks(undefined)[0].pass, undefined);
});
