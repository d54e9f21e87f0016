// Scaled dot-product attention, one head, fp32, no mask:
//
//     out = softmax(q·kᵀ / √E) · v      q: (L, E), k: (S, E), v: (S, Ev) -> out: (L, Ev)
//
// for L = S = 64, 256, 1024, 4096 and E = Ev = 64, measured side by side in one run:
//   wasm SIMD fused      attn.attention(q, k, v)                          (our SIMD build)
//   wasm SIMD +weights   attn.attention(q, k, v, { returnWeights: true }) (our SIMD build)
//   wasm scalar          attn.attention(q, k, v) on loadAttention({ simd: false })
//   JS core (wasm2js)    attn.attention(q, k, v) on loadAttention({ core: 'js' }): the same C++
//                        compiled to JavaScript (what pages that refuse WebAssembly run)
//   plain JS             the loop below, on Float32Arrays
//   tfjs transposeB      TensorFlow.js 4.22 wasm backend: matMul(q, k, transposeB)·scale,
//                        softmax, matMul with v; its SIMD binary, one thread
//   tfjs transpose(k)    the same with matMul(q, transpose(k)): tfjs-backend-wasm sends
//                        matMuls with a transposed operand to a scalar loop
//                        (slow_batch_matmul) and only the others to XNNPACK, so this
//                        is the faster way to write it in tfjs, timed as well
//   native               Google Benchmark medians of bench/attention_bench.cpp, read from
//                        the JSON that scripts/bench.mjs writes (--native <file>)
// Every contender gets the same seeded inputs, is warmed up (V8 tiers JS and wasm up
// late), then timed: the median of many samples for small sizes, of few for large.
// Times include marshalling: ours copies into and out of the wasm heap, tfjs uploads
// and downloads its tensors. Every output is compared with the plain-JS result.
// Also measured: the wasm heap of the fused kernel at L = S = 16384 (fresh module).
// Prints the table and the ratios at L = S = 1024; writes bench/results/attention.json.
//
//   node bench/attention.bench.mjs [--native bench/results/native-attention.json]
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAttention } from 'attnbook';
import { plainAttention } from '../web/src/engine/plain-attention.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export const SIZES = [64, 256, 1024, 4096];
export const E = 64;
const RATIO_SIZE = 1024;
const MEMORY_SIZE = 16384;
const HEAP_LIMIT = 64 * 1024 * 1024; // "64 MB" of the target, in bytes (64 MiB)
const TOLERANCE = 1e-4; // max |output − plain JS| for a contender to count as agreeing
const NOT_IN_BUILD = 'not available in this build';

/**
 * Timing policy. Warm-up: call until WARMUP_MS have passed and at least 2 calls ran,
 * or until one call alone took LONG_CALL_MS (the next call then runs tiered-up code).
 * Then samples of `batch` calls (batch chosen so one sample lasts ≥ MIN_SAMPLE_MS, so
 * timer resolution does not matter); as many samples as fit in TARGET_MS, clamped to
 * [MIN_SAMPLES, MAX_SAMPLES], but only MIN_SAMPLES_LONG when one sample takes ≥ 0.5 s.
 */
export const TIMING = {
  warmupMs: 300,
  longCallMs: 1000,
  minSampleMs: 5,
  targetMs: 1000,
  minSamples: 7,
  minSamplesLong: 3,
  maxSamples: 51,
};

/** Median and spread of the per-call time of `fn` (ms), and its last output. */
export function measure(fn, timing = TIMING) {
  let output;
  let calls = 0;
  let lastCallMs;
  let elapsed;
  const t0 = performance.now();
  do {
    const t = performance.now();
    output = fn();
    lastCallMs = performance.now() - t;
    calls++;
    elapsed = performance.now() - t0;
  } while (elapsed < timing.longCallMs && (calls < 2 || elapsed < timing.warmupMs));

  const perCall = Math.max(lastCallMs, 1e-4);
  const batch = Math.max(1, Math.ceil(timing.minSampleMs / perCall));
  const sampleMs = batch * perCall;
  const fewest = sampleMs >= 500 ? timing.minSamplesLong : timing.minSamples;
  const samples = Math.min(timing.maxSamples, Math.max(fewest, Math.round(timing.targetMs / sampleMs)));
  const times = [];
  for (let s = 0; s < samples; s++) {
    const t = performance.now();
    for (let b = 0; b < batch; b++) output = fn();
    times.push((performance.now() - t) / batch);
  }
  times.sort((a, b) => a - b);
  return {
    ms: median(times),
    minMs: times[0],
    maxMs: times[times.length - 1],
    samples,
    batch,
    warmupCalls: calls,
    output,
  };
}

function median(sorted) {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A (rows, cols) tensor of unit-variance values, uniform on [−√3, √3), from a 32-bit
 * LCG (Numerical Recipes constants). bench/attention_bench.cpp uses the same one, so
 * the native build sees bit-identical inputs.
 */
export function lcgTensor(rows, cols, seed) {
  const data = new Float32Array(rows * cols);
  let state = seed >>> 0;
  for (let i = 0; i < data.length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[i] = (2 * ((state >>> 8) / 16777216) - 1) * Math.sqrt(3);
  }
  return { data, shape: [rows, cols] };
}

/** q, k, v of one problem size: L = S = n, E = Ev = 64, seeds 1, 2, 3. */
export function makeInputs(n) {
  return { q: lcgTensor(n, E, 1), k: lcgTensor(n, E, 2), v: lcgTensor(n, E, 3) };
}

/** Attention as a competent user writes it in plain JS (the same baseline as the lesson's benchmark). */
const attentionJs = plainAttention;

/**
 * TensorFlow.js: matMul(q, k, transposeB)·scale, softmax, matMul with v, upload and
 * download included; with `transposeFirst`, matMul(q, transpose(k)) instead.
 */
function attentionTf(tf, q, k, v, { transposeFirst = false } = {}) {
  const scale = 1 / Math.sqrt(q.shape[1]);
  const out = tf.tidy(() => {
    const qt = tf.tensor2d(q.data, q.shape);
    const kt = tf.tensor2d(k.data, k.shape);
    const vt = tf.tensor2d(v.data, v.shape);
    const logits = transposeFirst ? tf.matMul(qt, tf.transpose(kt)) : tf.matMul(qt, kt, false, true);
    const scores = tf.mul(logits, scale);
    return tf.matMul(tf.softmax(scores), vt);
  });
  const data = out.dataSync();
  out.dispose();
  return data;
}

/**
 * Loads TensorFlow.js with its wasm backend from node_modules, no network: the Node
 * bundle of tfjs-backend-wasm reads the .wasm with fs when given a file path (it
 * never calls fetch in Node unless setWasmPaths' usePlatformFetch is true). Only the
 * SIMD binary gets a real path, so if tfjs chose its plain or threaded build the
 * backend would fail to initialise rather than silently time another binary.
 */
export async function loadTfjs() {
  let tf;
  let backend;
  try {
    tf = await import('@tensorflow/tfjs-core');
    backend = await import('@tensorflow/tfjs-backend-wasm');
  } catch (error) {
    return { available: false, reason: `not installed (npm ci): ${error.message}` };
  }
  const require = createRequire(import.meta.url);
  const dist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  const binary = path.join(dist, 'tfjs-backend-wasm-simd.wasm');
  const absent = path.join(dist, 'absent-only-the-simd-binary-is-benchmarked.wasm');
  backend.setWasmPaths({
    'tfjs-backend-wasm.wasm': absent,
    'tfjs-backend-wasm-simd.wasm': binary,
    'tfjs-backend-wasm-threaded-simd.wasm': absent,
  });
  backend.setThreadsCount(1);
  if (!(await tf.setBackend('wasm'))) {
    return { available: false, reason: `tf.setBackend('wasm') failed with ${binary}` };
  }
  await tf.ready();
  const config = {
    version: { core: tf.version_core, wasm: backend.version_wasm },
    backend: tf.getBackend(),
    binary: path.basename(binary),
    simd: await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'),
    multithreadSupported: await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT'),
    setThreadsCount: 1,
    threads: backend.getThreadsCount(),
    wasmLoadedFrom: path.relative(path.join(here, '..'), binary),
  };
  return { available: true, tf, config };
}

/** The Google Benchmark JSON of bench/attention_bench.cpp as { available, byL, ... }. */
export async function readNative(file) {
  let json;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    return { available: false, reason: `no native results (${error.code ?? error.message}); run npm run bench` };
  }
  if (json.available === false) return { available: false, reason: json.reason };
  const toMs = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 };
  const byL = {};
  let isa = null;
  for (const b of json.benchmarks ?? []) {
    if (b.aggregate_name !== 'median' || !b.run_name?.startsWith('BM_attention/')) continue;
    byL[b.L] = { ms: b.real_time * toMs[b.time_unit], outSum: b.out_sum, outSumWeighted: b.out_sum_weighted };
    isa = b.label ?? isa;
  }
  if (Object.keys(byL).length === 0) return { available: false, reason: `no BM_attention medians in ${file}` };
  return {
    available: true,
    byL,
    config: {
      isa,
      note:
        isa === 'SSE2'
          ? 'default x86-64 flags: SSE2 (widest ISA the bench was compiled for), 128-bit vectors like wasm SIMD128'
          : `compiled for ${isa ?? 'an unknown ISA'}, not the default x86-64 SSE2 baseline`,
      repetitions: 5,
      statistic: 'median of 5 repetitions (Google Benchmark, real time)',
      benchmarkLibraryBuild: json.context?.library_build_type,
      file: path.relative(process.cwd(), file),
    },
  };
}

/** Sum and index-weighted sum of an output: the checksums the native benchmark reports. */
export function checksums(data) {
  let sum = 0;
  let weighted = 0;
  for (let i = 0; i < data.length; i++) {
    sum += data[i];
    weighted += data[i] * (1 + (i % 7));
  }
  return { sum, weighted };
}

function maxAbsDiff(a, b) {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (!(d <= m)) m = d; // NaN propagates
  }
  return m;
}

/** The in-process contenders, in table order (native is folded in from its JSON). */
export function contenders({ simd, scalar, wasm2js, tfjs }) {
  const ours = (engine, what) =>
    !engine.available
      ? engine.reason
      : typeof engine.attn.attention !== 'function'
        ? `${NOT_IN_BUILD} (attn.attention is not a function in the ${what} build)`
        : null;
  return [
    {
      id: 'simdFused',
      label: 'wasm SIMD fused',
      missing: ours(simd, 'SIMD'),
      run: ({ q, k, v }) => simd.attn.attention(q, k, v).output.data,
    },
    {
      id: 'simdWeights',
      label: 'wasm SIMD +weights',
      missing: ours(simd, 'SIMD'),
      run: ({ q, k, v }) => {
        const result = simd.attn.attention(q, k, v, { returnWeights: true });
        if (!result.weights) throw new Error('attention(..., { returnWeights: true }) returned no weights');
        return result.output.data;
      },
    },
    {
      id: 'scalar',
      label: 'wasm scalar',
      missing: ours(scalar, 'scalar'),
      run: ({ q, k, v }) => scalar.attn.attention(q, k, v).output.data,
    },
    {
      id: 'wasm2js',
      label: 'JS core (wasm2js)',
      missing: ours(wasm2js, 'JS core'),
      run: ({ q, k, v }) => wasm2js.attn.attention(q, k, v).output.data,
    },
    { id: 'js', label: 'plain JS', missing: null, run: ({ q, k, v }) => attentionJs(q, k, v) },
    {
      id: 'tfjs',
      label: 'tfjs transposeB',
      missing: tfjs.available ? null : tfjs.reason,
      run: ({ q, k, v }) => attentionTf(tfjs.tf, q, k, v),
    },
    {
      id: 'tfjsTransposed',
      label: 'tfjs transpose(k)',
      missing: tfjs.available ? null : tfjs.reason,
      run: ({ q, k, v }) => attentionTf(tfjs.tf, q, k, v, { transposeFirst: true }),
    },
  ];
}

/** Runs every contender at every size; returns the rows of the table. */
export function runSizes(list, native, { sizes = SIZES, timing = TIMING, log = console.log } = {}) {
  const rows = [];
  for (const n of sizes) {
    const inputs = makeInputs(n);
    const flops = 4 * n * n * E;
    const row = { L: n, S: n, E, Ev: E, flops, results: {} };
    const order = [list.find((c) => c.id === 'js'), ...list.filter((c) => c.id !== 'js')]; // reference first
    let reference = null;
    for (const c of order) {
      if (c.missing) {
        row.results[c.id] = { available: false };
        continue;
      }
      log(`  L = S = ${n}: ${c.label} ...`);
      let m;
      try {
        m = measure(() => c.run(inputs), timing);
      } catch (error) {
        // A contender that throws is reported (and fails the run) without hiding the others.
        row.results[c.id] = { available: false, error: error.message };
        log(`    error: ${error.message}`);
        continue;
      }
      if (c.id === 'js') reference = m.output;
      const diff = maxAbsDiff(m.output, reference);
      row.results[c.id] = {
        available: true,
        ms: m.ms,
        gflops: flops / (m.ms * 1e6),
        minMs: m.minMs,
        maxMs: m.maxMs,
        samples: m.samples,
        batch: m.batch,
        warmupCalls: m.warmupCalls,
        maxAbsDiffVsJs: diff,
        agrees: diff < TOLERANCE,
      };
    }
    const nat = native.available ? native.byL[n] : null;
    if (nat) {
      // The native run is another process: compare the checksums of the outputs,
      // per element, with the same tolerance.
      const ref = checksums(reference);
      const count = n * E;
      const diff = Math.max(Math.abs(nat.outSum - ref.sum), Math.abs(nat.outSumWeighted - ref.weighted) / 7) / count;
      row.results.native = {
        available: true,
        ms: nat.ms,
        gflops: flops / (nat.ms * 1e6),
        checksumDiffPerElement: diff,
        agrees: diff < TOLERANCE,
      };
    } else {
      row.results.native = { available: false };
    }
    rows.push(row);
  }
  return rows;
}

/** Ratios time(other) / time(wasm SIMD fused) at L = S = 1024 against the targets. */
export function ratios(rows) {
  const row = rows.find((r) => r.L === RATIO_SIZE);
  const targets = [
    { versus: 'js', label: 'plain JS', atLeast: 20 },
    { versus: 'tfjs', label: 'tfjs wasm, transposeB', atLeast: 5 },
    { versus: 'tfjsTransposed', label: 'tfjs wasm, transpose(k)', atLeast: 5 },
    { versus: 'scalar', label: 'our wasm scalar', atLeast: 3 },
    { versus: 'wasm2js', label: 'our JS core (wasm2js)', atLeast: null }, // measured, no target
    { versus: 'native', label: 'our native build', atLeast: 0.9 },
  ];
  return targets.map((t) => {
    const ours = row?.results.simdFused;
    const other = row?.results[t.versus];
    if (!ours?.available || !other?.available) {
      const [label, r] = !ours?.available ? ['wasm SIMD fused', ours] : [t.label, other];
      const note = r?.error ? `${label} failed: ${r.error}` : `${label} ${NOT_IN_BUILD}`;
      return { ...t, L: RATIO_SIZE, ratio: null, met: null, note };
    }
    const ratio = other.ms / ours.ms;
    return { ...t, L: RATIO_SIZE, ratio, met: t.atLeast === null ? null : ratio >= t.atLeast };
  });
}

/** Wasm heap of the fused kernel at L = S = 16384, on a fresh SIMD module (its heap only ever grows). */
export async function memoryCheck(load = () => loadAttention({ simd: true })) {
  let attn;
  try {
    attn = await load();
  } catch (error) {
    return { available: false, reason: error.message };
  }
  if (typeof attn.attention !== 'function' || typeof attn.memory !== 'function') {
    const absent = ['attention', 'memory'].filter((f) => typeof attn[f] !== 'function');
    return { available: false, reason: `${NOT_IN_BUILD} (attn.${absent.join('() and attn.')}() missing)` };
  }
  const small = makeInputs(256);
  for (let i = 0; i < 5; i++) attn.attention(small.q, small.k, small.v); // warm-up, small heap
  const { q, k, v } = makeInputs(MEMORY_SIZE);
  const before = attn.memory();
  const t = performance.now();
  let result;
  try {
    result = attn.attention(q, k, v);
  } catch (error) {
    return { available: false, reason: `attention at L = S = ${MEMORY_SIZE} threw: ${error.message}`, error: true };
  }
  const ms = performance.now() - t;
  const after = attn.memory();
  return {
    available: true,
    L: MEMORY_SIZE,
    S: MEMORY_SIZE,
    E,
    heapBytesBefore: before.heapBytes,
    inUseBytesBefore: before.inUseBytes,
    heapBytes: after.heapBytes,
    inUseBytes: after.inUseBytes,
    limitBytes: HEAP_LIMIT,
    under64MB: after.heapBytes < HEAP_LIMIT,
    singleCallMs: ms,
    outputFinite: result.output.data.every(Number.isFinite),
    outputShape: result.output.shape,
  };
}

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const fmtMs = (ms) => ms.toFixed(ms < 10 ? 3 : ms < 100 ? 2 : 1);

/** The report as text: table, agreement, ratios, configuration, memory. */
export function report({ rows, list, native, tfjs, ratioRows, memory }) {
  const nativeLabel = native.available && native.config.isa ? `native ${native.config.isa}` : 'native';
  const columns = [...list.map((c) => ({ id: c.id, label: c.label })), { id: 'native', label: nativeLabel }];
  const w = 19;
  const lines = [];
  const cell = (text) => text.padStart(w);
  lines.push(
    `attention, one head, fp32, no mask, E = Ev = ${E}: median ms per call (marshalling included) and GFLOP/s (4·L·S·E flops)`,
  );
  lines.push(`${'L = S'.padStart(6)} ${columns.map((c) => cell(c.label)).join('')}`);
  lines.push(`${''.padStart(6)} ${columns.map(() => cell('ms   GFLOP/s')).join('')}`);
  for (const row of rows) {
    const cells = columns.map((c) => {
      const r = row.results[c.id];
      if (!r?.available) return cell(r?.error ? 'ERROR' : 'n/a');
      return cell(`${fmtMs(r.ms)} ${r.gflops.toFixed(2).padStart(7)}`);
    });
    lines.push(`${String(row.L).padStart(6)} ${cells.join('')}`);
  }

  lines.push(
    '',
    `agreement with plain JS (max |Δ| of the output; native: checksum Δ per element), tolerance ${TOLERANCE}`,
  );
  lines.push(`${'L = S'.padStart(6)} ${columns.map((c) => cell(c.label)).join('')}`);
  for (const row of rows) {
    const cells = columns.map((c) => {
      const r = row.results[c.id];
      if (!r?.available) return cell(r?.error ? 'ERROR' : 'n/a');
      if (c.id === 'js') return cell('(reference)');
      const d = r.maxAbsDiffVsJs ?? r.checksumDiffPerElement;
      return cell(`${d.toExponential(1)} ${r.agrees ? 'ok' : 'MISMATCH'}`);
    });
    lines.push(`${String(row.L).padStart(6)} ${cells.join('')}`);
  }

  lines.push('', `ratios at L = S = ${RATIO_SIZE}: time(other) / time(wasm SIMD fused)`);
  for (const r of ratioRows) {
    const target = (r.atLeast === null ? 'no target' : `≥ ${r.atLeast}×`).padEnd(9);
    const verdict = r.atLeast === null ? '' : r.met ? '  met' : '  NOT MET';
    const value = r.ratio == null ? `n/a: ${r.note}` : `${r.ratio.toFixed(2)}×${verdict}`;
    lines.push(`  vs ${r.label.padEnd(24)} ${target} ${value}`);
  }
  // the JS core against the wasm builds, side by side: what a page that refuses wasm pays
  const at = rows.find((r) => r.L === RATIO_SIZE)?.results ?? {};
  if (at.wasm2js?.available && at.scalar?.available && at.simdFused?.available) {
    lines.push(
      `  JS core (wasm2js) at L = S = ${RATIO_SIZE}: ${(at.wasm2js.ms / at.scalar.ms).toFixed(2)}× the time of wasm scalar, ` +
        `${(at.wasm2js.ms / at.simdFused.ms).toFixed(2)}× that of wasm SIMD`,
    );
  }

  lines.push('', 'contenders');
  for (const c of list) {
    if (c.missing) lines.push(`  ${c.label.padEnd(19)} ${c.missing}`);
    for (const row of rows.filter((r) => r.results[c.id]?.error)) {
      lines.push(`  ${c.label.padEnd(19)} ERROR at L = S = ${row.L}: ${row.results[c.id].error}`);
    }
  }
  if (tfjs.available) {
    const t = tfjs.config;
    lines.push(
      `  ${'tfjs'.padEnd(19)} @tensorflow/tfjs-core ${t.version.core} + tfjs-backend-wasm ${t.version.wasm}, ` +
        `backend '${t.backend}': ${t.binary} (SIMD ${t.simd ? 'on' : 'OFF'}, not threaded), ` +
        `setThreadsCount(1) -> getThreadsCount() = ${t.threads};`,
      `  ${''.padEnd(19)} loaded from ${t.wasmLoadedFrom} through setWasmPaths (file paths, read with fs, no fetch)`,
      `  ${'tfjs transposeB'.padEnd(19)} matMul(q, k, false, true)·scale, softmax, matMul(·, v): the formulation asked for;` +
        ` a transposed operand takes tfjs's scalar slow_batch_matmul`,
      `  ${'tfjs transpose(k)'.padEnd(19)} matMul(q, transpose(k))·scale, softmax, matMul(·, v): both matMuls on XNNPACK`,
    );
  }
  if (native.available) {
    lines.push(`  ${'native'.padEnd(19)} ${native.config.note}; ${native.config.statistic}`);
  } else {
    lines.push(`  ${'native'.padEnd(19)} ${native.reason}`);
  }
  const timed = rows.flatMap((r) => Object.values(r.results).filter((x) => x.samples));
  if (timed.length) {
    const s = timed.map((x) => x.samples);
    lines.push(
      `  timing: warm-up ≥ ${TIMING.warmupMs} ms and ≥ 2 calls (1 call if it takes ≥ ${TIMING.longCallMs} ms), then ` +
        `${Math.min(...s)}–${Math.max(...s)} samples per cell, batches so each sample lasts ≥ ${TIMING.minSampleMs} ms`,
    );
  }

  lines.push('', `wasm heap, fused kernel at L = S = ${MEMORY_SIZE}, E = ${E} (fresh SIMD module)`);
  if (!memory.available) {
    lines.push(`  n/a: ${memory.reason}`);
  } else {
    lines.push(
      `  heapBytes after the call ${memory.heapBytes} (${mb(memory.heapBytes)}; before ${mb(memory.heapBytesBefore)}), ` +
        `inUseBytes ${memory.inUseBytes} (${mb(memory.inUseBytes)}): ` +
        `${memory.under64MB ? 'under' : 'NOT under'} 64 MB (${mb(HEAP_LIMIT)}); ` +
        `one call ${(memory.singleCallMs / 1000).toFixed(2)} s, output ${memory.outputFinite ? 'finite' : 'NOT FINITE'}`,
    );
  }
  return lines.join('\n');
}

async function main() {
  const started = performance.now();
  const loadBefore = os.loadavg();
  if (loadBefore[0] > 1) {
    console.log(
      `note: load average ${loadBefore[0].toFixed(2)} on ${os.cpus().length} CPUs: other work may inflate timings`,
    );
  }
  const args = process.argv.slice(2);
  const nativeFile = args.includes('--native')
    ? path.resolve(args[args.indexOf('--native') + 1])
    : path.join(here, 'results', 'native-attention.json');

  const engine = async (options) => {
    try {
      const attn = await loadAttention(options);
      return { available: true, attn, simd: attn.simd };
    } catch (error) {
      return { available: false, reason: error.message };
    }
  };
  const simd = await engine({ simd: true });
  const scalar = await engine({ simd: false, core: 'wasm' });
  const wasm2js = await engine({ core: 'js' });
  const tfjs = await loadTfjs();
  const native = await readNative(nativeFile);
  const list = contenders({ simd, scalar, wasm2js, tfjs });
  const tensorsBefore = tfjs.available ? tfjs.tf.memory().numTensors : null;

  console.log('timing (warm-up, then samples) ...');
  const rows = runSizes(list, native);
  console.log(`wasm heap of the fused kernel at L = S = ${MEMORY_SIZE} ...`);
  const memory = await memoryCheck();
  const ratioRows = ratios(rows);
  if (tfjs.available) {
    const m = tfjs.tf.memory();
    tfjs.config.tensorsAfterRun = m.numTensors - tensorsBefore;
  }

  console.log(`\n${report({ rows, list, native, tfjs, ratioRows, memory })}`);
  if (tfjs.available) console.log(`  tfjs tensors left after the run: ${tfjs.config.tensorsAfterRun}`);

  const out = path.join(here, 'results', 'attention.json');
  await mkdir(path.dirname(out), { recursive: true });
  const contenderInfo = Object.fromEntries([
    ...list.map((c) => [c.id, { label: c.label, available: !c.missing, reason: c.missing ?? undefined }]),
    ['native', { label: 'native', available: native.available, reason: native.reason, ...native.config }],
  ]);
  if (simd.available) contenderInfo.simdFused.engineSimd = simd.simd;
  if (scalar.available) contenderInfo.scalar.engineSimd = scalar.simd;
  if (tfjs.available) contenderInfo.tfjs.config = tfjs.config;
  await writeFile(
    out,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        v8: process.versions.v8,
        cpu: os.cpus()[0]?.model,
        cpus: os.cpus().length,
        loadAverage: { before: loadBefore, after: os.loadavg() },
        problem: { heads: 1, dtype: 'float32', mask: null, E, Ev: E, flops: '4·L·S·E' },
        timing: TIMING,
        tolerance: TOLERANCE,
        contenders: contenderInfo,
        rows,
        ratios: ratioRows,
        memory,
        seconds: (performance.now() - started) / 1000,
      },
      null,
      2,
    ),
  );
  console.log(`\nwrote ${path.relative(process.cwd(), out)} (${((performance.now() - started) / 1000).toFixed(0)} s)`);

  const problems = rows.flatMap((r) =>
    Object.entries(r.results)
      .filter(([, x]) => x.error || (x.available && x.agrees === false))
      .map(([id, x]) => `${id} at L = S = ${r.L}: ${x.error ?? 'output disagrees with plain JS'}`),
  );
  if (memory.error) problems.push(memory.reason);
  if (memory.available && !memory.outputFinite) problems.push(`non-finite output at L = S = ${MEMORY_SIZE}`);
  if (problems.length) {
    console.error(`\nattention benchmark problems:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
