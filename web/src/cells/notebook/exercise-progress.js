/**
 * Where an exercise's progress record lives (exercise-model.js holds the rules that change it):
 * saved as JSON under `attnbook:exercise:<lesson>/<id>` in progressStore (memory when storage is
 * unavailable) and reported with an `attn-progress` event. An exercise without an id keeps its
 * record in memory only and reports nothing (a host could not tell it apart).
 */
import { progressStore } from '../base/cell-support.js';
import { EMPTY_RECORD, parseRecord, progressDetail, serializeRecord } from './exercise-model.js';

/** The storage key of exercise `id` of lesson `lesson` ('' when it has no id). */
export const progressKey = (lesson, id) => (id ? `attnbook:exercise:${lesson}/${id}` : '');

/** The record saved under `key` (EMPTY_RECORD when none, or when it cannot be read). */
export const savedRecord = (key) => (key ? parseRecord(progressStore.get(key)) : EMPTY_RECORD);

/** Saves `record` of `exercise` (an attn-exercise) and reports it with attn-progress. */
export function saveRecord(exercise, record) {
  const key = exercise.storageKey;
  if (!key) return;
  progressStore.set(key, serializeRecord(record));
  const detail = progressDetail(exercise.lessonId, exercise.id, record);
  exercise.dispatchEvent(new CustomEvent('attn-progress', { detail, bubbles: true, composed: true }));
}

/** Deletes the record saved under `key` (Reset). */
export function removeRecord(key) {
  if (key) progressStore.remove(key);
}
