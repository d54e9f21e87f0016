/**
 * The LMS's SCORM API, found and spoken to (no DOM of its own; the wiring is shell/scorm.js):
 *
 * - findScormApi(win, version): the standard discovery. SCORM 1.2's object is `API`, SCORM 2004's
 *   `API_1484_11`; it is looked for on this window, then up its parent chain, then on its opener
 *   and up the opener's parent chain, at most MAX_DEPTH windows up each chain. A window of another
 *   origin (reading it throws) ends that chain.
 * - scormAdapter(api, version): one vocabulary for both versions (initialize, get, set by a
 *   logical name, commit, finish), each call's "true"/"false" checked, and the LMS's error code and
 *   text kept for a failed call (`lastFailure`).
 * - scormTime(ms, version): a session time as each version writes it
 *   (1.2: HHHH:MM:SS.SS; 2004: an ISO 8601 duration, PT1H2M3.45S).
 */

export const VERSIONS = ['scorm12', 'scorm2004'];
export const API_NAMES = { scorm12: 'API', scorm2004: 'API_1484_11' };
export const MAX_DEPTH = 500; // windows up one chain (ADL's sample discovery allows 500)

/** The API object on `win` under `name`, or null (also when `win` is of another origin). */
function apiOn(win, name) {
  try {
    const api = win?.[name];
    return api && typeof api === 'object' ? api : null;
  } catch {
    return null; // another origin
  }
}

function searchUp(win, name) {
  let current = win;
  for (let depth = 0; current && depth <= MAX_DEPTH; depth += 1) {
    const api = apiOn(current, name);
    if (api) return api;
    let parent;
    try {
      parent = current.parent;
    } catch {
      return null;
    }
    if (!parent || parent === current) return null;
    current = parent;
  }
  return null;
}

/**
 * @param {Window} win where the course runs
 * @param {'scorm12' | 'scorm2004'} version
 * @returns {object | null} the LMS's API object
 */
export function findScormApi(win, version) {
  const name = API_NAMES[version];
  const found = searchUp(win, name);
  if (found) return found;
  let opener;
  try {
    opener = win.opener;
  } catch {
    return null; // an opener of another origin
  }
  return opener ? searchUp(opener, name) : null;
}

const NAMES = {
  scorm12: {
    status: 'cmi.core.lesson_status',
    scoreRaw: 'cmi.core.score.raw',
    scoreMin: 'cmi.core.score.min',
    scoreMax: 'cmi.core.score.max',
    suspendData: 'cmi.suspend_data',
    location: 'cmi.core.lesson_location',
    exit: 'cmi.core.exit',
    sessionTime: 'cmi.core.session_time',
    entry: 'cmi.core.entry',
    mastery: 'cmi.student_data.mastery_score',
    interactionCount: 'cmi.interactions._count',
  },
  scorm2004: {
    completion: 'cmi.completion_status',
    success: 'cmi.success_status',
    scoreScaled: 'cmi.score.scaled',
    scoreRaw: 'cmi.score.raw',
    scoreMin: 'cmi.score.min',
    scoreMax: 'cmi.score.max',
    progress: 'cmi.progress_measure',
    suspendData: 'cmi.suspend_data',
    location: 'cmi.location',
    exit: 'cmi.exit',
    sessionTime: 'cmi.session_time',
    entry: 'cmi.entry',
    mastery: 'cmi.scaled_passing_score',
    interactionCount: 'cmi.interactions._count',
  },
};

const CALLS = {
  scorm12: {
    initialize: 'LMSInitialize',
    finish: 'LMSFinish',
    get: 'LMSGetValue',
    set: 'LMSSetValue',
    commit: 'LMSCommit',
    error: 'LMSGetLastError',
    errorText: 'LMSGetErrorString',
  },
  scorm2004: {
    initialize: 'Initialize',
    finish: 'Terminate',
    get: 'GetValue',
    set: 'SetValue',
    commit: 'Commit',
    error: 'GetLastError',
    errorText: 'GetErrorString',
  },
};

/**
 * @param {object} api the object findScormApi returned
 * @param {'scorm12' | 'scorm2004'} version
 */
export function scormAdapter(api, version) {
  const calls = CALLS[version];
  const names = NAMES[version];
  const adapter = {
    version,
    names,
    /** @type {null | { call: string, code: string, text: string }} the last call that failed */
    lastFailure: null,
    /** Calls one API function; returns its result as a string ('' when it threw). */
    call(fn, ...args) {
      try {
        const result = api[calls[fn]](...args);
        return result === undefined || result === null ? '' : String(result);
      } catch (error) {
        adapter.lastFailure = { call: calls[fn], code: '', text: error?.message ?? String(error) };
        return '';
      }
    },
    /** The LMS's last error, { code, text }. */
    error() {
      const code = adapter.call('error');
      let text = '';
      if (code && code !== '0') text = adapter.call('errorText', code);
      return { code, text };
    },
    /** A call that answers "true" or "false": true when it worked, else lastFailure says why. */
    checked(fn, ...args) {
      const result = adapter.call(fn, ...args);
      if (result === 'true' || result === true) return true;
      const { code, text } = adapter.error();
      adapter.lastFailure = { call: calls[fn], code, text: text || `returned "${result}"` };
      return false;
    },
    initialize: () => adapter.checked('initialize', ''),
    commit: () => adapter.checked('commit', ''),
    finish: () => adapter.checked('finish', ''),
    /** The value of a logical name ('' when the LMS has none). */
    get(name) {
      return adapter.call('get', names[name]);
    },
    /** Sets a logical name's element; true when the LMS took it. */
    set(name, value) {
      return adapter.checked('set', names[name], String(value));
    },
    /** Sets a data model element by its full name (cmi.interactions.0.id); true when the LMS took it. */
    setElement(element, value) {
      return adapter.checked('set', element, String(value));
    },
  };
  return adapter;
}

const pad = (n, width) => String(n).padStart(width, '0');

/**
 * @param {number} ms a duration in milliseconds (negative or not finite: 0)
 * @param {'scorm12' | 'scorm2004'} version
 */
export function scormTime(ms, version) {
  const centis = Number.isFinite(ms) && ms > 0 ? Math.round(ms / 10) : 0;
  const hours = Math.floor(centis / 360000);
  const minutes = Math.floor(centis / 6000) % 60;
  const seconds = (centis % 6000) / 100;
  if (version === 'scorm12') {
    const [whole, frac] = seconds.toFixed(2).split('.');
    return `${pad(Math.min(hours, 9999), 4)}:${pad(minutes, 2)}:${pad(whole, 2)}.${frac}`;
  }
  return `PT${hours}H${minutes}M${Number(seconds.toFixed(2))}S`;
}

/**
 * Which LMS the launch link asks for, and for which lesson: `?lms=scorm12` or `?lms=scorm2004`
 * (every package's launch hrefs), with `&lesson=<lesson-id>` for a SCO that is one lesson (every SCO
 * of the packages scripts/scorm.mjs writes). No `lms`: { version: null, issue: null }, the plain
 * course. Another value: an issue. `lesson` is returned as given (null without one); whether the
 * course has that lesson is for the caller to say.
 * @param {string} search location.search
 * @returns {{ version: string | null, lesson: string | null, issue: string | null }}
 */
export function lmsParam(search) {
  let params;
  try {
    params = new URLSearchParams(search);
  } catch {
    params = new URLSearchParams();
  }
  const value = params.get('lms');
  const lesson = params.get('lesson');
  if (value === null) return { version: null, lesson: null, issue: null };
  if (VERSIONS.includes(value)) return { version: value, lesson, issue: null };
  const shown = JSON.stringify(value.slice(0, 40));
  return {
    version: null,
    lesson: null,
    issue: `lms: ${shown} is not scorm12 or scorm2004, so nothing is reported to a course site.`,
  };
}
