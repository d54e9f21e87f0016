/**
 * The pure logic of attn-exercise (no DOM, no storage; tested in Node by
 * tests/js/exercise-model.test.js):
 * - the progress record of one exercise, { status, attempts, score }, as saved
 *   under `attnbook:exercise:<lesson>/<id>` (JSON; the older plain 'solved'
 *   reads as solved), and how an attempt or a "Show me" changes it;
 * - the `attn-progress` event's detail (protocol version 1);
 * - judging a number against the answer and the declared likely mistakes, and a chosen option;
 * - checking what a `variant(seed)` hook returns, and the seeded draws it may use.
 */
import { formatNumber } from '../base/cell-support.js';

/** The version of the progress protocol: the `version` of every `attn-progress` detail. */
export const PROTOCOL_VERSION = 1;
export const STATUSES = ['attempted', 'solved', 'shown'];

/** The record of an exercise never attempted (not saved). */
export const EMPTY_RECORD = Object.freeze({ status: 'none', attempts: 0, score: 0 });

const count = (x) => (Number.isInteger(x) && x >= 0 ? x : 0);

/**
 * A saved record from its stored text: JSON { status, attempts, score }, or the
 * plain 'solved' older versions wrote (then one attempt, score 1). Anything else
 * (absent, damaged, unknown status) is EMPTY_RECORD.
 */
export function parseRecord(text) {
  if (text === 'solved') return { status: 'solved', attempts: 1, score: 1 };
  if (typeof text !== 'string' || !text.startsWith('{')) return EMPTY_RECORD;
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return EMPTY_RECORD;
  }
  if (!data || !STATUSES.includes(data.status)) return EMPTY_RECORD;
  const score = data.status === 'solved' ? 1 : 0;
  return { status: data.status, attempts: count(data.attempts), score };
}

export const serializeRecord = ({ status, attempts, score }) => JSON.stringify({ status, attempts, score });

/**
 * The grading rule: an exercise is solved only by a right answer given before the page showed the
 * answer. The record after one event:
 * - { kind: 'attempt', correct, counted, reveals }: one more attempt. A correct one solves the
 *   exercise unless `counted` is false (the answer was on show: a shown exercise stays shown, an
 *   attempted one becomes shown). A wrong one leaves it attempted, or makes it shown when it
 *   `reveals` the answer itself (see revealsAnswer).
 * - { kind: 'show' }: "Show me": shown, score 0.
 * A solved exercise stays solved whatever follows (until Reset, which deletes the record).
 */
export function recordAfter(previous, event) {
  const prev = previous ?? EMPTY_RECORD;
  const attempts = prev.attempts + (event.kind === 'attempt' ? 1 : 0);
  let status;
  if (prev.status === 'solved') status = 'solved';
  else if (event.kind === 'show') status = 'shown';
  else if (event.correct) status = event.counted === false ? 'shown' : 'solved';
  else status = prev.status === 'shown' || event.reveals ? 'shown' : 'attempted';
  return { status, attempts, score: status === 'solved' ? 1 : 0 };
}

/**
 * Whether a wrong attempt at the question asked puts its answer on show, so that a right answer
 * after it no longer counts: it opens a `figure` held back for the authored question, which shows
 * that question's answer, or in a choice exercise the wrong options tried (`ruledOut`, values)
 * leave one option of `options` untried.
 */
export function revealsAnswer({ figure = false, options = null, ruledOut = [] }) {
  if (figure) return true;
  if (!options?.length) return false;
  return options.filter((o) => !ruledOut.includes(o.value)).length <= 1;
}

/**
 * One attempt graded by the rule of recordAfter: { record, note }, the record after it and what
 * the verdict adds when the attempt counts as shown rather than solved ('' otherwise).
 * `answerSeen`: the answer was on show before this attempt; `figure`, `options`, `ruledOut`: as
 * revealsAnswer takes them; `canVary`: the exercise can ask another question.
 */
export function gradeAttempt(previous, { correct, answerSeen = false, figure, options, ruledOut, canVary = false }) {
  const reveals = !correct && revealsAnswer({ figure, options, ruledOut });
  const record = recordAfter(previous, { kind: 'attempt', correct, counted: !answerSeen, reveals });
  const earn = `${canVary ? 'Try another, or ' : ''}Reset to earn it.`;
  let note = '';
  if (correct && record.status === 'shown')
    note = ` The answer was shown, so this counts as shown, not solved: ${earn}`;
  else if (reveals && previous?.status !== 'shown' && record.status === 'shown') {
    const what = figure ? 'The figure below now shows the answer' : 'Only one answer is left';
    note = ` ${what}, so this counts as shown, not solved: ${earn}`;
  }
  return { record, note };
}

/** The detail of an `attn-progress` event: exactly these six fields. */
export function progressDetail(lesson, exercise, record) {
  return {
    version: PROTOCOL_VERSION,
    lesson: String(lesson),
    exercise: String(exercise),
    status: record.status,
    score: record.score,
    attempts: record.attempts,
  };
}

/**
 * A declared likely mistake from its attributes (`value`, `tolerance`) and text:
 * { value, tolerance, feedback }, or { error } naming what is wrong.
 */
export function parseMistake({ value, tolerance, feedback }) {
  const x = Number(String(value ?? '').trim() || NaN);
  if (!Number.isFinite(x)) return { error: `value "${String(value ?? '').slice(0, 20)}" is not a number` };
  const tol = tolerance === null || tolerance === undefined || tolerance === '' ? 0 : Number(tolerance);
  if (!Number.isFinite(tol) || tol < 0) {
    return { error: `tolerance "${String(tolerance).slice(0, 20)}" is not a number ≥ 0` };
  }
  return { value: x, tolerance: tol, feedback: String(feedback ?? '').trim() };
}

/** The first mistake whose value is within its tolerance of x, or null. */
export function matchMistake(x, mistakes) {
  return (mistakes ?? []).find((m) => Math.abs(x - m.value) <= m.tolerance) ?? null;
}

/**
 * Judges the number x: { correct, message, mistake } where `mistake` is the matched
 * declared mistake's value (null when none matched). The answer wins over a mistake.
 */
export function judgeNumber(x, { answer, tolerance = 0, mistakes = [] }) {
  if (!Number.isFinite(answer))
    return { correct: false, message: 'this exercise has no answer to compare with.', mistake: null };
  if (Math.abs(x - answer) <= tolerance) {
    const within = tolerance ? ` to within ${formatNumber(tolerance)}` : '';
    return { correct: true, message: `${formatNumber(x, 4)} matches the answer${within}.`, mistake: null };
  }
  const mistake = matchMistake(x, mistakes);
  if (mistake)
    return {
      correct: false,
      message: mistake.feedback || `${formatNumber(x, 4)} is a common slip; try again.`,
      mistake: mistake.value,
    };
  return { correct: false, message: `${formatNumber(x, 4)} is not it; try again.`, mistake: null };
}

/**
 * Judges the option chosen in mode="choice": its own feedback, else a plain sentence; a wrong
 * option is the mistake (its value).
 */
export function judgeChoice(options, chosen) {
  const option = options.find((o) => o.value === chosen);
  if (!option) return { correct: false, message: 'choose one of the answers first.', mistake: null };
  return {
    correct: option.correct,
    message: option.feedback || (option.correct ? `“${option.text}” is right.` : `“${option.text}” is not it.`),
    mistake: option.correct ? null : option.value,
  };
}

/** What "Show me" says in mode="choice": the right option and why. */
export function choiceAnswer(options) {
  const right = options.find((o) => o.correct);
  return right
    ? `the answer is “${right.text}”${right.feedback ? `: ${right.feedback}` : '.'}`
    : 'see the explanation.';
}

const text = (x, name) => {
  if (x === undefined || x === null) return '';
  if (typeof x !== 'string') throw new Error(`${name} is not text`);
  return x.trim();
};

/**
 * The options of a choice variant, checked: [{ value, text, correct, feedback }], at least two,
 * values distinct, exactly one correct. Throws an Error saying what is wrong.
 */
function checkOptions(options) {
  if (!Array.isArray(options) || options.length < 2)
    throw new Error("the variant's options are not a list of two or more");
  const checked = options.map((o, i) => {
    if (!o || typeof o !== 'object') throw new Error(`option ${i} of the variant is not an object`);
    const value = text(o.value, `option ${i}'s value`);
    if (!value) throw new Error(`option ${i} of the variant has no value`);
    return {
      value,
      text: text(o.text, `option ${i}'s text`),
      correct: o.correct === true,
      feedback: text(o.feedback, `option ${i}'s feedback`),
    };
  });
  if (new Set(checked.map((o) => o.value)).size !== checked.length)
    throw new Error("the variant's option values repeat");
  const right = checked.filter((o) => o.correct).length;
  if (right !== 1) throw new Error(`the variant has ${right} right options, not exactly one`);
  return checked;
}

/**
 * Checks what `variant(seed)` returned. A number question: { answer (finite), tolerance? (≥ 0),
 * prompt?, hint?, explanation? (plain text), mistakes? ([{ value, tolerance?, feedback }]) }. A
 * choice question: { options ([{ value, text, correct?, feedback? }], one of them correct), prompt,
 * hint?, explanation? }. Throws an Error saying what is wrong.
 */
export function checkVariant(v) {
  if (!v || typeof v !== 'object') throw new Error('the variant is not an object');
  if ('options' in v) {
    const prompt = text(v.prompt, 'the prompt');
    if (!prompt) throw new Error('a choice variant needs its prompt');
    return {
      options: checkOptions(v.options),
      prompt,
      hint: text(v.hint, 'the hint'),
      explanation: text(v.explanation, 'the explanation'),
    };
  }
  const answer = Number(v.answer);
  if (typeof v.answer !== 'number' || !Number.isFinite(answer))
    throw new Error(`the variant's answer ${String(v.answer)} is not a finite number`);
  const tolerance = v.tolerance === undefined ? undefined : Number(v.tolerance);
  if (tolerance !== undefined && !(tolerance >= 0 && Number.isFinite(tolerance))) {
    throw new Error(`the variant's tolerance ${String(v.tolerance)} is not a number ≥ 0`);
  }
  const mistakes = [];
  for (const m of v.mistakes ?? []) {
    const parsed = parseMistake(m ?? {});
    if (parsed.error) throw new Error(`a mistake of the variant: ${parsed.error}`);
    mistakes.push(parsed);
  }
  return {
    answer,
    tolerance,
    prompt: text(v.prompt, 'the prompt'),
    hint: text(v.hint, 'the hint'),
    explanation: text(v.explanation, 'the explanation'),
    mistakes,
  };
}

/** The seed after `seed` (variants are drawn from 1, 2, 3, …: reproducible in tests). */
export const nextSeed = (seed) => ((Number.isInteger(seed) ? seed : 0) + 1) % 2147483647;

/**
 * The written variant (an <attn-variant>) that seed `seed` asks: seed 1 the first, seed n the
 * n-th, and after the last the first again. Null when there are none.
 */
export function declaredVariant(variants, seed) {
  if (!variants?.length) return null;
  const n = Math.max(1, Number.isInteger(seed) ? seed : 1);
  return variants[(n - 1) % variants.length];
}
