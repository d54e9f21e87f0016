/**
 * The question an <attn-exercise> asks, and how an attempt at it is judged (attn-exercise.js
 * calls these; the rules themselves are in exercise-model.js):
 * - the question: the variant "Try another" drew (the exercise's `_variant`), else the authored
 *   one (number: `answer`, `tolerance`, <attn-mistake> children; choice: <option> children);
 * - judging an attempt: the chosen option (mode choice), the number (mode number), or the page's
 *   own `check` (mode custom);
 * - "Try another": whether the exercise can ask another question, and drawing it for a seed;
 * - what "Show me" says.
 */
import { formatNumber, parseNumberText } from '../base/cell-support.js';
import { checkVariant, choiceAnswer, judgeChoice, judgeNumber } from './exercise-model.js';
import { declaredMistakes, declaredOptions } from './exercise-markup.js';
import { variantMaker } from './exercise-variants.js';

/**
 * The number question `exercise` asks now: { answer, tolerance, mistakes }, and `error` when one
 * of its <attn-mistake> children is malformed (then that one is ignored).
 */
export function numberQuestion(exercise) {
  const fallback = exercise.tolerance || 0;
  if (exercise._variant) {
    const { answer, tolerance, mistakes } = exercise._variant;
    return { answer, tolerance: tolerance ?? fallback, mistakes };
  }
  const { mistakes, error } = declaredMistakes(exercise);
  return { answer: exercise.answer, tolerance: fallback, mistakes, error };
}

/** The options `exercise` offers now (mode choice): the variant's, else its <option> children. */
export const questionOptions = (exercise) => exercise._variant?.options ?? declaredOptions(exercise);

/**
 * Judges `attempt` at the question `exercise` asks: { correct, message, mistake? }. A number may
 * come as text (then parsed, and text that is not a number is a wrong attempt saying why). Throws
 * when a custom exercise has no check, or its check throws.
 */
export async function judgeAttempt(exercise, attempt) {
  if (exercise.mode === 'choice') return judgeChoice(questionOptions(exercise), attempt);
  if (exercise.mode === 'number') {
    const parsed = typeof attempt === 'number' ? { value: attempt } : parseNumberText(attempt ?? '');
    if (parsed.error) return { correct: false, message: `your answer ${parsed.error}.` };
    return judgeNumber(parsed.value, numberQuestion(exercise));
  }
  if (typeof exercise.check !== 'function') throw new Error('this exercise has no check function');
  return exercise.check(attempt);
}

/** Whether "Try another" can ask `exercise` another question (number or choice, with variants). */
export const canVary = (exercise) => ['number', 'choice'].includes(exercise.mode) && variantMaker(exercise) !== null;

/**
 * The question "Try another" asks `exercise` for `seed`, checked (exercise-model.js checkVariant);
 * `settle` wraps the pending draw (the cell is not settled until it is drawn). Throws with a
 * message naming what was wrong.
 */
export async function drawVariant(exercise, seed, settle = (p) => p) {
  const drawn = checkVariant(await settle(Promise.resolve(variantMaker(exercise)(seed))));
  if (Boolean(drawn.options) !== (exercise.mode === 'choice')) {
    throw new Error(
      `the variant asks a ${drawn.options ? 'choice' : 'number'} question of a ${exercise.mode} exercise`,
    );
  }
  return drawn;
}

/** What "Show me" says: the answer, where the exercise knows it. */
export function answerText(exercise) {
  if (exercise.mode === 'number') return `the answer is ${formatNumber(numberQuestion(exercise).answer, 4)}.`;
  if (exercise.mode === 'choice') return choiceAnswer(questionOptions(exercise));
  try {
    return String(exercise.showAnswer?.() ?? '') || 'see the explanation below.';
  } catch (error) {
    console.warn(`attn-exercise: showAnswer failed: ${error.message}`);
    return 'see the explanation below.';
  }
}
