// npm run fuzz: builds the libFuzzer targets (preset fuzz: clang-14, ASan + UBSan) and runs each
// one for --seconds (default 20) on a scratch copy of its committed seed corpus, so the corpus in
// tests/fuzz/corpus/ stays small. Prints the executions per target and fails on any finding: a
// crash, a sanitizer report, a leak, a timeout or an out-of-memory, naming the saved input.
//   node scripts/fuzz.mjs [--seconds N] [--target softmax]
import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mustRun, root, run, step } from './lib.mjs';

const FUZZ_DIR = path.join(root, 'tests', 'fuzz');
const BIN_DIR = path.join(root, 'build', 'fuzz', 'tests', 'fuzz');
const SCRATCH = path.join(root, 'build', 'fuzz-runs');

/** The target names, from tests/fuzz/fuzz_<name>.cpp. */
export async function fuzzTargets() {
  return (await readdir(FUZZ_DIR))
    .map((f) => f.match(/^fuzz_(\w+)\.cpp$/)?.[1])
    .filter(Boolean)
    .sort();
}

/** Runs one target for `seconds`; resolves to { target, execs, seconds, crash, ok }. */
async function runTarget(target, seconds) {
  const dir = path.join(SCRATCH, target);
  const corpus = path.join(dir, 'corpus');
  await rm(dir, { recursive: true, force: true });
  await mkdir(corpus, { recursive: true });
  await cp(path.join(FUZZ_DIR, 'corpus', target), corpus, { recursive: true }).catch(() => {});
  const started = Date.now();
  const { code, output } = await run(
    path.join(BIN_DIR, `fuzz_${target}`),
    [
      `-max_total_time=${seconds}`,
      '-rss_limit_mb=2048',
      '-timeout=10', // one input running 10 s is a hang: a finding
      '-print_final_stats=1',
      `-artifact_prefix=${dir}${path.sep}`,
      corpus,
    ],
    { quiet: true },
  );
  const elapsed = (Date.now() - started) / 1000;
  const execs = Number(output.match(/stat::number_of_executed_units:\s*(\d+)/)?.[1] ?? 0);
  const crash = output.match(/(?:Test unit|artifact) written to (\S+)/)?.[1] ?? null;
  const ok = code === 0 && !crash;
  if (!ok) {
    // The report: what libFuzzer and the sanitizers said, from the first error line on.
    const lines = output.split('\n');
    const first = lines.findIndex((l) => /ERROR|FUZZ_CHECK|runtime error|terminate called|==\d+==/.test(l));
    console.error(lines.slice(Math.max(0, first), first + 40).join('\n'));
  }
  return { target, execs, seconds: elapsed, crash, code, ok };
}

/**
 * Builds the fuzz preset and runs every target (or `only`) for `seconds` each.
 * Resolves to the per-target results; never throws for a finding.
 */
export async function fuzz({ seconds = 20, only = null } = {}) {
  step('building the libFuzzer targets (preset fuzz: clang-14, ASan + UBSan)');
  await mustRun('cmake', ['--preset', 'fuzz'], { quiet: true });
  await mustRun('cmake', ['--build', '--preset', 'fuzz']);
  const results = [];
  for (const target of only ? [only] : await fuzzTargets()) {
    step(`fuzzing: fuzz_${target} for ${seconds} s`);
    const r = await runTarget(target, seconds);
    const rate = Math.round(r.execs / Math.max(r.seconds, 1e-3));
    console.log(
      r.ok
        ? `  fuzz_${target}: ${r.execs} execs in ${r.seconds.toFixed(1)} s (${rate}/s), no finding`
        : `  fuzz_${target}: FINDING after ${r.execs} execs (exit ${r.code}); input saved at ` +
            `${r.crash ?? '(none written)'}; reproduce with build/fuzz/tests/fuzz/fuzz_${target} ${r.crash ?? ''}`,
    );
    results.push(r);
  }
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const seconds = Number(arg('--seconds') ?? 20);
  if (!(seconds > 0)) {
    console.error('fuzz: --seconds must be a positive number');
    process.exit(2);
  }
  try {
    const results = await fuzz({ seconds, only: arg('--target') ?? null });
    const failed = results.filter((r) => !r.ok);
    console.log(`\nfuzz: ${results.length - failed.length} targets clean, ${failed.length} with findings`);
    process.exit(failed.length ? 1 : 0);
  } catch (error) {
    console.error(`\nfuzz failed: ${error.message}`);
    process.exit(1);
  }
}
