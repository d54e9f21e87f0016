/**
 * What a lesson wrote inside an <attn-exercise>, read as plain data: the options of mode="choice"
 * (<option> children) and the likely wrong answers of mode="number" (<attn-mistake> children).
 * The written "Try another" variants are read by exercise-variants.js.
 */
import { parseMistake } from './exercise-model.js';

/** The <option> children of `exercise`: [{ value, text, correct, feedback }], in order. */
export function declaredOptions(exercise) {
  return [...exercise.querySelectorAll(':scope > option')].map((o, i) => ({
    value: o.value ?? String(i),
    text: o.textContent.trim(),
    correct: o.hasAttribute('data-correct'),
    feedback: o.dataset.feedback ?? '',
  }));
}

/**
 * The <attn-mistake> children of `exercise`, checked: { mistakes: [{ value, tolerance, feedback }],
 * error } where error says what was wrong with the last one ignored ('' when none was).
 */
export function declaredMistakes(exercise) {
  const mistakes = [];
  let error = '';
  for (const el of exercise.querySelectorAll(':scope > attn-mistake')) {
    const parsed = parseMistake({
      value: el.getAttribute('value'),
      tolerance: el.getAttribute('tolerance'),
      feedback: el.textContent,
    });
    if (parsed.error) error = parsed.error;
    else mistakes.push(parsed);
  }
  return { mistakes, error };
}
