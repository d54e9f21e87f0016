// The scaling-by-sqrt-dk lesson (Exercise 2 of "Lesson 44: The Attention Mechanism") in
// headless Chromium, on the static site over http and in the single file from file://:
// the variance of q·k is about d, unscaled weights collapse toward one-hot at D = 128 and
// scaled ones do not, every check passes, the curves are computed in the Web Worker, and
// the D slider moves the live example.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();

const targets = [
  ['the static site over http', () => `${site.server.url}#/scaling-by-sqrt-dk`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/scaling-by-sqrt-dk`],
];

async function ready(page, selector) {
  const lab = page.locator(`${selector}`);
  await lab.scrollIntoViewIfNeeded();
  await page.locator(`${selector}[data-settled]`).waitFor();
  return lab;
}

/** The points of one series in the first line chart of the curves lab, as { d: y }. */
async function curve(page, series) {
  const points = await page
    .locator(`attn-scaling-curves .chart-max .point[data-series="${series}"]`)
    .evaluateAll((nodes) => nodes.map((n) => [Number(n.dataset.x), Number(n.dataset.y)]));
  return Object.fromEntries(points);
}

for (const [name, url] of targets) {
  describe(name, () => {
    test('default state: var(q·k) ≈ d, unscaled weights near one-hot at D = 128, scaled not; every check passes', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await page.goto(url());
      await page.getByRole('heading', { name: 'Dot products grow with the dimension' }).waitFor();
      assert.ok((await page.locator('.katex').count()) > 3, 'KaTeX maths is rendered');

      await ready(page, '#variance');
      const ratio = Number(await page.locator('#variance td.ratio').getAttribute('data-value'));
      assert.ok(Math.abs(ratio - 1) < 0.1, `var(q·k)/d = ${ratio}`);

      await ready(page, '#example');
      const unscaled = Number(await page.locator('#example .unscaled-summary').getAttribute('data-mean-max'));
      const scaled = Number(await page.locator('#example .scaled-summary').getAttribute('data-mean-max'));
      assert.ok(unscaled > scaled, `example at D = 128: unscaled ${unscaled}, scaled ${scaled}`);

      const curves = await ready(page, '#curves');
      assert.equal(await curves.getAttribute('data-computed-in'), 'worker');
      await curves.getByText('computed in a Web Worker').waitFor();
      const u = await curve(page, 'unscaled: q·k');
      const s = await curve(page, 'scaled: q·k / √d');
      assert.deepEqual(Object.keys(u).map(Number), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
      assert.ok(u[128] >= 0.85 && u[512] > u[8], `unscaled mean max weight: ${JSON.stringify(u)}`);
      assert.ok(Math.abs(s[128] - s[8]) <= 0.05 && u[128] - s[128] >= 0.3, `scaled: ${JSON.stringify(s)}`);
      // unscaled grows with d (every step up the powers of two from 8 on)
      for (const [a, b] of [
        [8, 16],
        [16, 32],
        [32, 64],
        [64, 128],
        [128, 256],
      ])
        assert.ok(u[b] > u[a], `u(${b}) > u(${a})`);

      const checks = page.locator('attn-check');
      assert.equal(await checks.count(), 5);
      for (const check of await checks.all()) {
        await check.scrollIntoViewIfNeeded();
        assert.equal(await check.getAttribute('data-status'), 'pass', await check.textContent());
      }
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('the D slider of the example: D = 8 is far less peaked unscaled than D = 512', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await page.goto(url());
      await ready(page, '#example');
      const slider = page.locator('#example').getByRole('slider', { name: 'D (dimension)' });
      const meanMax = async (which) =>
        Number(await page.locator(`#example .${which}-summary`).getAttribute('data-mean-max'));
      await slider.fill('8');
      await settled(page.locator('#example'));
      await page.locator('#example').getByText('D = 8', { exact: true }).waitFor();
      const at8 = await meanMax('unscaled');
      await slider.focus();
      await page.keyboard.press('End');
      await settled(page.locator('#example'));
      await page.locator('#example').getByText('D = 512', { exact: true }).waitFor();
      const at512 = await meanMax('unscaled');
      assert.ok(at512 > 0.9 && at512 > at8, `unscaled mean max weight: D = 8 ${at8}, D = 512 ${at512}`);
      assert.ok((await meanMax('scaled')) < 0.9, 'scaled stays spread out at D = 512');
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}
