// Embedding, under the strict CSP (tests/e2e/browser.js STRICT_CSP) in headless Chromium:
// embed-example.html of the site (a figure from the one-script widgets, a lesson in an iframe
// sized from its height messages), and a bare host page outside the site that has nothing but
// <script src="attn-widgets.js"> and the element. No page or frame may see a CSP violation.
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  cspViolations,
  distDir,
  launch,
  recordCspViolations,
  serveDir,
  serveSite,
  settled,
  showFigure,
  watch,
} from './browser.js';

let browser;
let site;
let host;
let scratch;

before(async () => {
  browser = await launch();
  site = await serveSite(); // with the strict CSP
  scratch = await mkdtemp(path.join(os.tmpdir(), 'attnbook-embed-'));
  await copyFile(path.join(distDir, 'embed', 'attn-widgets.js'), path.join(scratch, 'attn-widgets.js'));
  await writeFile(
    path.join(scratch, 'host.html'),
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A course page</title><script src="attn-widgets.js"></script></head>
<body>
<h1>Week 3: softmax</h1>
<attn-softmax-temperature logits="1.2,4.5,2,0.8" temperature="1"></attn-softmax-temperature>
</body>
</html>`,
  );
  await writeFile(
    path.join(scratch, 'twice.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Two blocks</title></head><body>
<script src="attn-widgets.js"></script><attn-softmax-temperature temperature="100"></attn-softmax-temperature>
<script src="attn-widgets.js"></script><attn-softmax-temperature temperature="0.01"></attn-softmax-temperature>
</body></html>`,
  );
  // a course page written with the softmax lab's old tag name (web/src/cells/tag-aliases.js)
  await writeFile(
    path.join(scratch, 'old-tag.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An older course page</title>
<script src="attn-widgets.js"></script></head><body>
<attn-softmax-lab logits="1.2,4.5,2,0.8" temperature="0.5"></attn-softmax-lab>
</body></html>`,
  );
  // The recorder's own check: an inline script must be refused and recorded.
  await writeFile(
    path.join(scratch, 'inline.html'),
    '<!doctype html><title>inline</title><script>document.title = "ran"</script>',
  );
  host = await serveDir(scratch); // another origin, the same CSP
});

after(async () => {
  await browser?.close();
  await site?.close();
  await host?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A page watched for console errors, exceptions, remote requests and CSP violations (every frame). */
async function open() {
  const page = await browser.context.newPage();
  const { problems } = watch(page);
  await recordCspViolations(page);
  return { page, problems };
}

/** softmax(x / τ) in float64, the oracle for the bars. */
function softmax(x, tau) {
  const m = Math.max(...x);
  const e = x.map((v) => Math.exp((v - m) / tau));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

const barValues = (figure) =>
  figure.locator('rect.bar').evaluateAll((bars) => bars.map((bar) => Number(bar.getAttribute('data-value'))));

function assertClose(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: number of bars`);
  actual.forEach((v, i) =>
    assert.ok(Math.abs(v - expected[i]) <= tol, `${what}: bar ${i} is ${v}, expected ${expected[i]}`),
  );
}

test('the CSP recorder sees a refused inline script', async () => {
  const { page } = await open();
  await page.goto(new URL('inline.html', host.url).href);
  assert.equal(await page.title(), 'inline', 'the inline script did not run');
  // the violation event is dispatched in a task of its own: wait for it, then count
  await page.waitForFunction(() => window.__cspViolations.length > 0);
  const violations = await cspViolations(page);
  assert.equal(violations.length, 1, violations.join('\n'));
  assert.match(violations[0], /script-src/);
  await page.close();
});

test('embed-example: the script-tag figure shows its preset bars and its slider works by keyboard', async () => {
  const { page, problems } = await open();
  await page.goto(new URL('embed-example.html', site.url).href);
  const figure = await showFigure(page, '#by-script-figure');
  const logits = [3, 1, 0.2, 2.5, -1];
  assertClose(await barValues(figure), softmax(logits, 0.5), 1e-5, 'τ = 0.5');

  await figure.getByRole('slider', { name: 'Temperature' }).focus();
  await page.keyboard.press('End'); // τ = 100: nearly uniform
  await figure.getByText('τ = 100.0').waitFor();
  assertClose(await barValues(figure), softmax(logits, 100), 1e-5, 'τ = 100');
  await page.keyboard.press('Home'); // τ = 0.01: one-hot on the largest logit
  await figure.getByText('τ = 0.0100').waitFor();
  assertClose(await barValues(figure), [1, 0, 0, 0, 0], 1e-6, 'τ = 0.01');

  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('embed-example: the iframe shows the lesson alone, preset, and takes the height it reports', async () => {
  const { page, problems } = await open();
  await page.goto(new URL('embed-example.html', site.url).href);
  const frame = page.frameLocator('#lesson-frame');
  await showFigure(frame, 'attn-softmax-temperature#t');
  await frame.locator('attn-softmax-temperature#t[data-settled] output').getByText('τ = 0.250').waitFor(); // from the src
  // Every cell shown in the frame has drawn, so the lesson's height is final (the page no longer scrolls).
  await settled(frame.locator('attn-app'));
  assert.equal(await frame.locator('.site-header').isHidden(), true, 'no site header in embed mode');
  assert.equal(await frame.locator('.site-footer').isHidden(), true, 'no site footer in embed mode');

  // The host sets the iframe's height from the lesson's message: the lesson fits, no inner scrolling.
  // Read in the same task as the moment the host has applied the lesson's latest height.
  const fit = await page.waitForFunction(() => {
    const f = document.getElementById('lesson-frame');
    const body = f.contentDocument?.body;
    if (!body || f.style.height !== `${Math.ceil(body.getBoundingClientRect().height)}px`) return false;
    const html = f.contentDocument.documentElement;
    return { height: f.getBoundingClientRect().height, scrolls: html.scrollHeight > html.clientHeight + 1 };
  });
  const { height, scrolls } = await fit.jsonValue();
  assert.ok(height > 200, `iframe height ${height}`);
  assert.equal(scrolls, false, 'the lesson fits its iframe');

  assert.equal(page.frames().length, 2);
  assert.deepEqual(await cspViolations(page), []); // the page and the iframe
  assert.deepEqual(problems, []);
  await page.close();
});

test('embed-example ignores height messages that do not come from its iframe', async () => {
  const { page, problems } = await open();
  await page.goto(new URL('embed-example.html', site.url).href);
  const iframe = page.locator('#lesson-frame');
  await page.waitForFunction(() => document.getElementById('lesson-frame').style.height !== '');
  const before = await iframe.evaluate((f) => f.style.height);
  // Every message the page receives from now on, with the iframe's height just before the host's
  // listener ran (a capture listener at the target runs before it) and just after (a listener
  // added later runs after it). The lesson keeps reporting its own height as its figures draw:
  // those reports may come in between and may change the height; nothing else may.
  await page.evaluate(() => {
    window.messagesSeen = [];
    const frame = document.getElementById('lesson-frame');
    let heightBefore;
    addEventListener('message', () => (heightBefore = frame.style.height), { capture: true });
    addEventListener('message', (event) =>
      window.messagesSeen.push({
        fromFrame: event.source === frame.contentWindow,
        data: JSON.stringify(event.data),
        before: heightBefore,
        after: frame.style.height,
      }),
    );
  });
  // from the page itself, not the iframe
  await page.evaluate(() => window.postMessage({ type: 'attnbook:height', height: 5 }, '*'));
  // from the iframe, but malformed
  const lesson = page.frames().find((f) => f !== page.mainFrame());
  for (const data of [{ type: 'attnbook:height', height: 'tall' }, { type: 'other', height: 5 }, 'attnbook:height']) {
    await lesson.evaluate((d) => parent.postMessage(d, '*'), data);
  }
  // Then a good one from the iframe: messages arrive in order, so once the host has applied it,
  // it has seen (and ignored) every one before.
  const good = Number.parseFloat(before) + 7;
  await lesson.evaluate((h) => parent.postMessage({ type: 'attnbook:height', height: h }, '*'), good);
  const goodData = JSON.stringify({ type: 'attnbook:height', height: good });
  await page.waitForFunction((g) => window.messagesSeen.some((m) => m.fromFrame && m.data === g), goodData);
  const all = await page.evaluate(() => window.messagesSeen);
  const seen = all.slice(0, all.findIndex((m) => m.fromFrame && m.data === goodData) + 1);
  const report = JSON.stringify(seen);
  // a report of the lesson's own: from the iframe, the right type, a number
  const ownReport = (m) => m.fromFrame && /^\{"type":"attnbook:height","height":\d+(\.\d+)?\}$/.test(m.data);
  const ignored = seen.filter((m) => !ownReport(m));
  assert.deepEqual(
    ignored.map((m) => [m.fromFrame, m.data]),
    [
      [false, JSON.stringify({ type: 'attnbook:height', height: 5 })],
      [true, JSON.stringify({ type: 'attnbook:height', height: 'tall' })],
      [true, JSON.stringify({ type: 'other', height: 5 })],
      [true, JSON.stringify('attnbook:height')],
    ],
    `messages: ${report}`,
  );
  for (const m of ignored) assert.equal(m.after, m.before, `the host ignores ${m.data}: ${report}`);
  for (const m of seen.filter(ownReport)) {
    assert.equal(m.after, `${Math.ceil(JSON.parse(m.data).height)}px`, `the host applies ${m.data}: ${report}`);
  }
  assert.equal(seen.at(-1).after, `${good}px`);
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a bare host page with only <script src="attn-widgets.js"> renders the figure', async () => {
  const { page, problems } = await open();
  const requests = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  await page.goto(new URL('host.html', host.url).href);
  const figure = await showFigure(page, 'attn-softmax-temperature');
  assertClose(await barValues(figure), [0.0322492, 0.8743615, 0.071772, 0.0216173], 1e-5, 'τ = 1');
  await figure.getByRole('slider', { name: 'Temperature' }).focus();
  await page.keyboard.press('End');
  await figure.getByText('τ = 100.0').waitFor();
  assertClose(await barValues(figure), softmax([1.2, 4.5, 2, 0.8], 100), 1e-5, 'τ = 100');

  // one script is enough: nothing else was requested (the wasm is inside it)
  assert.deepEqual(
    requests.filter((p) => p !== '/favicon.ico'),
    ['/host.html', '/attn-widgets.js'],
  );
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a host page that loads the script twice keeps working, with no error', async () => {
  const { page, problems } = await open();
  await page.goto(new URL('twice.html', host.url).href);
  const figures = page.locator('attn-softmax-temperature[data-settled]');
  await page.locator('attn-softmax-temperature').nth(1).scrollIntoViewIfNeeded();
  await page.locator('attn-softmax-temperature').nth(0).scrollIntoViewIfNeeded();
  await figures.nth(1).waitFor();
  assertClose(await barValues(figures.nth(0)), softmax([1.2, 4.5, 2, 0.8], 100), 1e-5, 'first, τ = 100');
  assertClose(await barValues(figures.nth(1)), [0, 1, 0, 0], 1e-6, 'second, τ = 0.01');
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a page written with an old tag name (tag-aliases.js) gets the lab it names, in its state', async () => {
  const { page, problems } = await open();
  await page.goto(new URL('old-tag.html', host.url).href);
  const figure = await showFigure(page, 'attn-softmax-lab');
  assertClose(await barValues(figure), softmax([1.2, 4.5, 2, 0.8], 0.5), 1e-5, 'τ = 0.5');
  await figure.getByRole('slider', { name: 'Temperature' }).focus();
  await page.keyboard.press('End');
  await figure.getByText('τ = 100.0').waitFor();
  assertClose(await barValues(figure), softmax([1.2, 4.5, 2, 0.8], 100), 1e-5, 'τ = 100');
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});
