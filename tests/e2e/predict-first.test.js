// Exercises in the project's own lessons (tests/fixtures/lessons/project-lessons.js; headless
// Chromium, the built site): a lesson's own progress line follows solving and Reset, and
// assignment links (`at=`) open a lesson at an exercise. The predict-first rules every lesson
// follows are checked over the whole course by course-render.test.js (commit-first.js).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { settled, useBrowserAndSite, watch } from './browser.js';
import { exercisesSolved } from '../../web/src/shell/progress.js';
import { PROJECT_LESSONS } from '../fixtures/lessons/project-lessons.js';
import { mathPlain } from '../../web/src/cells/base/math.js';

const site = useBrowserAndSite();

/** A fresh page with empty storage at `hash`, the app settled. */
async function open(hash) {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(site.server.url);
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${site.server.url}${hash}`);
  await settled(page.locator('attn-app'));
  return { page, problems };
}

/** The exercise ids of a lesson, read from its Markdown, in page order. */
async function exerciseIds(lesson) {
  const text = await readFile(new URL(`../../web/lessons/${lesson}.md`, import.meta.url), 'utf8');
  return [...text.matchAll(/<attn-exercise\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]);
}

test("a lesson's own progress line follows solving and Reset", async () => {
  // the first choice exercise of the project's lessons; its right option is read from the page, as written
  let found = null;
  for (const lesson of PROJECT_LESSONS) {
    const text = await readFile(new URL(`../../web/lessons/${lesson}.md`, import.meta.url), 'utf8');
    const m = text.match(/<attn-exercise\b[^>]*\bid="([^"]+)"[^>]*\bmode="choice"/);
    if (m) {
      found = { lesson, id: m[1], total: (await exerciseIds(lesson)).length };
      break;
    }
  }
  assert.ok(found, 'some lesson has a choice exercise');
  const { lesson, id, total } = found;
  const { page, problems } = await open(`#/${lesson}`);
  const line = page.locator('.lesson-progress');
  assert.equal(await line.innerText(), exercisesSolved(0, total));
  const exercise = page.locator(`attn-exercise#${id}`);
  // the option as written; its accessible name has its maths ($…$) as plain characters
  const written = await exercise.evaluate((el) => el.querySelector(':scope > option[data-correct]').textContent.trim());
  const right = mathPlain(written);
  await exercise.scrollIntoViewIfNeeded();
  await exercise.getByRole('radio', { name: right, exact: true }).check();
  await exercise.locator('.check-button').click();
  await exercise.locator(':scope[data-progress="solved"]').waitFor();
  await page.waitForFunction(
    (t) => document.querySelector('.lesson-progress').textContent === t,
    exercisesSolved(1, total),
  );
  await exercise.getByRole('button', { name: /^Reset/ }).click();
  await page.waitForFunction(
    (t) => document.querySelector('.lesson-progress').textContent === t,
    exercisesSolved(0, total),
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('an assignment link opens the lesson at its exercise, keeps at= in the permalink, and names a bad one', async () => {
  // the last exercise of the last lesson that has one: the page scrolls furthest for it
  let lesson = null;
  let id = null;
  for (const each of PROJECT_LESSONS) {
    const ids = await exerciseIds(each);
    if (ids.length) [lesson, id] = [each, ids.at(-1)];
  }
  const { page, problems } = await open(`#/${lesson}?at=${id}`);
  const exercise = page.locator(`attn-exercise#${id}`);
  await page.waitForFunction(
    (i) => document.getElementById(i).matches(':focus-within') || document.activeElement?.id === i,
    id,
  );
  const { top, bottom } = await exercise.evaluate((el) => el.getBoundingClientRect().toJSON());
  const atEnd = await page.evaluate(() => Math.abs(scrollY + innerHeight - document.documentElement.scrollHeight) < 2);
  assert.ok(
    Math.abs(top) < 2 || (atEnd && bottom <= (await page.evaluate(() => innerHeight))),
    `at the exercise (top ${top})`,
  );
  assert.equal(await page.locator('.link-notice').innerText(), '');
  assert.match(
    await page.locator('attn-app').evaluate((app) => app.permalink()),
    new RegExp(`#/${lesson}(\\?.*)?[?&]at=${id}(&|$)`),
  );

  await page.goto(`${site.server.url}#/${lesson}?at=no-such-exercise`);
  await settled(page.locator('attn-app'));
  assert.match(
    await page.locator('.link-notice').innerText(),
    /at: this lesson has no exercise or section "no-such-exercise"/,
  );
  await page.goto(`${site.server.url}#/${lesson}?at=%3Cb%3E`);
  await settled(page.locator('attn-app'));
  assert.match(await page.locator('.link-notice').innerText(), /at: "<b>" is not the id of an exercise or a section/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a held-back figure links to its exercise: on a phone a long label wraps with its sentence, and the link goes there', async () => {
  const { page, problems } = await open('#/attention-matrix');
  await page.setViewportSize({ width: 390, height: 844 });
  const reveal = page.locator('attn-reveal[data-revealed="false"]').first();
  const after = await reveal.getAttribute('after');
  const link = reveal.getByRole('link');
  await link.scrollIntoViewIfNeeded();
  assert.equal(await link.getAttribute('href'), `#/attention-matrix?at=${after}`, 'a new tab opens the lesson at it');
  // the label runs over two lines as words of the sentence do, and the sentence goes on after it
  const lines = await link.evaluate((el) => el.getClientRects().length);
  assert.ok(lines >= 2, `the label spans ${lines} line box(es) at 390 px`);
  const [linkEnd, textStart] = await link.evaluate((el) => {
    const last = [...el.getClientRects()].at(-1);
    const range = document.createRange();
    range.setStart(el.nextSibling, 0);
    range.setEnd(el.nextSibling, 1);
    return [last.right, range.getBoundingClientRect().left];
  });
  assert.ok(textStart >= linkEnd - 1, `". Check…" follows the label on its line (${textStart} ≥ ${linkEnd})`);
  await link.click();
  await page.waitForFunction((id) => document.getElementById(id).matches(':focus-within'), after);
  assert.equal(page.url().endsWith('#/attention-matrix'), true, 'the click stays on the page as it is');
  assert.deepEqual(problems, []);
  await page.close();
});
