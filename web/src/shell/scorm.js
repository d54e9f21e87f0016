/**
 * attnbook inside an LMS, as a SCORM 1.2 or SCORM 2004 package (scripts/scorm.mjs builds them).
 * Every SCO is one lesson, launched as `index.html?lms=scorm12&lesson=<id>` (or `lms=scorm2004`):
 * it opens that lesson, scores that lesson's exercises, is completed once the lesson was read to
 * the end, and reports only that lesson's attempts as interactions (the learner may still read
 * other lessons; their progress is kept in the SCO's suspend_data but counts for nothing here).
 * A launch without `lesson` is the whole course as one SCO (scorm-report.js courseReport). Without
 * `lms` in the URL nothing here runs: the plain course never looks for an LMS.
 *
 * startScorm() runs as main.js starts (scorm-launch.js, its first import), in the same task as the
 * shell's elements are defined and before they first draw (Lit draws in a later microtask), so the
 * first page drawn already reads the LMS's progress:
 * 1. finds the API (scorm-api.js; none: the plain course, and a quiet notice says so);
 * 2. initialises, reads suspend_data (scorm-suspend.js; unreadable: a fresh start, and a notice),
 *    the mastery score and the lesson location, and reopens that lesson;
 * 3. keeps progress in memory seeded from suspend_data (useProgressBackend: localStorage is neither
 *    read nor written for progress), and after every change (an exercise's record, a lesson
 *    opened, a reset) and every lesson change sets status, score, suspend_data and location and
 *    commits (scorm-report.js says what);
 * 4. records every exercise attempt (an `attn-attempt` event) as the next interaction
 *    (scorm-interactions.js: id, type, response, result by the grading rule, latency) and commits;
 * 5. on pagehide: sets exit `suspend` and the session time, commits, then LMSFinish / Terminate.
 * A call the LMS refuses is named in the notice (its error code and text); the course keeps
 * working and tries again at the next save.
 */
import { useProgressBackend } from '../cells/base/cell-support.js';
import { findLesson, lessons } from './lessons.js';
import { parseHash } from './route.js';
import { findScormApi, lmsParam, scormAdapter, scormTime } from './scorm-api.js';
import { interactionValues } from './scorm-interactions.js';
import { cmiValues, courseReport, lessonReport, masteryFrom } from './scorm-report.js';
import { SUSPEND_LIMIT, decodeSuspendData, encodeSuspendData } from './scorm-suspend.js';

const LABEL = { scorm12: 'SCORM 1.2', scorm2004: 'SCORM 2004' };

/** The quiet notice at the top of <main>: one status line, empty when all is well. */
function noticeLine(doc) {
  const line = doc.createElement('p');
  line.className = 'lms-notice';
  line.setAttribute('role', 'status');
  Object.assign(line.style, { margin: '0.5rem 1rem', color: 'var(--muted, #555d6b)', fontSize: '0.9rem' });
  (doc.querySelector('main') ?? doc.body).prepend(line);
  return {
    get text() {
      return line.textContent;
    },
    say(text) {
      if (line.textContent !== text) line.textContent = text;
    },
  };
}

const failureText = (failure) => {
  if (!failure) return 'no reason given';
  const code = failure.code && failure.code !== '0' ? `error ${failure.code}` : 'no error code';
  return `${failure.call}: ${code}${failure.text ? `, ${failure.text}` : ''}`;
};

/** The lesson id of a hash route, or null. */
const lessonOf = (hash) => {
  const route = parseHash(hash);
  return route?.page === 'lesson' && findLesson(route.lessonId) ? route.lessonId : null;
};

/**
 * @param {Window} [win]
 * @returns {null | { version: string, save: () => boolean, entries: Map<string, string> }} null
 *   when not launched for an LMS or when none answers (the plain course)
 */
export function startScorm(win = window) {
  const { version, lesson: scoped, issue } = lmsParam(win.location.search);
  if (!version && !issue) return null;
  const notice = noticeLine(win.document);
  if (issue) {
    notice.say(`This course was opened with ${issue}`);
    return null;
  }
  const scope = scoped === null ? null : findLesson(scoped);
  if (scoped !== null && !scope) {
    notice.say(
      `This course was opened for the lesson ${JSON.stringify(scoped.slice(0, 60))}, which it does not have, ` +
        'so nothing is reported to a course site: your progress stays in this browser.',
    );
    return null;
  }
  const api = findScormApi(win, version);
  if (!api) {
    notice.say(
      `No course site was found to report to (no ${LABEL[version]} API), so this is the plain course: ` +
        'your progress stays in this browser.',
    );
    return null;
  }
  const lms = scormAdapter(api, version);
  if (!lms.initialize()) {
    notice.say(
      `The course site did not start this session (${failureText(lms.lastFailure)}), so this is the plain course: ` +
        'your progress stays in this browser.',
    );
    return null;
  }
  const started = Date.now();
  const mastery = masteryFrom(lms.get('mastery'), version);
  const { entries, error } = decodeSuspendData(lms.get('suspendData'));
  const readIssue = error
    ? `The progress saved on the course site could not be read (${error}), so this session starts afresh.`
    : '';
  let overflow = '';
  let failure = '';
  let recovered = false;
  const say = () =>
    notice.say(
      failure ||
        [readIssue, overflow, recovered ? 'Your progress is saved on the course site again.' : '']
          .filter(Boolean)
          .join(' '),
    );
  say();

  // Launch: a lesson's SCO opens its lesson; the course's reopens the lesson the learner was in.
  // Unless the launch link names a route itself.
  let lesson = lessonOf(win.location.hash);
  const saved = scope ? scope.meta.id : lms.get('location');
  if (!lesson && findLesson(saved) && /^(#\/?)?$/.test(win.location.hash)) {
    // A hashchange: <attn-app> may have read the empty route already; it then opens the lesson.
    win.location.replace(`#/${saved}`);
    lesson = saved;
  }

  let finished = false;
  let queued = false;

  /** Sets every value from the current progress; true when the LMS took them all. */
  const setValues = () => {
    const get = (key) => entries.get(key) ?? null;
    const report = scope
      ? lessonReport(get, scope.meta)
      : courseReport(
          get,
          lessons.map(({ meta }) => meta),
        );
    let ok = true;
    for (const [name, value] of cmiValues(report, mastery, version)) ok = lms.set(name, value) && ok;
    const { text, dropped } = encodeSuspendData(entries, { budget: SUSPEND_LIMIT });
    ok = lms.set('suspendData', text) && ok;
    if (lesson) ok = lms.set('location', lesson) && ok;
    overflow = dropped.length
      ? `${dropped.length} of your progress entries did not fit the course site's ${SUSPEND_LIMIT} characters and were not saved there.`
      : '';
    return ok;
  };

  /** Words the outcome of a save in the notice; returns `ok`. */
  const report = (ok) => {
    if (!ok) recovered = false;
    else if (failure) recovered = true; // says so until the next failure
    failure = ok
      ? ''
      : `The course site did not save your progress (${failureText(lms.lastFailure)}). ` +
        'You can keep working; it is tried again at the next change.';
    say();
    return ok;
  };

  const save = () => {
    queued = false;
    if (finished) return false;
    let ok = setValues();
    ok = lms.commit() && ok;
    return report(ok);
  };
  const schedule = () => {
    if (queued || finished) return;
    queued = true;
    queueMicrotask(save);
  };

  useProgressBackend({
    get: (key) => entries.get(key) ?? null,
    set(key, value) {
      if (entries.get(key) === value) return;
      entries.set(key, String(value));
      schedule();
    },
    remove(key) {
      if (entries.delete(key)) schedule();
    },
    keys: () => [...entries.keys()],
  });

  // Interactions are written once each, after those the LMS already holds (1.2 cannot read them).
  let interactions = Number.parseInt(lms.get('interactionCount'), 10);
  if (!Number.isInteger(interactions) || interactions < 0) interactions = 0;
  win.document.addEventListener('attn-attempt', (event) => {
    if (finished || event.detail?.version !== 1) return;
    if (scope && event.detail.lesson !== scope.meta.id) return; // another lesson's: not this SCO's
    let ok = true;
    for (const [element, value] of interactionValues(event.detail, interactions, version)) {
      ok = lms.setElement(element, value) && ok;
    }
    interactions += 1;
    if (!ok) report(false); // named in the notice; the progress itself is saved as ever
    schedule();
  });

  win.addEventListener('hashchange', () => {
    const next = lessonOf(win.location.hash);
    if (next && next !== lesson) {
      lesson = next;
      schedule();
    }
  });

  win.addEventListener('pagehide', () => {
    if (finished) return;
    let ok = setValues();
    ok = lms.set('exit', 'suspend') && ok;
    ok = lms.set('sessionTime', scormTime(Date.now() - started, version)) && ok;
    ok = lms.commit() && ok;
    ok = lms.finish() && ok;
    finished = true;
    report(ok);
  });
  win.addEventListener('pageshow', (event) => {
    // Back to a page kept in the back-forward cache: its LMS session has ended.
    if (event.persisted && finished)
      notice.say('This session with the course site has ended: reopen the course there to keep saving your progress.');
  });

  report(save());
  return { version, save, entries };
}
