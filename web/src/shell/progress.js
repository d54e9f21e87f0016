/**
 * Progress kept in localStorage:
 *   attnbook:exercise:<lesson-id>/<exercise-id> = 'solved'   written by exercise cells
 *   attnbook:visited:<lesson-id> = 'true'                     written when a lesson is opened
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
