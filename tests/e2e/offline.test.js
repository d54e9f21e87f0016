// Offline after the first visit: the site over http registers sw.js, which
// precaches every file; with the server stopped and the browser offline, the
// lessons still open and compute. The single file from file:// registers no
// service worker. This file uses its own browser (launch() = a fresh profile),
// so the service worker and its cache never reach other test files.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, serveSite, showFigure, singleFileUrl, watch } from './browser.js';

const EXPECTED_AT_TAU_1 = [0.0322492, 0.8743615, 0.071772, 0.0216173];

let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** Opens `url`, waits until sw.js controls the page (one reload if needed) and holds every precached file. */
async function installOffline(page, url) {
  await page.goto(url);
  await showFigure(page, 'attn-softmax-temperature#t');
  // sw.js precaches on install and claims the page when it activates: wait for its registration to
  // have an active worker (ready), then for the page to be controlled (controllerchange, unless
  // the claim came first).
  const controlled = await page.evaluate(async () => {
    const { serviceWorker } = navigator;
    await serviceWorker.ready;
    if (!serviceWorker.controller) {
      await new Promise((resolve) => serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    }
    return serviceWorker.controller !== null;
  });
  assert.ok(controlled, 'sw.js controls the page');
  const { expected, cached } = await page.evaluate(async () => {
    const source = await (await fetch('sw.js')).text();
    const files = JSON.parse(source.match(/const FILES = (\[[^\]]*\]);/)[1]);
    const names = await caches.keys();
    const cache = await caches.open(names.find((n) => n.startsWith('attnbook-')));
    const keys = (await cache.keys()).map((request) => request.url);
    return { expected: files.map((f) => new URL(f, location.href).href), cached: keys };
  });
  assert.deepEqual([...cached].sort(), [...expected].sort(), 'the cache holds exactly the listed files');
}

async function assertLessonRenders(page) {
  await showFigure(page, 'attn-softmax-temperature#t');
  const bars = await page
    .locator('attn-softmax-temperature#t rect.bar')
    .evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('data-value'))));
  assert.equal(bars.length, 4);
  bars.forEach((v, i) => assert.ok(Math.abs(v - EXPECTED_AT_TAU_1[i]) <= 1e-5, `bar ${i} is ${v}`));
  assert.ok((await page.locator('.lesson-body .katex').count()) > 0, 'KaTeX maths is present');
}

test('after one visit over http, lessons open and compute with the server stopped and the browser offline', async () => {
  const server = await serveSite();
  const page = await browser.context.newPage();
  const { problems } = watch(page);
  try {
    await installOffline(page, `${server.url}#/softmax-temperature`);
  } finally {
    await server.close();
  }
  await browser.context.setOffline(true);
  try {
    await page.reload();
    await assertLessonRenders(page);
    assert.equal(await page.evaluate(() => navigator.onLine), false);

    await page.goto(`${server.url}#/convex-combinations`); // a hash change: reload loads it afresh
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Attention mixes values' }).waitFor();
    assert.ok((await page.locator('.lesson-body .katex').count()) > 5, 'KaTeX maths is present');
    // A navigation to a page that was never visited still comes from the cache.
    await page.goto(`${server.url}index.html#/softmax-temperature`);
    await assertLessonRenders(page);
    assert.deepEqual(problems, []);
  } finally {
    await browser.context.setOffline(false);
    await page.close();
  }
});

test('the service worker installs and serves the site under the strict Content-Security-Policy', async () => {
  const server = await serveSite(); // with the strict CSP
  const page = await browser.context.newPage();
  const { problems } = watch(page);
  try {
    await installOffline(page, `${server.url}#/softmax-temperature`);
    await page.reload();
    await assertLessonRenders(page);
    const swCache = await page.evaluate(async () => (await caches.keys()).filter((n) => n.startsWith('attnbook-')));
    assert.equal(swCache.length, 1);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
    await server.close();
  }
});

test('dist/attnbook.html from file:// registers no service worker', async () => {
  const page = await browser.context.newPage();
  const { problems } = watch(page);
  await page.addInitScript(() => {
    window.swRegisterCalls = 0;
    const container = globalThis.ServiceWorkerContainer?.prototype;
    if (container) {
      const register = container.register;
      container.register = function (...args) {
        window.swRegisterCalls += 1;
        return register.apply(this, args);
      };
    }
  });
  await page.goto(`${singleFileUrl}#/softmax-temperature`);
  await assertLessonRenders(page);
  await page.evaluate(
    () =>
      new Promise((resolve) => (document.readyState === 'complete' ? resolve() : addEventListener('load', resolve))),
  );
  const { calls, registrations } = await page.evaluate(async () => ({
    calls: window.swRegisterCalls,
    registrations:
      'serviceWorker' in navigator ? (await navigator.serviceWorker.getRegistrations().catch(() => [])).length : 0,
  }));
  assert.equal(calls, 0, 'navigator.serviceWorker.register was never called');
  assert.equal(registrations, 0);
  assert.deepEqual(problems, []);
  await page.close();
});
