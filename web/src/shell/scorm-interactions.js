/**
 * Every exercise attempt as a SCORM interaction (pure; tested in Node by tests/js/scorm.test.js),
 * from an `attn-attempt` event's detail (attn-exercise.js): { lesson, exercise, label, mode,
 * response, correct, counted, latency (ms) }.
 *
 * - id: `<lesson>.<exercise>`; type: numeric (a number exercise), choice, and for an exercise of
 *   the page's own kind performance (1.2) or other (2004);
 * - the learner's response: the number, the option's value, or the page's own attempt in short text;
 * - result, by the grading rule (docs/teaching.md): correct only for a right answer that counts
 *   (given before the page showed the answer); a right answer after it was shown is neutral; a
 *   wrong one is wrong (1.2) / incorrect (2004);
 * - latency: the time from the question asked (or the last attempt at it) to this attempt;
 * - 2004 also: description, the exercise's label.
 * interactionValues() gives the elements of interaction n, in the order the standards require
 * (id first, type before the response).
 */
import { scormTime } from './scorm-api.js';

const RESPONSE_LIMIT = { scorm12: 255, scorm2004: 4000 };
const TYPE = {
  scorm12: { number: 'numeric', choice: 'choice', custom: 'performance' },
  scorm2004: { number: 'numeric', choice: 'choice', custom: 'other' },
};

/** An identifier the LMS takes: letters, digits, '.', '-' and '_' only (others become '_'). */
const identifier = (text) =>
  String(text)
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .slice(0, 250) || '_';

/** The result of an attempt by the grading rule, in `version`'s words. */
export function interactionResult({ correct, counted }, version) {
  if (correct) return counted ? 'correct' : 'neutral';
  return version === 'scorm12' ? 'wrong' : 'incorrect';
}

/** The learner's response in the form the interaction's type takes. */
export function interactionResponse({ mode, response }, version) {
  if (mode === 'number') return Number.isFinite(Number(response)) ? String(Number(response)) : '';
  if (mode === 'choice') return identifier(response);
  const text = String(response ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.slice(0, RESPONSE_LIMIT[version]);
}

/**
 * The elements of interaction `n` for an attempt, as [element, value] pairs in the order to set.
 * @param {{ lesson: string, exercise: string, label?: string, mode: string, response: unknown,
 *   correct: boolean, counted: boolean, latency: number }} attempt
 * @param {number} n
 * @param {'scorm12' | 'scorm2004'} version
 */
export function interactionValues(attempt, n, version) {
  const at = `cmi.interactions.${n}.`;
  const mode = TYPE[version][attempt.mode] ? attempt.mode : 'custom';
  const values = [
    [`${at}id`, identifier(`${attempt.lesson}.${attempt.exercise}`)],
    [`${at}type`, TYPE[version][mode]],
    [
      `${at}${version === 'scorm12' ? 'student_response' : 'learner_response'}`,
      interactionResponse({ ...attempt, mode }, version),
    ],
    [`${at}result`, interactionResult(attempt, version)],
    [`${at}latency`, scormTime(attempt.latency, version)],
  ];
  if (version === 'scorm2004') values.push([`${at}description`, String(attempt.label ?? '').slice(0, 250)]);
  return values;
}
