// Predict, then verify, in every lesson (headless Chromium, the built site): each lesson has at
// least two exercises (attn-exercise elements, or elements with data-exercise, so tools can count
// them); before the learner commits an answer no exercise offers its explanation or "Show me", and
// every figure held back for an exercise (attn-reveal) is not rendered, so it cannot be seen or
// focused; one checked answer, right or wrong, shows it. Also: the lesson's own progress line, and
// assignment links (`at=`) that open a lesson at an exercise.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { lessonIds, settled, useBrowserAndSite, watch } from './browser.js';
import { exercisesSolved } from '../../web/src/shell/progress.js';

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

/** Commits some answer, as a learner would: the first choice, the number 0, or Check as it stands. */
async function attempt(exercise) {
  await exercise.scrollIntoViewIfNeeded();
  await settled(exercise);
  const radio = exercise.getByRole('radio').first();
  if (await radio.count()) await radio.check();
  const field = exercise.getByRole('textbox', { name: 'Your answer' });
  if (await field.count()) await field.fill('0');
  await exercise.locator('.check-button').click();
  await exercise.locator(':scope[data-progress]').waitFor();
  await settled(exercise);
}

for (const lesson of await lessonIds()) {
  test(`${lesson}: at least two exercises, nothing revealed before an attempt, the figure after one`, async () => {
    const { page, problems } = await open(`#/${lesson}`);
    const count = await page.locator('.lesson-body :is(attn-exercise, [data-exercise])').count();
    assert.ok(count >= 2, `${lesson} has ${count} exercises; every lesson needs at least two`);
    assert.match(await page.locator('.lesson-progress').innerText(), new RegExp(`^${exercisesSolved(0, count)}$`));

    for (const id of await exerciseIds(lesson)) {
      const exercise = page.locator(`attn-exercise#${id}`);
      assert.equal(
        await exercise.locator('.check-button').count(),
        1,
        `${lesson}/${id}: a Check button commits the answer`,
      );
      const names = await exercise.getByRole('button').allInnerTexts();
      assert.ok(
        !names.some((n) => /explanation|Show me|hint/i.test(n)),
        `${lesson}/${id}: nothing to open before an attempt (${names.join(', ')})`,
      );
      const reveals = page.locator(`attn-reveal[after="${id}"]`);
      for (let i = 0; i < (await reveals.count()); i += 1) {
        const reveal = reveals.nth(i);
        assert.equal(await reveal.getAttribute('data-revealed'), 'false', `${lesson}/${id}: the figure waits`);
        const hidden = await reveal.evaluate((el) =>
          [...el.children].every((child) => !child.checkVisibility() && child.matches(':not(:focus-within)')),
        );
        assert.ok(hidden, `${lesson}/${id}: the figure it reveals is not shown before an attempt`);
      }

      await attempt(exercise);
      const after = await exercise.getByRole('button').allInnerTexts();
      assert.ok(
        after.some((n) => /Show explanation/.test(n)),
        `${lesson}/${id}: the explanation is offered after an attempt`,
      );
      for (let i = 0; i < (await reveals.count()); i += 1) {
        const reveal = reveals.nth(i);
        assert.equal(await reveal.getAttribute('data-revealed'), 'true');
        assert.ok(await reveal.evaluate((el) => [...el.children].some((child) => child.checkVisibility())));
      }
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test("a lesson's own progress line follows solving and Reset", async () => {
  // the first choice exercise of the course; its right option is read from the page, as written
  let found = null;
  for (const lesson of await lessonIds()) {
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
  const right = await exercise.evaluate((el) => el.querySelector(':scope > option[data-correct]').textContent.trim());
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
  for (const each of await lessonIds()) {
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
