/**
 * Long jobs: work that takes seconds, cut into steps so it can report progress
 * and be cancelled between steps. worker.js runs them in the page's Web Worker;
 * runtime.js runs the same functions on the main thread when no worker can start.
 *
 *   const result = await JOBS.benchmark(engines, options, context);
 *
 * engines: a JobEngines (below): the SIMD and the scalar build and the JS core, loaded on first use,
 * each its own module (so their heaps say what these jobs used, nothing else).
 * context: { progress(info), cancelled() }: progress() is called after every step;
 * cancelled() is asked after every step, and a true answer ends the job with an
 * AttentionError of kind 'Cancelled'.
 */
import { AttentionError, cancelledError } from './errors.js';
import { simdSupported, wasmCompiles } from './features.js';
import { loadAttention } from './index.js';
import { plainAttention } from './plain-attention.js';
import { workersFor } from './pool-split.js';

// loadAttention's options for each build a job may ask for: the wasm builds and the JS core (wasm2js).
const JOB_BUILDS = {
  simd: { simd: true, core: 'wasm' },
  scalar: { simd: false, core: 'wasm' },
  wasm2js: { core: 'js' },
};

/**
 * The builds a job may time (JOB_BUILDS), loaded once each, and the best this runtime allows:
 * 'best' (what loadAttention() picks: the JS core where WebAssembly is refused) and 'bestScalar'
 * (the same without SIMD).
 */
export class JobEngines {
  #loading = new Map();

  /** @param {keyof typeof JOB_BUILDS | 'best' | 'bestScalar'} name @returns {Promise<import('./index.js').Attention>} */
  get(name) {
    let key = name;
    if (name === 'best' || name === 'bestScalar') {
      key = !wasmCompiles() ? 'wasm2js' : name === 'best' && simdSupported() ? 'simd' : 'scalar';
    }
    if (!this.#loading.has(key)) this.#loading.set(key, loadAttention(JOB_BUILDS[key]));
    return this.#loading.get(key);
  }
}

/** What a benchmark row calls each build. */
const BUILD_LABELS = { simd: 'wasm SIMD', scalar: 'wasm scalar', js: 'JS core (wasm2js)' };

/** Floating-point operations of one attention call, L = S = T: q·kᵀ and weights·v, 2 per multiply-add. */
export const attentionFlops = (T, dim) => 4 * T * T * dim;

const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

async function step(context) {
  await pause(); // lets other messages (a cancel, a small request) and, on the main thread, input through
  if (context.cancelled()) throw cancelledError('a newer request replaced it');
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/**
 * Times `run` (its result, or a promise of it, with `awaited`) as the benchmark times every
 * contender: a warm-up (at least 2 calls and 60 ms, unless a call takes 300 ms: V8 tiers wasm and
 * JS up late), then samples of `batch` calls lasting at least 5 ms each (so the timer's coarse
 * resolution does not matter) until minMs have passed (at least 3, at most maxReps; one when a
 * sample takes over 300 ms), a step (progress, cancel) between samples.
 * Resolves to { output (the last call's), ms (the median per call), reps (calls timed) }.
 */
export async function timeRuns(run, { minMs = 80, maxReps = 15, awaited = false } = {}, context) {
  let output;
  let calls = 0;
  let fastest = Infinity;
  const warm = performance.now();
  do {
    const t0 = performance.now();
    output = run();
    if (awaited) output = await output;
    fastest = Math.min(fastest, performance.now() - t0);
    calls++;
  } while (calls < 2 || (performance.now() - warm < 60 && fastest < 300));
  const batch = Math.max(1, Math.ceil(5 / Math.max(fastest, 0.01)));
  const times = [];
  const start = performance.now();
  do {
    const t0 = performance.now();
    for (let b = 0; b < batch; b++) {
      output = run();
      if (awaited) output = await output;
    }
    times.push((performance.now() - t0) / batch);
    if (times.length === 1 && times[0] > 300) break;
    await step(context);
  } while (times.length < maxReps && (times.length < 3 || performance.now() - start < minMs));
  return { output, ms: median(times), reps: times.length * batch };
}

/**
 * The benchmark's "every core" contender, run by the page (the pool's workers are the page's): one
 * head of unmasked attention at L = S = T through pool.attention, timed as timeRuns times the
 * others, on the inputs the benchmark job draws (engine.randn, seeds seed, seed + 1, seed + 2).
 * Each row says how many workers the call used (a call too small to split runs on one) and
 * whether its output is bit for bit engine.attention's (the single-thread SIMD call).
 * @param {import('./pool.js').Pool} pool @param {import('./index.js').Attention} engine
 * @param {{ sizes: number[], dim?: number, seed?: number, minMs?: number, maxReps?: number }} options
 * @returns {Promise<Array<{ T: number, contender: 'pool', label: string, ms: number, gflops: number, reps: number, workers: number, bitwise: boolean }>>}
 */
export async function poolBenchmark(pool, engine, options, context) {
  const { sizes, dim = 64, seed = 1, minMs = 80, maxReps = 15 } = options;
  const rows = [];
  for (const T of sizes) {
    await step(context);
    const [q, k, v] = [0, 1, 2].map((i) => engine.randn([T, dim], seed + i));
    const { output, ms, reps } = await timeRuns(
      () => pool.attention(q, k, v),
      { minMs, maxReps, awaited: true },
      context,
    );
    const single = engine.attention(q, k, v).output.data;
    const workers = workersFor(T, () => 4 * T * dim, pool.threads);
    const row = {
      T,
      contender: 'pool',
      label: `${BUILD_LABELS[engine.build] ?? 'wasm SIMD'}, ${workers} of ${pool.threads} worker${pool.threads === 1 ? '' : 's'}`,
      ms,
      gflops: attentionFlops(T, dim) / (ms * 1e6),
      reps,
      workers,
      bitwise: output.output.data.every((x, i) => Object.is(x, single[i])),
    };
    rows.push(row);
    context.progress({ row });
  }
  return rows;
}

const CONTENDERS = {
  simd: { label: BUILD_LABELS.simd, engine: 'simd' },
  scalar: { label: BUILD_LABELS.scalar, engine: 'scalar' },
  wasm2js: { label: BUILD_LABELS.js, engine: 'wasm2js' },
  js: { label: 'plain JS', engine: null },
};

/**
 * Times one head of unmasked attention, L = S = T, E = Ev = dim, for each T in sizes
 * and each contender: the wasm SIMD build, the wasm scalar build and the JS core (wasm2js) (the
 * fused kernel, engine.attention without weights) and plainAttention() in plain JS.
 * Inputs: standard normal q, k, v from the engine's seeded generator. Each is timed by
 * timeRuns (warm-up, then samples); the median time per call is reported.
 * Every output is compared with the plain-JS one (max |difference|).
 * @param {JobEngines} engines
 * @param {{ sizes?: number[], dim?: number, seed?: number, contenders?: string[], minMs?: number, maxReps?: number }} options
 * @returns {Promise<{ dim: number, rows: Array<{ T: number, contender: string, label: string, ms: number | null, gflops: number | null, reps: number, maxAbsDiff: number | null, error?: string }> }>}
 */
async function benchmark(engines, options = {}, context) {
  const { sizes = [64, 128, 256], dim = 64, seed = 1, contenders = ['simd', 'scalar', 'js'] } = options;
  const { minMs = 80, maxReps = 15 } = options;
  if (!Array.isArray(sizes) || sizes.length === 0 || sizes.some((T) => !Number.isInteger(T) || T < 1 || T > 8192)) {
    throw new AttentionError('benchmark: sizes must be whole numbers from 1 to 8192', { kind: 'ValueError' });
  }
  const unknown = contenders.find((c) => !CONTENDERS[c]);
  if (unknown) throw new AttentionError(`benchmark: no contender ${JSON.stringify(unknown)}`, { kind: 'ValueError' });
  const inputsEngine = await engines.get('bestScalar');
  // plain JS first: the reference every other output is compared with
  const order = contenders.includes('js') ? ['js', ...contenders.filter((c) => c !== 'js')] : contenders;
  const rows = [];
  const steps = sizes.length * contenders.length;
  for (const T of sizes) {
    const q = inputsEngine.randn([T, dim], seed);
    const k = inputsEngine.randn([T, dim], seed + 1);
    const v = inputsEngine.randn([T, dim], seed + 2);
    let reference = null;
    for (const name of order) {
      await step(context);
      const { label, engine: build } = CONTENDERS[name];
      let row;
      try {
        const engine = build ? await engines.get(build) : null;
        const run = engine ? () => engine.attention(q, k, v).output.data : () => plainAttention(q, k, v);
        const { output, ms, reps } = await timeRuns(run, { minMs, maxReps }, context);
        reference ??= output;
        let maxAbsDiff = 0;
        for (let i = 0; i < output.length; i++) maxAbsDiff = Math.max(maxAbsDiff, Math.abs(output[i] - reference[i]));
        row = { T, contender: name, label, ms, gflops: attentionFlops(T, dim) / (ms * 1e6), reps, maxAbsDiff };
      } catch (error) {
        if (error.kind === 'Cancelled') throw error;
        row = { T, contender: name, label, ms: null, gflops: null, reps: 0, maxAbsDiff: null, error: error.message };
      }
      rows.push(row);
      context.progress({ done: rows.length, steps, row });
    }
  }
  return { dim, rows };
}

/**
 * One head of unmasked attention at L = S = T with the fused kernel (no L×S weights
 * kept), the query rows cut into blocks of `block` rows (each row of the output
 * depends only on its own query, so the blocks give exactly the full result).
 * Runs on the SIMD build when this runtime has it, else the scalar one (the JS core where
 * WebAssembly is refused). Reports the
 * time, GFLOP/s, the working memory one call allocated (the largest scratchBytes the core
 * reported: it grows with T, never T²), that module's wasm heap (a high-water mark: wasm
 * memory never shrinks) and the bytes the weights would have needed, T·T·4.
 * @param {JobEngines} engines
 * @param {{ T: number, dim?: number, seed?: number, block?: number, simd?: boolean }} options
 */
async function fusedAttention(engines, options = {}, context) {
  const { T, dim = 64, seed = 1, block = 512, simd = true } = options;
  if (!Number.isInteger(T) || T < 1 || T > 16384) {
    throw new AttentionError('fusedAttention: T must be a whole number from 1 to 16384', { kind: 'ValueError' });
  }
  const engine = await engines.get(simd ? 'best' : 'bestScalar');
  const q = engine.randn([T, dim], seed);
  const k = engine.randn([T, dim], seed + 1);
  const v = engine.randn([T, dim], seed + 2);
  const output = new Float32Array(T * dim);
  let ms = 0;
  let scratchBytes = 0;
  let calls = 0;
  for (let r0 = 0; r0 < T; r0 += block) {
    await step(context);
    const r1 = Math.min(T, r0 + block);
    const qBlock = { data: q.data.subarray(r0 * dim, r1 * dim), shape: [r1 - r0, dim] };
    const t0 = performance.now();
    const result = engine.attention(qBlock, k, v);
    ms += performance.now() - t0;
    scratchBytes = Math.max(scratchBytes, result.scratchBytes);
    calls++;
    output.set(result.output.data, r0 * dim);
    context.progress({ done: r1, steps: T, ms });
  }
  const memory = engine.memory();
  return {
    T,
    dim,
    simd: engine.simd,
    build: engine.build,
    ms,
    gflops: attentionFlops(T, dim) / (ms * 1e6),
    heapBytes: memory.heapBytes,
    inUseBytes: memory.inUseBytes,
    scratchBytes,
    calls,
    weightsBytes: T * T * 4,
    firstRow: output.slice(0, Math.min(dim, 8)),
  };
}

/** The jobs by method name. */
export const JOBS = { benchmark, fusedAttention };
