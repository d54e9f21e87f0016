/**
 * The benchmark lab's model: the sizes to time, the contenders, what the table derives from the
 * job's rows (the time ratio to T/2), the chart's range, the text alternative, the exports and the
 * PyTorch code. No DOM; unit-tested in Node (tests/js/labs-attention-at-scale.test.js).
 */
import { logDomain } from '../../charts/scale.js';

export const MAX_SIZES = [64, 128, 256, 512, 1024, 2048];

export const CONTENDERS = [
  { id: 'simd', name: 'wasm SIMD', className: 'series-1' },
  { id: 'scalar', name: 'wasm scalar', className: 'series-0', dashed: true },
  { id: 'js', name: 'plain JS', className: 'series-2', dashed: true },
  { id: 'pool', name: 'wasm SIMD, every core', className: 'series-3' },
];

/** The contenders the worker's benchmark job times; 'pool' the page times itself (engine/jobs.js poolBenchmark). */
export const JOB_CONTENDERS = CONTENDERS.filter((c) => c.id !== 'pool').map((c) => c.id);

/**
 * The every-core rows as the table shows them: the pool's output is the SIMD build's, bit for bit,
 * so its difference from plain JS is the SIMD row's at the same T; a row that is not bitwise equal
 * says so instead.
 */
export function poolRows(rows, poolResults) {
  return poolResults.map((r) => {
    const simd = rows.find((x) => x.contender === 'simd' && x.T === r.T);
    return r.bitwise
      ? { ...r, maxAbsDiff: simd?.maxAbsDiff ?? null }
      : { ...r, maxAbsDiff: null, error: 'differs from the single-thread SIMD output' };
  });
}

/** The line saying how many cores the every-core rows used. */
export function coresNote(poolRowsShown, threads, why) {
  if (!threads) return `The every-core row needs Web Workers, which cannot start here (${why}).`;
  const most = Math.max(0, ...poolRowsShown.map((r) => r.workers ?? 0));
  return `Every core: a pool of ${threads} worker${threads === 1 ? '' : 's'}, one per core this device reports${most ? `; the largest call was split across ${most}` : ''}. Calls under about 3·10⁷ operations per worker run on one (splitting them would cost more than it saves).`;
}

/** T = 32, 64, … up to max. */
export function sizesUpTo(max) {
  const sizes = [];
  for (let T = 32; T <= max; T *= 2) sizes.push(T);
  return sizes;
}

/** The rows with a time. */
export const timed = (rows) => rows.filter((r) => r.ms !== null);

/** How many times longer than the same contender at T/2, or null. */
export function ratioToHalf(rows, row) {
  const before = rows.find((x) => x.contender === row.contender && x.T === row.T / 2 && x.ms !== null);
  return before && row.ms !== null ? row.ms / before.ms : null;
}

/** The chart's series: [T, ms] per contender. */
export const seriesOf = (rows) =>
  CONTENDERS.map((c) =>
    timed(rows)
      .filter((r) => r.contender === c.id)
      .map((r) => [r.T, r.ms]),
  );

/** The chart's axes for these rows: x over the sizes, y whole decades around the times. */
export function chartAxes(rows, max) {
  const times = timed(rows).map((r) => r.ms);
  const sizes = sizesUpTo(max);
  return { xDomain: [sizes[0], sizes.at(-1)], yDomain: logDomain(Math.min(...times), Math.max(...times)) };
}

/** ms in a table cell: three decimals under 1 ms, one above. */
export const formatMs = (ms) => (ms < 1 ? ms.toFixed(3) : ms.toFixed(1));

export const explainBenchmark = () => 'The benchmark stopped on an error. Run it again, or choose a smaller largest T.';

export function describeBenchmark(rows) {
  if (rows.length === 0) return 'The benchmark has not run yet.';
  return timed(rows)
    .map((r) => `${r.label} at T = ${r.T}: ${r.ms.toFixed(2)} ms, ${r.gflops.toFixed(2)} GFLOP/s`)
    .join('; ');
}

export const benchmarkRows = (rows) => [
  ['T', 'contender', 'ms', 'GFLOP/s', 'reps', 'max |diff| vs plain JS'],
  ...rows.map((r) => [r.T, r.label, r.ms ?? '', r.gflops ?? '', r.reps, r.maxAbsDiff ?? '']),
];

/** The PyTorch code cell, {{sizes}} filled in by attn-code. */
export const BENCHMARK_CODE = `import time
import torch
import torch.nn.functional as F

torch.set_num_threads(1)                    # one thread, like the wasm build
E = 64
for T in {{sizes}}:
    q, k, v = (torch.randn(T, E) for _ in range(3))
    F.scaled_dot_product_attention(q, k, v) # warm-up
    times = []
    for _ in range(15):
        t0 = time.perf_counter()
        F.scaled_dot_product_attention(q, k, v)
        times.append(time.perf_counter() - t0)
    ms = sorted(times)[len(times) // 2] * 1e3
    print(T, f'{ms:.3f} ms', f'{4 * T * T * E / (ms * 1e6):.2f} GFLOP/s')`;
