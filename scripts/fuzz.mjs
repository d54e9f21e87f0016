// The libFuzzer targets of tests/fuzz (preset fuzz: clang-14, ASan + UBSan), in two modes.
//
// Deterministic (what npm test runs; the default here): for each target,
//   1. replay: every input of its committed corpus tests/fuzz/corpus/<target>/ once;
//   2. explore: a bounded exploration from that corpus with a fixed seed and a fixed number of
//      executions (-seed=<seed> -runs=<runs>), never a time limit; corpus reloading and
//      compare-guided mutations (which see pointer values) off, the seed inputs passed in sorted
//      order; so a slow machine runs the same inputs as a fast one and the same commit gives the
//      same result everywhere.
// Random (npm run fuzz): each target for --seconds with a fresh random seed, to find new bugs.
// What it finds is fixed in core/ and committed to the corpus (tests/fuzz/README.md), so
// the deterministic mode replays it from then on.
//
// Both fail on any finding (a crash, a sanitizer report, a leak, a timeout, an out-of-memory or
// a FUZZ_CHECK), naming the saved input and how to replay it. Scratch files go to build/fuzz-runs/.
//   node scripts/fuzz.mjs [--runs N] [--seed S] [--target hull]     deterministic
//   node scripts/fuzz.mjs --seconds N [--target hull]               random, N seconds per target
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configurePreset } from './cmake-configure.mjs';
import { mustRun, root, run, step } from './lib.mjs';

const FUZZ_DIR = path.join(root, 'tests', 'fuzz');
const BIN_DIR = path.join(root, 'build', 'fuzz', 'tests', 'fuzz');
const SCRATCH = path.join(root, 'build', 'fuzz-runs');

/** npm test's exploration: executions per target and the seed. */
export const DEFAULT_RUNS = 20000;
export const DEFAULT_SEED = 20261130;

/** The target names, from tests/fuzz/fuzz_<name>.cpp. */
export async function fuzzTargets() {
  return (await readdir(FUZZ_DIR))
    .map((f) => f.match(/^fuzz_(\w+)\.cpp$/)?.[1])
    .filter(Boolean)
    .sort();
}

/** The committed corpus files of `target`, sorted by name (the same order on every machine). */
async function corpusFiles(target) {
  const dir = path.join(FUZZ_DIR, 'corpus', target);
  const names = await readdir(dir).catch(() => []);
  return names.sort().map((name) => path.join(dir, name));
}

const binary = (target) => path.join(BIN_DIR, `fuzz_${target}`);

// Limits shared by every mode: one input running 10 s is a hang, 2 GB of memory an out-of-memory.
const LIMITS = ['-rss_limit_mb=2048', '-timeout=10'];

/** The report of a failed run: what libFuzzer and the sanitizers said, from the first error line on. */
function printFinding(output) {
  const lines = output.split('\n');
  const first = lines.findIndex((l) => /ERROR|FUZZ_CHECK|runtime error|terminate called|==\d+==/.test(l));
  console.error(lines.slice(Math.max(0, first), first + 40).join('\n'));
}

/**
 * Runs libFuzzer on `target` in a fresh scratch folder `dir` (with an empty corpus/ inside for
 * the inputs it adds), starting from the committed corpus when `seeded`; resolves to the outcome.
 */
async function runLibFuzzer(target, dir, args, { seeded = false, fixedProcess = false } = {}) {
  await rm(dir, { recursive: true, force: true });
  const corpus = path.join(dir, 'corpus');
  await mkdir(corpus, { recursive: true });
  const files = seeded ? await corpusFiles(target) : [];
  const seedList = path.join(dir, 'seed-inputs.txt');
  await writeFile(seedList, files.join(','));
  const started = Date.now();
  // A fixed process: no address-space randomisation (setarch -R) and a fixed, minimal environment
  // (its size moves the stack), so no address can differ between runs or machines.
  const [command, prefix] = fixedProcess
    ? ['env', ['-i', 'PATH=/usr/bin:/bin', 'setarch', '-R', binary(target)]]
    : [binary(target), []];
  const { code, output } = await run(
    command,
    [
      ...prefix,
      ...LIMITS,
      '-print_final_stats=1',
      `-artifact_prefix=${dir}${path.sep}`,
      ...(files.length ? [`-seed_inputs=@${seedList}`] : []),
      ...args,
      ...(seeded ? [corpus] : []),
    ],
    { quiet: true },
  );
  const seconds = (Date.now() - started) / 1000;
  if (fixedProcess && /^setarch: /m.test(output)) {
    throw new Error(`fuzz_${target}: setarch -R (no address-space randomisation) failed here: ${output.trim()}`);
  }
  const stat = (name) => Number(output.match(new RegExp(`stat::${name}:\\s*(\\d+)`))?.[1] ?? 0);
  const crash = output.match(/(?:Test unit|artifact) written to (\S+)/)?.[1] ?? null;
  const ok = code === 0 && !crash;
  if (!ok) printFinding(output);
  // The inputs it added, as one short digest: two runs of the same exploration print the same.
  const added = (await readdir(corpus)).sort();
  const digest = createHash('sha256').update(added.join('\n')).digest('hex').slice(0, 12);
  return { code, seconds, crash, ok, execs: stat('number_of_executed_units'), added: added.length, digest };
}

/** Replays every committed corpus input of `target` once. */
async function replay(target) {
  const files = await corpusFiles(target);
  if (files.length === 0) return { ok: true, inputs: 0, seconds: 0 };
  const r = await runLibFuzzer(target, path.join(SCRATCH, target, 'replay'), files);
  return { ...r, inputs: files.length };
}

/**
 * Explores from the committed corpus (passed as seed inputs in sorted order, new inputs going to a
 * scratch corpus) for exactly `runs` executions with `seed`. What else could vary between runs is
 * off: corpus reloading (timed); addresses, which libFuzzer sees through the stack depth it tracks
 * and the compared values it mutates with (a fixed process, below); and those compare-guided
 * mutations themselves (-use_cmp=0, -use_memmem=0), as they see pointer values.
 */
function explore(target, { runs, seed }) {
  const args = [`-seed=${seed}`, `-runs=${runs}`, '-reload=0', '-use_cmp=0', '-use_memmem=0'];
  return runLibFuzzer(target, path.join(SCRATCH, target, 'explore'), args, { seeded: true, fixedProcess: true });
}

/** Runs `target` for `seconds` with a random seed, from its committed corpus. */
function random(target, seconds) {
  return runLibFuzzer(target, path.join(SCRATCH, target, 'random'), [`-max_total_time=${seconds}`], { seeded: true });
}

const reproduce = (target, crash) => `reproduce with build/fuzz/tests/fuzz/fuzz_${target} ${crash ?? '<input>'}`;

/**
 * Builds the fuzz preset and runs every target (or `only`): deterministically (replay, then
 * `runs` executions with `seed`) unless `seconds` is given, then randomly for that long.
 * Resolves to one result per target, { target, ok, ... }; never throws for a finding.
 */
export async function fuzz({ seconds = null, runs = DEFAULT_RUNS, seed = DEFAULT_SEED, only = null } = {}) {
  step('building the libFuzzer targets (preset fuzz: clang-14, ASan + UBSan)');
  await configurePreset('fuzz'); // a cache from another folder (a moved checkout) is started afresh
  await mustRun('cmake', ['--build', '--preset', 'fuzz']);
  const results = [];
  for (const target of only ? [only] : await fuzzTargets()) {
    if (seconds) {
      step(`fuzzing: fuzz_${target} for ${seconds} s, random seed`);
      const r = await random(target, seconds);
      const rate = Math.round(r.execs / Math.max(r.seconds, 1e-3));
      console.log(
        r.ok
          ? `  fuzz_${target}: ${r.execs} execs in ${r.seconds.toFixed(1)} s (${rate}/s), ${r.added} new inputs, no finding`
          : `  fuzz_${target}: FINDING (exit ${r.code}); input saved at ${r.crash ?? '(none written)'}; ${reproduce(target, r.crash)}`,
      );
      results.push({ target, ...r });
      continue;
    }
    step(`fuzzing: fuzz_${target}, replaying its corpus, then ${runs} runs with seed ${seed}`);
    const replayed = await replay(target);
    if (!replayed.ok) {
      console.log(
        `  fuzz_${target}: a committed corpus input FAILS (exit ${replayed.code}); replay each input of tests/fuzz/corpus/${target}/ to find it`,
      );
      results.push({ target, ...replayed });
      continue;
    }
    const r = await explore(target, { runs, seed });
    console.log(
      r.ok
        ? `  fuzz_${target}: ${replayed.inputs} corpus inputs replayed (${replayed.seconds.toFixed(1)} s); ` +
            `${r.execs} runs with seed ${seed} (${r.seconds.toFixed(1)} s), ${r.added} new inputs (digest ${r.digest}), no finding`
        : `  fuzz_${target}: FINDING after at most ${runs} runs with seed ${seed} (exit ${r.code}); input saved at ` +
            `${r.crash ?? '(none written)'}; ${reproduce(target, r.crash)}`,
    );
    results.push({ target, ...r, inputs: replayed.inputs });
  }
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const positive = (name, text) => {
    const value = Number(text);
    if (!(Number.isInteger(value) && value > 0)) {
      console.error(`fuzz: ${name} must be a positive whole number, got ${JSON.stringify(text)}`);
      process.exit(2);
    }
    return value;
  };
  const options = { only: arg('--target') ?? null };
  if (arg('--seconds') !== undefined) options.seconds = positive('--seconds', arg('--seconds'));
  if (arg('--runs') !== undefined) options.runs = positive('--runs', arg('--runs'));
  if (arg('--seed') !== undefined) options.seed = positive('--seed', arg('--seed'));
  try {
    const results = await fuzz(options);
    const failed = results.filter((r) => !r.ok);
    console.log(`\nfuzz: ${results.length - failed.length} targets clean, ${failed.length} with findings`);
    process.exit(failed.length ? 1 : 0);
  } catch (error) {
    console.error(`\nfuzz failed: ${error.message}`);
    process.exit(1);
  }
}
