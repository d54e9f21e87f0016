// npm run bench: benchmarks, not timed tests. Builds, then runs the native
// Google Benchmark suite and the Node runner for the wasm builds, printing
// tables and writing JSON to bench/results/ (ignored by git).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { build } from './build.mjs';
import { mustRun, root, step } from './lib.mjs';

try {
  await build();
  await mkdir(path.join(root, 'bench', 'results'), { recursive: true });
  step('benchmark: native core (Google Benchmark)');
  await mustRun(path.join(root, 'build', 'native', 'bench', 'attn_bench'), [
    '--benchmark_out=bench/results/native.json',
    '--benchmark_out_format=json',
  ]);
  step('benchmark: wasm builds and plain JS in Node');
  await mustRun(process.execPath, [path.join('bench', 'softmax.bench.mjs')]);
} catch (error) {
  console.error(`\nbenchmark failed: ${error.message}`);
  process.exit(1);
}
