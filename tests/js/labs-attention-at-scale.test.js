// The attention-at-scale labs' pure models (web/src/labs/attention-at-scale/*-model.js) in Node
// with the real engine; the fused kernel's memory report, exact from the core through the binding
// and the fusedAttention job; the heatmap's layout and its linear and log colour scales
// (charts/heatmap.js heatmapLayout, charts/color-scale.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { colorScale, float32IndexTable, powerOfTenLabel } from '../../web/src/charts/color-scale.js';
import { lensWindow } from '../../web/src/charts/heatmap-canvas.js';
import { heatmapLayout, MIN_ANNOTATED_CELL } from '../../web/src/charts/heatmap.js';
import { loadAttention } from '../../web/src/engine/index.js';
import { JobEngines, JOBS } from '../../web/src/engine/jobs.js';
import { formatBytes, weightsBytes } from '../../web/src/labs/attention-at-scale/memory-model.js';
import {
  chartAxes,
  describeBenchmark,
  ratioToHalf,
  seriesOf,
  JOB_CONTENDERS,
  poolRows,
  coresNote,
  sizesUpTo,
} from '../../web/src/labs/attention-at-scale/scale-benchmark-model.js';
import {
  describeFused,
  everyCoreText,
  fusedRows,
  fusedSvg,
  memoryBars,
  timesText,
} from '../../web/src/labs/attention-at-scale/scale-fused-model.js';
import {
  computeScaleHeatmap,
  describeScaleHeatmap,
  maskedWeight,
} from '../../web/src/labs/attention-at-scale/scale-heatmap-model.js';

const engine = await loadAttention();
const MiB = 1024 * 1024;
/** The fused kernel's working memory for S keys of width E: keys packed in panels of 8, a 4 × 128 score tile. */
const fusedScratch = (S, E) => (Math.ceil(S / 8) * 8 * E + 4 * 128) * 4;

test('attention() reports the bytes of working memory it allocated: exact, and never L·S on the fused path', () => {
  for (const [L, S, E] of [
    [1, 1, 1],
    [5, 9, 8],
    [1000, 1000, 64],
    [4000, 300, 16],
  ]) {
    const q = engine.randn([L, E], 1);
    const k = engine.randn([S, E], 2);
    const r = engine.attention(q, k, k);
    assert.equal(r.scratchBytes, fusedScratch(S, E), `fused L = ${L}, S = ${S}, E = ${E}`);
    const w = engine.attention(q, k, k, { returnWeights: true });
    assert.equal(w.scratchBytes, (Math.ceil(S / 8) * 8 * E + 4 * S) * 4, 'two-pass: whole score rows');
  }
  const batch = engine.randn([3, 700, 32], 3);
  assert.equal(engine.attention(batch, batch, batch, { mask: 'causal' }).scratchBytes, fusedScratch(700, 32));
});

test('the fusedAttention job: per call, 1 MiB + 2 KiB at T = 4096 where the weights need 64 MiB', async () => {
  const context = { progress: () => {}, cancelled: () => false };
  const r = await JOBS.fusedAttention(new JobEngines(), { T: 4096, block: 2048, simd: false }, context);
  assert.equal(r.scratchBytes, MiB + 2048);
  assert.equal(r.weightsBytes, 64 * MiB);
  assert.equal(r.calls, 2);
  assert.ok(r.heapBytes <= 64 * MiB, `heap ${r.heapBytes}`);
  const { bars, times } = memoryBars(r);
  assert.deepEqual(
    bars.map((b) => [b.id, b.bytes]),
    [
      ['fused', MiB + 2048],
      ['weights', 64 * MiB],
    ],
  );
  assert.equal(bars[1].share, 1);
  assert.ok(Math.abs(times - 64) < 0.2, `${times}`);
  assert.equal(timesText(times), '64×');
  assert.match(
    describeFused(r),
    /allocated 1\.00 MiB per call, where the weights alone would need 64\.0 MiB: 64× as much/,
  );
  assert.deepEqual(fusedRows(r)[1].slice(5, 7), [MiB + 2048, 64 * MiB]);
  const svg = fusedSvg(r);
  assert.equal(svg.match(/<rect /g).length, 3, 'background and two bars');
  assert.match(svg, /fused attention, per call: 1\.00 MiB/);
});

test('bytes for learners; the weights take T·T·4', () => {
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(1536), '1.50 KiB');
  assert.equal(formatBytes(4 * MiB), '4.00 MiB');
  assert.equal(formatBytes(16 * MiB), '16.0 MiB');
  assert.equal(formatBytes(1024 * MiB), '1.00 GiB');
  assert.equal(weightsBytes(4096), 64 * MiB);
  assert.equal(timesText(0.52), '0.52×');
});

test('weights heatmap: no weight on masked keys from the core; a core that ignored the mask is caught', async () => {
  for (const mask of ['none', 'causal', 'window']) {
    const r = await computeScaleHeatmap(engine, { T: 64, mask, window: 3, seed: 0 });
    assert.equal(r.masked, 0, mask);
    assert.equal(r.weights.shape.join(), '64,64');
    assert.match(describeScaleHeatmap(r, 'log'), /coloured on a log scale/);
  }
  const r = await computeScaleHeatmap(engine, { T: 16, mask: 'none', window: 3, seed: 0 });
  assert.ok(maskedWeight(r.weights.data, 16, 'causal', 3) > 1, 'unmasked weights fall on future keys');
  assert.ok(maskedWeight(r.weights.data, 16, 'window', 3) > 1);
});

test('colour scales: linear as before; log from 10⁻⁶ of the largest, zeros at the bottom, decades as ticks', () => {
  const linear = colorScale({ min: 0, max: 2 });
  assert.equal(linear.t(1), 0.5);
  assert.equal(linear.t(-1), 0);
  assert.deepEqual(
    linear.ticks.map((t) => t.label),
    ['0', '0.5', '1', '1.5', '2'],
  );
  const data = new Float32Array([0, 0, 1e-9, 1e-3, 0.1]);
  const log = colorScale({ kind: 'log', min: 0, max: 0.1, data });
  assert.equal(log.kind, 'log');
  assert.ok(Math.abs(log.lo - 1e-7) < 1e-20, `lo = ${log.lo}: 10⁻⁶ of the largest, above the tiny 1e-9`);
  assert.equal(log.t(0), 0);
  assert.equal(log.t(1e-9), 0);
  assert.ok(Math.abs(log.t(1e-3) - 4 / 6) < 1e-12);
  assert.equal(log.t(0.1), 1);
  assert.deepEqual(
    log.ticks.map((t) => t.label),
    ['10⁻⁷', '10⁻⁵', '10⁻³', '10⁻¹'],
    'every other decade when there are more than five',
  );
  assert.deepEqual(
    log.ticks.map((t) => t.at),
    [0, 1 / 3, 2 / 3, 1].map((x) => log.t(10 ** (-7 + 6 * x))),
  );
  assert.equal(powerOfTenLabel(-12), '10⁻¹²');
  assert.equal(powerOfTenLabel(2), '100');
  const narrow = colorScale({ kind: 'log', min: 0, max: 0.5, data: [0.2, 0.5] });
  assert.equal(narrow.lo, 0.2, 'the smallest positive value when it is above the floor');
  const none = colorScale({ kind: 'log', min: -1, max: 0, data: [-1, 0] });
  assert.equal(none.kind, 'linear');
  assert.match(none.fallback, /linear/);
  // the canvas's float32 table agrees with the scale to within one of its 256 colours
  const table = float32IndexTable(log.t);
  const bits = new Uint32Array(new Float32Array([0, 1e-9, 1e-5, 3e-4, 0.02, 0.1, -0.5, NaN]).buffer);
  const want = [0, 1e-9, 1e-5, 3e-4, 0.02, 0.1, -0.5, NaN].map((v) => Math.round(255 * log.t(v)) || 0);
  bits.forEach((b, i) =>
    assert.ok(Math.abs(table[b >>> 15] - want[i]) <= 1, `value ${i}: ${table[b >>> 15]} vs ${want[i]}`),
  );
});

test('heatmap layout: 12 px labels that do not crowd, numbers (12 px) only in cells of MIN_ANNOTATED_CELL (32) px or more', () => {
  const wide = heatmapLayout({ rows: 5, cols: 5, width: 700 });
  assert.equal(wide.mode, 'svg');
  assert.ok(wide.annotated && wide.cellW === 56, `cell ${wide.cellW}`);
  assert.equal(wide.annotationPx, 12);
  assert.ok(wide.width <= 700);
  assert.deepEqual(wide.rowTicks, [0, 1, 2, 3, 4]);
  const phone = heatmapLayout({ rows: 32, cols: 32, width: 330 });
  assert.ok(phone.cellW < MIN_ANNOTATED_CELL && !phone.annotated, `cell ${phone.cellW}`);
  assert.ok(phone.width <= 330);
  const spacing = (ticks, cell) => Math.min(...ticks.slice(1).map((t, i) => (t - ticks[i]) * cell));
  assert.ok(spacing(phone.rowTicks, phone.cellH) >= 14, `row labels ${phone.rowTicks}`);
  const eight = heatmapLayout({ rows: 8, cols: 8, width: 420 });
  assert.ok(eight.annotated, 'T = 8 in a lab’s figure column keeps its numbers');
  const big = heatmapLayout({ rows: 4096, cols: 4096, width: 420 });
  assert.equal(big.mode, 'canvas');
  assert.ok(big.plotW <= 420 && big.rowTicks.includes(0) && big.colTicks.includes(0));
  assert.ok(spacing(big.rowTicks, big.cellH) >= 24 && spacing(big.colTicks, big.cellW) >= 30, `${big.colTicks}`);
  const natural = heatmapLayout({ rows: 2, cols: 2 });
  assert.equal(natural.cellW, 56, 'no width given: the natural size');
  assert.deepEqual(lensWindow(0, 0, 4096, 4096), [0, 0]);
  assert.deepEqual(lensWindow(100, 4095, 4096, 4096), [88, 4071]);
  assert.deepEqual(lensWindow(3, 3, 8, 8), [0, 0]);
});

test("the fused lab's line on every core: workers used, time, speed-up, bitwise or not; no workers", () => {
  const every = { threads: 4, workers: 2, ms: 812.4, gflops: 10.567, speedup: 1.734, bitwise: true };
  assert.equal(
    everyCoreText(every),
    'On every core (2 of 4 workers): 812 ms (10.57 GFLOP/s), 1.73× the speed of one, the same output bit for bit.',
  );
  assert.match(everyCoreText({ ...every, threads: 1, workers: 1 }), /^On every core \(1 of 1 worker\)/);
  assert.match(everyCoreText({ ...every, bitwise: false }), /its output DIFFERS from the one-core run\.$/);
  assert.equal(
    everyCoreText({ threads: 0, why: 'this browser has no Web Workers' }),
    'On every core: not here, as no worker can start (this browser has no Web Workers).',
  );
  assert.equal(everyCoreText(undefined), '');
});

test('benchmark model: sizes, ratios to T/2, the chart’s series and axes, the text', () => {
  assert.deepEqual(sizesUpTo(256), [32, 64, 128, 256]);
  const rows = [
    { T: 32, contender: 'simd', label: 'wasm SIMD', ms: 0.1, gflops: 4 },
    { T: 64, contender: 'simd', label: 'wasm SIMD', ms: 0.38, gflops: 4.2 },
    { T: 64, contender: 'js', label: 'plain JS', ms: null, gflops: null, error: 'x' },
  ];
  assert.ok(Math.abs(ratioToHalf(rows, rows[1]) - 3.8) < 1e-12);
  assert.equal(ratioToHalf(rows, rows[0]), null);
  assert.deepEqual(seriesOf(rows), [
    [
      [32, 0.1],
      [64, 0.38],
    ],
    [],
    [],
    [],
  ]);
  assert.deepEqual(chartAxes(rows, 256), { xDomain: [32, 256], yDomain: [0.1, 1] });
  assert.match(describeBenchmark(rows), /wasm SIMD at T = 64: 0\.38 ms/);
  assert.equal(describeBenchmark([]), 'The benchmark has not run yet.');
  // every core: the worker's job times the others; the pool's rows take the SIMD row's difference
  // from plain JS when they are bit for bit the SIMD output, and say so when not
  assert.deepEqual(JOB_CONTENDERS, ['simd', 'scalar', 'js']);
  const simd = { T: 64, contender: 'simd', maxAbsDiff: 3e-7 };
  const pool = { T: 64, contender: 'pool', label: 'wasm SIMD, 1 of 2 workers', ms: 0.4, workers: 1 };
  assert.deepEqual(poolRows([simd], [{ ...pool, bitwise: true }]), [{ ...pool, bitwise: true, maxAbsDiff: 3e-7 }]);
  assert.deepEqual(poolRows([simd], [{ ...pool, bitwise: false }]), [
    { ...pool, bitwise: false, maxAbsDiff: null, error: 'differs from the single-thread SIMD output' },
  ]);
  assert.match(
    coresNote([pool, { ...pool, workers: 2 }], 2),
    /^Every core: a pool of 2 workers, one per core this device reports; the largest call was split across 2\./,
  );
  assert.match(
    coresNote([], 0, 'this browser has no Web Workers'),
    /cannot start here \(this browser has no Web Workers\)/,
  );
});
