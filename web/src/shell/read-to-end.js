/**
 * Read to the end: once a lesson's foot (.lesson-foot, after its last block) has been on screen, the
 * lesson is marked read (progress.js markRead). A lesson's SCO counts as completed on that mark
 * (scorm-report.js lessonReport). The implicit root is the top-level viewport, so a framed lesson
 * (an LMS's frame, an embed) counts only when its foot was in view on the learner's screen. The
 * foot then carries `data-read` (tests wait for it).
 */
import { markRead } from './progress.js';

/**
 * Watches `foot` until it is on screen once, then marks `lessonId` read.
 * @param {Element | null} foot
 * @param {string} lessonId
 * @returns {() => void} stops watching
 */
export function watchReadToEnd(foot, lessonId) {
  if (!foot || typeof IntersectionObserver !== 'function') return () => {};
  foot.removeAttribute('data-read'); // the shell keeps one foot element from lesson to lesson
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    observer.disconnect();
    foot.setAttribute('data-read', '');
    markRead(lessonId);
  });
  observer.observe(foot);
  return () => observer.disconnect();
}
