// Softmax over 64 rows of n logits, through the engine: the WASM SIMD build,
// the WASM scalar build and a plain-JS loop, measured side by side in one run
// (warm-up first, then the median of repeated timings). Includes marshalling.
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAttention } from 'attnbook';

const ROWS = 64;
const SIZES = [64, 256, 1024, 4096];
const REPEATS = 25;
const here = path.dirname(fileURLToPath(import.meta.url));

/** Plain-JS softmax over the last axis, max-subtracted, the loop a user would write. */
function softmaxJs({ data, shape }) {
  const n = shape[shape.length - 1];
  const out = new Float32Array(data.length);
  for (let r = 0; r < data.length; r += n) {
    let m = -Infinity;
    for (let i = 0; i < n; i++) m = Math.max(m, data[r + i]);
    let s = 0;
    for (let i = 0; i < n; i++) s += out[r + i] = Math.exp(data[r + i] - m);
    for (let i = 0; i < n; i++) out[r + i] /= s;
  }
  return { data: out, shape };
}

function median(run) {
  for (let i = 0; i < 5; i++) run(); // warm-up (lets V8 tier up)
  const times = [];
  for (let i = 0; i < REPEATS; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const simd = await loadAttention({ simd: true });
const scalar = await loadAttention({ simd: false });
const rows = [];
for (const n of SIZES) {
  const x = { data: Float32Array.from({ length: ROWS * n }, (_, i) => Math.sin(i * 12.9898) * 6), shape: [ROWS, n] };
  const ms = {
    simd: median(() => simd.softmax(x)),
    scalar: median(() => scalar.softmax(x)),
    js: median(() => softmaxJs(x)),
  };
  rows.push({ n, rows: ROWS, ms, simdVsScalar: ms.scalar / ms.simd, simdVsJs: ms.js / ms.simd });
}

console.log(`softmax, ${ROWS} rows of n logits, median of ${REPEATS} (ms); ratios are time(other) / time(WASM SIMD)`);
console.log('     n   WASM SIMD  WASM scalar   plain JS   SIMD vs scalar   SIMD vs JS');
for (const r of rows) {
  const f = (v) => v.toFixed(3).padStart(10);
  console.log(
    `${String(r.n).padStart(6)} ${f(r.ms.simd)}  ${f(r.ms.scalar)} ${f(r.ms.js)}   ${r.simdVsScalar.toFixed(2).padStart(12)}x ${r.simdVsJs.toFixed(2).padStart(11)}x`,
  );
}
const out = path.join(here, 'results', 'softmax-wasm.json');
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2));
console.log(`\nwrote ${path.relative(process.cwd(), out)}`);
