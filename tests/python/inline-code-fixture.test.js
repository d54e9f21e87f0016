// The Python layer (code-cells.test.js) run on a course of one fixture lesson whose code cells are
// written in the lesson's Markdown (tests/fixtures/lessons-inline-code/inline-code.md): two wired
// to a cell (for="<id>": a bar chart's scores, and an attention cell's own PyTorch code), one
// correct on its own, and one that prints a name it never defined. The fixture course is built
// with tests/fixtures/build-site.mjs into build/python-inline-code/site, then code-cells.test.js
// runs on it in a child node (ATTNBOOK_LESSONS_DIR and ATTNBOOK_DIST_DIR, tests/e2e/browser.js),
// its results read one JSON line per test (results-reporter.mjs). It must fail on the broken cell
// alone, naming it, with the NameError's traceback, and pass the others, the wired ones in the
// states of their cell.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, test } from 'node:test';
import { buildLessonsSite, root } from '../fixtures/build-site.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const LESSONS = 'tests/fixtures/lessons-inline-code';
const DIST = 'build/python-inline-code'; // site/: the fixture course, as dist/site is the project's
const LESSON = 'inline-code';
const BROKEN = 'attn-code #3, code cell 1 (NumPy: the row sums, in the lesson text), as the lesson opens';
const ALONE = 'attn-code #2, code cell 1 (NumPy: a convex combination of three values, in the lesson text)';
const SCORES = 'scores, code cell 1 (NumPy: softmax of the scores, in the lesson text)';
const ATTENTION = 'att, code cell 1 (PyTorch, in the lesson text)';

/** What the child run reported: its exit code, its output, and every test that ended. */
const child = { code: null, output: '', results: [] };
/** The code cells' tests (inside the lesson's suite): [{ name, ok, error }]. */
const cellTests = () => child.results.filter((r) => r.nesting === 1);
/** The tests of `prefix` (a cell and code cell), by their first state: Map(state -> result). */
const byState = (prefix) =>
  new Map(
    cellTests()
      .filter((r) => r.name.startsWith(`${prefix}, `))
      .map((r) => [r.name.slice(prefix.length + 2).replace(/ \(\+\d+ states?, same code\)$/, ''), r]),
  );
const context = () => `code-cells.test.js exited with ${child.code}; its output:\n${child.output.slice(-4000)}`;

before(async () => {
  await buildLessonsSite(LESSONS, path.join(DIST, 'site'));
  const env = {
    ...process.env,
    ATTNBOOK_LESSONS_DIR: path.join(root, LESSONS),
    ATTNBOOK_DIST_DIR: path.join(root, DIST),
  };
  delete env.CODE_CELLS_LESSONS; // every lesson of the fixture course
  delete env.NODE_TEST_CONTEXT; // the child reports to its own stdout, not to this test runner
  const run = spawn(
    process.execPath,
    [`--test-reporter=${path.join(here, 'results-reporter.mjs')}`, path.join(here, 'code-cells.test.js')],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  run.stdout.on('data', (d) => (stdout += d));
  run.stderr.on('data', (d) => (child.output += d));
  child.code = await new Promise((resolve, reject) => {
    run.on('error', reject);
    run.on('close', resolve);
  });
  for (const line of stdout.split('\n').filter(Boolean)) {
    if (line.startsWith('{')) child.results.push(JSON.parse(line));
    else child.output += `${line}\n`;
  }
});

test('the Python layer fails on the inline code cell that prints an undefined name, and only on it', () => {
  assert.notEqual(child.code, 0, context());
  const failed = cellTests().filter((r) => !r.ok);
  assert.deepEqual(
    failed.map((r) => r.name),
    [BROKEN],
    context(),
  );
  const lesson = child.results.find((r) => r.nesting === 0 && r.name === LESSON);
  assert.equal(lesson?.ok, false, `the lesson's suite fails too\n${context()}`);
});

test('the failure names the lesson and the cell, with the NameError, its traceback and the code', () => {
  const { error } = cellTests().find((r) => r.name === BROKEN) ?? {};
  assert.ok(error, context());
  const [where, verdict, traceback, code] = error.split('\n\n');
  assert.equal(
    where,
    'inline-code / attn-code #3 / code cell 1 (NumPy: the row sums, in the lesson text), state: as the lesson opens',
  );
  assert.equal(
    verdict,
    "expected it to run without an error; it raised NameError: name 'wieghts' is not defined",
    error,
  );
  assert.match(traceback, /^traceback \(last lines\):\nTraceback \(most recent call last\):\n/, error);
  assert.match(traceback, /line 3, in <module>\n\s+print\(wieghts\.sum\(axis=-1\)\)\n/, error);
  assert.match(traceback, /\nNameError: name 'wieghts' is not defined$/, error);
  assert.equal(
    code,
    'code:\nimport numpy as np\nweights = np.array([[0.2, 0.8], [0.6, 0.4]])\nprint(wieghts.sum(axis=-1))',
  );
});

test('a correct inline code cell on its own runs once, as the lesson opens, and passes', () => {
  const runs = byState(ALONE);
  assert.deepEqual([...runs.keys()], ['as the lesson opens'], context());
  assert.equal(runs.get('as the lesson opens').ok, true, context());
});

test("an inline code cell wired to a cell runs in that cell's states, and passes", () => {
  const runs = byState(SCORES);
  // each state below gave the code another text (a state that did not would be folded into the
  // lesson's own, "+N states, same code"): the code follows the bars' values
  for (const state of [
    'as the lesson opens',
    'values=[every entry -1000000000]',
    'values=[every entry 1000000000]',
    'values with 1 entries',
    'values with 256 entries',
  ]) {
    assert.ok(runs.has(state), `no run of ${SCORES} for ${state}: ${[...runs.keys()].join('; ')}\n${context()}`);
  }
  for (const [state, result] of runs) assert.equal(result.ok, true, `${state}: ${result.error}`);
});

test("an attention cell's own code, shown by an inline code cell, runs in the states the cell computes", () => {
  const runs = byState(ATTENTION);
  for (const state of ['as the lesson opens', 'mask=none', 'temperature=0', 'temperature=Infinity', 'q with 16 rows']) {
    assert.ok(runs.has(state), `no run of ${ATTENTION} for ${state}: ${[...runs.keys()].join('; ')}\n${context()}`);
  }
  // keys without as many values: the cell shows its input error, not weights, and its code is not run
  const refused = [...runs.keys()].filter((state) => /^(k|v) with \d+ rows/.test(state));
  assert.deepEqual(refused, [], context());
  for (const [state, result] of runs) assert.equal(result.ok, true, `${state}: ${result.error}`);
});
