/**
 * "Try another" questions of the lessons' number exercises. Each lesson may have
 * web/src/labs/<lesson-id>/variants.js, whose default export maps an exercise id to
 *   (seed, engine) => ({ answer, tolerance?, prompt?, hint?, explanation?, mistakes? })
 * (the shape attn-exercise's `variant` returns; seeds 1, 2, 3, …; the engine is the page's
 * WebAssembly engine, for the numbers and for seeded random draws). attn-exercise looks its
 * own up by lesson and id when the page has not set `variant` itself.
 */
const modules = import.meta.glob('../../labs/*/variants.js', { eager: true });

const byLesson = new Map(
  Object.entries(modules).map(([file, module]) => [file.split('/').at(-2), module.default ?? {}]),
);

/** The variant maker of exercise `id` in lesson `lesson`, or null. */
export function lessonVariant(lesson, id) {
  const make = byLesson.get(lesson)?.[id];
  return typeof make === 'function' ? make : null;
}
