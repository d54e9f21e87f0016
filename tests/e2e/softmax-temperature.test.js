// The softmax-temperature slice in headless Chromium: the static site over
// http and the single file from file://, with no console errors. The lesson
// lives at #/softmax-temperature (the home page lists the lessons).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { exportFrom, showFigure, singleFileUrl, useBrowserAndSite, watch } from './browser.js';

const EXPECTED_AT_TAU_1 = [0.0322492, 0.8743615, 0.071772, 0.0216173];

const site = useBrowserAndSite();

/**
 * Waits until the figure has drawn the state an action just set (the action removed data-settled
 * synchronously) and its slider's output reads exactly `τ = text`.
 */
async function drawnAt(page, text) {
  await page
    .locator('attn-softmax-temperature#t[data-settled] output')
    .filter({ hasText: new RegExp(`^τ = ${text.replace('.', '\\.')}$`) })
    .waitFor();
}

async function barValues(page) {
  return page
    .locator('attn-softmax-temperature#t rect.bar')
    .evaluateAll((bars) => bars.map((bar) => Number(bar.getAttribute('data-value'))));
}

function assertClose(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: number of bars`);
  actual.forEach((v, i) =>
    assert.ok(Math.abs(v - expected[i]) <= tol, `${what}: bar ${i} is ${v}, expected ${expected[i]}`),
  );
}

const targets = [
  ['the static site over http', () => `${site.server.url}#/softmax-temperature`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/softmax-temperature`],
];

for (const [name, url] of targets) {
  describe(name, () => {
    test('shows the four softmax bars at τ = 1', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await page.goto(url());
      await showFigure(page, 'attn-softmax-temperature#t');
      assertClose(await barValues(page), EXPECTED_AT_TAU_1, 1e-5, 'τ = 1');
      await assert.doesNotReject(page.getByText('Softmax temperature', { exact: true }).waitFor());
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('the Temperature slider moves the bars, by keyboard', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await page.goto(url());
      await showFigure(page, 'attn-softmax-temperature#t');
      const slider = page.locator('attn-softmax-temperature#t').getByRole('slider', { name: 'Temperature' });
      await slider.focus();

      await page.keyboard.press('End'); // τ = 100: nearly uniform
      await drawnAt(page, '100.0');
      const hot = await barValues(page);
      hot.forEach((v, i) => assert.ok(Math.abs(v - 0.25) < 0.01, `τ = 100: bar ${i} is ${v}`));

      await page.keyboard.press('Home'); // τ = 0.01: one-hot on position 1
      await drawnAt(page, '0.0100');
      const cold = await barValues(page);
      assert.ok(cold[1] > 0.9999, `τ = 0.01: bar 1 is ${cold[1]}`);

      await page.keyboard.press('ArrowRight'); // one step up the log scale: 10^-1.99
      await drawnAt(page, '0.0102');
      const nudged = await barValues(page);
      assert.ok(nudged.every((v, i) => Number.isFinite(v) && (i === 1 ? v <= cold[1] : v >= cold[i])));
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

test('Reset restores τ = 1 after a change, and CSV export holds the logits and the weights', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/softmax-temperature`);
  await showFigure(page, 'attn-softmax-temperature#t');
  await page.locator('attn-softmax-temperature#t').getByRole('slider', { name: 'Temperature' }).focus();
  await page.keyboard.press('End');
  await drawnAt(page, '100.0');
  await page.locator('attn-softmax-temperature#t').getByRole('button', { name: 'Reset', exact: true }).click();
  await drawnAt(page, '1.00');
  assertClose(await barValues(page), EXPECTED_AT_TAU_1, 1e-5, 'after Reset');

  const download = await exportFrom(page, page.locator('attn-softmax-temperature#t'), 'Export the data as CSV');
  const rows = (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/);
  assert.equal(rows[0], 'position,logit,weight');
  assert.equal(rows.length, 5);
  const [position, logit, weight] = rows[2].split(',').map(Number);
  assert.deepEqual([position, logit], [1, 4.5]);
  assert.ok(Math.abs(weight - EXPECTED_AT_TAU_1[1]) < 1e-5, `exported weight ${weight}`);
  assert.deepEqual(problems, []);
  await page.close();
});
