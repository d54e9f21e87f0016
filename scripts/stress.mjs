// npm run test:stress: the browser layer of npm test (node --test tests/e2e), run again and again
// while busy loops keep every core loaded, to show that no browser test depends on the machine's
// timing. Timeouts stay exactly as npm test has them. Every failure of every run is reported, and
// the report is also written to build/test-results/stress-<date>.txt.
//
//   npm run test:stress -- [--runs 5] [--busy 2] [--layer tests/e2e] [--no-build]
//
// --busy N starts N processes that spin at normal priority (default: one per core, os.availableParallelism()).
// Builds first (as npm test does) unless --no-build. Exits non-zero if any run had a failure.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from './build.mjs';
import { root, step } from './lib.mjs';
import { nodeTests } from './node-tests.mjs';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    busy: { type: 'string', default: String(os.availableParallelism()) },
    layer: { type: 'string', default: 'tests/e2e' },
    'no-build': { type: 'boolean', default: false },
  },
});
const whole = (name, text, min) => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) {
    console.error(`test:stress: --${name} must be a whole number ≥ ${min}, got ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return n;
};
const runs = whole('runs', args.runs, 1);
const busy = whole('busy', args.busy, 0);

/** Starts a process that spins until killed (normal priority, its own process). */
function spinner() {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  child.unref();
  return child;
}

const lines = [];
const say = (text = '') => {
  console.log(text);
  lines.push(text);
};
const minutes = (ms) => `${(ms / 60000).toFixed(1)} min`;

if (!args['no-build']) await build();

const spinners = Array.from({ length: busy }, spinner);
const stop = () => spinners.forEach((c) => c.kill('SIGKILL'));
process.on('exit', stop);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

const started = new Date();
say(`test:stress: ${runs} runs of node --test ${args.layer}, ${busy} busy loops on ${os.availableParallelism()} cores`);
const outcomes = [];
for (let i = 1; i <= runs; i++) {
  step(`stress run ${i} of ${runs} (${busy} busy loops running)`);
  const t0 = Date.now();
  const r = await nodeTests(args.layer, `stress run ${i}`, { tapName: `stress-${i}` });
  outcomes.push(r);
  say(`run ${i}: ${r.passed} passed, ${r.failed} failed in ${minutes(Date.now() - t0)}`);
  for (const f of r.failures) say(`  FAILED ${f.name}${f.error ? ` — ${f.error}` : ''}`);
}
stop();

const failedRuns = outcomes.filter((r) => r.failed > 0).length;
const failures = outcomes.reduce((a, r) => a + r.failed, 0);
say('');
say(
  `test:stress: ${runs} runs under load in ${minutes(Date.now() - started.getTime())}: ` +
    `${runs - failedRuns} clean, ${failedRuns} with failures (${failures} failures in all)`,
);
const report = path.join(root, 'build', 'test-results', `stress-${started.toISOString().replace(/[:.]/g, '-')}.txt`);
await mkdir(path.dirname(report), { recursive: true });
await writeFile(report, `${lines.join('\n')}\n`);
console.log(`report: ${report}`);
process.exit(failedRuns ? 1 : 0);
