// The convex-hull lab's pure model (web/src/labs/convex-hull/hull-mixtures-model.js), in Node with
// the real engine: the notebook's mixtures all inside the hull, the draws kept while values move,
// y(τ) at the limits, the learner's words for an error, the printout and the exports.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
import {
  computeHullView,
  describeHull,
  explainHullError,
  HULL_CODE,
  hullChecks,
  hullExportObject,
  hullExportRows,
  hullPrintout,
  hullText,
  pathTaus,
  PATH_STEPS,
} from '../../web/src/labs/convex-hull/hull-mixtures-model.js';

const STATE = {
  values: [
    [1, 1],
    [1.5, 4],
    [5, 4.5],
    [4, 0.5],
  ],
  count: 1000,
  concentration: 1,
  seed: 42,
  logits: [1.2, 4.5, 2, 0.8],
  temperature: 1,
};

test('the notebook’s example: 1000 Dirichlet(1) mixtures, none outside the hull v0 → v3 → v2 → v1', async () => {
  const engine = await loadAttention();
  const view = computeHullView(engine, STATE, {});
  assert.equal(view.mixtures.length, 1000);
  assert.equal(view.outside, 0);
  assert.equal(hullText(view.hull), 'v0 → v3 → v2 → v1');
  assert.ok(view.report.maxRowSumError <= 1e-5 && view.report.minEntry >= 0);
  assert.ok(view.meanEffective > 1 && view.meanEffective < 4);
  // y(τ = 1) = softmax(s) V
  const alpha = [0.0322492, 0.8743615, 0.071772, 0.0216173];
  const y = [0, 1].map((c) => alpha.reduce((sum, a, j) => sum + a * STATE.values[j][c], 0));
  view.highlight.forEach((v, c) => assert.ok(Math.abs(v - y[c]) < 1e-5, `y[${c}] = ${v}`));
  assert.equal(view.highlightInside, true);
  assert.equal(view.path.length, PATH_STEPS + 2);
  assert.deepEqual(view.path[0], [1.5, 4], 'the path starts at τ = 0, on v1');
  assert.deepEqual(view.path.at(-1), [2.875, 2.5], 'and ends at τ = ∞, on the mean');
  const checks = hullChecks(view, 1);
  assert.deepEqual(
    checks.map((c) => c.name),
    ['check-outside', 'check-rows', 'check-nonnegative', 'check-highlight'],
  );
  assert.equal(checks[0].value, 0);
  assert.ok(checks[1].value <= checks[1].threshold && checks[2].value >= 0 && checks[3].pass === true);
  assert.equal(checks[3].label, 'y(τ) inside the hull at τ = 1');
  assert.deepEqual(hullChecks(null, 1), []);
  assert.equal(pathTaus()[0], 0);
  assert.equal(pathTaus().at(-1), Infinity);
});

test('moving a value keeps the same draws (the cache), so the count outside stays 0', async () => {
  const engine = await loadAttention();
  const cache = {};
  const first = computeHullView(engine, STATE, cache);
  const drawn = cache.weights.W;
  const moved = computeHullView(engine, { ...STATE, values: [[3, 2.5], ...STATE.values.slice(1)] }, cache);
  assert.equal(cache.weights.W, drawn, 'the same weights are re-applied');
  assert.equal(moved.outside, 0);
  assert.notDeepEqual(moved.mixtures[0], first.mixtures[0]);
  computeHullView(engine, { ...STATE, seed: 7 }, cache);
  assert.notEqual(cache.weights.W, drawn, 'a new seed draws again');
  const cold = computeHullView(engine, { ...STATE, temperature: 0 }, cache);
  assert.deepEqual(cold.highlight, [1.5, 4]);
});

test('words and exports: no engine message, positions counted from 0, code with placeholders', async () => {
  const engine = await loadAttention();
  const view = computeHullView(engine, STATE, {});
  const text = explainHullError(Object.assign(new Error('convexHull: points[3] is NaN'), { kind: 'ValueError' }));
  assert.doesNotMatch(text, /convexHull|points\[/);
  assert.match(text, /keeps the last ones that worked/);
  const printed = hullPrintout(STATE, view);
  assert.match(printed, /alpha_samples shape: \(1000, 4\)/);
  assert.match(printed, /mixtures outside the hull: 0 of 1000/);
  assert.match(printed, /hull vertices \(counter-clockwise\): v0 → v3 → v2 → v1/);
  assert.match(describeHull(STATE, view), /^Values v0 \(1, 1\), v1 \(1\.5, 4\)/);
  assert.equal(describeHull(STATE, null), 'Loading the attention core.');
  const rows = hullExportRows(STATE.values, view);
  assert.deepEqual(rows[1], ['point', 0, 'v0', 1, 1, 0, '']);
  assert.equal(rows.filter((r) => r[0] === 'mixture').length, 1000);
  assert.equal(hullExportObject(STATE, view).outside, 0);
  for (const name of ['V', 'seed', 'c', 'count', 's', 'tau']) assert.ok(HULL_CODE.includes(`{{${name}}}`), name);
});
