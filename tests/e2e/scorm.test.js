// attnbook's SCORM packages in an LMS played by scorm-again (a SCORM runtime LMSs use), in headless
// Chromium. Each zip of dist/scorm/ is unpacked beside an LMS page (same origin, strict CSP) that
// installs scorm-again's Scorm12API as window.API or Scorm2004API as window.API_1484_11, logs every
// call and its result, and frames the launch href read from the package's imsmanifest.xml, with the
// mastery score the manifest names. Checked: launch (initialise, status incomplete, score 0,
// suspend_data, commit), a solved exercise (score solved/total, commit), every lesson opened
// (completion), closing the frame (pagehide: exit suspend, session time, commit, finish), no call
// returning "false", localStorage untouched; then a fresh browser (no storage) relaunched with
// the stored CMI data resumes the exercise and the lesson, and a new attempt is written after the
// interactions the LMS kept. And per version: no API found (the plain
// course, saying so) and an LMS refusing commits (the course keeps working, says so, retries).
// Last, per version, the grading rule over the whole course: two learners (tests/e2e/learners.js),
// each from a fresh launch (no stored CMI; two LMS pages of one browser, at the same time), work
// through every exercise of every lesson in page order. One copies every answer after one wrong try
// (after "Show me" when the page does not show it yet): the LMS holds every exercise shown after 2
// attempts and score 0, the home page "0 of N exercises solved". One solves every exercise first
// time: every exercise solved after 1 attempt, score 100 (2004: scaled 1), "N of N". Each attempt
// is an interaction (cmi.interactions.n: id, type, response, latency, 2004 description), its result
// by the grading rule: the copier's wrong, then neutral (right after the answer was shown); the
// solver's correct.
// And per version, the zip itself: every schema file its manifest names is in it, every file the
// manifest lists, and none of the site's demo pages.
// Expected scores come from the lessons' meta as the build compiles it, never literal counts.
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { unzipSync } from 'fflate';
import { compileLesson } from '../../scripts/vite-lessons-plugin.mjs';
import { DEMO_FILES, PACKAGES, namedSchemas } from '../../scripts/scorm.mjs';
import { launch, serveDir, settled, watch } from './browser.js';
import { copyAfterOneWrong, learnCourse, solveFirstTime } from './learners.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXERCISE = { lesson: 'convex-hull', id: 'cold-limit', right: 'To the value v1 = (1.5, 4)' };

let scratch;
let server;
let course; // [{ id, exerciseIds }] in course order

/** Every lesson's meta as the build compiles it (scripts/vite-lessons-plugin.mjs). */
async function courseMeta() {
  const dir = path.join(root, 'web', 'lessons');
  const metas = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.md'))) {
    metas.push(compileLesson(await readFile(path.join(dir, name), 'utf8'), name).meta);
  }
  return metas.sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
}

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

before(async () => {
  course = await courseMeta();
  scratch = await mkdtemp(path.join(os.tmpdir(), 'attnbook-scorm-'));
  await mkdir(path.join(scratch, 'lms'));
  await writeFile(
    path.join(scratch, 'lms', 'index.html'),
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>LMS</title><link rel="icon" href="data:,">
<script src="scorm12.min.js"></script><script src="scorm2004.min.js"></script><script type="module" src="lms.js"></script>
</head><body><h1>A course in an LMS</h1></body></html>`,
  );
  await writeFile(path.join(scratch, 'lms', 'lms.js'), LMS_JS);
  for (const file of ['scorm12.min.js', 'scorm2004.min.js']) {
    await copyFile(path.join(root, 'node_modules', 'scorm-again', 'dist', file), path.join(scratch, 'lms', file));
  }
  for (const [version, zip] of Object.entries(PACKAGES)) {
    const files = unzipSync(await readFile(zip));
    for (const [name, bytes] of Object.entries(files)) {
      if (name.endsWith('/')) continue;
      const target = path.join(scratch, version, name);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, bytes);
    }
  }
  server = await serveDir(scratch);
});

after(async () => {
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The launch href and mastery score that a package's imsmanifest.xml names. */
async function fromManifest(version) {
  const manifest = await readFile(path.join(scratch, version, 'imsmanifest.xml'), 'utf8');
  const href = /<resource [^>]*adlcp:scorm[tT]ype="sco"[^>]*href="([^"]+)"/.exec(manifest)?.[1];
  assert.ok(href, 'the manifest names the SCO launch href');
  const mastery =
    version === 'scorm12'
      ? Number(/<adlcp:masteryscore>([^<]+)</.exec(manifest)[1]) / 100
      : Number(/<imsss:minNormalizedMeasure>([^<]+)</.exec(manifest)[1]);
  assert.ok(mastery > 0 && mastery <= 1, `mastery ${mastery}`);
  return { href: `../${version}/${href}`, mastery };
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

/** The score as the course writes it for `solved` exercises (raw 0–100 in 1.2, scaled 0–1 in 2004). */
function expectedScore(version, solved) {
  const total = course.reduce((n, meta) => n + meta.exerciseIds.length, 0);
  assert.ok(total > 0);
  const score = solved / total;
  return { score, text: String(version === 'scorm12' ? Number((score * 100).toFixed(2)) : Number(score.toFixed(4))) };
}

/** Waits until the LMS holds `value` for `element` after a commit that came after it was set. */
const committed = (page, element, value) => page.waitForFunction(([e, v]) => window.stored[e] === v, [element, value]);

const frameOf = async (page) => (await page.locator('iframe').elementHandle()).contentFrame();

/** Progress entries in the frame's localStorage (none inside an LMS). */
const storedProgress = (frame) =>
  frame.evaluate(() => Object.keys(localStorage).filter((key) => /^attnbook:(exercise|visited):/.test(key)));

/**
 * Waits until the LMS holds, after a commit, `record` for every exercise of the course and nothing
 * else (suspend_data's code, e.g. "h2": shown after 2 attempts; "s1": solved at the first), and
 * asserts it (a readable difference if it never comes).
 */
async function committedRecords(page, record) {
  const want = course.flatMap(({ id, exerciseIds }) => exerciseIds.map((e) => `${id}/${e}=${record}`)).sort();
  // the records in the stored suspend_data ("A1;<lesson>:<exercise>=<code>,…;…;@<lesson>,…"), or
  // whether they are `expected`
  const held = (expected) => {
    const groups = (window.stored['cmi.suspend_data'] ?? '').split(';').slice(1);
    const records = groups
      .filter((group) => !group.startsWith('@'))
      .flatMap((group) => {
        const [lesson, items] = group.split(':');
        return items.split(',').map((item) => `${lesson}/${item}`);
      })
      .sort();
    return expected ? JSON.stringify(records) === JSON.stringify(expected) : records;
  };
  await page.waitForFunction(held, want).catch(() => {}); // the assertion below says what differs
  assert.deepEqual(await page.evaluate(held, null), want, 'the records the LMS holds');
}

async function solveColdLimit(frame) {
  await frame.evaluate((id) => (location.hash = `#/${id}`), EXERCISE.lesson);
  const exercise = frame.locator(`attn-exercise#${EXERCISE.id}`);
  await exercise.scrollIntoViewIfNeeded();
  await exercise.getByRole('radio', { name: EXERCISE.right }).check();
  await exercise.getByRole('button', { name: 'Check' }).click();
  await settled(exercise);
  assert.equal(await exercise.getAttribute('data-status'), 'pass');
}

for (const version of ['scorm12', 'scorm2004']) {
  describe(`${version}: ${path.relative(root, PACKAGES[version])}`, () => {
    const n = N[version];

    test('launch, progress, score, commit, completion, finish; relaunched in a fresh browser it resumes', async () => {
      const { href, mastery } = await fromManifest(version);
      let browser = await launch();
      let stored;
      try {
        const page = await browser.context.newPage();
        const { problems } = watch(page);
        await page.goto(`${server.url}lms/index.html`);
        await page.evaluate((options) => window.launch(options), { version, href, cmi: startingCmi(version, mastery) });

        // Launch: initialised, incomplete, score 0, suspend_data set, committed.
        await committed(page, n.score, '0');
        const log = await page.evaluate(() => window.log);
        assert.equal(log[0].name, n.init, 'initialise first');
        assert.equal(log[0].result, 'true');
        const stored0 = await page.evaluate(() => window.stored);
        assert.equal(stored0[n.status], 'incomplete');
        assert.equal(stored0['cmi.suspend_data'], 'A1', 'nothing saved yet: an empty progress');
        if (version === 'scorm2004') assert.equal(stored0['cmi.success_status'], 'unknown');
        const frame = await frameOf(page);
        await frame.locator('attn-home').waitFor();
        assert.equal(await frame.locator('.lms-notice').textContent(), '', 'no notice when all is well');
        const workers = await frame.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);
        assert.equal(workers, 0, 'no service worker inside an LMS');

        // A solved exercise: score solved/total and a commit.
        await solveColdLimit(frame);
        const one = expectedScore(version, 1);
        await committed(page, n.score, one.text);
        assert.match((await page.evaluate(() => window.stored))['cmi.suspend_data'], /convex-hull:cold-limit=s1/);

        // Every lesson opened: completion (and success by the mastery score).
        for (const { id } of course) {
          await frame.evaluate((lesson) => (location.hash = `#/${lesson}`), id);
          await committed(page, n.location, id);
        }
        await frame.evaluate((lesson) => (location.hash = `#/${lesson}`), EXERCISE.lesson);
        await committed(page, n.location, EXERCISE.lesson);
        const passed = Number(one.text) / (version === 'scorm12' ? 100 : 1) >= mastery;
        await committed(page, n.status, version === 'scorm12' ? (passed ? 'passed' : 'completed') : 'completed');
        if (version === 'scorm2004') {
          assert.equal((await page.evaluate(() => window.stored))['cmi.success_status'], passed ? 'passed' : 'failed');
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
        const refused = calls.filter((call) => call.result === 'false');
        assert.deepEqual(refused, [], 'no API call returned false');
        stored = await page.evaluate(() => window.stored);
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
      }

      // A fresh browser (no storage at all) and the LMS's stored data: the course resumes.
      browser = await launch();
      try {
        const page = await browser.context.newPage();
        const { problems } = watch(page);
        await page.goto(`${server.url}lms/index.html`);
        const cmi = startingCmi(version, mastery, stored);
        await page.evaluate((options) => window.launch(options), { version, href, cmi });
        const frame = await frameOf(page);
        const exercise = frame.locator(`attn-exercise#${EXERCISE.id}[data-status="pass"]`);
        await exercise.waitFor();
        assert.match(frame.url(), new RegExp(`#/${EXERCISE.lesson}$`), 'the lesson reopens');
        assert.equal(await exercise.getAttribute('data-progress'), 'solved');
        await committed(page, n.score, expectedScore(version, 1).text);
        assert.equal((await page.evaluate(() => window.stored))[n.status], stored[n.status], 'still complete');
        // The first session's attempt is interaction 0; a new attempt comes after it, as interaction 1.
        assert.equal(stored['cmi.interactions.0.id'], `${EXERCISE.lesson}.${EXERCISE.id}`);
        const next = frame.locator('attn-exercise#negative-weight');
        await next.scrollIntoViewIfNeeded();
        await next.locator('input[type="radio"][value="inside"]').press('Space');
        await next.locator('.check-button').press('Enter');
        await committed(page, 'cmi.interactions.1.id', `${EXERCISE.lesson}.negative-weight`);
        const wrong = version === 'scorm12' ? 'wrong' : 'incorrect';
        assert.equal((await page.evaluate(() => window.stored))['cmi.interactions.1.result'], wrong);
        // The home page counts from the LMS's data too.
        await frame.evaluate(() => (location.hash = '#/'));
        await frame.locator('attn-home').waitFor();
        const total = course.reduce((sum, meta) => sum + meta.exerciseIds.length, 0);
        await frame
          .getByText(`${course.length} of ${course.length} lessons opened · 1 of ${total} exercises solved`)
          .waitFor();
        assert.deepEqual(await storedProgress(frame), []);
        assert.deepEqual(
          (await page.evaluate(() => window.log)).filter((c) => c.result === 'false'),
          [],
        );
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
      }
    });

    test('the zip: every schema its manifest names, every file it lists, no demo page', async () => {
      const dir = path.join(scratch, version);
      const zipped = new Set(Object.keys(unzipSync(await readFile(PACKAGES[version]))));
      const manifest = await readFile(path.join(dir, 'imsmanifest.xml'), 'utf8');
      const schemas = namedSchemas(manifest);
      assert.ok(schemas.length >= 3, `schemas named: ${schemas}`);
      for (const name of schemas) {
        assert.ok(zipped.has(name), `${name}, named by the manifest, is in the zip`);
        assert.match(await readFile(path.join(dir, name), 'utf8'), /<(xs|xsd):schema\b/, `${name} is a schema`);
      }
      const listed = [...manifest.matchAll(/<file href="([^"]+)"\/>/g)].map((m) => m[1].replace(/&amp;/g, '&'));
      assert.ok(listed.includes('index.html'));
      for (const file of listed) assert.ok(zipped.has(file), `${file}, listed by the manifest, is in the zip`);
      const demos = [...zipped].filter((file) => DEMO_FILES.some((pattern) => pattern.test(file)));
      assert.deepEqual(demos, [], 'no demo page, self-test or widgets bundle');
    });

    test('no API found: the plain course, which says so in a quiet notice', async () => {
      const { href } = await fromManifest(version);
      const browser = await launch();
      try {
        const page = await browser.context.newPage();
        const { problems } = watch(page);
        await page.goto(new URL(href.replace('../', ''), server.url).href);
        await page
          .locator('.lms-notice', { hasText: /No course site was found to report to .*this is the plain course/ })
          .waitFor();
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
      const { href, mastery } = await fromManifest(version);
      const browser = await launch();
      try {
        const page = await browser.context.newPage();
        const { problems } = watch(page);
        await page.goto(`${server.url}lms/index.html`);
        const cmi = startingCmi(version, mastery);
        await page.evaluate((options) => window.launch(options), { version, href, cmi, refuseCommit: true });
        const frame = await frameOf(page);
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
        await committed(page, n.score, expectedScore(version, 1).text);
        await frame.locator('.lms-notice', { hasText: 'Your progress is saved on the course site again.' }).waitFor();
        assert.match((await page.evaluate(() => window.stored))['cmi.suspend_data'], /cold-limit=s1/);
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
      }
    });

    describe(
      'a learner works through every exercise of every lesson, from a fresh launch (no stored CMI)',
      { concurrency: true },
      () => {
        let browser;
        before(async () => {
          browser = await launch(); // one browser, a new LMS page for each learner (nothing stored)
        });
        after(() => browser?.close());

        const learners = [
          ['who copies every answer after one wrong try scores 0', copyAfterOneWrong, 'h2', false],
          ['who solves every exercise first time scores 100', solveFirstTime, 's1', true],
        ];
        for (const [name, learner, record, solvesAll] of learners) {
          test(name, async () => {
            const { href, mastery } = await fromManifest(version);
            const total = course.reduce((sum, meta) => sum + meta.exerciseIds.length, 0);
            const solved = solvesAll ? total : 0;
            const page = await browser.context.newPage();
            try {
              const { problems } = watch(page);
              await page.goto(`${server.url}lms/index.html`);
              const cmi = startingCmi(version, mastery);
              await page.evaluate((options) => window.launch(options), { version, href, cmi });
              await committed(page, n.score, '0');
              const frame = await frameOf(page);
              await frame.locator('attn-home').waitFor();

              const started = Date.now();
              await learnCourse(frame, course, learner);
              console.log(`# ${version}, the learner ${name}: the course in ${Date.now() - started} ms`);

              // the LMS holds every exercise's record (shown or solved) and the score they make
              await committedRecords(page, record);
              const score = expectedScore(version, solved);
              await committed(page, n.score, score.text);
              assert.equal(score.text, solvesAll ? (version === 'scorm12' ? '100' : '1') : '0');
              const stored = await page.evaluate(() => window.stored);
              const passed = score.score >= mastery;
              assert.equal(stored[n.status], version === 'scorm12' ? (passed ? 'passed' : 'completed') : 'completed');
              if (version === 'scorm2004') assert.equal(stored['cmi.success_status'], passed ? 'passed' : 'failed');

              // every attempt is an interaction, its result by the grading rule: the copier's wrong
              // try, then its right answer given after the answer was shown (neutral); the solver's
              // right answers, each counted
              const interactions = Object.values(storedInteractions(await page.evaluate(() => window.setValues)));
              const ids = course.flatMap(({ id, exerciseIds }) => exerciseIds.map((e) => `${id}.${e}`));
              const wrong = version === 'scorm12' ? 'wrong' : 'incorrect';
              const expected = ids.flatMap((id) =>
                solvesAll
                  ? [[id, 'correct']]
                  : [
                      [id, wrong],
                      [id, 'neutral'],
                    ],
              );
              assert.deepEqual(
                interactions.map((i) => [i.id, i.result]),
                expected,
                'one interaction per attempt, in order',
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

              // the course's home page counts the same
              await frame.evaluate(() => (location.hash = '#/'));
              await frame
                .locator('attn-home')
                .getByText(
                  `${course.length} of ${course.length} lessons opened · ${solved} of ${total} exercises solved`,
                )
                .waitFor();
              assert.deepEqual(await storedProgress(frame), [], 'localStorage holds no progress inside an LMS');
              const refused = (await page.evaluate(() => window.log)).filter((call) => call.result === 'false');
              assert.deepEqual(refused, [], 'no API call returned false');
              assert.deepEqual(problems, []);
            } finally {
              await page.close();
            }
          });
        }
      },
    );
  });
}
