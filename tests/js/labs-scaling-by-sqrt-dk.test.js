// The scaling-by-sqrt-dk labs' pure models (web/src/labs/scaling-by-sqrt-dk/*-model.js) in Node with
// the real engine, the log₂ size slider's arithmetic (cells/base/size-slider.js), and a build-level
// regression test over every lesson: no rendered text holds a literal "$" (maths KaTeX did not render).
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { compileLesson } from '../../scripts/vite-lessons-plugin.mjs';
import { powersOfTwo, snapSize, stepSize } from '../../web/src/cells/base/size-slider.js';
import { loadAttention } from '../../web/src/engine/index.js';
import {
  computeDotVariance,
  describeVariance,
  histogram,
  summarise,
  varianceRows,
  varianceSentence,
  varianceTolerance,
} from '../../web/src/labs/scaling-by-sqrt-dk/dot-variance-model.js';
import {
  computeScalingExample,
  describeExample,
  exampleRows,
  positionLabels,
} from '../../web/src/labs/scaling-by-sqrt-dk/scaling-example-model.js';
import {
  checkValues,
  computeCurves,
  curvesObject,
  curvesRows,
  describeCurves,
  DIMS,
  dimsToCompute,
  drawnDims,
  mergeStatistics,
  THRESHOLDS,
} from '../../web/src/labs/scaling-by-sqrt-dk/scaling-curves-model.js';

const engine = await loadAttention();

test('every lesson: no rendered text holds a literal "$" (every formula was rendered)', async () => {
  const dir = new URL('../../web/lessons/', import.meta.url);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.md'));
  assert.ok(files.length >= 10, `lessons: ${files}`);
  const strays = [];
  for (const file of files) {
    const { html } = compileLesson(await readFile(new URL(file, dir), 'utf8'), `web/lessons/${file}`);
    const text = html
      .replace(/<annotation\b[\s\S]*?<\/annotation>/g, '') // KaTeX keeps the TeX source here, unseen
      .replace(/<code\b[\s\S]*?<\/code>/g, '') // code may hold a $ of its own
      // an exercise's options, likely mistakes and variants are typeset at run time (mathText;
      // tests/e2e/course-render.test.js (explorable.js) checks the page for a visible $)
      .replace(/<(option|attn-mistake|attn-variant)\b[\s\S]*?<\/\1>/g, '')
      .replace(/<[^>]+>/g, '')
      .replace(/&#36;|&#x24;|&dollar;/gi, '$');
    for (const m of text.matchAll(/.{0,30}\$.{0,30}/g)) strays.push(`${file}: …${m[0]}…`);
  }
  assert.deepEqual(strays, []);
  // and the check can fail: a "$" glued to a word is left as text by the Markdown maths rule
  const front = '---\nid: demo\ntitle: Demo\norder: 1\nsummary: s\nsources:\n  - x\n---\n';
  const { html } = compileLesson(`${front}the ratio variance$/D$ wanders\n`, 'web/lessons/demo.md');
  assert.match(html.replace(/<[^>]+>/g, ''), /variance\$\/D\$/);
});

test('size slider: snaps to powers of two, steps from a value between two powers to its neighbours', () => {
  assert.equal(snapSize(3, 1, 512), 8);
  assert.equal(snapSize(3.4, 1, 512), 8);
  assert.equal(snapSize(3.6, 1, 512), 16);
  assert.equal(snapSize(12, 1, 512), 512, 'clamped to the maximum');
  assert.equal(stepSize(8, 1, 1, 512), 16);
  assert.equal(stepSize(8, -1, 1, 512), 4);
  assert.equal(stepSize(100, 1, 1, 512), 128, 'an old link’s D = 100: up to 128');
  assert.equal(stepSize(100, -1, 1, 512), 64, '… and down to 64');
  assert.equal(stepSize(512, 4, 1, 512), 512);
  assert.equal(stepSize(2, -4, 1, 512), 1);
  assert.deepEqual(powersOfTwo(1, 512), DIMS);
  assert.deepEqual(powersOfTwo(256, 16384), [256, 512, 1024, 2048, 4096, 8192, 16384]);
});

test('dot variance: the core’s q·k has variance D, within the check’s four standard errors', async () => {
  for (const d of [1, 8, 128, 100]) {
    const r = await computeDotVariance(engine, { d, samples: 4096, seed: 0 });
    assert.equal(r.n, 4096);
    assert.ok(Math.abs(r.ratio - 1) <= varianceTolerance(d, 4096), `D = ${d}: variance / D = ${r.ratio}`);
    assert.ok(Math.abs(r.stdScaled - 1) < 0.05);
    // the scaled histogram holds (almost) every pair, the raw one at D = 128 only those within ±64
    const mass = (h) => h.reduce((a, [, y]) => a + y * 0.5, 0);
    assert.ok(mass(r.scaled) > 0.999, `scaled mass ${mass(r.scaled)}`);
    assert.ok(mass(r.raw) <= 1 + 1e-9);
  }
  const r = await computeDotVariance(engine, { d: 128, samples: 4096, seed: 0 });
  assert.match(varianceSentence(r), /≈ D = 128/);
  assert.match(describeVariance(r), /4096 random pairs with D = 128/);
  assert.deepEqual(varianceRows(r)[1], [128, 4096, r.mean, r.variance, r.ratio]);
  // a core whose dot products were off by a factor 2 would fail the check
  const doubled = {
    ...engine,
    randn: (...a) => engine.randn(...a),
    scores: (...a) => twice(engine.scores(...a)),
  };
  const wrong = await computeDotVariance(doubled, { d: 128, samples: 4096, seed: 0 });
  assert.ok(Math.abs(wrong.ratio - 1) > varianceTolerance(128, 4096));
});

function twice(scores) {
  return { ...scores, data: scores.data.map((x) => 2 * x) };
}

test('histogram: densities over bins of the given width, values outside the range dropped', () => {
  const h = histogram([0.1, 0.2, 0.7, 5], 1, { lo: 0, hi: 1, width: 0.5 });
  assert.deepEqual(h, [
    [0.25, 2 / (4 * 0.5)],
    [0.75, 1 / (4 * 0.5)],
  ]);
  assert.deepEqual(histogram([2, 4], 0.25, { lo: 0, hi: 2, width: 1 }), [
    [0.5, 0.5],
    [1.5, 0.5],
  ]);
  assert.deepEqual(summarise([1, 3], 2), {
    d: 2,
    n: 2,
    mean: 2,
    variance: 1,
    ratio: 0.5,
    std: 1,
    stdScaled: Math.sqrt(0.5),
    first: [1, 3],
  });
});

test('scaling example: unscaled weights peak at D = 128, scaled ones do not; rows sum to 1', () => {
  const r = computeScalingExample(engine, 128, 0);
  assert.ok(r.unscaled.meanMax > r.scaled.meanMax + 0.2, `${r.unscaled.meanMax} vs ${r.scaled.meanMax}`);
  assert.ok(r.unscaled.meanEntropy < r.scaled.meanEntropy);
  for (const which of ['unscaled', 'scaled']) {
    const w = r[which].weights.data;
    for (let i = 0; i < 5; i++) {
      const row = w.subarray(i * 5, i * 5 + 5);
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
      assert.equal(r[which].rowMax[i], Math.max(...row));
    }
  }
  const small = computeScalingExample(engine, 1, 0);
  assert.ok(Math.abs(small.unscaled.meanMax - small.scaled.meanMax) < 1e-6, 'at D = 1 the scaling changes nothing');
  assert.equal(exampleRows(r).length, 1 + 25);
  assert.deepEqual(positionLabels('q'), ['q0', 'q1', 'q2', 'q3', 'q4']);
  assert.match(describeExample(r), /^D = 128\. Without scaling/);
});

test('scaling curves: what to compute, what is kept, and the checks at D = 128 and 8', async () => {
  const state = { d: 128, draws: 400, tokens: 5, seed: 0 };
  assert.deepEqual(dimsToCompute(null, state), DIMS);
  assert.deepEqual(dimsToCompute(null, { ...state, d: 100 }), [...DIMS, 100]);
  const calls = [];
  const counting = {
    scalingStatistics: async (options) => {
      calls.push(options.dims);
      return engine.scalingStatistics(options);
    },
  };
  const first = await computeCurves(counting, null, state);
  assert.equal(calls.length, 2, 'unscaled and scaled, once each');
  assert.equal(
    computeCurves(counting, first, { ...state, d: 8 }),
    first,
    'a computed D: nothing to ask, the same value',
  );
  const with100 = await computeCurves(counting, first, { ...state, d: 100 });
  assert.deepEqual(calls.at(-1), [100], 'only the new D');
  assert.deepEqual(drawnDims(with100, 100), [1, 2, 4, 8, 16, 32, 64, 100, 128, 256, 512]);
  assert.deepEqual(drawnDims(with100, 128), DIMS, 'D = 100 drawn only while chosen');
  assert.deepEqual(with100.byDim.get(128), first.byDim.get(128), 'each d has its own random stream');
  assert.deepEqual(dimsToCompute(with100, { ...state, seed: 1 }), DIMS, 'a new seed starts afresh');

  const [unscaledMax, gap, drift, entropy] = checkValues(first);
  assert.ok(unscaledMax >= THRESHOLDS.unscaledMax && gap >= THRESHOLDS.gap, `${unscaledMax}, ${gap}`);
  assert.ok(drift <= THRESHOLDS.scaledDrift && entropy <= THRESHOLDS.unscaledEntropy, `${drift}, ${entropy}`);
  assert.deepEqual(checkValues(null), []);
  assert.equal(curvesRows(first, 128).length, 1 + DIMS.length);
  assert.deepEqual(curvesObject(first, state).dims, DIMS);
  assert.match(describeCurves(first, state), /at d = 128 the unscaled weights/);
  const merged = mergeStatistics(
    null,
    state,
    [3],
    { meanMaxWeight: [0.5], meanEntropy: [1] },
    { meanMaxWeight: [0.4], meanEntropy: [1.2] },
  );
  assert.deepEqual(merged.byDim.get(3), { maxU: 0.5, maxS: 0.4, entU: 1, entS: 1.2 });
});
