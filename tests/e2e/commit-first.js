// Predict, then verify (web/README.md, "Writing a lesson"), checked by course-render.test.js on its
// page of each lesson over http, before any exercise is attempted: the lesson has at least two
// exercises (attn-exercise elements, or elements with data-exercise, so tools can count them) and
// its progress line counts them; before the learner commits an answer no exercise offers its
// explanation, hint or "Show me", and every figure held back for an exercise (attn-reveal) is not
// rendered, so it cannot be seen or focused; one checked answer, right or wrong, offers the
// explanation and shows the figure. Each exercise is attempted once, in page order, as a learner
// would: the first choice, the number 0, or Check as it stands.
import assert from 'node:assert/strict';
import { lessonSource, settled } from './browser.js';
import { exercisesSolved } from '../../web/src/shell/progress.js';

/** The exercise ids of a lesson, read from its Markdown, in page order. */
async function exerciseIds(lesson) {
  const text = await lessonSource(lesson);
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

/** Lesson `lesson` open in `page`, with no exercise attempted yet: see the top. Attempts every exercise. */
export async function commitsFirst(page, lesson) {
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
}
