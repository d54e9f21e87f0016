// attnbook's SCORM packages in an LMS played by scorm-again (a SCORM runtime LMSs use), in headless
// Chromium. Every package is unpacked beside an LMS page (same origin, strict CSP) that installs
// scorm-again's Scorm12API as window.API or Scorm2004API as window.API_1484_11, logs every call and
// its result, and frames a SCO's launch href read from the package's imsmanifest.xml, with the
// mastery score the manifest gives its item. Every SCO is one lesson. Per version:
// - the zips (no browser): the course zip has an item per lesson, in course order, each launching
//   its lesson; every lesson has its own zip of one item; every schema a manifest names is shipped,
//   every file it lists is there, no demo page is;
// - a lesson's zip (dist/scorm/lessons/convex-hull-*.zip): launch (initialise, incomplete, score 0,
//   the lesson open, suspend_data, commit), one exercise right (score solved / the lesson's
//   exercises) and one wrong (interactions correct, then wrong / incorrect), completion only once
//   the lesson was read to the end, closing the frame (exit suspend, session time, commit, finish),
//   no call returning "false", localStorage untouched; then a fresh browser relaunched with the
//   stored CMI data resumes the lesson and its exercise, and a new attempt follows the kept ones;
// - a chosen set packed by `npm run scorm -- --lessons … --title "Week 5"`: one item per chosen
//   lesson; each SCO opens and scores its own lesson, reports only that lesson's attempts, and
//   relaunched with what the LMS kept, resumes in its own lesson;
// - no API found (the plain course, saying so), an LMS refusing commits (the course keeps working,
//   says so, retries);
// - the grading rule over the course zip: two learners (tests/e2e/learners.js), each launching every
//   lesson's SCO in turn from fresh (no stored CMI; the two at the same time in one browser; in 2004
//   one lesson with every kind of exercise: LEARNER_LESSONS), work
//   through its exercises in page order and read it to the end. One copies every answer after one
//   wrong try (after "Show me" when the page does not show it yet): every exercise shown after 2
//   attempts, score 0, status completed (2004: failed). One solves every exercise first time: every
//   exercise solved after 1 attempt, score 100 (2004: scaled 1), passed. Each attempt is an
//   interaction (id, type, response, latency, 2004 description), its result by the grading rule.
//   Each learner's first lesson is relaunched with what the LMS kept: it resumes.
// Expected scores come from the lessons' meta as the build compiles it, never literal counts.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { unzipSync } from 'fflate';
import { DEMO_FILES, PACKAGES, courseLessons, lessonPackage, namedSchemas } from '../../scripts/scorm.mjs';
import { launch, serveDir, settled, watch } from './browser.js';
import { answerRightly, copyAfterOneWrong, learnCourse, solveFirstTime } from './learners.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXERCISE = { lesson: 'convex-hull', id: 'cold-limit', right: 'To the value v1 = (1.5, 4)' };
const WRONG = { id: 'negative-weight', value: 'inside' }; // convex-hull's other exercise, answered wrong
const CHOSEN = { ids: ['softmax-temperature', 'convex-hull'], title: 'Week 5', name: 'week-5' };
// The lessons the two learners work through, by version: SCORM 1.2 every lesson of the course zip;
// SCORM 2004, whose interactions differ only in their words (checked for every exercise kind here
// and for convex-hull's in the lesson's zip), one lesson with an exercise of every kind (number,
// choice, the page's own), which keeps the layer's time down.
const LEARNER_LESSONS = { scorm12: null, scorm2004: ['causal-masking'] };

let scratch;
let server;
let course; // [{ id, title, exerciseIds }] in course order

const LMS_JS = `
// The LMS: scorm-again's runtime as window.API / window.API_1484_11, every call logged.
const CALLS = {
  scorm12: ['LMSInitialize', 'LMSFinish', 'LMSGetValue', 'LMSSetValue', 'LMSCommit', 'LMSGetLastError', 'LMSGetErrorString', 'LMSGetDiagnostic'],
  scorm2004: ['Initialize', 'Terminate', 'GetValue', 'SetValue', 'Commit', 'GetLastError', 'GetErrorString', 'GetDiagnostic'],
};
window.launch = ({ version, href, cmi, refuseCommit = false }) => {
  const Api = version === 'scorm12' ? window.Scorm12API : window.Scorm2004API;
  const api = new Api({ logLevel: 5 });
  if (cmi) api.loadFromJSON(cmi);
  window.log = [];
  window.setValues = {}; // what the course set and the LMS took
  window.stored = {}; // what the LMS has kept: the values set, as of the last commit
  window.refuseCommit = refuseCommit;
  let refused = false;
  for (const name of CALLS[version]) {
    const original = api[name].bind(api);
    api[name] = (...args) => {
      let result;
      if (/Commit$/.test(name) && window.refuseCommit) result = 'false';
      else if (/GetLastError$/.test(name) && refused) result = '101';
      else if (/GetErrorString$/.test(name) && refused && args[0] === '101') result = 'General exception';
      else result = original(...args);
      if (!/GetLastError$|GetErrorString$/.test(name)) refused = /Commit$/.test(name) && result === 'false';
      window.log.push({ name, args, result: String(result) });
      if (/SetValue$/.test(name) && String(result) === 'true') window.setValues[args[0]] = args[1];
      if (/Commit$|Finish$|Terminate$/.test(name) && String(result) === 'true') window.stored = { ...window.setValues };
      return result;
    };
  }
  window[version === 'scorm12' ? 'API' : 'API_1484_11'] = api;
  const frame = document.createElement('iframe');
  frame.title = 'attnbook';
  frame.style.cssText = 'width: 100%; height: 700px; border: 0';
  frame.src = href;
  document.body.append(frame);
};
`;

/** Unpacks `zip` into scratch/`dir`. */
async function unpack(zip, dir) {
  for (const [name, bytes] of Object.entries(unzipSync(await readFile(zip)))) {
    if (name.endsWith('/')) continue;
    const target = path.join(scratch, dir, name);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes);
  }
}

/** Where each package under test is unpacked (scratch/<dir>), by version. */
const DIRS = {
  course: (version) => `${version}-course`,
  lesson: (version) => `${version}-lesson`,
  chosen: (version) => `${version}-chosen`,
};

before(async () => {
  course = await courseLessons();
  scratch = await mkdtemp(path.join(os.tmpdir(), 'attnbook-scorm-'));
  await mkdir(path.join(scratch, 'lms'));
  await writeFile(
    path.join(scratch, 'lms', 'index.html'),
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>LMS</title>
<script src="scorm12.min.js"></script><script src="scorm2004.min.js"></script><script type="module" src="lms.js"></script>
</head><body><h1>A course in an LMS</h1></body></html>`,
  );
  await writeFile(path.join(scratch, 'lms', 'lms.js'), LMS_JS);
  await writeFile(path.join(scratch, 'favicon.ico'), ''); // the browser's own request: no 404, no data: icon the CSP refuses
  for (const file of ['scorm12.min.js', 'scorm2004.min.js']) {
    await copyFile(path.join(root, 'node_modules', 'scorm-again', 'dist', file), path.join(scratch, 'lms', file));
  }
  // the chosen set, packed by the command a teacher runs (npm run scorm -- …)
  const packs = path.join(scratch, 'packs');
  const args = ['--lessons', CHOSEN.ids.join(','), '--title', CHOSEN.title, '--out', packs];
  await promisify(execFile)(process.execPath, [path.join(root, 'scripts', 'scorm.mjs'), ...args], { cwd: root });
  for (const version of ['scorm12', 'scorm2004']) {
    await unpack(PACKAGES[version], DIRS.course(version));
    await unpack(lessonPackage(EXERCISE.lesson, version), DIRS.lesson(version));
    await unpack(path.join(packs, `${CHOSEN.name}-${version}.zip`), DIRS.chosen(version));
  }
  server = await serveDir(scratch);
});

after(async () => {
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The items of an unpacked package's manifest, in order: { id (the lesson), href, mastery }. */
async function manifestItems(dir) {
  const text = await readFile(path.join(scratch, dir, 'imsmanifest.xml'), 'utf8');
  const hrefs = new Map(
    [...text.matchAll(/<resource identifier="([^"]+)"[^>]*scorm[tT]ype="sco" href="([^"]+)"/g)].map((m) => [
      m[1],
      m[2].replace(/&amp;/g, '&'),
    ]),
  );
  return [...text.matchAll(/<item identifier="[^"]+" identifierref="([^"]+)"[^>]*>([\s\S]*?)<\/item>/g)].map((m) => {
    const href = hrefs.get(m[1]);
    assert.ok(href, `item ${m[1]}: its SCO resource and launch href`);
    const id = new URLSearchParams(href.split('?')[1]).get('lesson');
    const raw =
      /<adlcp:masteryscore>([^<]+)</.exec(m[2])?.[1] ?? /<imsss:minNormalizedMeasure>([^<]+)</.exec(m[2])?.[1];
    const mastery = raw === undefined ? null : Number(raw) / (raw.includes('.') ? 1 : 100);
    return { id, href: `../${dir}/${href}`, mastery };
  });
}

/** The launch href and mastery of `lesson`'s item in an unpacked package. */
async function itemOf(dir, lesson) {
  const found = (await manifestItems(dir)).find((item) => item.id === lesson);
  assert.ok(found, `${dir} has an item for ${lesson}`);
  assert.ok(found.mastery > 0 && found.mastery <= 1, `mastery ${found.mastery}`);
  return found;
}

/**
 * The interactions among CMI values (`cmi.interactions.n.*`), as CMI JSON: { 0: { id, type, … }, … }
 * (integer keys, so in order).
 */
function storedInteractions(stored) {
  const interactions = {};
  for (const [key, value] of Object.entries(stored)) {
    const m = key.match(/^cmi\.interactions\.(\d+)\.(\w+)$/);
    if (m) interactions[m[1]] = { ...interactions[m[1]], [m[2]]: value };
  }
  return interactions;
}

/** The CMI data an LMS starts a session with: the manifest's mastery, and what it kept. */
function startingCmi(version, mastery, stored = null) {
  if (version === 'scorm12') {
    const cmi = { student_data: { mastery_score: String(Math.round(mastery * 100)) } };
    if (stored) {
      cmi.suspend_data = stored['cmi.suspend_data'];
      cmi.core = {
        entry: 'resume',
        lesson_location: stored['cmi.core.lesson_location'],
        lesson_status: stored['cmi.core.lesson_status'],
        score: { raw: stored['cmi.core.score.raw'] },
      };
      cmi.interactions = storedInteractions(stored);
    }
    return cmi;
  }
  const cmi = { scaled_passing_score: String(mastery) };
  if (stored) {
    Object.assign(cmi, {
      entry: 'resume',
      suspend_data: stored['cmi.suspend_data'],
      location: stored['cmi.location'],
      completion_status: stored['cmi.completion_status'],
      success_status: stored['cmi.success_status'],
      score: { scaled: stored['cmi.score.scaled'] },
      interactions: storedInteractions(stored),
    });
  }
  return cmi;
}

const N = {
  scorm12: {
    init: 'LMSInitialize',
    finish: 'LMSFinish',
    commit: 'LMSCommit',
    set: 'LMSSetValue',
    status: 'cmi.core.lesson_status',
    score: 'cmi.core.score.raw',
    location: 'cmi.core.lesson_location',
    exit: 'cmi.core.exit',
    time: 'cmi.core.session_time',
  },
  scorm2004: {
    init: 'Initialize',
    finish: 'Terminate',
    commit: 'Commit',
    set: 'SetValue',
    status: 'cmi.completion_status',
    score: 'cmi.score.scaled',
    location: 'cmi.location',
    exit: 'cmi.exit',
    time: 'cmi.session_time',
  },
};

/** A lesson's meta. */
const lessonMeta = (id) => course.find((meta) => meta.id === id);

/** The score as a lesson's SCO writes it for `solved` of its exercises (1.2 raw 0–100, 2004 scaled 0–1). */
function expectedScore(version, lesson, solved) {
  const total = lessonMeta(lesson).exerciseIds.length;
  assert.ok(total > 0);
  const score = solved / total;
  return { score, text: String(version === 'scorm12' ? Number((score * 100).toFixed(2)) : Number(score.toFixed(4))) };
}

/** Waits until the LMS holds `value` for `element` after a commit that came after it was set. */
const committed = (page, element, value) => page.waitForFunction(([e, v]) => window.stored[e] === v, [element, value]);

const frameOf = async (page) => (await page.locator('iframe').elementHandle()).contentFrame();

/** Progress entries in the frame's localStorage (none inside an LMS). */
const storedProgress = (frame) =>
  frame.evaluate(() => Object.keys(localStorage).filter((key) => /^attnbook:(exercise|visited|read):/.test(key)));

/** A new LMS page of `browser` that launches `href` with `cmi`; returns { page, frame, problems }. */
async function launchSco(browser, version, href, cmi, options = {}) {
  const page = await browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(`${server.url}lms/index.html`);
  await page.evaluate((o) => window.launch(o), { version, href, cmi, ...options });
  return { page, frame: await frameOf(page), problems };
}

/** Scrolls the lesson's end into view (again each frame, as figures above it draw) until it counts as read. */
const readToEnd = (frame) =>
  frame.waitForFunction(
    () => {
      const foot = document.querySelector('.lesson-foot');
      foot?.scrollIntoView({ block: 'end' });
      return foot?.hasAttribute('data-read');
    },
    null,
    { polling: 'raf' },
  );

/**
 * Waits until the LMS holds, after a commit, `record` for every exercise of `lesson` and nothing
 * else (suspend_data's code, e.g. "h2": shown after 2 attempts; "s1": solved at the first), and
 * asserts it (a readable difference if it never comes).
 */
async function committedRecords(page, lesson, record) {
  const want = lessonMeta(lesson)
    .exerciseIds.map((e) => `${lesson}/${e}=${record}`)
    .sort();
  // the records in the stored suspend_data ("A1;<lesson>:<exercise>=<code>,…;…;!…;@…"), or whether
  // they are `expected`
  const held = (expected) => {
    const groups = (window.stored['cmi.suspend_data'] ?? '').split(';').slice(1);
    const records = groups
      .filter((group) => !/^[@!]/.test(group))
      .flatMap((group) => {
        const [name, items] = group.split(':');
        return items.split(',').map((item) => `${name}/${item}`);
      })
      .sort();
    return expected ? JSON.stringify(records) === JSON.stringify(expected) : records;
  };
  await page.waitForFunction(held, want).catch(() => {}); // the assertion below says what differs
  assert.deepEqual(await page.evaluate(held, null), want, `the records the LMS holds for ${lesson}`);
}

/** Answers convex-hull's cold-limit rightly by its UI. */
async function solveColdLimit(frame) {
  const exercise = frame.locator(`attn-exercise#${EXERCISE.id}`);
  await exercise.scrollIntoViewIfNeeded();
  await exercise.getByRole('radio', { name: EXERCISE.right }).check();
  await exercise.getByRole('button', { name: 'Check' }).click();
  await settled(exercise);
  assert.equal(await exercise.getAttribute('data-status'), 'pass');
}

/** Answers convex-hull's negative-weight wrongly, by keyboard. */
async function answerNegativeWeightWrongly(frame) {
  const exercise = frame.locator(`attn-exercise#${WRONG.id}`);
  await exercise.scrollIntoViewIfNeeded();
  await exercise.locator(`input[type="radio"][value="${WRONG.value}"]`).press('Space');
  await exercise.locator('.check-button').press('Enter');
  await settled(exercise);
  assert.equal(await exercise.getAttribute('data-status'), 'fail');
}

/** Closes the SCO's frame (pagehide: the SCO finishes) and returns what the LMS kept. */
async function finish(page, version) {
  await page.evaluate(() => (document.querySelector('iframe').src = 'about:blank'));
  await page.waitForFunction((name) => window.log.some((call) => call.name === name), N[version].finish);
  return page.evaluate(() => window.stored);
}

/**
 * Relaunches a SCO (`href`, `mastery`, its `lesson`) in a new page of `browser` with what the LMS
 * kept (`stored`) and checks that it resumes: its lesson open (wherever the learner left off), the
 * exercise `exercise` at `progress` again, the same score and status. Returns the launch.
 */
async function resumes(browser, version, { href, mastery, lesson }, stored, exercise, progress) {
  const n = N[version];
  const launched = await launchSco(browser, version, href, startingCmi(version, mastery, stored));
  const { page, frame } = launched;
  await frame.locator(`.lesson-body attn-exercise#${exercise}[data-progress="${progress}"]`).waitFor();
  assert.match(frame.url(), new RegExp(`#/${lesson}$`), `${lesson}: the SCO reopens its lesson`);
  await committed(page, n.score, stored[n.score]);
  assert.equal((await page.evaluate(() => window.stored))[n.status], stored[n.status], `${lesson}: the same status`);
  return launched;
}

/** Every call the LMS answered "false". */
const refusedCalls = async (page) => (await page.evaluate(() => window.log)).filter((call) => call.result === 'false');

for (const version of ['scorm12', 'scorm2004']) {
  describe(`${version} packages`, () => {
    const n = N[version];
    const wrong = version === 'scorm12' ? 'wrong' : 'incorrect';

    test('the zips: the course an item per lesson, every lesson its own; every named schema, every listed file, no demo page', async () => {
      const courseItems = await manifestItems(DIRS.course(version));
      assert.deepEqual(
        courseItems.map((item) => item.id),
        course.map((meta) => meta.id),
        'the course zip: one item per lesson, in course order',
      );
      for (const item of courseItems) {
        assert.equal(item.mastery, lessonMeta(item.id).exerciseIds.length > 0 ? 0.8 : null, `${item.id}: mastery`);
      }
      const zips = [PACKAGES[version], ...course.map((meta) => lessonPackage(meta.id, version))];
      for (const zip of zips) {
        const files = unzipSync(await readFile(zip));
        const text = new TextDecoder().decode(files['imsmanifest.xml']);
        const name = path.relative(root, zip);
        if (zip !== PACKAGES[version]) {
          const id = path.basename(zip).replace(`-${version}.zip`, '');
          const launched = [...text.matchAll(/scorm[tT]ype="sco" href="([^"]+)"/g)].map((m) => m[1]);
          assert.deepEqual(launched, [`index.html?lms=${version}&amp;lesson=${id}`], `${name}: one SCO, its lesson`);
        }
        const schemas = namedSchemas(text);
        assert.ok(schemas.length >= 3, `${name}: schemas named: ${schemas}`);
        for (const schema of schemas) {
          assert.ok(files[schema], `${name}: ${schema}, named by the manifest, is in the zip`);
          assert.match(new TextDecoder().decode(files[schema]), /<(xs|xsd):schema\b/, `${schema} is a schema`);
        }
        const listed = [...text.matchAll(/<file href="([^"]+)"\/>/g)].map((m) => m[1].replace(/&amp;/g, '&'));
        assert.ok(listed.includes('index.html'), name);
        for (const file of listed) assert.ok(files[file], `${name}: ${file}, listed by the manifest, is in the zip`);
        const demos = Object.keys(files).filter((file) => DEMO_FILES.some((pattern) => pattern.test(file)));
        assert.deepEqual(demos, [], `${name}: no demo page, self-test or widgets bundle`);
      }
    });

    test("a lesson's zip: launch, one right and one wrong, read to the end, finish; relaunched in a fresh browser it resumes", async () => {
      const { href, mastery } = await itemOf(DIRS.lesson(version), EXERCISE.lesson);
      const meta = lessonMeta(EXERCISE.lesson);
      let browser = await launch();
      let stored;
      try {
        const { page, frame, problems } = await launchSco(browser, version, href, startingCmi(version, mastery));

        // Launch: initialised, incomplete, score 0, the lesson open, suspend_data set, committed.
        await committed(page, n.score, '0');
        const log = await page.evaluate(() => window.log);
        assert.equal(log[0].name, n.init, 'initialise first');
        assert.equal(log[0].result, 'true');
        const stored0 = await page.evaluate(() => window.stored);
        assert.equal(stored0[n.status], 'incomplete');
        assert.equal(stored0[n.location], EXERCISE.lesson);
        if (version === 'scorm2004') assert.equal(stored0['cmi.success_status'], 'unknown');
        await frame.waitForFunction((t) => document.title === t, `${meta.title} — attnbook`);
        assert.equal(await frame.locator('.lms-notice').textContent(), '', 'no notice when all is well');
        const workers = await frame.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);
        assert.equal(workers, 0, 'no service worker inside an LMS');

        // One exercise right: the score is solved / the lesson's exercises; an interaction, correct.
        await solveColdLimit(frame);
        const one = expectedScore(version, EXERCISE.lesson, 1);
        await committed(page, n.score, one.text);
        assert.match((await page.evaluate(() => window.stored))['cmi.suspend_data'], /convex-hull:cold-limit=s1/);
        // One wrong: the score stays; interaction 1, wrong / incorrect.
        await answerNegativeWeightWrongly(frame);
        await committed(page, 'cmi.interactions.1.id', `${EXERCISE.lesson}.${WRONG.id}`);
        const interactions = storedInteractions(await page.evaluate(() => window.stored));
        assert.deepEqual(
          Object.values(interactions).map((i) => [i.id, i.result]),
          [
            [`${EXERCISE.lesson}.${EXERCISE.id}`, 'correct'],
            [`${EXERCISE.lesson}.${WRONG.id}`, wrong],
          ],
        );
        assert.equal((await page.evaluate(() => window.stored))[n.score], one.text);
        assert.equal((await page.evaluate(() => window.stored))[n.status], 'incomplete', 'not read to the end yet');

        // Read to the end: completed (and, by the mastery score, passed or not).
        await readToEnd(frame);
        const passed = one.score >= mastery;
        await committed(page, n.status, version === 'scorm12' ? (passed ? 'passed' : 'completed') : 'completed');
        if (version === 'scorm2004') {
          const values = await page.evaluate(() => window.stored);
          assert.equal(values['cmi.success_status'], passed ? 'passed' : 'failed');
          assert.equal(values['cmi.progress_measure'], '1');
        }
        assert.deepEqual(await storedProgress(frame), [], 'localStorage holds no progress inside an LMS');

        // Closing the frame: pagehide sets exit and session time, commits, finishes.
        await page.evaluate(() => (document.querySelector('iframe').src = 'about:blank'));
        await page.waitForFunction((finish) => window.log.some((call) => call.name === finish), n.finish);
        const calls = await page.evaluate(() => window.log);
        const tail = calls.slice(calls.findLastIndex((c) => c.name === n.set && c.args[0] === n.exit));
        assert.deepEqual(tail[0].args, [n.exit, 'suspend']);
        const time = tail.find((c) => c.args[0] === n.time)?.args[1];
        assert.match(time, version === 'scorm12' ? /^\d{4}:\d{2}:\d{2}\.\d{2}$/ : /^PT\d+H\d+M[\d.]+S$/);
        assert.deepEqual(
          tail.filter((c) => c.name !== n.set).map((c) => c.name),
          [n.commit, n.finish],
        );
        assert.deepEqual(await refusedCalls(page), [], 'no API call returned false');
        stored = await page.evaluate(() => window.stored);
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
      }

      // A fresh browser (no storage at all) and the LMS's stored data: the lesson resumes.
      browser = await launch();
      try {
        const cmi = startingCmi(version, mastery, stored);
        const { page, frame, problems } = await launchSco(browser, version, href, cmi);
        const exercise = frame.locator(`attn-exercise#${EXERCISE.id}[data-status="pass"]`);
        await exercise.waitFor();
        assert.match(frame.url(), new RegExp(`#/${EXERCISE.lesson}$`), 'the lesson reopens');
        assert.equal(await exercise.getAttribute('data-progress'), 'solved');
        assert.equal(await frame.locator(`attn-exercise#${WRONG.id}`).getAttribute('data-progress'), 'attempted');
        await committed(page, n.score, expectedScore(version, EXERCISE.lesson, 1).text);
        assert.equal((await page.evaluate(() => window.stored))[n.status], stored[n.status], 'still complete');
        // The first session's attempts are interactions 0 and 1; a new one comes after them, as 2.
        await answerNegativeWeightWrongly(frame);
        await committed(page, 'cmi.interactions.2.id', `${EXERCISE.lesson}.${WRONG.id}`);
        assert.equal((await page.evaluate(() => window.stored))['cmi.interactions.2.result'], wrong);
        assert.deepEqual(await storedProgress(frame), []);
        assert.deepEqual(await refusedCalls(page), []);
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
      }
    });

    test(`a chosen set (npm run scorm -- --lessons … --title "${CHOSEN.title}"): each SCO opens, scores and reports its own lesson`, async () => {
      const items = await manifestItems(DIRS.chosen(version));
      const chosen = course.filter((meta) => CHOSEN.ids.includes(meta.id)).map((meta) => meta.id);
      assert.deepEqual(
        items.map((item) => item.id),
        chosen,
        'an item per chosen lesson, in course order',
      );
      const browser = await launch();
      try {
        for (const { id, href, mastery } of items) {
          const meta = lessonMeta(id);
          const { page, frame, problems } = await launchSco(browser, version, href, startingCmi(version, mastery));
          await committed(page, n.score, '0');
          await frame.waitForFunction((t) => document.title === t, `${meta.title} — attnbook`);
          // the lesson's first exercise, right: this lesson's score
          const first = frame.locator(`.lesson-body attn-exercise#${meta.exerciseIds[0]}`);
          await first.scrollIntoViewIfNeeded();
          await settled(first);
          assert.match(await answerRightly(frame, first), /^Correct — /);
          await committed(page, n.score, expectedScore(version, id, 1).text);
          // another lesson's exercise, answered in this SCO: kept, but neither scored nor reported here
          const other = course.find((m) => m.id !== id && m.exerciseIds.length > 0 && m.id !== 'learning-to-attend');
          await frame.evaluate((lesson) => (location.hash = `#/${lesson}`), other.id);
          await frame.waitForFunction((t) => document.title === t, `${other.title} — attnbook`);
          const stray = frame.locator(`.lesson-body attn-exercise#${other.exerciseIds[0]}`);
          await stray.scrollIntoViewIfNeeded();
          await settled(stray);
          await answerRightly(frame, stray);
          await committed(page, n.location, other.id);
          const values = await page.evaluate(() => window.stored);
          assert.match(values['cmi.suspend_data'], new RegExp(`${other.id}:${other.exerciseIds[0]}=s1`));
          assert.equal(values[n.score], expectedScore(version, id, 1).text, 'the score is still this lesson’s');
          assert.deepEqual(
            Object.values(storedInteractions(await page.evaluate(() => window.setValues))).map((i) => i.id),
            [`${id}.${meta.exerciseIds[0]}`],
            'only this lesson’s attempts are interactions',
          );
          assert.deepEqual(await refusedCalls(page), []);
          assert.deepEqual(problems, []);
          // relaunched with what the LMS kept: the SCO resumes, in its own lesson
          const stored = await finish(page, version);
          await page.close();
          const again = await resumes(
            browser,
            version,
            { href, mastery, lesson: id },
            stored,
            meta.exerciseIds[0],
            'solved',
          );
          assert.deepEqual(await refusedCalls(again.page), []);
          assert.deepEqual(again.problems, []);
          await again.page.close();
        }
      } finally {
        await browser.close();
      }
    });

    test('no API found: the plain course, which says so in a quiet notice', async () => {
      const { href } = await itemOf(DIRS.course(version), EXERCISE.lesson);
      const browser = await launch();
      try {
        const page = await browser.context.newPage();
        const { problems } = watch(page);
        await page.goto(new URL(href.replace('../', ''), server.url).href);
        await page
          .locator('.lms-notice', { hasText: /No course site was found to report to .*this is the plain course/ })
          .waitFor();
        await page.evaluate((id) => (location.hash = `#/${id}`), EXERCISE.lesson);
        await solveColdLimit(page.mainFrame());
        assert.ok(
          (await storedProgress(page.mainFrame())).includes(`attnbook:exercise:${EXERCISE.lesson}/${EXERCISE.id}`),
        );
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
      }
    });

    test('an LMS refusing commits: the course keeps working, names the error, retries at the next change', async () => {
      const { href, mastery } = await itemOf(DIRS.course(version), EXERCISE.lesson);
      const browser = await launch();
      try {
        const cmi = startingCmi(version, mastery);
        const { page, frame, problems } = await launchSco(browser, version, href, cmi, { refuseCommit: true });
        const notice = frame.locator('.lms-notice');
        await frame
          .locator('.lms-notice', { hasText: `did not save your progress (${n.commit}: error 101, General exception)` })
          .waitFor();
        await solveColdLimit(frame); // still works
        assert.equal(await notice.getAttribute('role'), 'status');
        // The LMS takes commits again: the next change saves everything.
        await page.evaluate(() => (window.refuseCommit = false));
        const other = course.find((meta) => meta.id !== EXERCISE.lesson).id;
        await frame.evaluate((lesson) => (location.hash = `#/${lesson}`), other);
        await committed(page, n.score, expectedScore(version, EXERCISE.lesson, 1).text);
        await frame.locator('.lms-notice', { hasText: 'Your progress is saved on the course site again.' }).waitFor();
        assert.match((await page.evaluate(() => window.stored))['cmi.suspend_data'], /cold-limit=s1/);
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
      }
    });

    describe(
      `a learner launches ${LEARNER_LESSONS[version] ? LEARNER_LESSONS[version].join(', ') : "every lesson's SCO"} of the course zip in turn, fresh (no stored CMI), and works through it`,
      { concurrency: true },
      () => {
        let browser;
        before(async () => {
          browser = await launch(); // one browser, a new LMS page for each launch (nothing stored)
        });
        after(() => browser?.close());

        const learners = [
          ['who copies every answer after one wrong try scores 0', copyAfterOneWrong, 'h2', false],
          ['who solves every exercise first time scores 100', solveFirstTime, 's1', true],
        ];
        for (const [name, learner, record, solvesAll] of learners) {
          test(name, async () => {
            const started = Date.now();
            let resumed = false; // the first lesson's SCO is relaunched once, to resume
            const items = (await manifestItems(DIRS.course(version))).filter(
              ({ id }) => LEARNER_LESSONS[version]?.includes(id) ?? true,
            );
            assert.ok(items.length > 0);
            for (const { id, href, mastery } of items) {
              const meta = lessonMeta(id);
              const { page, frame, problems } = await launchSco(browser, version, href, startingCmi(version, mastery));
              try {
                await committed(page, n.score, '0');
                await frame.waitForFunction((t) => document.title === t, `${meta.title} — attnbook`);
                await learnCourse(frame, [meta], learner);
                await readToEnd(frame);

                // the LMS holds every exercise's record (shown or solved), the score they make, the status
                await committedRecords(page, id, record);
                const score = expectedScore(version, id, solvesAll ? meta.exerciseIds.length : 0);
                assert.equal(score.text, solvesAll ? (version === 'scorm12' ? '100' : '1') : '0');
                await committed(page, n.score, score.text);
                const passed = score.score >= mastery;
                await committed(
                  page,
                  n.status,
                  version === 'scorm12' ? (passed ? 'passed' : 'completed') : 'completed',
                );
                if (version === 'scorm2004') {
                  assert.equal(
                    (await page.evaluate(() => window.stored))['cmi.success_status'],
                    passed ? 'passed' : 'failed',
                  );
                }

                // every attempt is an interaction, its result by the grading rule: the copier's wrong
                // try, then its right answer given after the answer was shown (neutral); the solver's
                // right answers, each counted
                const interactions = Object.values(storedInteractions(await page.evaluate(() => window.setValues)));
                const expected = meta.exerciseIds.flatMap((e) =>
                  solvesAll
                    ? [[`${id}.${e}`, 'correct']]
                    : [
                        [`${id}.${e}`, wrong],
                        [`${id}.${e}`, 'neutral'],
                      ],
                );
                assert.deepEqual(
                  interactions.map((i) => [i.id, i.result]),
                  expected,
                  `${id}: one interaction per attempt, in order`,
                );
                const response = version === 'scorm12' ? 'student_response' : 'learner_response';
                for (const i of interactions) {
                  assert.ok(
                    ['numeric', 'choice', version === 'scorm12' ? 'performance' : 'other'].includes(i.type),
                    i.id,
                  );
                  assert.ok(i[response] !== undefined && i.latency, `${i.id}: a response and a latency`);
                  if (version === 'scorm2004') assert.match(i.description, /^Exercise \d/, i.id);
                }
                assert.deepEqual(await storedProgress(frame), [], 'localStorage holds no progress inside an LMS');
                assert.deepEqual(await refusedCalls(page), [], 'no API call returned false');
                assert.deepEqual(problems, []);
                if (!resumed) {
                  resumed = true;
                  const stored = await finish(page, version);
                  const item = { href, mastery, lesson: id };
                  const progress = solvesAll ? 'solved' : 'shown';
                  const again = await resumes(browser, version, item, stored, meta.exerciseIds.at(-1), progress);
                  assert.deepEqual(await refusedCalls(again.page), []);
                  assert.deepEqual(again.problems, []);
                  await again.page.close();
                }
              } finally {
                await page.close();
              }
            }
            console.log(`# ${version}, the learner ${name}: every lesson's SCO in ${Date.now() - started} ms`);
          });
        }
      },
    );
  });
}
