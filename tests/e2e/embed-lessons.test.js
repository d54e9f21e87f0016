// Lessons 11 (queries-keys-values) and 12 (learning-to-attend) embedded, under the strict CSP
// (tests/e2e/browser.js STRICT_CSP) in headless Chromium, offline (every request stays on the machine):
// - as figures: a bare course page on another origin with nothing but <script src="attn-widgets.js">
//   and the elements: the hand-set world answers a slider moved by keyboard, the training lab
//   trains its 400 steps to the solution, the transformer trainer trains reverse to ≥ 97 % (in a
//   Web Worker started from a blob: URL; on a page whose CSP allows no blob: worker, on the main
//   thread, without tripping the CSP; the lab says which);
// - as iframes: a course page on another origin with both lessons at #/<lesson>?embed=1, each alone
//   (no site header, footer, contents or pager), its figures settled, the iframe sized from the
//   lesson's height messages so that the lesson fits; inside the learning-to-attend frame, Exercise 1
//   answered (3) and the trainer trained to ≥ 97 %.
// No page or frame may log a console error, throw, or see a CSP violation. Waits for signals
// (attributes, messages, settled), never for a fixed time.
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  cspViolations,
  distDir,
  launch,
  lessonList,
  recordCspViolations,
  serveDir,
  serveSite,
  settled,
  showFigure,
  STRICT_CSP,
  watch,
} from './browser.js';
import { serve } from '../../scripts/serve.mjs';
import { attemptById, commitTo } from './exercise-steps.js';

const QKV = 'queries-keys-values';
const ATTEND = 'learning-to-attend';
const TRAIN_TIMEOUT = 120000; // a busy 2-core machine
/** What the trainer's `.note.where` line may say (its _where(), runtime.js whereComputed), by data-computed-in. */
const WHERE = {
  worker: /^Trained (in a Web Worker of a pool of \d+|on \d+ cores: each step's batch is shared)/, // the page's pool
  'main-thread': /^computed on the main thread \((.+)\); the page may pause during long runs$/,
};

let browser;
let site;
let host; // the course page's origin, with the strict CSP and blob: workers (worker-src 'self' blob:)
let frameHost; // another, with the strict CSP and frame-src naming the site
let noBlobHost; // another, with exactly the strict CSP: workers from 'self' only (no blob:)
let scratch;

before(async () => {
  browser = await launch();
  site = await serveSite(); // with the strict CSP
  scratch = await mkdtemp(path.join(os.tmpdir(), 'attnbook-embed-lessons-'));
  await copyFile(path.join(distDir, 'embed', 'attn-widgets.js'), path.join(scratch, 'attn-widgets.js'));
  await writeFile(
    path.join(scratch, 'figures.html'),
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A course page</title><script src="attn-widgets.js"></script></head>
<body>
<h1>Week 6: queries, keys and a transformer that learns</h1>
<attn-qkv-world query="2"></attn-qkv-world>
<attn-qkv-training seed="16"></attn-qkv-training>
<attn-attend-trainer task="reverse" layers="1" heads="2" width="32" rate="0.01" seed="1" steps="0"></attn-attend-trainer>
</body>
</html>`,
  );
  // The course page's own script (the CSP refuses inline ones): each iframe takes the height its
  // lesson reports, and every report is kept by frame (window.__heights[id]).
  await writeFile(
    path.join(scratch, 'frames.js'),
    `window.__heights = {};
addEventListener('message', (event) => {
  const frame = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === event.source);
  const data = event.data;
  if (!frame || data === null || typeof data !== 'object' || data.type !== 'attnbook:height') return;
  if (typeof data.height !== 'number' || !(data.height > 0)) return;
  frame.style.height = Math.ceil(data.height) + 'px';
  (window.__heights[frame.id] ??= []).push(data.height);
});
`,
  );
  await writeFile(
    path.join(scratch, 'frames.html'),
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A course page with two lessons</title><link rel="stylesheet" href="frames.css"><script src="frames.js"></script></head>
<body>
<h1>Week 6</h1>
<iframe id="${QKV}" title="Queries, keys and values" src="${site.url}#/${QKV}?embed=1"></iframe>
<iframe id="${ATTEND}" title="Watch attention learn" src="${site.url}#/${ATTEND}?embed=1"></iframe>
</body>
</html>`,
  );
  await writeFile(path.join(scratch, 'favicon.ico'), ''); // the browser's own request: no 404, no data: icon the CSP refuses
  // the frames' look: a stylesheet, as the CSP refuses style attributes
  await writeFile(path.join(scratch, 'frames.css'), 'iframe { width: 100%; height: 150px; border: 0; }\n');
  // another origin, the strict CSP with blob: workers, which the widgets' inline worker needs
  host = await serveDir(scratch, { csp: `${STRICT_CSP}; worker-src 'self' blob:` });
  // A course page that frames the site must name it in frame-src (default-src 'self' refuses it)
  frameHost = await serve(scratch, {
    headers: { 'Content-Security-Policy': `${STRICT_CSP}; frame-src ${new URL(site.url).origin}` },
  });
  noBlobHost = await serveDir(scratch); // exactly the strict CSP: workers from 'self' only
});

after(async () => {
  await browser?.close();
  await site?.close();
  await host?.close();
  await frameHost?.close();
  await noBlobHost?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A page watched for console errors, exceptions, remote requests and CSP violations (every frame). */
async function open() {
  const page = await browser.context.newPage();
  const { problems } = watch(page);
  await recordCspViolations(page);
  return { page, problems };
}

/**
 * Trains the trainer `trainer` (a locator, in `scope`: a page or a frame) at the fast pace until its
 * accuracy reaches 97 %, pauses it and waits for it to settle, ready. Returns { where, computedIn,
 * accuracy, step, ms }.
 */
async function trainTo97(scope, trainer) {
  await trainer.locator(':scope[data-settled][data-status="idle"]').waitFor({ timeout: TRAIN_TIMEOUT });
  const computedIn = await trainer.getAttribute('data-computed-in');
  const where = (await trainer.locator('.note.where').innerText()).trim();
  assert.ok(computedIn in WHERE, `data-computed-in="${computedIn}"`);
  assert.match(where, WHERE[computedIn], `the lab says where it computes (data-computed-in="${computedIn}")`);
  await trainer.locator('.pace-select').selectOption('fast');
  const started = Date.now();
  await trainer.getByRole('button', { name: 'Train', exact: true }).click();
  const element = await trainer.elementHandle();
  await scope.waitForFunction((el) => Number(el.dataset.accuracy) >= 0.97, element, { timeout: TRAIN_TIMEOUT });
  const ms = Date.now() - started;
  await trainer.getByRole('button', { name: 'Pause', exact: true }).click();
  await trainer.locator(':scope[data-settled][data-status="ready"]').waitFor({ timeout: TRAIN_TIMEOUT });
  const accuracy = Number(await trainer.getAttribute('data-accuracy'));
  const step = Number(await trainer.getAttribute('data-step'));
  assert.ok(accuracy >= 0.97, `accuracy ${accuracy} at step ${step}`);
  assert.ok(step > 0);
  assert.match(await trainer.locator('.readout .step-count').innerText(), new RegExp(`^${step}$`));
  return { where, computedIn, accuracy, step, ms };
}

test('script embed: a bare course page on another origin runs the world, the training lab and the trainer', async () => {
  const { page, problems } = await open();
  const requests = [];
  page.on('request', (request) => requests.push(request));
  await page.goto(new URL('figures.html', host.url).href);

  // the hand-set world: identity projections, token 2 picks token 1; End on "W_Q turns by" (a half
  // turn, q2 = −x2) makes it pick token 4, and the readouts follow
  const world = await showFigure(page, 'attn-qkv-world');
  assert.equal(await world.getAttribute('data-picks'), '0,1,1,3,4');
  assert.equal(await world.getAttribute('data-pick'), '1');
  assert.match(await world.locator('.challenge').innerText(), /^Token 2's query picks token 1\.$/);
  const dotsBefore = await world.locator('.mono.dots').innerText();
  const turnQ = world.getByRole('slider', { name: 'W_Q turns by' });
  await turnQ.focus();
  await page.keyboard.press('End');
  await page.locator('attn-qkv-world[data-pick="4"]').waitFor();
  await settled(world);
  assert.equal(await world.evaluate((el) => el['angle-q']), 180);
  assert.match(await world.locator('.challenge').innerText(), /^Token 2's query picks token 4 ✓\.$/);
  assert.notEqual(await world.locator('.mono.dots').innerText(), dotsBefore, 'the dot products changed');
  assert.equal(await world.locator('td.pick').nth(2).innerText(), 'k4');
  await page.keyboard.press('Home'); // −180°: the same half turn
  await settled(world);
  assert.equal(await world.getAttribute('data-pick'), '4');

  // the training lab: Train runs 400 steps, frame by frame, to the solution
  const lab = await showFigure(page, 'attn-qkv-training');
  assert.equal(await lab.getAttribute('data-step'), '0');
  assert.equal(await lab.getAttribute('data-solved'), 'false');
  await lab.getByRole('button', { name: 'Train', exact: true }).click();
  await page.locator('attn-qkv-training[data-training="true"]').waitFor();
  await page.locator('attn-qkv-training[data-step="400"][data-training="false"]').waitFor({ timeout: 60000 });
  await settled(lab);
  assert.equal(await lab.getAttribute('data-solved'), 'true');
  assert.equal(await lab.getAttribute('data-correct'), '16');
  assert.match(await lab.locator('.retrieval').innerText(), /^16 of 16 inputs answered right/);

  // the transformer trainer: reverse to ≥ 97 %
  const trainer = await showFigure(page, 'attn-attend-trainer');
  const run = await trainTo97(page, trainer);
  console.log(`# widgets: reverse to ${run.accuracy} in ${run.ms} ms (${run.step} steps), ${run.where}`);
  // the course page's CSP allows blob: workers (worker-src 'self' blob:): the inline worker starts
  assert.equal(run.computedIn, 'worker', run.where);

  // one script is enough: nothing else was fetched (the wasm and the worker are inside it); besides,
  // only the runtime's HEAD of the page (it reads the CSP once, before it starts a blob: worker) and
  // the workers' blob: URLs: the engine's worker and the pool's, one per core
  const seen = requests.map((r) => `${r.method()} ${/^blob:/.test(r.url()) ? 'blob:' : new URL(r.url()).pathname}`);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  assert.deepEqual(seen.filter((r) => r !== 'GET /favicon.ico').sort(), [
    'GET /attn-widgets.js',
    'GET /figures.html',
    ...Array.from({ length: 1 + cores }, () => 'GET blob:'),
    'HEAD /figures.html',
  ]);
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('iframe embed: both lessons alone in a course page on another origin, sized by their height messages; the trainer trains in its frame', async () => {
  const titles = Object.fromEntries((await lessonList()).map((l) => [l.id, l.title]));
  const { page, problems } = await open();
  await page.goto(new URL('frames.html', frameHost.url).href);

  for (const id of [QKV, ATTEND]) {
    const frame = page.frameLocator(`iframe#${id}`);
    await frame.locator('attn-app .lesson-page.embed').waitFor();
    assert.equal(await frame.locator('h1#lesson-title').innerText(), titles[id]);
    // the lesson alone: no site navigation
    for (const part of ['.site-header', '.site-footer', 'attn-toc', 'nav.pager', '.kicker', 'attn-copy-link']) {
      assert.equal(await frame.locator(part).first().isVisible(), false, `${id}: no ${part} in embed mode`);
    }
    assert.equal(await frame.locator('html[data-embed]').count(), 1);
  }

  // lesson 11: Exercises 1 and 3 answered in the frame, the world and the training lab show and settle.
  // Chromium draws no frame of a cross-origin iframe out of view (no animation frame, no resize
  // observer): each iframe is scrolled into view, as a reader would, before its lesson is used
  await page.locator(`iframe#${QKV}`).scrollIntoViewIfNeeded();
  const qkv = page.frameLocator(`iframe#${QKV}`);
  await commitTo(qkv, {
    'identity-pick': /The key of token 1\./,
    'trained-query': /scores the keys of tokens 0 and 1/,
  });
  const world = await showFigure(qkv, 'attn-qkv-world');
  assert.equal(await world.getAttribute('data-pick'), '1');
  const lab = await showFigure(qkv, 'attn-qkv-training');
  assert.equal(await lab.getAttribute('data-step'), '0');

  // lesson 12: Exercise 1 answered (3), then the trainer trains reverse to ≥ 97 % in the frame
  await page.locator(`iframe#${ATTEND}`).scrollIntoViewIfNeeded();
  const attend = page.frameLocator(`iframe#${ATTEND}`);
  assert.match(await attemptById(attend, 'attend-position', '3'), /^Correct — /);
  await attend.locator('attn-reveal[after="attend-position"][data-revealed="true"]').waitFor();
  const trainer = await showFigure(attend, 'attn-attend-trainer#trainer');
  const lessonFrame = page.frames().find((f) => f.url().includes(`#/${ATTEND}`));
  const run = await trainTo97(lessonFrame, trainer);
  console.log(`# iframe: reverse to ${run.accuracy} in ${run.ms} ms (${run.step} steps), ${run.where}`);
  assert.equal(run.computedIn, 'worker', run.where); // the site's own worker file, from 'self'

  // every figure shown in each frame has drawn: the lesson's height is final. Each iframe has the
  // height its lesson last reported, and the lesson fits it (its viewport is the iframe)
  for (const id of [QKV, ATTEND]) {
    await page.locator(`iframe#${id}`).scrollIntoViewIfNeeded();
    await settled(page.frameLocator(`iframe#${id}`).locator('attn-app'));
    const frame = page.frames().find((f) => f.url().includes(`#/${id}`));
    const fit = await frame.waitForFunction(() => {
      const height = Math.ceil(document.body.getBoundingClientRect().height);
      if (innerHeight !== height) return false;
      const html = document.documentElement;
      return { height, scrolls: html.scrollHeight > html.clientHeight + 1 };
    });
    const { height, scrolls } = await fit.jsonValue();
    assert.ok(height > 1000, `${id}: iframe height ${height}`);
    assert.equal(scrolls, false, `${id}: the lesson fits its iframe`);
    const reports = await page.evaluate((f) => window.__heights[f] ?? [], id);
    assert.ok(reports.length >= 1, `${id}: height messages`);
    assert.equal(await page.locator(`iframe#${id}`).evaluate((f) => f.style.height), `${Math.ceil(reports.at(-1))}px`);
    assert.equal(Math.ceil(reports.at(-1)), height, `${id}: the last report is the lesson's height`);
  }

  assert.equal(page.frames().length, 3);
  assert.deepEqual(await cspViolations(page), []); // the page and both frames
  assert.deepEqual(problems, []);
  await page.close();
});

test('script embed on a course page whose CSP allows no blob: worker: the trainer trains on the main thread and says why', async () => {
  const { page, problems } = await open();
  await page.goto(new URL('figures.html', noBlobHost.url).href);
  const trainer = await showFigure(page, 'attn-attend-trainer');
  const run = await trainTo97(page, trainer);
  console.log(`# no blob: workers: reverse to ${run.accuracy} in ${run.ms} ms (${run.step} steps), ${run.where}`);
  assert.equal(run.computedIn, 'main-thread', run.where);
  assert.match(run.where, /Content-Security-Policy does not allow blob: workers/);
  // the runtime read the policy instead of trying a worker the policy refuses: no violation
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});
