/**
 * Progress kept in localStorage:
 *   attnbook:exercise:<lesson-id>/<exercise-id> = 'solved'   written by exercise cells
 *   attnbook:visited:<lesson-id> = 'true'                     written when a lesson is opened
 * and how the home page words it.
 */
import { readItem, writeItem } from './storage.js';

export const exerciseKey = (lessonId, exerciseId) => `attnbook:exercise:${lessonId}/${exerciseId}`;
export const visitedKey = (lessonId) => `attnbook:visited:${lessonId}`;

/** { solved, total, visited } for a lesson's meta. */
export function lessonProgress(meta) {
  const ids = meta.exerciseIds ?? [];
  const solved = ids.filter((id) => readItem(exerciseKey(meta.id, id)) === 'solved').length;
  return { solved, total: ids.length, visited: readItem(visitedKey(meta.id)) !== null };
}

export function markVisited(lessonId) {
  writeItem(visitedKey(lessonId), 'true');
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
