// Two simulated learners, for the course-wide score (tests/e2e/scorm.test.js), each working on one
// exercise (a Locator of attn-exercise#<id>) in `scope` (the page or frame it is in), by its UI and
// by keyboard (a figure drawing above a control moves it, and could take a click aimed at it):
// - solveFirstTime: the right answer at the first attempt; the exercise ends solved;
// - copyAfterOneWrong: one wrong answer; then, if the page already shows the answer (a figure held
//   back for the exercise opened, or one option left), the right answer copied from it; otherwise
//   "Show me", then the right answer. The exercise ends shown (docs/teaching.md, "How exercises are
//   graded").
// Number exercises are answered from the `answer` attribute (wrong: answer + 1000), choice ones from
// the option marked data-correct (wrong: the first option without it). The three exercises of the
// page's own kind (mode custom) have a driver each:
// - window3 (causal-masking): the band |i − j| ≤ 1 painted cell by cell in the mask painter (Space on
//   each cell to switch); wrong: the starting mask (nothing blocked);
// - pick-four (queries-keys-values): the W_Q turn slider pushed to its end (180°, a half turn) by
//   keyboard, so that token 2's query picks token 4; wrong: the identity it starts with;
// - fewest-heads (learning-to-attend): the trainer lab's model, retrained to a known step from the
//   lesson's link (LESSON_LINKS); the fewest heads that keep 97 % are found independently in this
//   process (the page's trained state loaded into the engine, subsets measured smallest first) and
//   set with the exercise's toggles; wrong: every head on, when fewer can. The copier checks the
//   heads that "Show me" left on.
// learnCourse visits each lesson in the SCO frame and runs a learner on its exercises in page order
// (an exercise's figure may hold back the next one's lab). Waits for signals, never a fixed delay.
import assert from 'node:assert/strict';
import { settled } from './browser.js';
import { loadAttention } from '../../web/src/engine/index.js';

/** Each lesson's link settings for the learners: the trainer retrains to a model that makes a real search. */
export const LESSON_LINKS = { 'learning-to-attend': '?trainer.layers=2&trainer.seed=2&trainer.steps=150' };

const TRAIN_TIMEOUT = 120000; // retraining from the link on a busy 2-core machine
const SOLVES = 0.97; // the accuracy that solves the trainer's task (the lesson's 97 %)

let engine = null;

/** The exercise's verdict, white space collapsed. */
const verdictOf = async (exercise) =>
  (await exercise.locator('.verdict').evaluate((el) => el.textContent)).replace(/\s+/g, ' ').trim();

/**
 * Presses `button` by keyboard (focus, Enter): no pointer, so a figure that draws above it and moves
 * it down cannot take the press.
 */
async function press(button, options) {
  await button.focus(options);
  await button.press('Enter', options);
}

/** Presses Check and returns the verdict once shown. */
async function check(exercise, { timeout } = {}) {
  await press(exercise.locator('.check-button'), { timeout });
  await exercise.locator(':scope[data-settled]').waitFor({ timeout });
  return verdictOf(exercise);
}

/** The answer of the question asked now: a Try another question's, else the `answer` attribute. */
const answerOf = (exercise) => exercise.evaluate((el) => Number(el._variant?.answer ?? el.getAttribute('answer')));

async function typeNumber(exercise, value) {
  await exercise.getByRole('textbox', { name: 'Your answer' }).fill(String(value));
  return check(exercise);
}

async function pickOption(exercise, correct) {
  // a Try another question's options are its own
  const value = await exercise.evaluate((el, right) => {
    const own = el._variant?.options?.find((o) => o.correct === right)?.value;
    return own ?? el.querySelector(`:scope > option${right ? '[data-correct]' : ':not([data-correct])'}`).value;
  }, correct);
  const radio = exercise.locator(`input[type="radio"][value="${value}"]`);
  await radio.press('Space');
  assert.ok(await radio.isChecked(), `option ${value} picked`);
  return check(exercise);
}

/** window3: the painter's cells, as rows of booleans (pressed = allowed). */
const painted = (painter) =>
  painter
    .locator('button[data-row][data-col]')
    .evaluateAll((cells) =>
      cells.map((c) => ({ i: Number(c.dataset.row), j: Number(c.dataset.col), on: c.ariaPressed === 'true' })),
    );

async function paintBand(exercise) {
  // the lab draws its painter once shown (the exercise, just scrolled to, may have settled before)
  await exercise.locator('attn-local-window[data-shown]').waitFor();
  await settled(exercise);
  const painter = exercise.locator('attn-mask-painter');
  const cells = await painted(painter);
  assert.ok(cells.length > 0 && Number.isInteger(Math.sqrt(cells.length)), `window3: ${cells.length} cells`);
  for (const { i, j, on } of cells) {
    if (on !== Math.abs(i - j) <= 1) await painter.locator(`button[data-row="${i}"][data-col="${j}"]`).press('Space');
  }
  await settled(exercise);
  for (const { i, j, on } of await painted(painter)) assert.equal(on, Math.abs(i - j) <= 1, `window3: cell ${i},${j}`);
}

/** pick-four: the world, once it has drawn its picks. */
async function world(exercise) {
  await exercise.locator('attn-qkv-world[data-pick]').waitFor();
  await settled(exercise);
  return exercise.locator('attn-qkv-world');
}

/** fewest-heads: the trainer lab the exercise is about, scrolled to and ready with its trained model. */
async function trainedLab(scope, exercise) {
  const id = await exercise.locator('attn-fewest-heads').getAttribute('for');
  const lab = scope.locator(`#${id}`);
  await lab.scrollIntoViewIfNeeded();
  await scope.locator(`#${id}[data-settled][data-status="ready"]`).waitFor({ timeout: TRAIN_TIMEOUT });
  await exercise.scrollIntoViewIfNeeded();
  await settled(exercise);
  return lab;
}

const toggles = (exercise) => exercise.locator('attn-fewest-heads .toggles button[data-head-key]');

/** The heads of the lab's model ("layer.head" keys) and which are on, as the toggles say. */
async function headsOn(exercise) {
  await toggles(exercise).first().waitFor();
  return toggles(exercise).evaluateAll((buttons) =>
    buttons.map((b) => ({ key: b.dataset.headKey, on: b.getAttribute('aria-pressed') === 'true' })),
  );
}

/** The fewest heads that keep the lab's trained model at 97 %, found here: indices of `heads`. */
async function fewestHeads(lab, heads) {
  engine ??= await loadAttention();
  const trainer = engine.loadTrainer(await lab.evaluate((el) => el.trainerState()));
  try {
    const list = heads.map(({ key }) => key.split('.').map(Number));
    const subsets = Array.from({ length: 2 ** list.length }, (_, mask) =>
      list.flatMap((_, i) => (mask & (1 << i) ? [i] : [])),
    ).sort((a, b) => a.length - b.length);
    for (const kept of subsets) {
      list.forEach(([layer, head], i) => trainer.setHeadEnabled(layer, head, kept.includes(i)));
      if (trainer.evaluate({ samples: 256, seed: 12345 }).accuracy >= SOLVES) return kept;
    }
    return null;
  } finally {
    trainer.dispose();
  }
}

const DRIVERS = {
  number: {
    right: async (scope, exercise) => typeNumber(exercise, await answerOf(exercise)),
    wrong: async (scope, exercise) => typeNumber(exercise, (await answerOf(exercise)) + 1000),
  },
  choice: {
    right: (scope, exercise) => pickOption(exercise, true),
    wrong: (scope, exercise) => pickOption(exercise, false),
  },
  window3: {
    async right(scope, exercise) {
      await paintBand(exercise);
      return check(exercise);
    },
    wrong: (scope, exercise) => check(exercise), // the mask it starts with: nothing blocked
  },
  'pick-four': {
    async right(scope, exercise) {
      const lab = await world(exercise);
      const turn = lab.getByRole('slider', { name: 'W_Q turns by', exact: true });
      await turn.focus();
      await turn.press('End'); // a half turn: q2 = −x2
      await exercise.locator('attn-qkv-world[data-pick="4"]').waitFor();
      await settled(exercise);
      return check(exercise);
    },
    async wrong(scope, exercise) {
      await world(exercise);
      return check(exercise); // W_Q = W_K = I, as it starts
    },
  },
  'fewest-heads': {
    async right(scope, exercise) {
      const lab = await trainedLab(scope, exercise);
      const heads = await headsOn(exercise);
      const kept = await fewestHeads(lab, heads);
      assert.ok(kept && kept.length < heads.length, `fewest-heads: a model where fewer heads can (${kept})`);
      for (const [i, { key, on }] of heads.entries()) {
        if (on === kept.includes(i)) continue;
        await press(exercise.locator(`attn-fewest-heads .toggles button[data-head-key="${key}"]`));
        await settled(lab);
      }
      await settled(exercise);
      assert.deepEqual(
        (await headsOn(exercise)).map((h) => h.on),
        heads.map((_, i) => kept.includes(i)),
      );
      return check(exercise, { timeout: TRAIN_TIMEOUT });
    },
    async wrong(scope, exercise) {
      await trainedLab(scope, exercise);
      assert.ok(
        (await headsOn(exercise)).every((h) => h.on),
        'fewest-heads: every head on to start with',
      );
      return check(exercise, { timeout: TRAIN_TIMEOUT });
    },
    async copy(scope, exercise) {
      // "Show me" has knocked heads out in the lab: Check what it left on
      const lab = await trainedLab(scope, exercise);
      const heads = await headsOn(exercise);
      assert.ok(
        heads.some((h) => !h.on),
        'fewest-heads: "Show me" knocked heads out',
      );
      await settled(lab);
      return check(exercise, { timeout: TRAIN_TIMEOUT });
    },
  },
};

/** The driver of `exercise`: by its mode, or (mode custom) by its id. */
async function driverOf(exercise) {
  const id = await exercise.getAttribute('id');
  const mode = (await exercise.getAttribute('mode')) ?? 'custom';
  const driver = mode === 'custom' ? DRIVERS[id] : DRIVERS[mode];
  assert.ok(driver, `${id}: no driver for an exercise of mode ${mode}`);
  return { id, driver };
}

const progressOf = (exercise) => exercise.getAttribute('data-progress');

/** Gives the right answer to `exercise`, of any mode, by its driver; returns the verdict. */
export async function answerRightly(scope, exercise) {
  const { driver } = await driverOf(exercise);
  return driver.right(scope, exercise);
}

/** The right answer at the first attempt: solved. */
export async function solveFirstTime(scope, exercise) {
  const { id, driver } = await driverOf(exercise);
  await exercise.scrollIntoViewIfNeeded();
  await settled(exercise);
  assert.equal(await progressOf(exercise), null, `${id}: not attempted before`);
  assert.match(await driver.right(scope, exercise), /^Correct — /, `${id}: right`);
  assert.equal(await progressOf(exercise), 'solved', `${id}: right at the first attempt`);
}

/** One wrong answer, then the answer the page shows (after "Show me" if nothing shows it yet): shown. */
export async function copyAfterOneWrong(scope, exercise) {
  const { id, driver } = await driverOf(exercise);
  await exercise.scrollIntoViewIfNeeded();
  await settled(exercise);
  assert.equal(await progressOf(exercise), null, `${id}: not attempted before`);
  assert.match(await driver.wrong(scope, exercise), /^Not yet — /, `${id}: wrong`);
  const after = await progressOf(exercise);
  assert.ok(['attempted', 'shown'].includes(after), `${id}: after a wrong attempt, ${after}`);
  if ((await scope.locator(`attn-reveal[after="${id}"], [scores-after="${id}"]`).count()) > 0) {
    assert.equal(after, 'shown', `${id}: the wrong attempt opened the figure held back for it`);
  }
  if (after === 'attempted') {
    await press(exercise.getByRole('button', { name: 'Show me', exact: true }));
    await settled(exercise);
    assert.equal(await progressOf(exercise), 'shown', `${id}: "Show me" shows the answer`);
  }
  const verdict = await (driver.copy ?? driver.right)(scope, exercise);
  assert.match(verdict, /^Correct — .*counts as shown, not solved/, `${id}: right after the answer was shown`);
  assert.equal(await progressOf(exercise), 'shown', `${id}: copied`);
}

/**
 * Visits each lesson of `lessons` (the lessons' meta, in course order) in the SCO `frame`, with its
 * LESSON_LINKS settings, and runs `learner` on every exercise of its page, in page order.
 */
export async function learnCourse(frame, lessons, learner) {
  for (const { id, title, exerciseIds } of lessons) {
    await frame.evaluate((hash) => (location.hash = hash), `#/${id}${LESSON_LINKS[id] ?? ''}`);
    await frame.waitForFunction((t) => document.title === t, `${title} — attnbook`);
    const ids = await frame.locator('.lesson-body attn-exercise[id]').evaluateAll((els) => els.map((el) => el.id));
    assert.deepEqual(ids, exerciseIds, `${id}: the page's exercises are the lesson's`);
    for (const exercise of ids) await learner(frame, frame.locator(`.lesson-body attn-exercise#${exercise}`));
  }
}
