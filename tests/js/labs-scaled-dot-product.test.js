// The scaled-dot-product labs' pure model (web/src/labs/scaled-dot-product/sdpa-model.js), in
// Node with the real engine: the example's values, the two ways of computing the output each
// with its own labelled difference, and the step-through's numbers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
import {
  REFERENCE_TOLERANCE,
  computeSdpa,
  describeSdpa,
  gapText,
  litPanels,
  referenceGaps,
  sdpaObject,
  sdpaPrintout,
  sdpaChecks,
  sdpaRows,
  shapeOk,
} from '../../web/src/labs/scaled-dot-product/sdpa-model.js';
import {
  PASSES,
  clampStep,
  queryRow,
  stepAfterKey,
  stepsTable,
} from '../../web/src/labs/scaled-dot-product/sdpa-steps-model.js';

const engine = await loadAttention();

test('the example: (2, 5, 8) in, (2, 5, 8) out, rows of weights summing to 1, both ways close to double precision', () => {
  const r = computeSdpa(engine, 0);
  assert.deepEqual(r.out.shape, [2, 5, 8]);
  assert.deepEqual(r.weights.shape, [2, 5, 5]);
  assert.equal(shapeOk(r), true);
  assert.ok(r.report.maxRowSumError <= 1e-6, `row sums off by ${r.report.maxRowSumError}`);
  for (const gap of referenceGaps(r)) {
    assert.ok(gap.value >= 0 && gap.value <= REFERENCE_TOLERANCE, `${gap.id}: ${gap.value}`);
  }
  // the raw scores divided by √8 are the scaled scores
  r.raw.data.forEach((s, i) => assert.ok(Math.abs(s / Math.sqrt(8) - r.scaled.data[i]) < 1e-5, `score ${i}`));
  assert.notDeepEqual(computeSdpa(engine, 1).q.data, r.q.data, 'another seed, other inputs');
});

test('regression: each way keeps its own difference, named, and the summary, printout and text alternative agree', () => {
  // the numbers the page showed when its summary said 1.06e-07 and its one check 1.86e-7
  const r = { ...computeSdpa(engine, 0), onePassGap: 1.06e-7, stepGap: 1.86e-7 };
  const [one, step] = referenceGaps(r);
  assert.deepEqual([one.id, step.id], ['one-pass', 'step-by-step']);
  assert.equal(one.value, 1.06e-7, 'the one-pass difference is not folded into the larger one');
  assert.equal(step.value, 1.86e-7);
  assert.match(one.name, /one pass.*never stored/);
  assert.match(step.name, /step by step.*kept/);
  assert.notEqual(one.name, step.name);
  assert.deepEqual([gapText(one.value), gapText(step.value)], ['1.06e-7', '1.86e-7']);
  const alt = describeSdpa(r, 0);
  assert.match(alt, /1\.06e-7 in one pass/);
  assert.match(alt, /1\.86e-7 step by step/);
  const printout = sdpaPrintout(r);
  assert.match(printout, /\(fused kernel\): 1\.06e-07/);
  assert.match(printout, /\(weights kept\): 1\.86e-07/);
  // learner words: no engineering names in the labels the page shows
  for (const gap of [one, step]) assert.doesNotMatch(gap.name, /kernel|float64|SIMD|fused/i);
});

test('a core whose one-pass output drifts is caught by its own check, not hidden by the other', async () => {
  const drifting = {
    ...Object.fromEntries(
      ['randn', 'scores', 'attentionReference', 'rowStochasticReport'].map((f) => [f, engine[f].bind(engine)]),
    ),
    simd: engine.simd,
    attention(q, k, v, options) {
      const result = engine.attention(q, k, v, options);
      if (options) return result; // the step-by-step call
      const data = result.output.data.map((x, i) => (i === 3 ? x + 1e-4 : x));
      return { ...result, output: { ...result.output, data } };
    },
  };
  const r = computeSdpa(drifting, 0);
  const [one, step] = referenceGaps(r);
  assert.ok(one.value > REFERENCE_TOLERANCE, `one pass: ${one.value}`);
  assert.ok(step.value <= REFERENCE_TOLERANCE, `step by step: ${step.value}`);
  // as checks: the one-pass check fails, named as the summary names it; the others pass
  const failing = sdpaChecks(r).filter((c) => (c.pass ?? c.value <= c.threshold) === false);
  assert.deepEqual(
    failing.map((c) => c.name),
    ['reference one-pass'],
  );
  assert.ok(failing[0].label.endsWith(one.name));
});

test('the checks as data: shape, row sums and one check per way, every one passing for the example', () => {
  const r = computeSdpa(engine, 3);
  const checks = sdpaChecks(r);
  assert.deepEqual(
    checks.map((c) => c.name),
    ['shape', 'row-sums', 'reference one-pass', 'reference step-by-step'],
  );
  for (const c of checks) assert.ok(c.pass ?? c.value <= c.threshold, c.label);
  assert.equal(sdpaChecks({ ...r, out: { ...r.out, shape: [2, 5] } })[0].pass, false);
});

test('the step-through: row i pass by pass, the weighted sum is the output row, keys move between passes', () => {
  const r = computeSdpa(engine, 0);
  const x = queryRow(r, 1, 3);
  assert.equal(x.scores.length, 5);
  x.scores.forEach((s, j) => assert.ok(Math.abs(s / Math.sqrt(8) - x.scaled[j]) < 1e-5));
  assert.ok(Math.abs(x.weightSum - 1) < 1e-6);
  assert.equal(x.best, x.scaled.indexOf(Math.max(...x.scaled)));
  const y = x.terms.reduce((acc, t) => acc.map((a, d) => a + t[d]), new Array(8).fill(0));
  y.forEach((yd, d) => assert.ok(Math.abs(yd - x.y[d]) < 1e-5, `y[${d}]: ${yd} vs ${x.y[d]}`));
  assert.equal(stepAfterKey(0, 'ArrowRight'), 1);
  assert.equal(stepAfterKey(0, 'ArrowLeft'), 0);
  assert.equal(stepAfterKey(1, 'End'), PASSES.length - 1);
  assert.equal(stepAfterKey(3, 'Home'), 0);
  assert.equal(stepAfterKey(2, 'a'), null);
  assert.equal(clampStep(9), 3);
  const table = stepsTable(x, 1);
  assert.deepEqual(table.rowLabels, ['key 0', 'key 1', 'key 2', 'key 3', 'key 4']);
  assert.deepEqual(table.colLabels, ['qi · kj', '÷ √dk', 'wj', 'wj vj'], 'the typeset heads as plain characters');
  assert.deepEqual(table.cells[0].slice(2), ['·', '·'], 'later passes are not shown yet');
  assert.match(stepsTable(x, 3).cells[0][3], /^\[.*\]$/);
});

test('exports and links: every panel in CSV, every tensor in JSON, formula terms light their panels', () => {
  const r = computeSdpa(engine, 0);
  const rows = sdpaRows(r, 0);
  assert.deepEqual(rows[0], ['tensor', 'batch', 'row', 'column', 'value']);
  assert.equal(rows.length, 1 + 4 * 5 * 8 + 3 * 5 * 5);
  const json = sdpaObject(r);
  assert.deepEqual(Object.keys(json).sort(), [
    'K',
    'Q',
    'V',
    'maxAbsDiffOnePass',
    'maxAbsDiffStepByStep',
    'output',
    'scaledScores',
    'scores',
    'seed',
    'shape',
    'weights',
  ]);
  assert.deepEqual(litPanels('scores'), ['q', 'k', 'scores']);
  assert.deepEqual(litPanels(''), []);
  assert.match(describeSdpa(null, 0), /not computed yet/);
});
