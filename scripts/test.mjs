// npm test: build, then run every test layer and end with "N passed, N failed".
//   1. native GoogleTest through ctest, one ctest test per suite (preset native)
//   2. the same suite under ASan + UBSan           (preset native-asan)
//   3. the same suite compiled to wasm, under Node (presets wasm-simd, wasm-scalar)
//   4. libFuzzer targets: the committed corpus replayed, then a fixed-seed exploration of a fixed
//      number of runs per target, deterministic          (scripts/fuzz.mjs, preset fuzz)
//   5. JS API tests                                (node --test tests/js)
//   6. browser tests in headless Chromium          (node --test tests/e2e)
//   7. the npm package: packed, installed into a fresh project, used from Node, TypeScript and a
//      Vite page in Chromium                  (node --test tests/package)
//   8. code cells: every lesson's code cells run in Debian's Python (node --test tests/python)
//   9. notebooks: every lesson as a Jupyter notebook, run in a real kernel (node --test tests/notebooks)
//  10. lint: clang-format, prettier, eslint
// Prints how long each layer took. Exits non-zero when anything failed.
import { availableParallelism } from 'node:os';
import { build } from './build.mjs';
import { fuzz } from './fuzz.mjs';
import { lint } from './lint.mjs';
import { presets, run, step } from './lib.mjs';
import { nodeTests } from './node-tests.mjs';

const results = []; // { layer, passed, failed, seconds }

/** Browser test files run at once: ATTNBOOK_BROWSER_CONCURRENCY, else 2 (1 on a 1-core machine). */
function browserConcurrency() {
  const asked = Number(process.env.ATTNBOOK_BROWSER_CONCURRENCY);
  return Number.isInteger(asked) && asked > 0 ? asked : Math.min(2, availableParallelism());
}

/** Runs one layer (an async function resolving to { layer, passed, failed } or a list of them), timed. */
async function timed(layer) {
  const started = Date.now();
  const outcome = await layer();
  const seconds = (Date.now() - started) / 1000;
  const list = [outcome].flat();
  list.forEach((r, i) => results.push({ ...r, seconds: i === 0 ? seconds : null }));
  console.log(`\n  (${list.map((r) => r.layer).join(', ')}: ${formatDuration(seconds)})`);
}

/** 59.6 -> '59.6 s', 839.6 -> '14 min 0 s' (whole seconds past a minute, rounded first). */
function formatDuration(s) {
  if (s < 60) return `${s.toFixed(1)} s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

async function ctest(preset) {
  step(`testing: GoogleTest via ctest (${preset})`);
  const { output } = await run('ctest', ['--preset', preset], { capture: true });
  const match = output.match(/(\d+)% tests passed, (\d+) tests failed out of (\d+)/);
  if (!match) return { layer: `ctest ${preset}`, passed: 0, failed: 1 };
  const [failed, total] = [Number(match[2]), Number(match[3])];
  return { layer: `ctest ${preset}`, passed: total - failed, failed };
}

function summary() {
  console.log('\n── summary ─────────────────────────────');
  for (const r of results) {
    const time = r.seconds === null ? '' : `  (${formatDuration(r.seconds)})`;
    console.log(`  ${r.layer.padEnd(28)} ${r.passed} passed, ${r.failed} failed${time}`);
  }
  console.log(`  total time ${formatDuration((Date.now() - runStarted) / 1000)}`);
  for (const r of results) {
    for (const f of r.failures ?? []) console.log(`  FAILED ${r.layer}: ${f.name}${f.error ? ` — ${f.error}` : ''}`);
  }
  const passed = results.reduce((a, r) => a + r.passed, 0);
  const failed = results.reduce((a, r) => a + r.failed, 0);
  console.log(`${passed} passed, ${failed} failed`);
  return failed;
}

const runStarted = Date.now();
const buildStarted = Date.now();
try {
  await build();
} catch (error) {
  console.error(`\nbuild failed: ${error.message}`);
  results.push({ layer: 'build', passed: 0, failed: 1, seconds: (Date.now() - buildStarted) / 1000 });
  summary();
  process.exit(1);
}
console.log(`\n  (build: ${formatDuration((Date.now() - buildStarted) / 1000)})`);

for (const preset of presets) await timed(() => ctest(preset));
await timed(async () => {
  try {
    const targets = await fuzz();
    const clean = targets.filter((t) => t.ok).length;
    return { layer: 'fuzz (libFuzzer)', passed: clean, failed: targets.length - clean };
  } catch (error) {
    console.error(`\nfuzz failed: ${error.message}`);
    return { layer: 'fuzz (libFuzzer)', passed: 0, failed: 1 };
  }
});
// Two JS test files at a time (node's default on 2 cores is one): measured 45 s one at a time, 28 s two.
await timed(() => nodeTests('tests/js', 'JS API', { concurrency: Math.min(2, availableParallelism()) }));
// Two browser test files at a time: one alone leaves half of a 2-core machine idle while it waits
// for Chromium (measured: the lesson files took 367 s one at a time, 284 s two at a time).
// A browser test or suite that takes 6 minutes has hung (the longest take about a minute on a quiet
// machine): it fails by name. The Python tests wait for PyTorch runs that can queue for minutes.
const BROWSER_HUNG_MS = 6 * 60 * 1000;
const PYTHON_HUNG_MS = 15 * 60 * 1000;
const NOTEBOOKS_HUNG_MS = 10 * 60 * 1000; // about 2 minutes on a quiet machine
// The files that take a minute or more (measured; teacher-lesson also builds a course first) start
// first: started last, one of them would run alone while the other slot sat idle.
const LONGEST_BROWSER_FILES = [
  'teacher-lesson.test.js',
  'hostile-urls.test.js',
  'bad-input.test.js',
  'course-render.test.js',
  'lesson-causal-masking.test.js',
  'lesson-learning-to-attend.test.js',
  'lesson-heads-that-copy.test.js',
];
await timed(() =>
  nodeTests('tests/e2e', 'browser (Chromium)', {
    concurrency: browserConcurrency(),
    timeout: BROWSER_HUNG_MS,
    first: LONGEST_BROWSER_FILES,
  }),
);
await timed(() => nodeTests('tests/package', 'npm package'));
await timed(() => nodeTests('tests/python', 'code cells (Python)', { timeout: PYTHON_HUNG_MS }));
await timed(() => nodeTests('tests/notebooks', 'notebooks (Jupyter)', { timeout: NOTEBOOKS_HUNG_MS }));
await timed(async () =>
  (await lint()).map(({ name, ok }) => ({ layer: `lint ${name}`, passed: ok ? 1 : 0, failed: ok ? 0 : 1 })),
);

process.exit(summary() === 0 ? 0 : 1);
