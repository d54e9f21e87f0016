/**
 * Embed mode (#/<lesson>?embed=1 in an iframe). Two kinds of message to the parent page, both
 * described in docs/progress-protocol.md:
 *
 * - height, always in an iframe: { type: 'attnbook:height', height } (CSS pixels, rounded up), on
 *   load and on every change, so the host can size the iframe to fit; posted to any origin (it
 *   says nothing about the learner).
 * - progress, only when the link names the parent's origin (`&host=https://course.example`):
 *   { type: 'attnbook:progress', version: 1, lesson, exercise, status, score, attempts }, one for
 *   each `attn-progress` event of an exercise, posted with exactly that origin as targetOrigin (a
 *   parent at any other origin gets nothing). With no host, no progress message is ever posted.
 *
 * Nothing is posted outside an iframe.
 */

export const PROGRESS_VERSION = 1;
export const PROGRESS_STATUSES = ['attempted', 'solved', 'shown'];
const MAX_NAME = 200; // characters of a lesson or exercise id

/** @param {unknown} text */
const isName = (text) => typeof text === 'string' && text !== '' && text.length <= MAX_NAME;

/**
 * The message for the parent from an `attn-progress` event's detail, or null if the detail is not
 * a version 1 progress report (then nothing is posted). Only the protocol's fields are copied.
 * @param {unknown} detail
 * @returns {null | { type: 'attnbook:progress', version: 1, lesson: string, exercise: string, status: 'attempted' | 'solved' | 'shown', score: number, attempts: number }}
 */
export function progressMessage(detail) {
  if (detail === null || typeof detail !== 'object') return null;
  const { version, lesson, exercise, status, score, attempts } = /** @type {Record<string, unknown>} */ (detail);
  if (version !== PROGRESS_VERSION || !isName(lesson) || !isName(exercise)) return null;
  if (typeof status !== 'string' || !PROGRESS_STATUSES.includes(status)) return null;
  if (typeof score !== 'number' || !(score >= 0 && score <= 1)) return null;
  if (!Number.isSafeInteger(attempts) || /** @type {number} */ (attempts) < 0) return null;
  return { type: 'attnbook:progress', version, lesson, exercise, status, score, attempts };
}

/** @returns {() => void} stops the reports */
export function startHeightReports(target = document.body) {
  if (window.parent === window || typeof ResizeObserver === 'undefined') return () => {};
  let last = -1;
  const post = () => {
    const height = Math.ceil(target.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'attnbook:height', height }, '*');
  };
  const observer = new ResizeObserver(post);
  observer.observe(target);
  window.addEventListener('load', post);
  post();
  return () => {
    observer.disconnect();
    window.removeEventListener('load', post);
  };
}

/**
 * Forwards every `attn-progress` event that reaches `source` to the parent window, at `origin`
 * only. Call with an origin from route.js's parseOrigin (never '*': posting checks it is one).
 * @param {string} origin e.g. 'https://course.example'
 * @returns {() => void} stops the reports
 */
export function startProgressReports(origin, source = document) {
  if (window.parent === window || typeof origin !== 'string' || !/^https?:\/\/[^/]+$/.test(origin)) return () => {};
  const forward = (event) => {
    const message = progressMessage(event.detail);
    if (message) window.parent.postMessage(message, origin);
  };
  source.addEventListener('attn-progress', forward);
  return () => source.removeEventListener('attn-progress', forward);
}
