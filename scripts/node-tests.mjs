// Runs one folder of node --test files (a test layer), streaming the spec report and keeping a
// TAP copy under build/test-results/, from which it counts the results and names the failures.
import { mkdir, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { root, run, step } from './lib.mjs';

/**
 * The failing tests of a TAP report, each "file › suite › test: first line of its error".
 * @param {string} report
 */
export function failuresOf(report) {
  const failures = [];
  const names = []; // the names of the tests enclosing the current line, by depth
  const lines = report.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const test = lines[i].match(/^(\s*)(ok|not ok) \d+ - (.*?)(?: # .*)?$/);
    if (test) {
      const depth = test[1].length / 4;
      names.length = depth;
      names[depth] = test[3];
      if (test[2] === 'not ok') {
        // its YAML block follows; take the first line of `error:`
        let error = '';
        for (let j = i + 1; j < lines.length && !/^\s*(ok|not ok) \d+/.test(lines[j]); j++) {
          const found = lines[j].match(/^\s*error: \|?-?\s*(.*)$/);
          if (found) {
            error = found[1] || (lines[j + 1] ?? '').trim();
            break;
          }
        }
        failures.push({ depth, name: names.slice(0, depth + 1).join(' › '), error: error.replace(/^'|'$/g, '') });
      }
      continue;
    }
    const subtest = lines[i].match(/^(\s*)# Subtest: (.*)$/);
    if (subtest) names[subtest[1].length / 4] = subtest[2];
  }
  // a failed suite is reported beside the failed tests inside it: keep the innermost
  return failures.filter((f) => !failures.some((g) => g !== f && g.name.startsWith(`${f.name} › `)));
}

/**
 * Runs every *.test.js of `dir` with node --test; resolves to { layer, passed, failed, failures }.
 * A runner that crashed before reporting counts as one failure. `concurrency`: how many test files
 * run at once (node's default is one less than the cores: one file at a time on a 2-core machine).
 * `timeout`: how long one test (or suite) may take before it fails, in ms: a test that hangs (a
 * page that never answers) fails by name instead of holding the run until CI gives up. `first`:
 * file names that start before the others (in that order; the rest in name order), the longest
 * ones, so that no long file starts last while the other files have finished.
 */
export async function nodeTests(dir, layer, { tapName = path.basename(dir), concurrency, timeout, first = [] } = {}) {
  step(`testing: ${layer} (node --test ${dir})`);
  const all = (await readdir(path.join(root, dir))).filter((f) => f.endsWith('.test.js')).sort();
  const missing = first.filter((f) => !all.includes(f));
  if (missing.length > 0) throw new Error(`nodeTests(${dir}): no test file named ${missing.join(', ')}`);
  const files = [...first, ...all.filter((f) => !first.includes(f))];
  const tap = path.join(root, 'build', 'test-results', `${tapName}.tap`);
  await mkdir(path.dirname(tap), { recursive: true });
  const { code } = await run(process.execPath, [
    '--test',
    ...(concurrency ? [`--test-concurrency=${concurrency}`] : []),
    ...(timeout ? [`--test-timeout=${timeout}`] : []),
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
  return {
    layer,
    passed,
    failed: code !== 0 && failed === 0 ? 1 : failed,
    failures:
      code !== 0 && failed === 0 ? [{ name: `${dir}: the runner exited ${code}`, error: '' }] : failuresOf(report),
  };
}
