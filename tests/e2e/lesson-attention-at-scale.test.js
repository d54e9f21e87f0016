// The attention-at-scale lesson in headless Chromium, on the static site over http and
// in the single file from file://: the weights heatmap (canvas) with its masks, the fused
// kernel's memory against the T·T·4 bytes of the weights, and the live benchmark (wasm
// SIMD, wasm scalar, plain JS) run in the Web Worker while a slider on the page still
// responds. The 4,096 × 4,096 heatmap is drawn once, on the site (T = 16,384 of the fused
// kernel takes seconds of CPU and is left to the page).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();
const MiB = 1024 * 1024;

const targets = [
  ['the static site over http', () => `${site.server.url}#/attention-at-scale`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/attention-at-scale`],
];

async function ready(page, selector) {
  await page.locator(selector).scrollIntoViewIfNeeded();
  await page.locator(`${selector}[data-settled]`).waitFor({ timeout: 30000 });
  return page.locator(selector);
}

const number = async (locator) => Number(await locator.getAttribute('data-value'));

for (const [name, url] of targets) {
  describe(name, () => {
    test('default state: causal weights on a canvas at T = 256, the fused kernel at T = 1024, every check passes', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await page.goto(url());
      await page.getByRole('heading', { name: 'The square in the cost' }).waitFor();

      const heatmap = await ready(page, '#heatmap');
      assert.equal(await heatmap.getAttribute('data-t'), '256');
      assert.equal(await heatmap.getAttribute('data-computed-in'), 'worker');
      await page.locator('#heatmap attn-heatmap[data-mode="canvas"]').waitFor();
      assert.equal(await number(page.locator('#heatmap .weights-bytes')), 256 * 256 * 4);

      const fused = await ready(page, '#fused');
      assert.equal(await fused.getAttribute('data-t'), '1024');
      assert.equal(await fused.getAttribute('data-computed-in'), 'worker');
      assert.equal(await number(page.locator('#fused .weights-bytes')), 1024 * 1024 * 4);
      const heap = await number(page.locator('#fused .heap-bytes'));
      assert.ok(heap > 0 && heap <= 64 * MiB, `fused heap ${heap}`);

      const checks = page.locator('attn-check');
      assert.equal(await checks.count(), 2);
      for (const check of await checks.all()) {
        assert.equal(await check.getAttribute('data-status'), 'pass', await check.textContent());
      }
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('the benchmark runs in the worker with progress while the T slider still responds; no mask and window keep the check green', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await page.goto(url());
      await ready(page, '#heatmap');
      const bench = page.locator('#benchmark');
      await bench.scrollIntoViewIfNeeded();
      await bench.getByRole('button', { name: 'Run benchmark' }).click();
      await page.locator('#benchmark[data-status="running"]').waitFor();
      await bench.locator('progress').waitFor();

      assert.equal(await bench.getAttribute('data-computed-in'), 'worker');
      await bench.getByText('computed in a Web Worker').waitFor();

      // While it runs: the heatmap's T slider moves and its readout follows, before the benchmark ends.
      const slider = page.locator('#heatmap').getByRole('slider', { name: 'Sequence length T' });
      await slider.focus();
      await page.keyboard.press('ArrowLeft');
      await page.locator('#heatmap .t-value').getByText('T = 128').waitFor({ timeout: 5000 });
      assert.equal(await bench.getAttribute('data-status'), 'running', 'the benchmark was still running');

      await page.locator('#benchmark[data-status="done"]').waitFor({ timeout: 60000 });
      await settled(bench);
      const rows = await bench
        .locator('tr[data-contender]')
        .evaluateAll((trs) => trs.map((tr) => ({ ...tr.dataset, diff: tr.cells[5].textContent })));
      assert.equal(rows.length, 4 * 3, 'T = 32, 64, 128, 256 × three contenders');
      for (const row of rows) {
        assert.ok(Number(row.ms) > 0 && Number(row.gflops) > 0, JSON.stringify(row));
        assert.ok(Number(row.diff) <= 1e-4, `max |diff| vs plain JS: ${JSON.stringify(row)}`);
      }
      assert.equal(await bench.locator('.chart .point').count(), 12);

      // The mask menu: none, then a local window; the masked weight stays exactly 0.
      const heatmap = page.locator('#heatmap');
      await heatmap.scrollIntoViewIfNeeded();
      for (const mask of ['none', 'window']) {
        await heatmap.locator('select#mask').selectOption(mask);
        await settled(heatmap); // the worker's answer for this mask is drawn, its check updated
        assert.equal(await heatmap.getAttribute('data-t'), '128');
        assert.equal(await heatmap.locator('attn-check').getAttribute('data-status'), 'pass', mask);
      }
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

test('the 4,096 × 4,096 weights on a canvas (permalink heatmap.t=4096)', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/attention-at-scale?heatmap.t=4096`);
  await page.locator('#heatmap').scrollIntoViewIfNeeded();
  await page.locator('#heatmap[data-t="4096"][data-settled]').waitFor({ timeout: 30000 });
  const heatmap = page.locator('#heatmap');
  await heatmap.locator('attn-heatmap[data-mode="canvas"][data-settled]').waitFor();
  assert.equal(await number(page.locator('#heatmap .weights-bytes')), 4096 * 4096 * 4);
  assert.equal(await heatmap.locator('attn-check').getAttribute('data-status'), 'pass');
  assert.deepEqual(problems, []);
  await page.close();
});
