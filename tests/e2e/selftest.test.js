// The "check this browser" page: the engine on the main thread and in a Web Worker.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();

test('the engine runs on the main thread and in a Web Worker, with the known answers', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(new URL('selftest.html', site.server.url).href);
  await page.locator('body[data-done="true"]').waitFor();
  const rows = await page
    .locator('#checks tr')
    .evaluateAll((trs) => trs.map((tr) => [tr.cells[0].textContent, tr.dataset.status, tr.cells[1].textContent]));
  assert.equal(rows.length, 3);
  for (const [name, status, detail] of rows) assert.equal(status, 'pass', `${name}: ${detail}`);
  assert.match(rows[2][2], /SIMD/);
  assert.deepEqual(problems, []);
  await page.close();
});
