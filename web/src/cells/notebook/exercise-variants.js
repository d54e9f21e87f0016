/**
 * "Try another" questions of the lessons' number exercises, from two places:
 * - written in the lesson: <attn-variant> children of the exercise (attn-variant.js), read by
 *   declaredVariants(exercise) as plain { answer, tolerance?, prompt, hint, explanation, mistakes };
 * - a lesson's web/src/labs/<lesson-id>/variants.js, whose default export maps an exercise id to
 *   (seed, engine) => ({ answer, tolerance?, prompt?, hint?, explanation?, mistakes? })
 *   (seeds 1, 2, 3, …; the engine is the page's WebAssembly engine, for the numbers and for
 *   seeded random draws), looked up by lessonVariant(lesson, id).
 * Both give the shape attn-exercise's `variant` returns. An exercise asks its written variants
 * when it has some, else the lesson's variants.js; a page's own `exercise.variant` wins over both.
 */
import { declaredVariant } from './exercise-model.js';

const modules = import.meta.glob('../../labs/*/variants.js', { eager: true });

const byLesson = new Map(
  Object.entries(modules).map(([file, module]) => [file.split('/').at(-2), module.default ?? {}]),
);

/** The variant maker of exercise `id` in lesson `lesson`, or null. */
export function lessonVariant(lesson, id) {
  const make = byLesson.get(lesson)?.[id];
  return typeof make === 'function' ? make : null;
}

const plain = (el) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
const attribute = (el, name) => (el.hasAttribute(name) ? el.getAttribute(name) : undefined);

/**
 * The variants written as <attn-variant> children of `exercise`, in order, as plain objects (text
 * only; checked later by exercise-model.js checkVariant, as any variant is).
 */
export function declaredVariants(exercise) {
  return [...exercise.querySelectorAll(':scope > attn-variant')].map((el) => {
    const answer = attribute(el, 'answer');
    const tolerance = attribute(el, 'tolerance');
    const task = [...el.children].filter((c) => !c.hasAttribute('slot') && c.localName !== 'attn-mistake');
    return {
      answer: answer === undefined || answer.trim() === '' ? NaN : Number(answer),
      ...(tolerance === undefined ? {} : { tolerance: Number(tolerance) }),
      prompt: task.map(plain).filter(Boolean).join(' '),
      hint: plain(el.querySelector(':scope > [slot="hint"]')),
      explanation: plain(el.querySelector(':scope > [slot="explanation"]')),
      mistakes: [...el.querySelectorAll(':scope > attn-mistake')].map((m) => ({
        value: attribute(m, 'value'),
        tolerance: attribute(m, 'tolerance'),
        feedback: plain(m),
      })),
    };
  });
}

/** Whether the lesson wrote <attn-variant> children into `exercise`. */
export const hasWrittenVariants = (exercise) => Boolean(exercise.querySelector(':scope > attn-variant'));

/**
 * Where "Try another" of `exercise` takes its questions, as (seed) => variant: the page's
 * `exercise.variant`, else its <attn-variant>s (read when asked); null when it has neither.
 */
export function variantMaker(exercise) {
  if (typeof exercise.variant === 'function') return exercise.variant;
  return hasWrittenVariants(exercise) ? (seed) => declaredVariant(declaredVariants(exercise), seed) : null;
}
