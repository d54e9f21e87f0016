// The grading rule (docs/teaching.md, "How exercises are graded"), checked by course-render.test.js
// on its page of each lesson over http, right after commit-first.js has attempted every exercise
// once (the first choice, the number 0, or Check as it stands): an exercise is solved only when its
// first right answer came before the page showed the answer.
// - A wrong attempt that opened a figure held back for the exercise makes it shown; typing or
//   picking the answer after that is right but counts as shown, not solved. So does the last
//   option left in a choice exercise; a right number after a wrong one with no figure solves it.
// - The lesson's progress line, its card on the home page (opened beside it) and the SCORM score
//   (scorm-report.js courseReport, on the page's saved records) count only what is solved.
// - Try another asks a fresh question, its figures held back again until it is answered; solving
//   it counts.
// - Reset, then the right answer at the first attempt: solved.
// Exercises are answered by learners.js's drivers: number and choice ones from their markup (the
// `answer` attribute, the option with data-correct, or a Try another question's own); one of the
// page's own kind (mode custom) with a figure held back for it (window3) with its controls; one with
// none is checked as far as its first attempt goes (the lesson's own test and scorm.test.js answer it).
import assert from 'node:assert/strict';
import { settled } from './browser.js';
import { exercisesSolved } from '../../web/src/shell/progress.js';
import { courseReport } from '../../web/src/shell/scorm-report.js';
import { answerRightly } from './learners.js';

/** The parts of the page held back for exercise `id`: attn-reveal after=, the hull lab's scores-after. */
const heldBackFor = (page, id) => page.locator(`attn-reveal[after="${id}"], [scores-after="${id}"]`);

/** Lesson `lesson` open in `page`, every exercise attempted once: see the top. */
export async function gradesWhatWasWorkedOut(page, lesson) {
  const exercises = page.locator('.lesson-body attn-exercise[id]');
  const ids = await exercises.evaluateAll((els) => els.map((el) => el.id));
  const progress = (id) => page.locator(`attn-exercise#${id}`).getAttribute('data-progress');
  const countsOnlySolved = async (when) => {
    const states = await exercises.evaluateAll((els) => els.map((el) => el.dataset.progress));
    const solved = states.filter((s) => s === 'solved').length;
    const total = await page.locator('.lesson-body :is(attn-exercise, [data-exercise])').count();
    assert.equal(await page.locator('.lesson-progress').innerText(), exercisesSolved(solved, total), when);
    const saved = await page.evaluate(() => ({ ...localStorage }));
    const report = courseReport((key) => saved[key] ?? null, [{ id: lesson, exerciseIds: ids }]);
    assert.equal(report.solved, solved, `${when}: the SCORM score counts the solved exercises only`);
    // the home page, opened beside the lesson (same storage), counts the same
    const home = await page.context().newPage();
    try {
      await home.goto(new URL('#/', page.url()).href);
      const card = home.locator(`attn-lesson-list li[data-lesson="${lesson}"] .progress`);
      await card.waitFor();
      assert.match(
        await card.innerText(),
        new RegExp(`\\b${exercisesSolved(solved, total)}\\b`),
        `${when}: the home page`,
      );
    } finally {
      await home.close();
    }
  };

  for (const id of ids) {
    const exercise = page.locator(`attn-exercise#${id}`);
    const mode = (await exercise.getAttribute('mode')) ?? 'custom';
    const figure = (await heldBackFor(page, id).count()) > 0;
    const options = await exercise.locator(':scope > option').count();
    await exercise.scrollIntoViewIfNeeded();
    const first = await exercise.getAttribute('data-status');
    if (first === 'pass') {
      assert.equal(await progress(id), 'solved', `${lesson}/${id}: right at the first attempt`);
      continue;
    }
    const onShow = figure || (mode === 'choice' && options <= 2);
    assert.equal(await progress(id), onShow ? 'shown' : 'attempted', `${lesson}/${id}: after a wrong attempt`);
    if (mode === 'custom' && !figure) continue; // its own kind, nothing on show: lesson tests and scorm.test.js

    // the answer the page may now show, typed, picked or (custom) made with the exercise's controls
    const verdict = await answerRightly(page, exercise);
    assert.match(verdict, /^Correct — /, `${lesson}/${id}`);
    assert.equal(await progress(id), onShow ? 'shown' : 'solved', `${lesson}/${id}: right after a wrong attempt`);
    if (onShow) assert.match(verdict, /counts as shown, not solved/, `${lesson}/${id}: the verdict says so`);
  }
  await countsOnlySolved(`${lesson}: answers given after their figures`);

  for (const id of ids) {
    const exercise = page.locator(`attn-exercise#${id}`);
    const mode = (await exercise.getAttribute('mode')) ?? 'custom';
    if ((await progress(id)) !== 'shown' && mode === 'custom') continue;
    if ((await progress(id)) === 'solved') continue;
    const another = exercise.getByRole('button', { name: 'Try another' });
    if ((await another.count()) > 0) {
      await another.click();
      await settled(exercise);
      for (const part of await heldBackFor(page, id).all()) {
        if ((await part.evaluate((el) => el.localName)) !== 'attn-reveal') continue;
        await part.and(page.locator('[data-revealed="false"]')).waitFor(); // held back again
      }
      assert.match(await answerRightly(page, exercise), /^Correct — /, `${lesson}/${id}: Try another`);
      assert.equal(await progress(id), 'solved', `${lesson}/${id}: a fresh question solved counts`);
      continue;
    }
    await exercise.getByRole('button', { name: /^Reset / }).click();
    await settled(exercise);
    const again = await answerRightly(page, exercise);
    assert.match(again, /^Correct — /, `${lesson}/${id}: after Reset`);
    assert.equal(await progress(id), 'solved', `${lesson}/${id}: right at the first attempt after Reset`);
  }
  await countsOnlySolved(`${lesson}: every number and choice exercise solved`);
}
