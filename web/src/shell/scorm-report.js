/**
 * What attnbook reports to an LMS (pure; tested in Node by tests/js/scorm.test.js), from the
 * progress entries and the lessons' meta (never a hard-coded count). A SCO is one lesson (every
 * package scripts/scorm.mjs writes: `&lesson=<id>` in its launch href), reported by lessonReport():
 *
 * - score = the lesson's exercises solved / its exercises (a lesson without exercises has none);
 * - completed = the lesson read to the end (its foot was on screen: shell/read-to-end.js);
 * - passed = score ≥ the mastery score (the LMS's own value when it has one, else the
 *   manifest's default, 0.8).
 *
 * A launch without `lesson` (packages before per-lesson SCOs) is the whole course, courseReport():
 * score over every exercise, completed when every lesson was opened.
 *
 * cmiValues() words that for each SCORM version (docs/progress-protocol.md, "SCORM").
 */
import { parseRecord } from '../cells/notebook/exercise-model.js';

export const DEFAULT_MASTERY = 0.8;

const round = (x, digits) => Number(x.toFixed(digits));

/**
 * @param {(key: string) => string | null} get reads a progress entry
 * @param {{ id: string, exerciseIds?: string[] }[]} metas every lesson's meta, in course order
 */
export function courseReport(get, metas) {
  let solved = 0;
  let total = 0;
  let opened = 0;
  for (const meta of metas) {
    const ids = meta.exerciseIds ?? [];
    total += ids.length;
    solved += ids.filter((id) => parseRecord(get(`attnbook:exercise:${meta.id}/${id}`)).status === 'solved').length;
    if (get(`attnbook:visited:${meta.id}`) !== null) opened += 1;
  }
  const lessons = metas.length;
  return { solved, total, score: total > 0 ? solved / total : 0, opened, lessons, completed: opened === lessons };
}

/**
 * One lesson's report, the same shape as courseReport's: `opened` is 1 once it was read to the end.
 * @param {(key: string) => string | null} get reads a progress entry
 * @param {{ id: string, exerciseIds?: string[] }} meta the lesson's meta
 */
export function lessonReport(get, meta) {
  const { solved, total, score } = courseReport(get, [meta]);
  const read = get(`attnbook:read:${meta.id}`) !== null ? 1 : 0;
  return { solved, total, score, opened: read, lessons: 1, completed: read === 1 };
}

/**
 * The mastery score (0 to 1) from the LMS's value: SCORM 1.2's cmi.student_data.mastery_score
 * (0 to 100), SCORM 2004's cmi.scaled_passing_score (-1 to 1). Empty or unusable: the default.
 */
export function masteryFrom(text, version) {
  if (typeof text !== 'string' || text.trim() === '') return DEFAULT_MASTERY;
  const x = Number(text);
  if (!Number.isFinite(x)) return DEFAULT_MASTERY;
  const mastery = version === 'scorm12' ? x / 100 : x;
  return mastery >= 0 && mastery <= 1 ? mastery : DEFAULT_MASTERY;
}

/**
 * The CMI values for a report, as [logical name (scorm-api.js), value] pairs, in the order to set.
 * SCORM 1.2: lesson_status `incomplete` until the report is completed, then `passed` (score ≥
 * mastery) or `completed`; score.raw 0–100. SCORM 2004: completion_status `incomplete` /
 * `completed`; success_status `passed` (score ≥ mastery), `failed` (completed below it) or
 * `unknown`; score.scaled 0–1 (and raw 0–100); progress_measure = lessons opened (a lesson: read)
 * / lessons. A report with no exercises (total 0) has no score: 1.2 `incomplete` / `completed`,
 * 2004 success `unknown`, and no score element is set.
 */
export function cmiValues(report, mastery, version) {
  if (report.total === 0) {
    const completion = report.completed ? 'completed' : 'incomplete';
    if (version === 'scorm12') return [['status', completion]];
    return [
      ['progress', report.lessons > 0 ? round(report.opened / report.lessons, 4) : 1],
      ['completion', completion],
      ['success', 'unknown'],
    ];
  }
  const scaled = round(report.score, 4);
  const raw = round(report.score * 100, 2);
  const passed = scaled >= mastery;
  if (version === 'scorm12') {
    const status = !report.completed ? 'incomplete' : passed ? 'passed' : 'completed';
    return [
      ['scoreMin', 0],
      ['scoreMax', 100],
      ['scoreRaw', raw],
      ['status', status],
    ];
  }
  const success = passed ? 'passed' : report.completed ? 'failed' : 'unknown';
  return [
    ['scoreMin', 0],
    ['scoreMax', 100],
    ['scoreRaw', raw],
    ['scoreScaled', scaled],
    ['progress', report.lessons > 0 ? round(report.opened / report.lessons, 4) : 1],
    ['completion', report.completed ? 'completed' : 'incomplete'],
    ['success', success],
  ];
}
