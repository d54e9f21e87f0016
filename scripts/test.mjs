// npm test: build, then run every test layer and end with "N passed, N failed".
//   1. native GoogleTest through ctest            (preset native)
//   2. the same suite under ASan + UBSan           (preset native-asan)
//   3. the same suite compiled to wasm, under Node (presets wasm-simd, wasm-scalar)
//   4. libFuzzer targets, 20 s each                (scripts/fuzz.mjs, preset fuzz)
//   5. JS API tests                                (node --test tests/js)
//   6. browser tests in headless Chromium          (node --test tests/e2e)
//   7. lint: clang-format, prettier, eslint
// Exits non-zero when anything failed.
import { mkdir, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { build } from './build.mjs';
import { fuzz } from './fuzz.mjs';
import { lint } from './lint.mjs';
import { presets, root, run, step } from './lib.mjs';

const results = []; // { layer, passed, failed }

async function ctest(preset) {
  step(`testing: GoogleTest via ctest (${preset})`);
  const { output } = await run('ctest', ['--preset', preset], { capture: true });
  const match = output.match(/(\d+)% tests passed, (\d+) tests failed out of (\d+)/);
  if (!match) return { layer: `ctest ${preset}`, passed: 0, failed: 1 };
  const [failed, total] = [Number(match[2]), Number(match[3])];
  return { layer: `ctest ${preset}`, passed: total - failed, failed };
}

async function nodeTests(dir, layer) {
  step(`testing: ${layer} (node --test ${dir})`);
  const files = (await readdir(path.join(root, dir))).filter((f) => f.endsWith('.test.js')).sort();
  const tap = path.join(root, 'build', 'test-results', `${path.basename(dir)}.tap`);
  await mkdir(path.dirname(tap), { recursive: true });
  const { code } = await run(process.execPath, [
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    ...files.map((f) => path.join(dir, f)),
  ]);
  const report = await readFile(tap, 'utf8').catch(() => '');
  const count = (name) => Number(report.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1] ?? 0);
  const passed = count('pass');
  const failed = count('fail') + count('cancelled');
  // A runner that crashed before reporting still counts as a failure.
  return { layer, passed, failed: code !== 0 && failed === 0 ? 1 : failed };
}

function summary() {
  console.log('\n── summary ─────────────────────────────');
  for (const r of results) console.log(`  ${r.layer.padEnd(28)} ${r.passed} passed, ${r.failed} failed`);
  const passed = results.reduce((a, r) => a + r.passed, 0);
  const failed = results.reduce((a, r) => a + r.failed, 0);
  console.log(`${passed} passed, ${failed} failed`);
  return failed;
}

try {
  await build();
} catch (error) {
  console.error(`\nbuild failed: ${error.message}`);
  results.push({ layer: 'build', passed: 0, failed: 1 });
  summary();
  process.exit(1);
}

for (const preset of presets) results.push(await ctest(preset));
try {
  const targets = await fuzz({ seconds: 20 });
  const clean = targets.filter((t) => t.ok).length;
  results.push({ layer: 'fuzz (libFuzzer)', passed: clean, failed: targets.length - clean });
} catch (error) {
  console.error(`\nfuzz build failed: ${error.message}`);
  results.push({ layer: 'fuzz (libFuzzer)', passed: 0, failed: 1 });
}
results.push(await nodeTests('tests/js', 'JS API'));
results.push(await nodeTests('tests/e2e', 'browser (Chromium)'));
for (const { name, ok } of await lint()) {
  results.push({ layer: `lint ${name}`, passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
}

process.exit(summary() === 0 ? 0 : 1);
