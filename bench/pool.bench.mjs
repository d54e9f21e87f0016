// Attention across cores: the worker pool (web/src/engine/pool.js) against the single-thread call,
// fused, one head, no mask, L = S = 1024, 4096 and 16384, E = Ev = 64, measured side by side in
// one run on worker threads:
//   single thread        attn.attention(q, k, v) on this thread (the call the pool must beat)
//   pool, n threads      pool.attention(q, k, v) with n = 1, 2, … up to the machine's cores: in
//                        Node this thread computes a part and n − 1 workers the others, the inputs
//                        shared (engine/pool-shared.js); 1: the whole call on one worker, what the
//                        messages and copies cost
//   2 concurrent calls   two whole calls at once on two workers (a pool that never splits):
//                        the machine's own parallel ceiling, 2 × one call's time ÷ both calls' time
//   plain JS             the loop of engine/plain-attention.js, at L = S = 1024 only
// and training (pool.createTrainer, data-parallel over micro-batches of 8 sequences) in steps/s for
// the largest model the learning-to-attend lab offers (sort, 2 layers of 4 heads, width 64, with
// its MLP) and the reverse task's defaults, the same contenders: one thread, pools of 1, 2, …
// workers, and two trainers at once on two workers (the ceiling); every pool trainer's weights are
// checked bit for bit against the one-thread trainer's after the same steps.
// Each figure is the median of several rounds after warm-up calls (1.5 s or more of each), each
// round one call of every contender in turn (so the machine's changing load falls on all alike):
// 20 rounds at 1024, 6 at 4096, 3 at 16384; every pool output is checked bit for bit against the
// single-thread call's.
// The speed-up of a pool is given two ways: the median and the best of its calls' ratios
// (single-thread call ÷ pool call of the same round, side by side), and the ratio of the medians.
// Prints the table and the speed-ups and writes bench/results/pool.json.
//
//   node bench/pool.bench.mjs [--sizes 1024,4096] [--no-training]
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAttention } from 'attnbook';
import { plainAttention } from '../web/src/engine/plain-attention.js';
import { lcgTensor } from './attention.bench.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const sizesArg = args.includes('--sizes') ? args[args.indexOf('--sizes') + 1] : null;
const SIZES = sizesArg ? sizesArg.split(',').map(Number) : [1024, 4096, 16384];
const TRAIN = !args.includes('--no-training');
const E = 64;
const SAMPLES = { 1024: 20, 4096: 6, 16384: 3 };
const WARMUP = 2;
const WARMUP_MS = 1500;
const NEVER_SPLIT = 1e18; // a pool with this minPartFlop runs every call whole on one worker

/**
 * Times the async contenders side by side: warm-up calls of each, then `samples` rounds, each round
 * one call of every contender in turn (so a change in the machine's load falls on all of them
 * alike). Per contender: the median ms, the fastest, the slowest, every round's ms in order
 * (`times`), and its last result.
 */
async function interleaved(contenders, samples) {
  const names = Object.keys(contenders);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  const results = {};
  // warm-up: each worker's V8 tiers its own wasm up, so each contender runs until it has spent
  // WARMUP_MS and made at least WARMUP calls
  for (const n of names) {
    const t0 = performance.now();
    for (let i = 0; i < WARMUP || performance.now() - t0 < WARMUP_MS; i++) results[n] = await contenders[n]();
  }
  for (let i = 0; i < samples; i++) {
    for (const n of names) {
      const t = performance.now();
      results[n] = await contenders[n]();
      times[n].push(performance.now() - t);
    }
  }
  return Object.fromEntries(
    names.map((n) => {
      const sorted = [...times[n]].sort((a, b) => a - b);
      return [
        n,
        {
          ms: sorted[sorted.length >> 1],
          minMs: sorted[0],
          maxMs: sorted.at(-1),
          samples,
          times: times[n],
          result: results[n],
        },
      ];
    }),
  );
}

/** The median of an array of numbers (the upper one of an even count, as the times above). */
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Per-round ratios of the single-thread call's time to a contender's: their median and best. */
function perCall(single, other) {
  const ratios = single.times.map((ms, i) => ms / other.times[i]);
  return { median: round(median(ratios)), best: round(Math.max(...ratios)), ratios: ratios.map((r) => round(r)) };
}

const bitwise = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
const gflops = (n, ms) => (2 * n * n * (E + E)) / (ms * 1e6);
const round = (x, d = 2) => Number(x.toFixed(d));

async function main() {
  const attn = await loadAttention({ simd: true });
  const cores = os.availableParallelism();
  const counts = [...new Set([1, 2, cores])].filter((n) => n <= Math.max(2, cores));
  const pools = Object.fromEntries(
    await Promise.all(counts.map(async (n) => [n, await attn.createPool({ threads: n })])),
  );
  const whole = await attn.createPool({ threads: 2, minPartFlop: NEVER_SPLIT });
  const rows = [];
  try {
    for (const n of SIZES) {
      const [q, k, v] = [lcgTensor(n, E, 1), lcgTensor(n, E, 2), lcgTensor(n, E, 3)];
      const samples = SAMPLES[n];
      const t = await interleaved(
        {
          single: async () => attn.attention(q, k, v),
          ...Object.fromEntries(counts.map((c) => [`pool${c}`, () => pools[c].attention(q, k, v)])),
          oneWorker: () => whole.attention(q, k, v),
          twoCalls: () => Promise.all([whole.attention(q, k, v), whole.attention(q, k, v)]),
        },
        samples,
      );
      const single = t.single;
      const row = {
        n,
        samples,
        single: { ms: round(single.ms), gflops: round(gflops(n, single.ms), 1) },
        pool: {},
      };
      for (const c of counts) {
        const r = t[`pool${c}`];
        if (!bitwise(r.result.output.data, single.result.output.data))
          throw new Error(`pool of ${c} at ${n}: not bitwise equal`);
        row.pool[c] = {
          ms: round(r.ms),
          gflops: round(gflops(n, r.ms), 1),
          speedup: round(single.ms / r.ms),
          perCall: perCall(single, r),
        };
      }
      row.concurrent = {
        oneCallMs: round(t.oneWorker.ms),
        twoCallsMs: round(t.twoCalls.ms),
        ceiling: round((2 * t.oneWorker.ms) / t.twoCalls.ms),
      };
      if (n === 1024) {
        const { js } = await interleaved({ js: async () => plainAttention(q, k, v) }, 3);
        row.plainJs = { ms: round(js.ms), gflops: round(gflops(n, js.ms), 1) };
      }
      rows.push(row);
      console.log(`  L = S = ${n}: done`);
    }
  } finally {
    for (const p of Object.values(pools)) p.dispose();
    whole.dispose();
  }
  report(rows, counts, cores);
  const training = TRAIN ? await trainingRows(attn, counts) : [];
  if (TRAIN) reportTraining(training, counts);
  await mkdir(path.join(here, 'results'), { recursive: true });
  await writeFile(
    path.join(here, 'results', 'pool.json'),
    JSON.stringify({ date: new Date().toISOString(), cores, node: process.version, e: E, rows, training }, null, 2),
  );
  console.log('wrote bench/results/pool.json');
}

/** The training configurations timed: the lab's largest model and the reverse task's defaults. */
const TRAINING = [
  {
    name: "sort, 2 layers × 4 heads, width 64 (the lab's largest)",
    options: { task: 'sort', seed: 3, layers: 2, heads: 4, dModel: 64 },
    steps: 16,
  },
  { name: 'reverse, its defaults', options: { task: 'reverse', seed: 1 }, steps: 100 },
];
const TRAINING_WARMUP = 3; // calls of each contender before timing (a fixed count: every trainer ends at the same step)
const TRAINING_SAMPLES = 7;

/** Steps/s of one thread, pools of `counts` workers and two one-worker trainers at once. */
async function trainingRows(attn, counts) {
  const rows = [];
  for (const { name, options, steps } of TRAINING) {
    const pools = Object.fromEntries(
      await Promise.all(counts.map(async (n) => [n, await attn.createPool({ threads: n })])),
    );
    const pair = await Promise.all([attn.createPool({ threads: 1 }), attn.createPool({ threads: 1 })]);
    try {
      const single = attn.createTrainer(options);
      const trainers = Object.fromEntries(
        await Promise.all(counts.map(async (n) => [n, await pools[n].createTrainer(options)])),
      );
      const both = await Promise.all(pair.map((p) => p.createTrainer(options)));
      const contenders = {
        single: async () => single.step(steps),
        ...Object.fromEntries(counts.map((n) => [`pool${n}`, () => trainers[n].step(steps)])),
        oneWorker: () => both[0].step(steps),
        twoTrainers: () => Promise.all(both.map((t) => t.step(steps))),
      };
      const names = Object.keys(contenders);
      const times = Object.fromEntries(names.map((n) => [n, []]));
      for (let i = 0; i < TRAINING_WARMUP + TRAINING_SAMPLES; i++) {
        for (const n of names) {
          const t0 = performance.now();
          await contenders[n]();
          if (i >= TRAINING_WARMUP) times[n].push(performance.now() - t0);
        }
      }
      const middle = (n) => median(times[n]);
      const want = single.exportState();
      for (const n of counts) {
        const got = await trainers[n].exportState();
        if (got.step !== want.step || !bitwise(got.weights, want.weights))
          throw new Error(`training ${name}: the pool of ${n} is not bitwise the one-thread trainer`);
      }
      const perSecond = (ms) => round((1000 * steps) / ms, 1);
      rows.push({
        name,
        options,
        single: { stepsPerSecond: perSecond(middle('single')) },
        pool: Object.fromEntries(
          counts.map((n) => [
            n,
            { stepsPerSecond: perSecond(middle(`pool${n}`)), speedup: round(middle('single') / middle(`pool${n}`)) },
          ]),
        ),
        concurrent: {
          oneTrainerStepsPerSecond: perSecond(middle('oneWorker')),
          ceiling: round((2 * middle('oneWorker')) / middle('twoTrainers')),
        },
      });
      single.dispose();
      console.log(`  training ${name}: done`);
    } finally {
      for (const p of [...Object.values(pools), ...pair]) p.dispose();
    }
  }
  return rows;
}

function reportTraining(rows, counts) {
  console.log(
    "\nTraining across cores (float32, steps/s, worker threads; weights bit for bit the one-thread trainer's)",
  );
  const header = [
    'model',
    'single thread',
    ...counts.map((t) => `pool, ${t} thread${t > 1 ? 's' : ''}`),
    '2 trainers at once',
  ];
  const lines = rows.map((r) => [
    r.name,
    `${r.single.stepsPerSecond} steps/s`,
    ...counts.map((t) => `${r.pool[t].stepsPerSecond} steps/s, ${r.pool[t].speedup}×`),
    `ceiling ${r.concurrent.ceiling}× (one: ${r.concurrent.oneTrainerStepsPerSecond} steps/s)`,
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c].length)));
  for (const line of [header, widths.map((w) => '-'.repeat(w)), ...lines]) {
    console.log(`  ${line.map((cell, c) => cell.padEnd(widths[c])).join('  ')}`);
  }
}

function report(rows, counts, cores) {
  console.log(`\nAttention across cores (fused, E = Ev = 64, wasm SIMD, worker threads; this machine: ${cores} cores)`);
  const header = [
    'L = S',
    'single thread',
    ...counts.map((t) => `pool, ${t} thread${t > 1 ? 's' : ''}`),
    '2 concurrent calls',
  ];
  const lines = rows.map((r) => [
    String(r.n),
    `${r.single.ms} ms (${r.single.gflops} GFLOP/s)`,
    ...counts.map((t) => `${r.pool[t].ms} ms, ${r.pool[t].speedup}×`),
    `${r.concurrent.twoCallsMs} ms for two of ${r.concurrent.oneCallMs} ms: ceiling ${r.concurrent.ceiling}×`,
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c].length)));
  for (const line of [header, widths.map((w) => '-'.repeat(w)), ...lines]) {
    console.log(`  ${line.map((cell, c) => cell.padEnd(widths[c])).join('  ')}`);
  }
  const at = rows.find((r) => r.n === 1024);
  const best = Math.max(...counts);
  if (at?.plainJs) {
    console.log(
      `  plain JS at 1024: ${at.plainJs.ms} ms (${at.plainJs.gflops} GFLOP/s); the pool of ${best} is ${round(at.plainJs.ms / at.pool[best].ms, 1)}× it`,
    );
  }
  for (const r of rows) {
    const p = r.pool[best];
    console.log(
      `  L = S = ${r.n}, ${r.samples} calls side by side: pool of ${best} ÷ single thread: median ${p.perCall.median}×, best ${p.perCall.best}× (ratio of the medians ${p.speedup}×), against the machine's ceiling of ${r.concurrent.ceiling}×`,
    );
  }
}

await main();
