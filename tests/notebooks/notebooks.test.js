// Every lesson as a Jupyter notebook (scripts/notebooks.mjs, web/src/shell/notebook-*.js), run in a
// real kernel: Debian's nbclient and ipykernel under /usr/bin/python3 (run_notebook.py).
// For each lesson (or those ATTNBOOK_COURSE_ONLY names):
//   - the built dist/notebooks/<id>.ipynb and dist/notebooks/teacher/<id>.ipynb: a title, at least
//     3 Markdown cells and 1 code cell, cell ids, no <attn- tag, {{ placeholder or # needs: marker
//     left, each exercise followed by its answer cell: empty for a learner, filled for the teacher;
//   - in headless Chromium (the site with the strict CSP): every code cell the page shows is among
//     the notebook's code cells, and every Verified check of a lab with code (or written in the
//     lesson's text for a cell with code) has a Python form and is one assert; then one edit in
//     each lab that has code and a state (its first field whose edit changes the code and prints
//     no error), and the notebook downloaded from the page
//     carries the edited code (build/notebooks-edited/<id>.ipynb; a lesson whose code cells have no
//     state to edit, such as a fixed PyTorch cell, downloads the same code);
//   - the three notebooks run top to bottom with no error, their asserts holding (two at a time; a
//     notebook whose code cells are those of one already run is not run twice: its run stands);
//     and a notebook whose check does not hold fails, naming the check; the notebooks that train a
//     model print that it learned its task;
//   - each learner's notebook as it ran, rendered by nbconvert to HTML and opened in Chromium
//     (render.js): every formula typeset, every plt.show() a figure, nothing fetched.
// Needs a build (npm run build). Waits for signals only: the page's download, the cells' data-settled.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { downloadNotebook } from '../../scripts/notebooks.mjs';
import { notebookFromParts, notebookText } from '../../web/src/shell/notebook-format.js';
import { courseLessons, distDir, singleFileUrl, useBrowserAndSite, watch } from '../e2e/browser.js';
import { readRendered, toHtml } from './render.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const editedDir = path.resolve(here, '../../build/notebooks-edited');
const executedDir = path.resolve(here, '../../build/notebooks-run'); // as they ran, and as HTML (html/)
const site = useBrowserAndSite();
const lessons = await courseLessons();

const source = (cell) => [cell.source].flat().join('');
const codeOf = (notebook) => notebook.cells.filter((c) => c.cell_type === 'code').map(source);
const NEEDS = /^#\s*needs:[^\n]*\n?/;

/**
 * Runs one notebook file in the kernel: { ok, markdown, code, seconds, printed, error }; writes
 * the notebook as it ran to `executed` when given.
 */
function runNotebook(file, executed) {
  return new Promise((resolve, reject) => {
    const args = [path.join(here, 'run_notebook.py'), file, ...(executed ? [executed] : [])];
    const child = spawn('/usr/bin/python3', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d)); // the kernel's warnings: not a failure
    child.on('error', reject);
    child.on('close', () => {
      const line = out.trim().split('\n').at(-1);
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`run_notebook.py printed no result for ${file}: ${out}${err.slice(-2000)}`));
      }
    });
  });
}

/** The static rules every notebook of a lesson keeps. */
function checkShape(notebook, id, { teacher }) {
  const where = `${id}${teacher ? ' (teacher)' : ''}`;
  assert.equal(notebook.nbformat, 4, where);
  assert.ok(notebook.nbformat_minor >= 5, `${where}: cell ids need nbformat 4.5`);
  assert.equal(notebook.metadata.kernelspec.name, 'python3', where);
  const markdown = notebook.cells.filter((c) => c.cell_type === 'markdown');
  assert.ok(markdown.length >= 3, `${where}: ${markdown.length} Markdown cells`);
  assert.ok(codeOf(notebook).length >= 1, `${where}: no code cell`);
  assert.match(source(notebook.cells[0]), /^# \S/, `${where}: the first cell is not the title`);
  for (const cell of notebook.cells) {
    assert.match(cell.id, /^[a-zA-Z0-9-_]{1,64}$/, where);
    assert.doesNotMatch(source(cell), /<attn-|\{\{/, `${where}, cell ${cell.id}: a tag or placeholder is left`);
    if (cell.cell_type === 'code') assert.doesNotMatch(source(cell), NEEDS, `${where}, cell ${cell.id}`);
  }
  const answers = notebook.cells.filter((c) => c.metadata.tags?.includes('answer'));
  for (const answer of answers) {
    const text = source(answer).trim();
    if (teacher) assert.ok(text.length > 0, `${where}: the answer to ${answer.metadata.attnbook.exercise} is empty`);
    else assert.equal(text, '', `${where}: the learner's notebook shows an answer`);
  }
  return answers.length;
}

/**
 * In the page: every cell drawn and settled; the code texts the lesson shows, how many checks the
 * cells that show code have (each must have a Python form, attn-check `python`), and any without.
 */
async function pageCode(page) {
  return page.evaluate(async () => {
    await document.querySelector('attn-download-notebook').prepare();
    const deep = (root, name) =>
      [...root.querySelectorAll('*')].flatMap((el) => [
        ...(el.localName === name ? [el] : []),
        ...(el.shadowRoot ? deep(el.shadowRoot, name) : []),
      ]);
    const body = document.querySelector('.lesson-body');
    let checks = 0;
    const without = []; // checks of a lab with code that have no Python form
    const coded = new Set([...body.querySelectorAll('attn-code[for]')].map((code) => code.for)); // wired code
    for (const cell of body.querySelectorAll('*')) {
      if (!cell.localName.startsWith('attn-') || !cell.shadowRoot) continue;
      if (deep(cell.shadowRoot, 'attn-code').length === 0) continue; // asserts need the code's names
      coded.add(cell.id);
      for (const check of deep(cell.shadowRoot, 'attn-check')) {
        if (check.python) checks += 1;
        else without.push(`${cell.id || cell.localName}: ${check.label}`);
      }
    }
    // checks written in the lesson's text, wired to a cell that has code
    for (const check of body.querySelectorAll('attn-check')) {
      if (!coded.has(check.for)) continue;
      if (check.python) checks += 1;
      else without.push(`${check.for}: ${check.label} (written in the lesson, with no python attribute)`);
    }
    return { codes: deep(body, 'attn-code').map((el) => el.code), checks, without };
  });
}

const assertsOf = (notebook) =>
  notebook.cells
    .filter((c) => c.metadata.tags?.includes('checks'))
    .flatMap((c) => source(c).split('\n'))
    .filter((line) => line.startsWith('assert ')).length;

/** A value near `current` inside a numeric field's range, as a learner's nudge would give. */
function nearby({ min, max }, integer, current) {
  const lo = Number.isFinite(min) ? min : -Infinity;
  const hi = Number.isFinite(max) ? max : Infinity;
  const step = integer ? 1 : Number.isFinite(hi - lo) ? Number(((hi - lo) / 20).toPrecision(2)) : 0.5;
  const up = Number((current + step).toPrecision(6));
  return up <= hi ? up : Number((current - step).toPrecision(6)) >= lo ? Number((current - step).toPrecision(6)) : lo;
}

/** One edit of a field as permalink text ({ name: text }), or null for a field it cannot edit. */
function editOf(name, spec, value) {
  const integer = spec.type === 'integer' || spec.integer === true;
  const row = (list) => list.map(String).join(',');
  switch (spec.type) {
    case 'number':
    case 'integer':
      return { [name]: String(nearby(spec, integer, value)) };
    case 'boolean':
      return { [name]: value ? '0' : '1' };
    case 'enum':
      return { [name]: spec.values.find((v) => v !== value) };
    case 'mask':
      return { [name]: value === 'causal' ? 'none' : 'causal' };
    case 'numbers':
      return { [name]: row([nearby(spec, integer, value[0]), ...value.slice(1)]) };
    case 'matrix':
      return {
        [name]: [[nearby(spec, integer, value[0][0]), ...value[0].slice(1)], ...value.slice(1)].map(row).join(';'),
      };
    default:
      return null;
  }
}

/** The code texts a lesson cell feeds (its shadow tree's, and those wired to it) and any error it prints. */
function readCell(handle) {
  return handle.evaluate((host) => {
    const codes = [];
    let printedError = '';
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.localName === 'attn-code') codes.push(el.code);
        if (el.localName === 'attn-output' && /\w+(Error|Exception): /.test(String(el.text ?? '')))
          printedError = el.text;
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    if (host.shadowRoot) walk(host.shadowRoot);
    if (host.id)
      codes.push(
        ...[...document.querySelectorAll(`.lesson-body attn-code[for="${CSS.escape(host.id)}"]`)].map((el) => el.code),
      );
    return { codes, printedError, refused: host.task?.error || '' };
  });
}

/**
 * One edit in each lab of the page that feeds code: its first field whose edit is accepted,
 * changes the code and prints no error. Returns the edits made ("cell: field=text").
 */
async function editEachLab(page) {
  const cells = await page.evaluateHandle(() =>
    [...document.querySelectorAll('.lesson-body *')].filter(
      (el) =>
        el.localName !== 'attn-code' &&
        typeof el.getState === 'function' &&
        Object.keys(el.constructor.stateFields ?? {}).length,
    ),
  );
  const count = await cells.evaluate((list) => list.length);
  const made = [];
  for (let i = 0; i < count; i += 1) {
    const cell = await cells.evaluateHandle((list, n) => list[n], i);
    const settledCell = () =>
      cell.evaluate(
        (el) =>
          new Promise((resolve) => {
            if (el.hasAttribute('data-settled')) return resolve();
            const observer = new MutationObserver(
              () => el.hasAttribute('data-settled') && (observer.disconnect(), resolve()),
            );
            observer.observe(el, { attributes: true, attributeFilter: ['data-settled'] });
          }),
      );
    await settledCell();
    const before = await readCell(cell);
    if (before.codes.length === 0) continue;
    const { fields, state, name } = await cell.evaluate((el) => ({
      fields: el.constructor.stateFields,
      state: el.getState(),
      name: el.id || el.localName,
    }));
    let done = false;
    for (const [field, spec] of Object.entries(fields)) {
      const edit = state[field] === null ? null : editOf(field, spec, state[field]);
      if (!edit) continue;
      const refused = await cell.evaluate((el, texts) => {
        try {
          el.setStateFromText(texts);
          return null;
        } catch (error) {
          return error.message;
        }
      }, edit);
      if (refused !== null) continue;
      await settledCell();
      const after = await readCell(cell);
      const changed = JSON.stringify(after.codes) !== JSON.stringify(before.codes);
      if (changed && !after.printedError && !after.refused) {
        made.push(
          `${name}: ${Object.entries(edit)
            .map(([k, v]) => `${k}=${v}`)
            .join()}`,
        );
        done = true;
        break;
      }
      await cell.evaluate((el, saved) => Object.assign(el, saved), state); // back to the lesson's value
      await settledCell();
    }
    assert.ok(done, `${name}: no edit of its fields changed its code without an error`);
  }
  return made;
}

/**
 * The kernel runs, two at a time, in the background while the browser tests go on: each notebook
 * file is queued once it exists (the built ones at once, the edited one when downloaded). A
 * notebook whose code cells are those of one already queued is not run again: that run stands.
 */
const KERNELS = 2;
const queue = [];
let running = 0;
const runsByCode = new Map(); // code cells (JSON) -> the promise of their run

function pump() {
  while (running < KERNELS && queue.length) {
    const { file, executed, resolve } = queue.shift();
    running += 1;
    runNotebook(file, executed)
      .then(resolve, (error) => resolve({ ok: false, error: error.message }))
      .finally(() => {
        running -= 1;
        pump();
      });
  }
}

/**
 * Queues `file` for the kernel unless the same code cells are queued already. Resolves to the
 * run's result, the file that ran and where it was written as it ran ({ ...result, file, executed }).
 */
async function kernelRun(file, executed) {
  // read at once, so the first of two notebooks with the same code is the one that runs
  const code = JSON.stringify(codeOf(JSON.parse(readFileSync(file, 'utf8'))));
  if (!runsByCode.has(code)) {
    const run = new Promise((resolve) => queue.push({ file, executed, resolve })).then((result) => ({
      ...result,
      file,
      executed,
    }));
    runsByCode.set(code, run);
    pump();
  }
  return runsByCode.get(code);
}

const files = (id) => ({
  learner: path.join(distDir, 'notebooks', `${id}.ipynb`),
  executed: path.join(executedDir, `${id}.ipynb`), // the learner's, as it ran, for nbconvert
  teacher: path.join(distDir, 'notebooks', 'teacher', `${id}.ipynb`),
  edited: path.join(editedDir, `${id}.ipynb`),
});
const runs = new Map(); // lesson id -> { learner, teacher, edited } promises of kernel results
// the slowest first (heads-that-copy trains for about 40 s), so no kernel idles at the end
const SLOWEST = ['heads-that-copy', 'learning-to-attend'];
const byTime = [...lessons].sort((a, b) => Number(SLOWEST.includes(b.id)) - Number(SLOWEST.includes(a.id)));
for (const { id } of byTime) {
  const { learner, teacher, executed } = files(id);
  runs.set(id, { learner: kernelRun(learner, executed).catch((e) => ({ ok: false, error: e.message })) });
  runs.get(id).teacher = kernelRun(teacher).catch((e) => ({ ok: false, error: e.message }));
}

for (const { id } of lessons) {
  describe(id, () => {
    const file = files(id);
    const notebooks = {};

    test('the built notebook and the teacher’s: title, cells, ids, no tag left, the answers only for the teacher', async () => {
      notebooks.learner = JSON.parse(await readFile(file.learner, 'utf8'));
      notebooks.teacher = JSON.parse(await readFile(file.teacher, 'utf8'));
      const exercises = checkShape(notebooks.learner, id, { teacher: false });
      assert.equal(checkShape(notebooks.teacher, id, { teacher: true }), exercises);
    });
    test('from the page: every code cell is in the notebook, and one edit in each lab carries over', async (t) => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      try {
        await page.goto(`${site.server.url}#/${id}`);
        await page.locator('attn-download-notebook').waitFor();
        const fresh = JSON.parse(await downloadNotebook(page));
        assert.deepEqual(codeOf(fresh), codeOf(notebooks.learner), `${id}: the page and the build disagree`);
        const shown = await pageCode(page);
        const inNotebook = new Set(codeOf(fresh));
        assert.deepEqual(shown.without, [], `${id}: every Verified check of a lab with code has a Python form`);
        assert.equal(assertsOf(fresh), shown.checks, `${id}: one assert per Verified check`);
        t.diagnostic(`checks asserted in the notebook: ${shown.checks}`);
        for (const code of shown.codes) {
          assert.ok(
            inNotebook.has(code.replace(NEEDS, '').trim()),
            `${id}: a code cell is not in the notebook:\n${code}`,
          );
        }
        const edits = await editEachLab(page);
        t.diagnostic(`edits: ${edits.join('; ') || 'none (no lab both feeds code and has a state)'}`);
        const edited = await downloadNotebook(page);
        const editedCode = codeOf(JSON.parse(edited));
        if (edits.length) {
          assert.notDeepEqual(
            editedCode,
            codeOf(fresh),
            `${id}: the edits (${edits.join('; ')}) left the code as it was`,
          );
        } else {
          // no lab both feeds code and has a field to edit (e.g. a fixed PyTorch cell): the code stays
          assert.deepEqual(editedCode, codeOf(fresh), `${id}: the code changed with no edit`);
        }
        checkShape(JSON.parse(edited), id, { teacher: false });
        await mkdir(editedDir, { recursive: true });
        await writeFile(file.edited, edited);
        runs.get(id).edited = kernelRun(file.edited);
        assert.deepEqual(problems, [], `${id}: the page reported problems`);
      } finally {
        await page.close();
      }
    });
  });
}

test('the offline single file, from file://, writes the same notebook with no network', async () => {
  const { id } = lessons[0];
  const page = await site.browser.context.newPage();
  const { problems } = watch(page); // any request off the page's own file is a problem
  try {
    await page.goto(`${singleFileUrl}#/${id}`);
    await page.locator('attn-download-notebook').waitFor();
    const notebook = JSON.parse(await downloadNotebook(page));
    const built = JSON.parse(await readFile(files(id).learner, 'utf8'));
    assert.deepEqual(notebook, built);
    assert.match(
      await page.locator('attn-download-notebook .copy-status').textContent(),
      new RegExp(`Saved ${id}\\.ipynb`),
    );
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('the kernel layer fails a notebook whose check does not hold, naming the check', async () => {
  const file = path.join(editedDir, 'a-failing-check.ipynb');
  const parts = [
    { kind: 'markdown', text: 'One.' },
    { kind: 'markdown', text: 'Two.' },
    { kind: 'code', source: 'import numpy as np\nA = np.array([[0.6, 0.6]])', cell: 'am' },
    {
      kind: 'checks',
      cell: 'am',
      checks: [{ label: 'max |row sum − 1|', python: 'abs(A.sum(-1) - 1).max()', threshold: 1e-6 }],
    },
  ];
  await mkdir(editedDir, { recursive: true });
  await writeFile(file, notebookText(notebookFromParts({ id: 'failing-check', title: 'A check that fails', parts })));
  const result = await runNotebook(file);
  assert.equal(result.ok, false);
  assert.match(result.error, /AssertionError: max \|row sum − 1\| ≤ 0\.000001/);
});

/**
 * The lessons whose notebooks train a model, and what their printout shows once the model has
 * learned its task (the learner's and the teacher's notebook, in the lesson's own settings): a
 * notebook that trained for 0 steps, or learned nothing, fails here though it ran without error.
 */
const TRAINED = {
  'queries-keys-values': {
    line: /after (\d+) steps: (\d+) of 16 inputs answered right/,
    learned: ([, steps, right]) => Number(steps) > 0 && Number(right) === 16,
    says: 'trained for some steps and answers all 16 inputs',
  },
  'learning-to-attend': {
    line: /^accuracy (\d\.\d+)$/m,
    learned: ([, accuracy]) => Number(accuracy) >= 0.95,
    says: 'reaches an accuracy of at least 0.95',
  },
  'heads-that-copy': {
    line: /first copy accuracy (\d\.\d+)[^\n]*\nsecond copy accuracy (\d\.\d+)/,
    learned: ([, first, second]) => Number(second) >= Number(first) + 0.2,
    says: 'copies: the second copy at least 0.2 more accurate than the first',
  },
};

// After the browser tests: the kernel runs have been going on meanwhile.
describe('in a Jupyter kernel', () => {
  for (const [id, { line, learned, says }] of Object.entries(TRAINED).filter(([id]) => runs.has(id))) {
    test(`${id}: the notebook trains its model, which learns the task`, async (t) => {
      for (const kind of ['learner', 'teacher']) {
        const result = await runs.get(id)[kind];
        assert.ok(result.ok, `${id} (${kind} notebook) failed in the kernel:\n${result.error}`);
        const found = result.printed.match(line);
        assert.ok(found, `${id} (${kind} notebook): no line ${line} in its printout:\n${result.printed.slice(-1500)}`);
        t.diagnostic(`${kind}: ${found[0].replace(/\n/g, '; ')}`);
        assert.ok(learned(found), `${id} (${kind} notebook) should have ${says}; it printed ${found[0]}`);
      }
    });
  }

  for (const { id } of lessons) {
    test(`${id}: the learner’s, the teacher’s and the edited notebook run top to bottom`, async (t) => {
      const run = runs.get(id);
      assert.ok(run.edited, `${id}: no edited notebook was downloaded`);
      for (const kind of ['learner', 'teacher', 'edited']) {
        const result = await run[kind];
        const ran = path.relative(path.resolve(here, '../..'), result.file ?? '');
        t.diagnostic(
          result.file === files(id)[kind]
            ? `${kind}: ${result.code} code cells ran in ${result.seconds} s`
            : `${kind}: the same code cells as ${ran}, whose run stands`,
        );
        assert.ok(result.ok, `${id} (${kind} notebook) failed in the kernel:\n${result.error}`);
      }
    });
  }
});

/** The lessons whose notebook draws a figure with Matplotlib, as the source notebooks did. */
const DRAWS = [
  'convex-hull',
  'softmax-temperature',
  'attention-matrix',
  'retrieval',
  'causal-masking',
  'learning-to-attend',
];

test('rendered by nbconvert, as Jupyter shows them: every formula typeset, every figure drawn, nothing fetched', async (t) => {
  await mkdir(executedDir, { recursive: true });
  const ran = [];
  for (const { id } of lessons) {
    const result = await runs.get(id).learner;
    assert.ok(result.ok && result.executed, `${id}: the learner’s notebook did not run:\n${result.error}`);
    ran.push({ id, file: result.executed });
  }
  const pages = await toHtml(
    ran.map((r) => r.file),
    path.join(executedDir, 'html'),
  );
  for (const [i, { id }] of ran.entries()) {
    const seen = await readRendered(site.browser.context, pages[i]);
    t.diagnostic(
      `${id}: ${seen.typeset} of ${seen.formulas} formulas typeset, ${seen.drawn} of ${seen.figures} figures`,
    );
    assert.ok(seen.formulas > 0, `${id}: no maths in the rendered notebook`);
    assert.equal(seen.typeset, seen.formulas, `${id}: formulas MathJax did not typeset`);
    assert.deepEqual(seen.errors, [], `${id}: formulas MathJax could not read`);
    assert.deepEqual(seen.raw, [], `${id}: Markdown with maths left as $ text`);
    assert.equal(seen.drawn, seen.figures, `${id}: a plt.show() cell shows no figure`);
    if (DRAWS.includes(id)) assert.ok(seen.figures > 0, `${id}: its notebook draws no figure`);
    assert.deepEqual(seen.offline, [], `${id}: the rendered notebook fetched from the network`);
  }
});
