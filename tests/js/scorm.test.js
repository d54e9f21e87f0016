// The pure parts of attnbook's SCORM packages, in Node: suspend_data encoding (web/src/shell/
// scorm-suspend.js), the report and its CMI values (scorm-report.js), interactions
// (scorm-interactions.js), API discovery, the adapter
// and session times (scorm-api.js), and the progress backend switch (cells/base/cell-support.js,
// shell/progress.js). The browser half is tests/e2e/scorm.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { progressStore, useProgressBackend } from '../../web/src/cells/base/cell-support.js';
import { exerciseRecord, lessonProgress, markRead, markVisited, resetProgress } from '../../web/src/shell/progress.js';
import { findScormApi, lmsParam, MAX_DEPTH, scormAdapter, scormTime } from '../../web/src/shell/scorm-api.js';
import {
  cmiValues,
  courseReport,
  DEFAULT_MASTERY,
  lessonReport,
  masteryFrom,
} from '../../web/src/shell/scorm-report.js';
import { decodeSuspendData, encodeSuspendData, SUSPEND_LIMIT } from '../../web/src/shell/scorm-suspend.js';
import { interactionResponse, interactionResult, interactionValues } from '../../web/src/shell/scorm-interactions.js';

const ex = (lesson, id) => `attnbook:exercise:${lesson}/${id}`;
const visited = (lesson) => `attnbook:visited:${lesson}`;
const read = (lesson) => `attnbook:read:${lesson}`;
const rec = (status, attempts) => JSON.stringify({ status, attempts, score: status === 'solved' ? 1 : 0 });

test('suspend_data round-trips exercise records and opened lessons, compactly', () => {
  const entries = new Map([
    [ex('convex-hull', 'cold-limit'), rec('solved', 2)],
    [ex('convex-hull', 'corner'), rec('attempted', 1)],
    [ex('retrieval', 'which-key'), rec('shown', 3)],
    [visited('convex-hull'), 'true'],
    [visited('retrieval'), 'true'],
    [visited('softmax-temperature'), 'true'],
    ['attnbook:theme', 'dark'], // not progress: not encoded
  ]);
  const { text, dropped } = encodeSuspendData(entries);
  assert.deepEqual(dropped, []);
  assert.equal(text, 'A1;convex-hull:cold-limit=s2,corner=a1;retrieval:which-key=h3;@softmax-temperature');
  const back = decodeSuspendData(text);
  assert.equal(back.error, null);
  entries.delete('attnbook:theme');
  assert.deepEqual(new Map([...back.entries].sort()), new Map([...entries].sort()));
});

test('ids with separators or other characters survive; the plain "solved" of old versions too', () => {
  const entries = new Map([
    [ex('l;1', 'a=b,c:d@é'), 'solved'],
    [visited('x,y'), 'true'],
  ]);
  const { text } = encodeSuspendData(entries);
  assert.equal(text.split(';').length, 3, text);
  const back = decodeSuspendData(text).entries;
  assert.deepEqual(JSON.parse(back.get(ex('l;1', 'a=b,c:d@é'))), { status: 'solved', attempts: 1, score: 1 });
  assert.equal(back.get(visited('x,y')), 'true');
  assert.equal(back.get(visited('l;1')), 'true', 'a lesson with a record was opened');
});

test('suspend_data keeps the lessons read to the end apart, before those only opened', () => {
  const entries = new Map([
    [ex('convex-hull', 'cold-limit'), rec('solved', 1)],
    [read('convex-hull'), 'true'],
    [read('retrieval'), 'true'],
    [visited('convex-hull'), 'true'],
    [visited('retrieval'), 'true'],
    [visited('multi-head'), 'true'],
  ]);
  const { text, dropped } = encodeSuspendData(entries);
  assert.deepEqual(dropped, []);
  assert.equal(text, 'A1;convex-hull:cold-limit=s1;!convex-hull,retrieval;@multi-head');
  assert.deepEqual(new Map([...decodeSuspendData(text).entries].sort()), new Map([...entries].sort()));
  assert.equal(encodeSuspendData(new Map([[read('x')], [visited('x'), 'true']])).text, 'A1;@x', 'no value: not read');
  assert.match(decodeSuspendData('A1;!b;c:e=s1').error, /lessons read is not before the list of lessons opened/);
  // when the budget is short, reads go before visits
  const short = encodeSuspendData(entries, { budget: 'A1;convex-hull:cold-limit=s1;!convex-hull,retrieval'.length });
  assert.deepEqual(short.dropped, [visited('multi-head')]);
});

test('nothing saved: "A1"; empty suspend_data: a fresh start without a notice', () => {
  assert.equal(encodeSuspendData(new Map()).text, 'A1');
  assert.deepEqual(decodeSuspendData(''), { entries: new Map(), error: null });
  assert.equal(decodeSuspendData('A1').entries.size, 0);
});

test('malformed suspend_data is a fresh start with a clear reason, never a crash', () => {
  const bad = [
    'hello',
    '{"json":true}',
    'A2;x:y=s1',
    'A1;nocolon',
    'A1;l:ex=q1',
    'A1;l:ex=s',
    'A1;l:ex=s123456',
    'A1;l:=s1',
    'A1;:e=s1',
    'A1;l:%E0%A4%A=s1',
    'A1;@a;l:e=s1',
    'A1;l:e=s1,',
    42,
    {},
  ];
  for (const text of bad) {
    const { entries, error } = decodeSuspendData(text);
    assert.equal(entries.size, 0, String(text));
    assert.match(error, /saved progress (could not be read|is not text)/, String(text));
  }
});

/** `n` exercise records of one status with long ids, in one lesson each. */
const many = (n, status, prefix) =>
  Array.from({ length: n }, (_, i) => [
    ex(`${prefix}-lesson-${i}`, `${prefix}-exercise-${'x'.repeat(30)}-${i}`),
    rec(status, 1),
  ]);

test('over the budget, exercise states come first (solved, shown, attempted), then opened lessons', () => {
  const entries = new Map([
    ...many(40, 'attempted', 'att'),
    ...Array.from({ length: 60 }, (_, i) => [visited(`only-opened-lesson-${i}`), 'true']),
    ...many(40, 'shown', 'sho'),
    ...many(40, 'solved', 'sol'),
  ]);
  const { text, dropped } = encodeSuspendData(entries);
  assert.ok(text.length <= SUSPEND_LIMIT, `${text.length} characters`);
  assert.ok(text.length > SUSPEND_LIMIT - 100, 'the budget is used, not wasted');
  const kept = decodeSuspendData(text).entries;
  const keptOf = (status) => [...kept.values()].filter((v) => v.includes(`"${status}"`)).length;
  assert.equal(keptOf('solved'), 40, 'every solved exercise is kept');
  assert.ok(
    dropped.some((key) => key.startsWith('attnbook:visited:only-opened')),
    'opened lessons go first',
  );
  assert.ok(
    dropped.filter((key) => key.startsWith('attnbook:exercise:sol')).length === 0 &&
      (keptOf('attempted') === 0 || keptOf('shown') === 40),
    'attempted exercises are dropped before shown ones',
  );
  for (const key of dropped) assert.ok(!kept.has(key) || key.startsWith('attnbook:visited:'), key);
});

test('the 4,096-character limit, exactly: 4,096 fits whole, one character more drops an entry', () => {
  // One lesson, one solved exercise whose id is sized so the text is exactly the budget.
  const base = 'A1;l:=s1'.length; // the text around the id
  const id = 'e'.repeat(SUSPEND_LIMIT - base);
  const exact = encodeSuspendData(new Map([[ex('l', id), rec('solved', 1)]]));
  assert.equal(exact.text.length, SUSPEND_LIMIT);
  assert.deepEqual(exact.dropped, []);
  assert.equal(decodeSuspendData(exact.text).entries.size, 2);
  const over = encodeSuspendData(new Map([[ex('l', `${id}e`), rec('solved', 1)]]));
  assert.deepEqual(over.dropped, [ex('l', `${id}e`)]);
  assert.equal(over.text, 'A1');
  // Two entries at the limit: the second one (a lesson opened) is what goes.
  const two = encodeSuspendData(
    new Map([
      [visited('other'), 'true'],
      [ex('l', id), rec('solved', 1)],
    ]),
  );
  assert.equal(two.text.length, SUSPEND_LIMIT);
  assert.deepEqual(two.dropped, [visited('other')]);
  // Attempts are capped at five digits, so a record's length is bounded.
  const capped = encodeSuspendData(new Map([[ex('l', 'e'), rec('attempted', 10 ** 9)]])).text;
  assert.equal(capped, 'A1;l:e=a99999');
});

const course = [
  { id: 'a', exerciseIds: ['a1', 'a2'] },
  { id: 'b', exerciseIds: [] },
  { id: 'c', exerciseIds: ['c1', 'c2', 'c3'] },
];

test('score = solved / every exercise of the course; completed = every lesson opened', () => {
  const entries = new Map([
    [ex('a', 'a1'), rec('solved', 1)],
    [ex('a', 'a2'), rec('shown', 2)],
    [ex('c', 'c3'), 'solved'],
    [ex('c', 'gone'), rec('solved', 1)], // an exercise the course no longer has: not counted
    [visited('a'), 'true'],
    [visited('c'), 'true'],
  ]);
  const get = (key) => entries.get(key) ?? null;
  const report = courseReport(get, course);
  assert.deepEqual(report, { solved: 2, total: 5, score: 0.4, opened: 2, lessons: 3, completed: false });
  entries.set(visited('b'), 'true');
  assert.equal(courseReport(get, course).completed, true);
  assert.equal(courseReport(() => null, course).score, 0);
});

test('mastery: the LMS value when usable, else 0.8', () => {
  assert.equal(DEFAULT_MASTERY, 0.8);
  assert.equal(masteryFrom('', 'scorm12'), 0.8);
  assert.equal(masteryFrom('70', 'scorm12'), 0.7);
  assert.equal(masteryFrom('0.6', 'scorm2004'), 0.6);
  for (const bad of ['abc', 'NaN', '150', '-0.5', undefined]) {
    assert.equal(masteryFrom(bad, 'scorm12'), 0.8, String(bad));
    assert.equal(masteryFrom(bad, 'scorm2004'), 0.8, String(bad));
  }
});

test('CMI values: 1.2 raw 0–100 and one status; 2004 scaled 0–1, completion and success apart', () => {
  const report = (solved, total, completed) => ({
    solved,
    total,
    score: solved / total,
    opened: 1,
    lessons: 2,
    completed,
  });
  const v12 = (r) => Object.fromEntries(cmiValues(r, 0.8, 'scorm12'));
  const v04 = (r) => Object.fromEntries(cmiValues(r, 0.8, 'scorm2004'));
  assert.deepEqual(v12(report(0, 3, false)), { scoreMin: 0, scoreMax: 100, scoreRaw: 0, status: 'incomplete' });
  assert.equal(v12(report(1, 3, false)).scoreRaw, 33.33);
  assert.equal(v12(report(3, 3, false)).status, 'incomplete', 'incomplete until every lesson is opened');
  assert.equal(v12(report(3, 3, true)).status, 'passed');
  assert.equal(v12(report(4, 5, true)).status, 'passed', 'exactly the mastery score passes');
  assert.equal(v12(report(1, 3, true)).status, 'completed');
  const start = v04(report(0, 3, false));
  assert.equal(start.scoreScaled, 0);
  assert.equal(start.completion, 'incomplete');
  assert.equal(start.success, 'unknown');
  assert.equal(start.progress, 0.5);
  assert.equal(v04(report(1, 3, false)).scoreScaled, 0.3333);
  assert.equal(v04(report(1, 3, true)).success, 'failed');
  assert.equal(v04(report(4, 5, false)).success, 'passed');
  assert.equal(v04(report(4, 5, true)).completion, 'completed');
});

test('a lesson report: its exercises for the score, read to the end for completion', () => {
  const meta = { id: 'convex-hull', exerciseIds: ['cold-limit', 'corner'] };
  const entries = new Map([
    [ex('convex-hull', 'cold-limit'), rec('solved', 1)],
    [ex('retrieval', 'which-key'), rec('solved', 1)], // another lesson's: not counted
    [visited('convex-hull'), 'true'],
  ]);
  const get = (key) => entries.get(key) ?? null;
  assert.deepEqual(lessonReport(get, meta), {
    solved: 1,
    total: 2,
    score: 0.5,
    opened: 0,
    lessons: 1,
    completed: false,
  });
  entries.set(read('convex-hull'), 'true');
  assert.deepEqual(lessonReport(get, meta), {
    solved: 1,
    total: 2,
    score: 0.5,
    opened: 1,
    lessons: 1,
    completed: true,
  });
  const values = Object.fromEntries(cmiValues(lessonReport(get, meta), 0.8, 'scorm2004'));
  assert.deepEqual([values.progress, values.completion, values.success], [1, 'completed', 'failed']);
  // a lesson without exercises: completion only, no score at all
  const plain = { id: 'notes', exerciseIds: [] };
  assert.deepEqual(cmiValues(lessonReport(get, plain), 0.8, 'scorm12'), [['status', 'incomplete']]);
  entries.set(read('notes'), 'true');
  assert.deepEqual(cmiValues(lessonReport(get, plain), 0.8, 'scorm12'), [['status', 'completed']]);
  assert.deepEqual(cmiValues(lessonReport(get, plain), 0.8, 'scorm2004'), [
    ['progress', 1],
    ['completion', 'completed'],
    ['success', 'unknown'],
  ]);
});

test('lmsParam: only ?lms=scorm12 or ?lms=scorm2004 asks for an LMS; another value is named', () => {
  assert.deepEqual(lmsParam(''), { version: null, lesson: null, issue: null });
  assert.deepEqual(lmsParam('?lms=scorm12'), { version: 'scorm12', lesson: null, issue: null });
  assert.deepEqual(lmsParam('?x=1&lms=scorm2004'), { version: 'scorm2004', lesson: null, issue: null });
  assert.deepEqual(lmsParam('?lms=scorm12&lesson=convex-hull'), {
    version: 'scorm12',
    lesson: 'convex-hull',
    issue: null,
  });
  assert.equal(lmsParam('?lesson=convex-hull').version, null, 'a lesson without lms: the plain course');
  assert.match(lmsParam('?lms=<b>moodle</b>').issue, /^lms: "<b>moodle<\/b>" is not scorm12 or scorm2004/);
});

/** A window chain: frames[0] is the course, each one's parent the next; the last is its own parent. */
function windows(n) {
  const chain = Array.from({ length: n }, () => ({}));
  chain.forEach((w, i) => {
    w.parent = chain[i + 1] ?? w;
  });
  return chain;
}

test('discovery: this window, then up the parent chain, then the opener and its parents', () => {
  const api = { LMSInitialize: () => 'true' };
  const chain = windows(4);
  assert.equal(findScormApi(chain[0], 'scorm12'), null);
  chain[3].API = api;
  assert.equal(findScormApi(chain[0], 'scorm12'), api);
  assert.equal(findScormApi(chain[0], 'scorm2004'), null, 'SCORM 2004 looks for API_1484_11');
  const lms = windows(3);
  lms[2].API_1484_11 = api;
  const popup = windows(2);
  popup[0].opener = lms[0];
  assert.equal(findScormApi(popup[0], 'scorm2004'), api);
  // another origin: reading it throws, which ends that chain without an error
  const guarded = windows(2);
  Object.defineProperty(guarded[1], 'API', {
    get() {
      throw new Error('SecurityError: cross-origin');
    },
  });
  assert.equal(findScormApi(guarded[0], 'scorm12'), null);
  const deep = windows(MAX_DEPTH + 5);
  deep.at(-1).API = api;
  assert.equal(findScormApi(deep[0], 'scorm12'), null, 'no further than the depth limit');
});

test('the adapter speaks each version and names the LMS error of a refused call', () => {
  const calls = [];
  const fake = {
    LMSInitialize: () => 'true',
    LMSSetValue: (name, value) => (calls.push([name, value]), name === 'cmi.core.bad' ? 'false' : 'true'),
    LMSGetValue: (name) => (name === 'cmi.suspend_data' ? 'A1' : ''),
    LMSCommit: () => 'false',
    LMSGetLastError: () => '101',
    LMSGetErrorString: (code) => (code === '101' ? 'General exception' : ''),
    LMSFinish: () => {
      throw new Error('gone');
    },
  };
  const lms = scormAdapter(fake, 'scorm12');
  assert.equal(lms.initialize(), true);
  assert.equal(lms.get('suspendData'), 'A1');
  assert.equal(lms.set('status', 'incomplete'), true);
  assert.deepEqual(calls, [['cmi.core.lesson_status', 'incomplete']]);
  assert.equal(lms.commit(), false);
  assert.deepEqual(lms.lastFailure, { call: 'LMSCommit', code: '101', text: 'General exception' });
  assert.equal(lms.finish(), false, 'a throwing API is a failure, not a crash');
  assert.equal(scormAdapter({}, 'scorm2004').names.scoreScaled, 'cmi.score.scaled');
});

test('session time: HHHH:MM:SS.SS in 1.2, an ISO 8601 duration in 2004', () => {
  const ms = ((1 * 60 + 2) * 60 + 3.456) * 1000;
  assert.equal(scormTime(ms, 'scorm12'), '0001:02:03.46');
  assert.equal(scormTime(ms, 'scorm2004'), 'PT1H2M3.46S');
  assert.equal(scormTime(0, 'scorm12'), '0000:00:00.00');
  assert.equal(scormTime(Number.NaN, 'scorm2004'), 'PT0H0M0S');
  assert.equal(scormTime(59999, 'scorm12'), '0000:01:00.00');
});

test('a progress backend takes progress keys (home, progress view and Reset read it), not the rest', () => {
  const map = new Map();
  useProgressBackend({
    get: (key) => map.get(key) ?? null,
    set: (key, value) => map.set(key, value),
    remove: (key) => map.delete(key),
    keys: () => [...map.keys()],
  });
  try {
    markVisited('a');
    markRead('a');
    progressStore.set(ex('a', 'a1'), rec('solved', 1));
    progressStore.set('attnbook:code', 'on'); // a preference: not progress
    assert.deepEqual([...map.keys()], [visited('a'), read('a'), ex('a', 'a1')]);
    assert.equal(exerciseRecord('a', 'a1').status, 'solved');
    assert.deepEqual(lessonProgress(course[0]), { solved: 1, total: 2, visited: true });
    assert.equal(resetProgress(), 3);
    assert.equal(map.size, 0);
    assert.equal(progressStore.get('attnbook:code'), 'on');
  } finally {
    useProgressBackend(null);
    progressStore.remove('attnbook:code');
  }
  assert.equal(exerciseRecord('a', 'a1').status, 'none');
});

test('an attempt as an interaction: its elements in order, the result by the grading rule, in each version’s words', () => {
  const attempt = {
    lesson: 'causal-masking',
    exercise: 'empty-row',
    label: 'Exercise 2: a row with nothing to see',
    mode: 'choice',
    response: 'zeros',
    correct: false,
    counted: false,
    latency: 3250,
  };
  assert.deepEqual(interactionValues(attempt, 4, 'scorm12'), [
    ['cmi.interactions.4.id', 'causal-masking.empty-row'],
    ['cmi.interactions.4.type', 'choice'],
    ['cmi.interactions.4.student_response', 'zeros'],
    ['cmi.interactions.4.result', 'wrong'],
    ['cmi.interactions.4.latency', '0000:00:03.25'],
  ]);
  assert.deepEqual(interactionValues({ ...attempt, correct: true, counted: true }, 0, 'scorm2004'), [
    ['cmi.interactions.0.id', 'causal-masking.empty-row'],
    ['cmi.interactions.0.type', 'choice'],
    ['cmi.interactions.0.learner_response', 'zeros'],
    ['cmi.interactions.0.result', 'correct'],
    ['cmi.interactions.0.latency', 'PT0H0M3.25S'],
    ['cmi.interactions.0.description', 'Exercise 2: a row with nothing to see'],
  ]);
  // right, but after the page showed the answer: neutral, not correct; wrong in 2004: incorrect
  assert.equal(interactionResult({ correct: true, counted: false }, 'scorm12'), 'neutral');
  assert.equal(interactionResult({ correct: false, counted: false }, 'scorm2004'), 'incorrect');
  // a number as a number; the page's own attempt as short text (1.2 takes 255 characters)
  assert.equal(interactionResponse({ mode: 'number', response: '2.50' }, 'scorm12'), '2.5');
  assert.equal(interactionResponse({ mode: 'custom', response: 'x'.repeat(300) }, 'scorm12').length, 255);
  const custom = interactionValues({ ...attempt, mode: 'custom', response: '[[1, 1],\n [0, 1]]' }, 1, 'scorm12');
  assert.deepEqual(custom[1], ['cmi.interactions.1.type', 'performance']);
  assert.deepEqual(custom[2], ['cmi.interactions.1.student_response', '[[1, 1], [0, 1]]']);
  assert.equal(interactionValues({ ...attempt, mode: 'custom' }, 1, 'scorm2004')[1][1], 'other');
  // an id the LMS takes, whatever the lesson wrote
  assert.equal(interactionValues({ ...attempt, exercise: 'ex 1/ä' }, 0, 'scorm12')[0][1], 'causal-masking.ex_1__');
});
