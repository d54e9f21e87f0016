// Predict first, checked as a learner meets it: an exercise of a lesson and the figure that shows
// its answer (an attn-reveal after it). Before any attempt the figure is hidden (data-revealed
// "false", not visible); each declared likely wrong answer gets its own feedback; a wrong answer
// opens the figure, so the exercise counts as shown (data-progress="shown") and the right answer
// typed after it does not solve it; the figure then shows and settles.
// Waits for signals (attributes, verdict text), never for a fixed time.
import assert from 'node:assert/strict';
import { settled } from './browser.js';

/** Fills in (number) or picks (choice: the option's label) `answer` and presses Check, by keyboard. */
export async function attempt(exercise, answer) {
  const field = exercise.getByRole('textbox', { name: 'Your answer' });
  if ((await field.count()) > 0) {
    await field.fill(String(answer));
  } else {
    const radio = exercise.getByRole('radio', { name: answer, exact: true });
    await radio.focus();
    await radio.press('Space');
  }
  const check = exercise.getByRole('button', { name: 'Check' });
  await check.focus();
  await check.press('Enter');
  await settled(exercise);
  return verdictText(exercise);
}

/**
 * The exercise's verdict as read: its text with white space collapsed (innerText would break lines
 * around the inline-flex scripts of a typeset formula, as in $\alpha_2$).
 */
export async function verdictText(exercise) {
  return (await exercise.locator('.verdict').evaluate((el) => el.textContent)).replace(/\s+/g, ' ').trim();
}

/**
 * Runs the whole predict-first check on `page` (the lesson open) for exercise `id`:
 * `mistakes` as [[answer, /feedback/]], `right` the right answer, `figure` a selector inside the
 * attn-reveal whose drawing shows the answer.
 */
export async function checkPredictFirst(page, { id, mistakes, right, figure }) {
  const exercise = page.locator(`attn-exercise#${id}`);
  const reveal = page.locator(`attn-reveal[after="${id}"]`);
  await exercise.scrollIntoViewIfNeeded();
  await settled(exercise);
  assert.equal(await reveal.getAttribute('data-revealed'), 'false', `${id}: the figure waits for an attempt`);
  assert.equal(await reveal.locator(figure).isVisible(), false, `${id}: the figure is not visible before an attempt`);
  assert.equal(
    await exercise.getByRole('button', { name: 'Show explanation' }).count(),
    0,
    `${id}: no explanation yet`,
  );
  assert.ok(mistakes.length >= 2, `${id}: at least two declared mistakes`);
  const seen = new Set();
  for (const [answer, feedback] of mistakes) {
    const verdict = await attempt(exercise, answer);
    assert.match(verdict, /^Not yet — /, `${id}: ${answer} is wrong`);
    assert.match(verdict, feedback, `${id}: ${answer} gets its own feedback`);
    assert.ok(!seen.has(verdict), `${id}: ${answer}'s feedback differs from the others`);
    seen.add(verdict);
    assert.equal(await exercise.getAttribute('data-progress'), 'shown', `${id}: the figure now shows the answer`);
  }
  await exercise.getByRole('button', { name: 'Show hint' }).waitFor();
  const verdict = await attempt(exercise, right);
  assert.match(verdict, /^Correct — .* counts as shown, not solved/, `${id}: ${right} is right, after the figure`);
  assert.equal(await exercise.getAttribute('data-progress'), 'shown');
  assert.equal(await reveal.getAttribute('data-revealed'), 'true');
  const shown = reveal.locator(figure).first();
  await shown.scrollIntoViewIfNeeded();
  await settled(shown);
  assert.ok(await shown.isVisible(), `${id}: the figure shows after the answer`);
  return shown;
}

/** Solves exercise `id` with `right`, as a learner must before a figure it hides can be used. */
export async function solve(page, id, right) {
  const exercise = page.locator(`attn-exercise#${id}`);
  await exercise.scrollIntoViewIfNeeded();
  await settled(exercise);
  if ((await exercise.getAttribute('data-progress')) === 'solved') return;
  assert.match(await attempt(exercise, right), /^Correct — /);
}

// ---- by exercise id: the same steps with a page and an id (causal-masking, retrieval, scaling-by-sqrt-dk) ----

/** Forgets this lesson's saved exercise records and reloads, so every figure waits again. */
export async function freshLesson(page, lesson) {
  await page.evaluate((prefix) => {
    for (const key of Object.keys(localStorage)) if (key.startsWith(prefix)) localStorage.removeItem(key);
  }, `attnbook:exercise:${lesson}/`);
  await page.reload();
}

/**
 * Answers exercise `id` with Check, as a learner does: a number exercise gets `answer` typed into
 * its answer field; a choice exercise, the option whose label is `answer` (a string, exactly, or a
 * RegExp). Returns the verdict.
 */
export async function attemptById(page, id, answer) {
  const exercise = page.locator(`attn-exercise#${id}`);
  await exercise.scrollIntoViewIfNeeded();
  const field = exercise.getByRole('textbox', { name: 'Your answer' });
  if ((await field.count()) > 0) await field.fill(String(answer));
  else await exercise.getByRole('radio', { name: answer, exact: typeof answer === 'string' }).check();
  await exercise.getByRole('button', { name: 'Check', exact: true }).click();
  await settled(exercise);
  return verdictText(exercise);
}

export async function commitTo(page, answers) {
  for (const [id, answer] of Object.entries(answers)) {
    const reveal = page.locator(`attn-reveal[after="${id}"]`).first();
    await reveal.waitFor({ state: 'attached' });
    if ((await reveal.getAttribute('data-revealed')) !== 'true') await attemptById(page, id, answer);
    await page.locator(`attn-reveal[after="${id}"][data-revealed="true"]`).first().waitFor();
  }
}

/**
 * One predict-first exercise: before an attempt its figures are hidden (data-revealed="false", not
 * visible); each declared mistake gets its own feedback; the first opens the figures, so the right
 * answer after them counts as shown, not solved; the figures show.
 */
export async function predictFirst(page, { id, figures, mistakes, right }) {
  const exercise = page.locator(`attn-exercise#${id}`);
  const reveals = page.locator(`attn-reveal[after="${id}"]`);
  await exercise.scrollIntoViewIfNeeded();
  assert.ok((await reveals.count()) >= 1, `${id}: a figure waits for it`);
  for (const reveal of await reveals.all()) assert.equal(await reveal.getAttribute('data-revealed'), 'false', id);
  for (const figure of figures) assert.equal(await page.locator(figure).isVisible(), false, `${figure} hidden`);
  assert.equal(await exercise.getByRole('button', { name: 'Show explanation' }).count(), 0, 'no explanation yet');
  for (const [answer, feedback] of mistakes) {
    const verdict = await attemptById(page, id, answer);
    assert.match(verdict, /^Not yet — /, `${id}: ${answer}`);
    assert.match(verdict, feedback, `${id}: ${answer}`);
    assert.equal(await exercise.getAttribute('data-status'), 'fail');
    assert.equal(await exercise.getAttribute('data-progress'), 'shown', `${id}: the figure now shows the answer`);
  }
  await exercise.getByRole('button', { name: 'Show hint' }).waitFor();
  assert.match(
    await attemptById(page, id, right),
    /^Correct — .* not solved/,
    `${id}: the right answer, after the figure`,
  );
  assert.equal(await exercise.getAttribute('data-progress'), 'shown');
  for (const reveal of await reveals.all()) assert.equal(await reveal.getAttribute('data-revealed'), 'true', id);
  for (const figure of figures) {
    await page.locator(figure).scrollIntoViewIfNeeded();
    await settled(page.locator(figure));
    assert.equal(await page.locator(figure).isVisible(), true, `${figure} shown`);
  }
}

/**
 * Try another on a number exercise: a fresh prompt from the lesson's variants, solved with
 * `solve(prompt)`, which solves the exercise. A figure held back for it hides again until then.
 */
export async function tryAnother(page, id, solve) {
  const exercise = page.locator(`attn-exercise#${id}`);
  const heldBack = page.locator(`attn-reveal[after="${id}"]`);
  await exercise.getByRole('button', { name: 'Try another' }).click();
  await settled(exercise);
  const prompt = await exercise.locator('#prompt').innerText();
  assert.equal(await exercise.getAttribute('data-status'), 'pending');
  for (const reveal of await heldBack.all()) await reveal.and(page.locator('[data-revealed="false"]')).waitFor();
  assert.match(await attemptById(page, id, solve(prompt)), /^Correct — /, prompt);
  assert.equal(await exercise.getAttribute('data-progress'), 'solved', `${id}: a variant solved counts`);
  for (const reveal of await heldBack.all()) await reveal.and(page.locator('[data-revealed="true"]')).waitFor();
  return prompt;
}
