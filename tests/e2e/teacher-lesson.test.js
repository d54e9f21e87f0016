// A lesson in Markdown alone (web/README.md, "Writing a lesson"): a teacher adds one file,
// web/lessons/<id>.md, written only with the documented generic cells, and changes nothing else.
// The fixture tests/fixtures/lessons/teacher/teacher-lesson.md is such a lesson: two exercises (one
// with "Try another" questions written in it, neither with lesson=), a figure held back until the
// first is answered, a check of that figure, a code cell, no credit line. This test copies it into
// a copy of web/lessons, builds that course as the project's own build does (the site's lesson
// page and the single file, vite.config.js: tests/fixtures/build-site.mjs buildCourse), then runs
// the course-wide tests on it, as `npm test` would run them with the lesson in web/lessons:
// - the JS lesson tests (tests/js/lessons.test.js, lessons-authoring.test.js) on that course;
// - every tests/e2e/course-*.test.js on that build, for the new lesson (ATTNBOOK_COURSE_ONLY; the
//   project's lessons are run by those files in the ordinary run), including the home page's list
//   of every lesson, in the site and in the single file;
// - the Python layer's code cells (tests/python/code-cells.test.js) for the new lesson;
// - the notebook layer (tests/notebooks/notebooks.test.js) on the lesson's notebooks, written by
//   that build's page as `npm run build` writes the project's (scripts/notebooks.mjs): its check,
//   written in Markdown with a python attribute, is an assert after the code it needs.
// And in that build, what the lesson relies on: its exercises save progress under the lesson's id
// with no lesson= written; Try another asks the questions written in it, in order; the check of the
// held-back figure, and its Verified line, say which exercise they wait for, then pass.
// Each must pass, and the report must show the new lesson's own tests among the passes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { before, test } from 'node:test';
import { writeNotebooks } from '../../scripts/notebooks.mjs';
import { buildCourse, root } from '../fixtures/build-site.mjs';
import { launch, serveDir, settled, watch } from './browser.js';

const FIXTURE = 'tests/fixtures/lessons/teacher/teacher-lesson.md';
const LESSON = path.basename(FIXTURE, '.md');
const WORK = 'build/teacher-course'; // lessons/: the course with the lesson added; dist/: its build
const env = {
  ATTNBOOK_LESSONS_DIR: path.join(root, WORK, 'lessons'),
  ATTNBOOK_DIST_DIR: path.join(root, WORK, 'dist'),
};

/**
 * Runs `node --test` on `files` with `extra` in its environment, from the repository; resolves to
 * { code, tap } (the TAP report). The runner this test runs under marks its children with
 * NODE_TEST_CONTEXT, which a nested runner must not see: it would report to this one instead.
 */
function nodeTest(files, extra) {
  const childEnv = { ...process.env, ...env, ...extra };
  delete childEnv.NODE_TEST_CONTEXT;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=tap', ...files], {
      cwd: root,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tap = '';
    child.stdout.on('data', (chunk) => (tap += chunk));
    child.stderr.on('data', (chunk) => (tap += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, tap }));
  });
}

/** The names of the passed and the failed tests in a TAP report. */
function outcomes(tap) {
  const of = (status) => [...tap.matchAll(new RegExp(`^\\s*${status} \\d+ - (.*?)(?: # .*)?$`, 'gm'))].map((m) => m[1]);
  return { passed: of('ok'), failed: of('not ok') };
}

before(async () => {
  const lessons = path.join(root, WORK, 'lessons');
  await rm(path.join(root, WORK), { recursive: true, force: true });
  await mkdir(lessons, { recursive: true });
  const course = path.join(root, 'web', 'lessons');
  for (const name of (await readdir(course)).filter((n) => n.endsWith('.md'))) {
    await copyFile(path.join(course, name), path.join(lessons, name));
  }
  await copyFile(path.join(root, FIXTURE), path.join(lessons, `${LESSON}.md`));
  await buildCourse(path.join(WORK, 'lessons'), path.join(WORK, 'dist'));
  await writeNotebooks({ dist: env.ATTNBOOK_DIST_DIR, only: new Set([LESSON]) });
});

test('the JS lesson tests pass on the course with the lesson added', async () => {
  const { code, tap } = await nodeTest(['tests/js/lessons.test.js', 'tests/js/lessons-authoring.test.js'], {});
  const { passed, failed } = outcomes(tap);
  assert.deepEqual(failed, [], tap.slice(-3000));
  assert.equal(code, 0, tap.slice(-3000));
  assert.ok(passed.some((name) => name.startsWith('the course: every lesson builds')));
});

test('every course-wide browser test passes for the lesson, which is listed on the home page and renders in the single file', async () => {
  const files = (await readdir(path.join(root, 'tests', 'e2e')))
    .filter((name) => /^course-.*\.test\.js$/.test(name))
    .sort()
    .map((name) => path.join('tests', 'e2e', name));
  assert.ok(files.length >= 3, `course-wide test files: ${files.join(', ')}`);
  const { code, tap } = await nodeTest(files, { ATTNBOOK_COURSE_ONLY: LESSON });
  const { passed, failed } = outcomes(tap);
  assert.deepEqual(failed, [], tap.slice(-4000));
  assert.equal(code, 0, tap.slice(-4000));
  // the lesson's own tests ran and passed: course-render's in each target and course-layout's at 390
  // (course-audit audits it among the others, in one test per size)
  const own = passed.filter((name) => name.includes(LESSON));
  assert.ok(own.length >= 3, `the lesson's tests that passed: ${own.join('; ')}`);
  // course-render: the lesson's page in each target, and what else is checked on it there
  for (const [suite, ...also] of [
    [
      'the static site over http',
      'before an attempt: checks and exports folded, the Verified lines show, figure text ≥ 11 px, maths rendered',
      'at least two exercises, nothing revealed before an attempt, the figure after one',
      'labs use the margin, the contents sit in the left margin, nothing overlaps',
      'no serious or critical axe violation, light and dark',
      'each slider and draggable control is visible together with a figure it changes',
    ],
    ['dist/attnbook.html from file://', 'every KaTeX font its maths uses is bundled and loads'],
  ]) {
    const at = tap.indexOf(`# Subtest: ${suite}`);
    assert.ok(at >= 0, `${suite} ran`);
    const part = tap.slice(at, tap.indexOf(`- ${suite}`, at));
    assert.match(part, /\n\s+ok \d+ - the home page lists every lesson in course order, with its summary\n/);
    const lesson = part.slice(part.indexOf(`# Subtest: ${LESSON}\n`));
    assert.match(lesson, new RegExp(`\\n\\s+ok \\d+ - ${LESSON}\\n`), `${suite}: ${LESSON} passed`);
    assert.match(lesson, /\n\s+ok \d+ - maths, every figure drawn, every check passing\n/);
    const passedHere = lesson.split('\n').map((line) => line.trim().match(/^ok \d+ - (.*)$/)?.[1]);
    for (const name of also) assert.ok(passedHere.includes(name), `${suite}: ${name}`);
  }
});

test('the Python code-cell layer passes with the lesson in the course', async () => {
  const { code, tap } = await nodeTest(['tests/python/code-cells.test.js'], { CODE_CELLS_LESSONS: LESSON });
  const { passed, failed } = outcomes(tap);
  assert.deepEqual(failed, [], tap.slice(-3000));
  assert.equal(code, 0, tap.slice(-3000));
  assert.ok(passed.includes(LESSON), `the lesson's cells were collected: ${passed.join('; ')}`);
});

test('the notebook layer passes for the lesson: built, downloaded after an edit, run in a kernel', async () => {
  const { code, tap } = await nodeTest(['tests/notebooks/notebooks.test.js'], { ATTNBOOK_COURSE_ONLY: LESSON });
  const { passed, failed } = outcomes(tap);
  assert.deepEqual(failed, [], tap.slice(-3000));
  assert.equal(code, 0, tap.slice(-3000));
  for (const name of [
    LESSON,
    'from the page: every code cell is in the notebook, and one edit in each lab carries over',
    `${LESSON}: the learner’s, the teacher’s and the edited notebook run top to bottom`,
  ]) {
    assert.ok(passed.includes(name), `${name}: passed (${passed.join('; ')})`);
  }
  assert.match(tap, /# checks asserted in the notebook: 1\n/, 'its Markdown check is an assert');
});

test('in that build: progress under the lesson, Try another as written, a check that says what it waits for', async () => {
  const browser = await launch();
  const server = await serveDir(path.join(env.ATTNBOOK_DIST_DIR, 'site'));
  try {
    const page = await browser.context.newPage();
    const { problems } = watch(page);
    await page.goto(`${server.url}#/${LESSON}`);
    await settled(page.locator('attn-app'));
    const verified = page.locator('.lesson-body > attn-verified');
    const summary = () => verified.evaluate((el) => el.shadowRoot.querySelector('summary').textContent.trim());
    assert.equal(await summary(), 'Waits for Exercise 1: the weight of position 0 (0 of 1 check done)');
    assert.match(
      await page.locator('attn-check').evaluate((el) => el.shadowRoot.textContent.replace(/\s+/g, ' ')),
      /max \|sum of the weights − 1\|: waits for Exercise 1: the weight of position 0/,
    );
    assert.equal(await page.locator('.sources').count(), 0, 'no credit lines, no Sources');

    const exercise = page.locator('attn-exercise#w0');
    const field = exercise.getByRole('textbox', { name: 'Your answer' });
    const verdict = () => exercise.evaluate((el) => el.shadowRoot.querySelector('.verdict').textContent.trim());
    const check = async (answer) => {
      await field.fill(answer);
      await exercise.locator('.check-button').click();
      await settled(exercise);
      return verdict();
    };
    assert.match(await check('0.645'), /^Not yet — 0\.645 is 2 \/ 3\.1/);
    assert.deepEqual(
      await page.evaluate((key) => JSON.parse(localStorage.getItem(key)), `attnbook:exercise:${LESSON}/w0`),
      { status: 'shown', attempts: 1, score: 0 },
      'saved under the lesson the exercise is in: shown, since the wrong answer opened the figure that shows it',
    );
    // the held-back figure shows; its check passes and the line says so
    await page.locator('attn-reveal[data-revealed="true"]').waitFor();
    await page.locator('#att').scrollIntoViewIfNeeded();
    await settled(page.locator('attn-app'));
    await page.waitForFunction(() => document.querySelector('.lesson-body > attn-verified').dataset.status === 'pass');
    assert.equal(await summary(), 'Verified ✓ (1 check)');

    // Try another: the question written in the lesson, then (seed 2) the same one again, the only one
    const prompt = () => exercise.evaluate((el) => el.shadowRoot.querySelector('#prompt')?.textContent.trim());
    await exercise.getByRole('button', { name: 'Try another' }).click();
    await settled(exercise);
    assert.match(await prompt(), /^Now the scores are s = \(1, 2, 3\)\. What is α2/);
    assert.match(await check('0.5'), /^Not yet — 0\.5 is 3 \/ 6/);
    await exercise.getByRole('button', { name: 'Show hint' }).click();
    assert.match(
      await exercise.evaluate((el) => el.shadowRoot.querySelector('#panel-hint').textContent),
      /exp\(1\), exp\(2\), exp\(3\) are about 2\.718/,
    );
    assert.match(await check('0.665'), /^Correct — 0\.665 matches the answer/);
    assert.equal(await exercise.getAttribute('data-progress'), 'solved', 'a variant solved after a diagnosis counts');
    await exercise.getByRole('button', { name: 'Try another' }).click();
    await settled(exercise);
    assert.match(await prompt(), /^Now the scores are s = \(1, 2, 3\)/, 'after the last, the first again');
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await browser.close();
    await server.close();
  }
});
