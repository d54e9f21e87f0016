/**
 * The course: every web/lessons/*.md, compiled at build time by
 * scripts/vite-lessons-plugin.mjs, sorted by the `order` in its front matter.
 * Adding a lesson is adding a Markdown file.
 *
 * A lesson is { meta: { id, title, order, summary, sources, exercises, exerciseIds },
 *               html, headings: [{ id, text, level }] }.
 */
const modules = import.meta.glob('../../lessons/*.md', { eager: true });

/** @type {{ meta: object, html: string, headings: { id: string, text: string, level: number }[] }[]} */
export const lessons = Object.values(modules)
  .map(({ meta, html, headings }) => ({ meta, html, headings }))
  .sort((a, b) => a.meta.order - b.meta.order || a.meta.id.localeCompare(b.meta.id));

/** The lesson with this id, or null. */
export function findLesson(id) {
  return lessons.find((lesson) => lesson.meta.id === id) ?? null;
}

/** The lessons before and after `id` in course order ({ previous, next }, each possibly null). */
export function neighbours(id) {
  const i = lessons.findIndex((lesson) => lesson.meta.id === id);
  return { previous: i > 0 ? lessons[i - 1] : null, next: i >= 0 && i < lessons.length - 1 ? lessons[i + 1] : null };
}
