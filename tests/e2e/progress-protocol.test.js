// The iframe half of the progress protocol (docs/progress-protocol.md) in headless Chromium, across
// origins: the site on one loopback port (strict CSP), course pages on two others (strict CSP that
// allows framing the site). A lesson framed with `embed=1&host=<origin>` posts
// { type: 'attnbook:progress', version: 1, … } for each `attn-progress` event in it, to its parent
// at exactly that origin: a parent at another origin gets nothing (the height message still comes),
// and so does every parent when the link names no host or a bad one (which the lesson's notice
// reports). The events are dispatched by the test inside the framed lesson, as an exercise does
// (bubbling, composed, from inside a cell's shadow root).
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from '../../scripts/serve.mjs';
import {
  cspViolations,
  launch,
  recordCspViolations,
  serveSite,
  settled,
  showFigure,
  STRICT_CSP,
  watch,
} from './browser.js';

let browser;
let site;
let course; // the origin the links name
let foreign; // another course site, framing the same links
let scratch;

const LESSON = 'softmax-temperature';
const detail = { version: 1, lesson: LESSON, exercise: 'peak', status: 'solved', score: 1, attempts: 2 };
const originOf = (server) => new URL(server.url).origin;

before(async () => {
  browser = await launch();
  site = await serveSite();
  scratch = await mkdtemp(path.join(os.tmpdir(), 'attnbook-progress-'));
  // A course page: frames the lesson URL given as ?src=, records every message it receives.
  await writeFile(
    path.join(scratch, 'course.html'),
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A course page</title><script type="module" src="course.js"></script></head>
<body><h1>Week 3: softmax</h1></body>
</html>`,
  );
  await writeFile(
    path.join(scratch, 'course.js'),
    `window.received = [];
const frame = document.createElement('iframe');
frame.title = 'Lesson';
frame.style.cssText = 'width: 100%; height: 600px; border: 0';
addEventListener('message', (event) => {
  window.received.push({ origin: event.origin, fromFrame: event.source === frame.contentWindow, data: event.data });
});
frame.src = new URLSearchParams(location.search).get('src');
document.body.append(frame);
`,
  );
  await writeFile(path.join(scratch, 'favicon.ico'), ''); // the browser's own request: no 404, no data: icon the CSP refuses
  const headers = { 'Content-Security-Policy': `${STRICT_CSP}; frame-src ${originOf(site)}` };
  course = await serve(scratch, { headers });
  foreign = await serve(scratch, { headers });
});

after(async () => {
  await browser?.close();
  await site?.close();
  await course?.close();
  await foreign?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The course page at `server` framing the lesson with `query`; resolves once the lesson is drawn. */
async function openCourse(server, query) {
  const page = await browser.context.newPage();
  const { problems } = watch(page);
  await recordCspViolations(page);
  const src = `${site.url}#/${LESSON}?${query}`;
  await page.goto(`${server.url}course.html?src=${encodeURIComponent(src)}`);
  const frameLocator = page.frameLocator('iframe');
  await settled(frameLocator.locator('attn-app'));
  await showFigure(frameLocator, 'attn-softmax-temperature#t'); // drawn: the events come from inside it
  const frame = page.frames().find((f) => f !== page.mainFrame());
  return { page, problems, frame, frameLocator };
}

/**
 * Dispatches an `attn-progress` event for each detail from inside the lesson's first cell's shadow
 * root, then posts a marker to the parent; resolves once the parent has it. Messages from one window
 * arrive in the order they were posted, so by then every progress message the lesson sent (its app
 * posts while the event is dispatched) has arrived too. Returns everything the parent received.
 */
async function dispatchProgress(page, frame, details) {
  const marker = `done-${Math.random()}`;
  await frame.evaluate(
    ({ list, m }) => {
      const cell = document.querySelector('.lesson-body attn-softmax-temperature#t');
      const inside = cell.shadowRoot.firstElementChild;
      for (const d of list)
        inside.dispatchEvent(new CustomEvent('attn-progress', { bubbles: true, composed: true, detail: d }));
      parent.postMessage({ type: 'test:marker', marker: m }, '*');
    },
    { list: details, m: marker },
  );
  await page.waitForFunction((m) => window.received.some((r) => r.data?.marker === m), marker);
  return page.evaluate(() => window.received);
}

const progressIn = (received) => received.filter((r) => r.data?.type === 'attnbook:progress');
const heightsIn = (received) => received.filter((r) => r.fromFrame && r.data?.type === 'attnbook:height');

async function finish(page, problems) {
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(problems, []);
  await page.close();
}

test('the parent at the origin the link names receives each progress report, and only well-formed ones', async () => {
  const { page, problems, frame, frameLocator } = await openCourse(course, `embed=1&host=${originOf(course)}`);
  assert.equal(await frameLocator.locator('.link-notice').textContent(), '', 'a good link has no notice');
  const attempted = { ...detail, status: 'attempted', score: 0, attempts: 1 };
  const received = await dispatchProgress(page, frame, [
    attempted,
    { ...detail, version: 2 }, // not version 1: not forwarded
    { ...detail, score: 7 }, // not 0..1: not forwarded
    detail,
  ]);
  const progress = progressIn(received);
  assert.deepEqual(
    progress.map((r) => r.data),
    [
      { type: 'attnbook:progress', ...attempted },
      { type: 'attnbook:progress', ...detail },
    ],
  );
  for (const r of progress) {
    assert.equal(r.origin, originOf(site), 'sent by the lesson');
    assert.equal(r.fromFrame, true, 'from the iframe');
  }
  assert.ok(heightsIn(received).length > 0, 'the height message keeps coming');

  // The URL the lesson keeps rewriting as the learner changes a cell keeps the host (a reload
  // inside the frame keeps reporting).
  await frameLocator.locator('attn-softmax-temperature#t').first().scrollIntoViewIfNeeded();
  await frameLocator.getByRole('slider', { name: 'Temperature' }).first().focus();
  await page.keyboard.press('End');
  await frame.waitForFunction(() => location.hash.includes('t.temperature='));
  assert.match(await frame.evaluate(() => location.hash), new RegExp(`&embed=1&host=${originOf(course)}$`));
  await finish(page, problems);
});

test('a parent at another origin receives no progress when the link names the course', async () => {
  const { page, problems, frame } = await openCourse(foreign, `embed=1&host=${originOf(course)}`);
  const received = await dispatchProgress(page, frame, [detail, { ...detail, status: 'shown', score: 0 }]);
  assert.deepEqual(progressIn(received), [], JSON.stringify(received));
  assert.ok(heightsIn(received).length > 0, 'the height message still arrives');
  await finish(page, problems);
});

test('with no host, no progress message is sent at all; the height message keeps working', async () => {
  const { page, problems, frame } = await openCourse(course, 'embed=1');
  const received = await dispatchProgress(page, frame, [detail]);
  assert.deepEqual(progressIn(received), [], JSON.stringify(received));
  assert.ok(heightsIn(received).length > 0, 'the height message arrives');
  await finish(page, problems);
});

test('a bad host, or a host without embed=1, is refused with the notice and nothing is sent', async () => {
  const cases = [
    [
      'embed=1&host=javascript:alert(1)',
      /host: "javascript:alert\(1\)" is not a web origin such as https:\/\/course\.example/,
    ],
    // the course's own page URL, not its origin: refused, not trimmed
    [
      `embed=1&host=${encodeURIComponent(`${course.url}course.html`)}`,
      /host: "http:\/\/127\.0\.0\.1:\d+\/course\.html" is not a web origin/,
    ],
    [`host=${originOf(course)}`, /host: used only with embed=1, so ignored/],
  ];
  for (const [query, expected] of cases) {
    const { page, problems, frame, frameLocator } = await openCourse(course, query);
    const notice = frameLocator.getByRole('status').filter({ hasText: 'Some settings in this link were ignored' });
    await notice.waitFor();
    assert.match(await notice.textContent(), expected, query);
    const received = await dispatchProgress(page, frame, [detail]);
    assert.deepEqual(progressIn(received), [], `${query}: ${JSON.stringify(received)}`);
    await finish(page, problems);
  }
});
