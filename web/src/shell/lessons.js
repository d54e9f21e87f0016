/**
 * The course: every web/lessons/*.md, compiled at build time by
 * scripts/vite-lessons-plugin.mjs, sorted by the `order` in its front matter (then by id).
 * Adding a lesson is adding a Markdown file: there is no list of lessons anywhere else
 * (web/README.md, "Writing a lesson").
 *
 * A lesson is { meta: { id, title, order, summary, sources ([] when it credits no one),
 *                       exercises, exerciseIds, exerciseLabels },
 *               html, htmlGzip, headings: [{ id, text, level }] };
 * its body comes from lessonHtml(lesson) (the single file keeps it gzipped).
 */
import { fromBase64 } from '../engine/base64.js';
import { gunzip } from '../engine/gzip.js';

const modules = import.meta.glob('../../lessons/*.md', { eager: true });

/** @type {{ meta: object, html: string | null, htmlGzip: string | null, headings: { id: string, text: string, level: number }[] }[]} */
export const lessons = Object.values(modules)
  .map(({ meta, html, htmlGzip, headings }) => ({ meta, html, htmlGzip, headings }))
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

/**
 * The lesson's body HTML (inflated once, then kept). Synchronous (engine/gzip.js),
 * so the first render of a lesson page already has it. Throws if the packed HTML
 * is damaged.
 * @returns {string}
 */
export function lessonHtml(lesson) {
  lesson.html ??= new TextDecoder().decode(gunzip(fromBase64(lesson.htmlGzip)));
  return lesson.html;
}
