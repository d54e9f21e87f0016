// npm run bench: benchmarks, not timed tests. Builds, then runs the native
// Google Benchmark suite and the Node runners for the wasm builds, printing
// tables and writing JSON to bench/results/ (ignored by git):
//   native.json            native softmax (Google Benchmark)
//   native-attention.json  native attention (Google Benchmark JSON, or why it is missing)
//   softmax-wasm.json      softmax: wasm SIMD, wasm scalar, plain JS
//   attention.json         attention: wasm SIMD (fused, +weights), wasm scalar, the JS core (wasm2js), plain JS,
//                          TensorFlow.js wasm and the native medians, side by side
//   pool.json              attention across cores: the worker pool with 1, 2, … threads against the
//                          single-thread call and two concurrent calls (the machine's ceiling)
//   train.json             training: optimiser steps/s of each task's default model, attnbook
//                          wasm SIMD and scalar, TensorFlow.js wasm and PyTorch (one thread),
//                          side by side (the text task also in characters/s); time to 97 %
//                          accuracy on the toy tasks, time to copying in context on text
//                          (bench/train.bench.mjs)
//   browser.json           browser budgets in headless Chromium (bench/browser.bench.mjs): first
//                          lesson interactive, input to updated figure, sizes of dist/
//
//   npm run bench -- --torch-blas <dir>   hands --torch-blas <dir> to train.bench.mjs: its
//                          PyTorch+BLAS column (e.g. OpenBLAS, the text task's ≥ 1× target)
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from './build.mjs';
import { mustRun, root, run, step } from './lib.mjs';

const results = path.join(root, 'bench', 'results');
/** --torch-blas <dir>, passed on to train.bench.mjs (see bench/README.md). */
const torchBlasAt = process.argv.indexOf('--torch-blas');
if (torchBlasAt >= 0 && !process.argv[torchBlasAt + 1]) {
  console.error('npm run bench: --torch-blas needs a folder holding another libblas.so.3');
  process.exit(1);
}
const trainArgs = torchBlasAt >= 0 ? ['--torch-blas', path.resolve(process.argv[torchBlasAt + 1])] : [];
const nativeBench = path.join(root, 'build', 'native', 'bench', 'attn_bench');
const nativeAttentionJson = path.join(results, 'native-attention.json');

/**
 * Runs the native attention benchmark with --benchmark_format=json and writes its
 * output to native-attention.json; when this build has no BM_attention (the
 * attention API is not in core yet) writes { available: false, reason } instead,
 * so the attention runner shows the native column as not available.
 */
async function nativeAttention() {
  const filter = '--benchmark_filter=^BM_attention/';
  const listed = await run(nativeBench, ['--benchmark_list_tests', filter], { capture: true, quiet: true });
  if (listed.code !== 0 || !/^BM_attention\//m.test(listed.output)) {
    const reason = 'not available in this build (BM_attention not compiled: core/include/attn/attention.hpp missing)';
    console.log(`  native attention: ${reason}`);
    await writeFile(nativeAttentionJson, JSON.stringify({ available: false, reason }, null, 2));
    return;
  }
  console.log('  L = S = 64, 256, 1024, 4096, E = 64; 5 repetitions each (about half a minute)');
  // The JSON document is stdout alone (Google Benchmark's notes go to stderr).
  const { stdout } = await promisify(execFile)(nativeBench, [filter, '--benchmark_format=json'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  const json = JSON.parse(stdout);
  await writeFile(nativeAttentionJson, JSON.stringify(json, null, 2));
  for (const b of json.benchmarks.filter((b) => b.aggregate_name === 'median')) {
    console.log(`  ${b.run_name.split('/').slice(0, 2).join('/')}: median ${b.real_time.toFixed(3)} ${b.time_unit}`);
  }
}

try {
  const started = performance.now();
  await build();
  await mkdir(results, { recursive: true });
  step('benchmark: native softmax (Google Benchmark)');
  await mustRun(nativeBench, [
    '--benchmark_filter=^BM_softmax',
    '--benchmark_out=bench/results/native.json',
    '--benchmark_out_format=json',
  ]);
  step('benchmark: native attention (Google Benchmark, JSON)');
  await nativeAttention();
  step('benchmark: softmax, wasm builds and plain JS in Node');
  await mustRun(process.execPath, [path.join('bench', 'softmax.bench.mjs')]);
  step('benchmark: attention, wasm builds, plain JS, TensorFlow.js wasm and native');
  await mustRun(process.execPath, [path.join('bench', 'attention.bench.mjs'), '--native', nativeAttentionJson]);
  step('benchmark: attention across cores, the worker pool against the single-thread call');
  await mustRun(process.execPath, [path.join('bench', 'pool.bench.mjs')]);
  step('benchmark: training, wasm builds, TensorFlow.js wasm and PyTorch (one thread)');
  await mustRun(process.execPath, [path.join('bench', 'train.bench.mjs'), ...trainArgs]);
  step('benchmark: browser budgets in headless Chromium (first lesson interactive, input to frame, sizes)');
  await mustRun(process.execPath, [path.join('bench', 'browser.bench.mjs')]);
  console.log(`\nnpm run bench: ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
} catch (error) {
  console.error(`\nbenchmark failed: ${error.message}`);
  process.exit(1);
}
