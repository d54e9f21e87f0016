/**
 * Progress kept in localStorage:
 *   attnbook:exercise:<lesson-id>/<exercise-id> = '{"status":"solved","attempts":2,"score":1}'
 *     written by exercise cells (status 'attempted', 'solved' or 'shown'); the plain 'solved' of
 *     older versions reads as solved (cells/notebook/exercise-model.js parseRecord)
 *   attnbook:visited:<lesson-id> = 'true'                     written when a lesson is opened
 *   attnbook:read:<lesson-id> = 'true'    written when the lesson's end was on screen (read-to-end.js)
 * how the home page words it, and "Reset my progress".
 * Read and written through progressStore (cells/base/cell-support.js), so inside an LMS the same
 * entries live in the backend that shell/scorm.js installs (memory seeded from suspend_data).
 */
import { currentProgressBackend, isProgressKey, progressStore } from '../cells/base/cell-support.js';
import { parseRecord } from '../cells/notebook/exercise-model.js';

export { isProgressKey };

export const exerciseKey = (lessonId, exerciseId) => `attnbook:exercise:${lessonId}/${exerciseId}`;
export const visitedKey = (lessonId) => `attnbook:visited:${lessonId}`;
export const readKey = (lessonId) => `attnbook:read:${lessonId}`;

/** The saved record of one exercise: { status ('none' when never attempted), attempts, score }. */
export const exerciseRecord = (lessonId, exerciseId) =>
  parseRecord(progressStore.get(exerciseKey(lessonId, exerciseId)));

/** { solved, total, visited } for a lesson's meta. */
export function lessonProgress(meta) {
  const ids = meta.exerciseIds ?? [];
  const solved = ids.filter((id) => exerciseRecord(meta.id, id).status === 'solved').length;
  return { solved, total: ids.length, visited: progressStore.get(visitedKey(meta.id)) !== null };
}

/** How the progress view words a record: "Solved", "Answer shown", "Attempted (2 tries)", "Not tried". */
export function recordText({ status, attempts }) {
  if (status === 'solved') return 'Solved';
  if (status === 'shown') return 'Answer shown';
  if (status === 'attempted') return `Attempted (${attempts === 1 ? '1 try' : `${attempts} tries`})`;
  return 'Not tried';
}

/**
 * "Reset my progress": removes every exercise record and every visited and read mark from
 * `storage` (localStorage by default; the theme and other settings stay). Returns how many
 * entries it removed; storage that cannot be read removes nothing. Inside an LMS (a progress
 * backend in use) and with no `storage` given, it empties that backend instead.
 */
export function resetProgress(storage = undefined) {
  const backend = storage === undefined ? currentProgressBackend() : null;
  if (backend) {
    const keys = backend.keys().filter(isProgressKey);
    for (const key of keys) backend.remove(key);
    return keys.length;
  }
  try {
    const area = storage ?? globalThis.localStorage;
    if (!area) return 0;
    const keys = [];
    for (let i = 0; i < area.length; i += 1) {
      const key = area.key(i);
      if (isProgressKey(key)) keys.push(key);
    }
    for (const key of keys) area.removeItem(key);
    return keys.length;
  } catch {
    return 0;
  }
}

export function markVisited(lessonId) {
  if (progressStore.get(visitedKey(lessonId)) !== 'true') progressStore.set(visitedKey(lessonId), 'true');
}

/** The lesson was read to the end (its foot came on screen): what completes a lesson's SCO. */
export function markRead(lessonId) {
  if (progressStore.get(readKey(lessonId)) !== 'true') progressStore.set(readKey(lessonId), 'true');
}

/** "1 lesson", "3 lessons": the noun agrees with the number. */
export const count = (n, noun) => `${n} ${n === 1 ? noun : `${noun}s`}`;

/** "0 of 1 exercise solved", "2 of 3 exercises solved": the noun agrees with the total. */
export const exercisesSolved = (solved, total) => `${solved} of ${count(total, 'exercise')} solved`;

/**
 * A lesson card's progress line: whether the lesson was opened, then its exercises if it has any
 * ("Visited · 1 of 2 exercises solved", "Not started"). A lesson without exercises says nothing
 * about exercises.
 */
export function progressText({ solved, total, visited }) {
  const opened = visited ? 'Visited' : 'Not started';
  return total > 0 ? `${opened} · ${exercisesSolved(solved, total)}` : opened;
}

/**
 * The course as a whole, from each lesson's lessonProgress() in course order:
 * { lessons, visited, solved, total, next } where `next` is the index of the first lesson not
 * opened yet (null once every lesson has been opened).
 */
export function courseProgress(progressList) {
  const sum = (pick) => progressList.reduce((n, p) => n + pick(p), 0);
  const next = progressList.findIndex((p) => !p.visited);
  return {
    lessons: progressList.length,
    visited: sum((p) => (p.visited ? 1 : 0)),
    solved: sum((p) => p.solved),
    total: sum((p) => p.total),
    next: next < 0 ? null : next,
  };
}

/** The course's progress in one line ("2 of 10 lessons opened · 1 of 3 exercises solved"). */
export function courseText({ lessons, visited, solved, total }) {
  const opened = visited === 0 ? count(lessons, 'lesson') : `${visited} of ${count(lessons, 'lesson')} opened`;
  return total > 0 ? `${opened} · ${exercisesSolved(solved, total)}` : opened;
}
