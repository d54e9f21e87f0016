// The "check this browser" page: the engine on the main thread and in a Web Worker, and trainers
// in the worker (createTrainer: progress, cancel by AbortSignal, two trainers independent), and a
// pool of two workers (attn.createPool): split attention, and a trainer whose steps it shares.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();

test('the engine runs on the main thread and in a Web Worker, with the known answers; trainers in the worker', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(new URL('selftest.html', site.server.url).href);
  await page.locator('body[data-done="true"]').waitFor();
  const rows = await page
    .locator('#checks tr')
    .evaluateAll((trs) => trs.map((tr) => [tr.cells[0].textContent, tr.dataset.status, tr.cells[1].textContent]));
  assert.equal(rows.length, 6);
  for (const [name, status, detail] of rows) assert.equal(status, 'pass', `${name}: ${detail}`);
  assert.match(rows[2][2], /SIMD/);
  // trainers in the worker: a long step cancelled by its AbortSignal, another trainer training meanwhile
  assert.match(
    rows[3][2],
    /a cancelled \(Cancelled\) at step \d+ after \d+ progress reports; b trained meanwhile to step 20, bitwise as/,
  );
  // a pool of two workers (under the site's strict CSP): split attention equals the main thread's
  assert.match(
    rows[4][2],
    /^pass — 2 workers; causal attention at L = S = 1024 bitwise equal to the main thread's; bad input: attention: q\[0, 1\] is NaN$/,
  );
  // a trainer in the pool: its steps shared by both workers, bit for bit the main thread's
  assert.match(rows[5][2], /^pass — 30 steps of sort on 2 workers, bitwise as on the main thread$/);
  assert.deepEqual(problems, []);
  await page.close();
});
