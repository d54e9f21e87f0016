// The page's Web Worker (web/src/runtime.js getWorkerEngine): heavy labs really compute in a
// worker on the site (a module worker file), in the single file from file:// (an inline blob:
// worker) and in the embeddable widgets; under the strict CSP of README.md (STRICT_CSP), which has
// no worker-src blob:, the widgets fall back to the main thread, say so, and log no error; long jobs
// (the benchmark, the fused kernel with its memory report) work there too.
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from '../../scripts/serve.mjs';
import {
  cspViolations,
  distDir,
  launch,
  recordCspViolations,
  serveSite,
  settled,
  singleFileUrl,
  STRICT_CSP,
  watch,
} from './browser.js';

let browser;
let site;
let hostCsp;
let hostOpen;
let scratch;

before(async () => {
  browser = await launch();
  site = await serveSite();
  scratch = await mkdtemp(path.join(os.tmpdir(), 'attnbook-worker-'));
  await copyFile(path.join(distDir, 'embed', 'attn-widgets.js'), path.join(scratch, 'attn-widgets.js'));
  await writeFile(
    path.join(scratch, 'host.html'),
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A course page</title><script src="attn-widgets.js"></script></head>
<body>
<h1>Why divide by the square root of d</h1>
<attn-scaling-curves id="curves"></attn-scaling-curves>
<attn-scale-benchmark id="benchmark" tmax="64"></attn-scale-benchmark>
<attn-scale-fused id="fused" t="512"></attn-scale-fused>
</body>
</html>`,
  );
  await writeFile(path.join(scratch, 'favicon.ico'), ''); // so the browser's own request gets no 404
  hostCsp = await serve(scratch, { headers: { 'Content-Security-Policy': STRICT_CSP } });
  hostOpen = await serve(scratch);
});

after(async () => {
  await browser?.close();
  for (const server of [site, hostCsp, hostOpen]) await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function open(url) {
  const page = await browser.context.newPage();
  const { problems } = watch(page);
  await recordCspViolations(page);
  await page.goto(url);
  return { page, problems };
}

async function curvesReady(page) {
  // in the lesson the curves answer Exercise 2, so they wait for an attempt, as a learner's would
  await page.locator('#curves').waitFor({ state: 'attached' }); // the exercise comes before it in the page
  const exercise = page.locator('attn-exercise#max-weight');
  if (
    (await exercise.count()) &&
    (await page.locator('attn-reveal[after="max-weight"]').first().getAttribute('data-revealed')) !== 'true'
  ) {
    await exercise.scrollIntoViewIfNeeded();
    await exercise.getByRole('radio', { name: /About 0\.93/ }).check();
    await exercise.getByRole('button', { name: 'Check', exact: true }).click();
    await page.locator('attn-reveal[after="max-weight"][data-revealed="true"]').first().waitFor();
  }
  const curves = page.locator('#curves');
  await curves.scrollIntoViewIfNeeded();
  await page.locator('#curves[data-settled]').waitFor({ timeout: 30000 });
  return curves;
}

for (const [name, url, workerUrl] of [
  [
    'the site (strict CSP): a module worker file',
    () => `${site.url}#/scaling-by-sqrt-dk`,
    /\/assets\/worker-[\w-]+\.js$/,
  ],
  ['the single file from file://: an inline blob: worker', () => `${singleFileUrl}#/scaling-by-sqrt-dk`, /^blob:/],
  [
    'the widgets on a page without CSP: an inline blob: worker',
    () => new URL('host.html', hostOpen.url).href,
    /^blob:/,
  ],
]) {
  test(`${name} computes the curves in a Web Worker`, async () => {
    const { page, problems } = await open(url());
    const curves = await curvesReady(page);
    assert.equal(await curves.getAttribute('data-computed-in'), 'worker');
    await curves.getByText('computed in a Web Worker').waitFor();
    const workers = page.workers().map((w) => w.url());
    assert.ok(
      workers.some((u) => workerUrl.test(u)),
      `workers: ${JSON.stringify(workers)}`,
    );
    for (const check of await curves.locator('attn-check').all())
      assert.equal(await check.getAttribute('data-status'), 'pass');
    assert.deepEqual(await cspViolations(page), []);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('the widgets under the embed CSP (no blob: workers) fall back to the main thread, say so, and log nothing', async () => {
  const { page, problems } = await open(new URL('host.html', hostCsp.url).href);
  const curves = await curvesReady(page);
  assert.equal(await curves.getAttribute('data-computed-in'), 'main-thread');
  await curves
    .getByText(/computed on the main thread \(this page's Content-Security-Policy does not allow blob: workers/)
    .waitFor();
  for (const check of await curves.locator('attn-check').all())
    assert.equal(await check.getAttribute('data-status'), 'pass');
  assert.deepEqual(page.workers(), [], 'no worker was started');

  // Long jobs work on the main thread too, with progress and the same results table.
  const bench = page.locator('#benchmark');
  await bench.scrollIntoViewIfNeeded();
  await bench.getByRole('button', { name: 'Run benchmark' }).click();
  await page.locator('#benchmark[data-status="done"]').waitFor({ timeout: 60000 });
  await settled(bench); // data-status is set before the final rows are drawn
  assert.equal(await bench.getAttribute('data-computed-in'), 'main-thread');
  assert.equal(await bench.locator('tr[data-contender]').count(), 2 * 3, 'T = 32, 64 × three contenders');

  // The fused kernel's memory per call comes through the main-thread stand-in as through the worker.
  const fused = page.locator('#fused');
  await fused.scrollIntoViewIfNeeded();
  await page.locator('#fused[data-t="512"][data-settled]').waitFor({ timeout: 30000 });
  assert.equal(await fused.getAttribute('data-computed-in'), 'main-thread');
  assert.equal(Number(await fused.locator('.fused-bytes').getAttribute('data-value')), 512 * 64 * 4 + 4 * 128 * 4);
  assert.equal(await fused.locator('attn-verified').getAttribute('data-status'), 'pass');

  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a newer benchmark supersedes the running one, and Cancel stops it', async () => {
  const { page, problems } = await open(`${site.url}#/attention-at-scale?benchmark.tmax=512`);
  const bench = page.locator('#benchmark');
  await bench.scrollIntoViewIfNeeded();
  await bench.getByRole('button', { name: 'Run benchmark' }).click();
  await bench.locator('tr[data-contender]').first().waitFor(); // progress: the first row is in
  await bench.getByRole('button', { name: 'Restart benchmark' }).click();
  await bench.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await bench.getAttribute('data-status'), 'cancelled');
  // After Cancel nothing more arrives: the row count stays put until both runs have ended (the
  // worker's last message on each, its Cancelled answer, has come: the benchmark is settled).
  const rows = await bench.locator('tr[data-contender]').count();
  await settled(bench);
  assert.equal(await bench.locator('tr[data-contender]').count(), rows);
  assert.equal(await bench.getAttribute('data-status'), 'cancelled');
  assert.deepEqual(problems, []);
  await page.close();
});
