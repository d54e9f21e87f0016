// The causal-masking lesson in headless Chromium, over http and from the
// single file: the causal example's checks (zero weight on the future,
// agreement with the float64 reference), the mask painter by mouse and
// keyboard, a fully masked row, and Exercise 3 (the width-3 local window),
// marked correct only for the right mask.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { settled, singleFileUrl, useBrowserAndSite, watch, scrollThrough } from './browser.js';

const site = useBrowserAndSite();
const T = 5;

const targets = [
  ['the static site over http', () => `${site.server.url}#/causal-masking`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/causal-masking`],
];

async function open(url, labs = ['attn-causal-attention', 'attn-mask-lab']) {
  const page = await site.browser.context.newPage();
  const watcher = watch(page);
  await page.goto(url);
  for (const tag of labs) {
    await page.locator(tag).scrollIntoViewIfNeeded();
    await settled(page.locator(tag));
  }
  await scrollThrough(page); // the figures inside the labs draw once visible
  for (const tag of labs) await settled(page.locator(tag));
  return { page, problems: watcher.problems };
}

/** The data-status of every check in the labs `tags`, once those labs have settled. */
async function checkStatuses(page, tags = ['attn-causal-attention', 'attn-mask-lab']) {
  for (const tag of tags) await settled(page.locator(tag));
  return page
    .locator(tags.map((tag) => `${tag} attn-check`).join(', '))
    .evaluateAll((cs) => cs.map((c) => c.getAttribute('data-status')));
}

/** The painter's cells as rows of 0/1 (aria-pressed). */
const painted = (painter) =>
  painter.locator('button[data-row]').evaluateAll((cells, n) => {
    const rows = Array.from({ length: n }, () => Array(n).fill(0));
    for (const c of cells)
      rows[Number(c.dataset.row)][Number(c.dataset.col)] = c.getAttribute('aria-pressed') === 'true' ? 1 : 0;
    return rows;
  }, T);

/** Row r of a heatmap, read from its cells' data-value. */
const heatmapRow = (heatmap, r) =>
  heatmap
    .locator(`[data-row="${r}"][data-value]`)
    .evaluateAll((cells) => cells.sort((a, b) => a.dataset.col - b.dataset.col).map((c) => Number(c.dataset.value)));

const cell = (painter, i, j) => painter.locator(`button[data-row="${i}"][data-col="${j}"]`);
const causal = Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => (j <= i ? 1 : 0)));

for (const [name, url] of targets) {
  describe(name, () => {
    test('default state: every check passes, zero weight on the future, ≤ 1e-6 from the reference', async () => {
      const { page, problems } = await open(url());
      const statuses = await checkStatuses(page);
      assert.equal(statuses.length, 6);
      assert.ok(
        statuses.every((s) => s === 'pass'),
        `statuses: ${statuses}`,
      );
      const lab = page.locator('attn-causal-attention');
      assert.equal(Number(await lab.locator('.future').first().getAttribute('data-value')), 0);
      const diff = Number(await lab.locator('.max-diff').getAttribute('data-value'));
      assert.ok(diff >= 0 && diff <= 1e-6, `max abs diff shown: ${diff}`);
      assert.match(
        await lab.locator('attn-output pre').textContent(),
        /total attention weight from position 0 onto FUTURE positions: 0\.000000 {2}\(should be exactly 0\)/,
      );
      // the painter starts on the causal preset
      const painter = page.locator('attn-mask-lab attn-mask-painter');
      assert.deepEqual(await painted(painter), causal);
      assert.equal(await painter.locator('button[data-preset="causal"]').getAttribute('aria-pressed'), 'true');
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('the window-3 exercise: wrong masks are not accepted, the band is', async () => {
      const { page, problems } = await open(url(), ['attn-local-window']);
      const exercise = page.locator('attn-exercise#window3');
      await exercise.getByRole('button', { name: 'Reset Exercise 3: a local window of width 3' }).click();
      await settled(exercise);
      assert.equal(await exercise.getAttribute('data-status'), 'pending');
      const painter = exercise.locator('attn-mask-painter');
      const check = exercise.getByRole('button', { name: 'Check', exact: true });
      const verdict = exercise.locator('.verdict');

      // wrong: the causal triangle
      await painter.locator('button[data-preset="causal"]').click();
      await check.click();
      await settled(exercise);
      assert.equal(await exercise.getAttribute('data-status'), 'fail');
      const wrong = await verdict.textContent();
      assert.match(wrong, /Not yet/);
      assert.match(wrong, /should be allowed but are blocked: \(q0, k1\), \(q1, k2\), \(q2, k3\), \(q3, k4\)/);
      assert.match(wrong, /should be blocked but are allowed: \(q2, k0\), \(q3, k0\), \(q3, k1\)/);

      // build the band from None with the mouse: block every cell with |i − j| > 1
      await painter.locator('button[data-preset="none"]').click();
      for (let i = 0; i < T; i++) {
        for (let j = 0; j < T; j++) if (Math.abs(i - j) > 1) await cell(painter, i, j).click();
      }
      // one cell too many, by keyboard, is re-checked at once and named
      await cell(painter, 0, 0).focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Space'); // (q0, k2): allowed again, wrong
      await settled(exercise);
      assert.equal(await exercise.getAttribute('data-status'), 'fail');
      assert.match(await verdict.textContent(), /1 cells are wrong\. should be blocked but are allowed: \(q0, k2\)\./);
      await page.keyboard.press('Enter'); // blocked again: the band
      await settled(exercise);
      assert.equal(await exercise.getAttribute('data-status'), 'pass');
      assert.match(await verdict.textContent(), /Correct/);
      assert.deepEqual(
        await painted(painter),
        Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => (Math.abs(i - j) <= 1 ? 1 : 0))),
      );
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

test('the mask painter toggles cells by mouse and keyboard and drives the weights', async () => {
  const { page, problems } = await open(`${site.server.url}#/causal-masking`);
  const lab = page.locator('attn-mask-lab');
  const painter = lab.locator('attn-mask-painter');
  const weightsRow0 = () => heatmapRow(lab.locator('attn-heatmap'), 0);
  assert.deepEqual(await weightsRow0(), [1, 0, 0, 0, 0]);

  // mouse: allow (q0, k1)
  await cell(painter, 0, 1).click();
  await settled(lab);
  assert.equal(await cell(painter, 0, 1).getAttribute('aria-pressed'), 'true');
  assert.equal(await painter.locator('button[data-preset="custom"]').getAttribute('aria-pressed'), 'true');
  const row0 = await weightsRow0();
  assert.ok(row0[0] > 0 && row0[1] > 0 && row0[0] + row0[1] > 0.999999, `row 0: ${row0}`);

  // keyboard: from (q0, k1) down to (q1, k1)… right to (q1, k3), Space allows it, Enter blocks it again
  await cell(painter, 0, 1).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await settled(lab);
  assert.equal(await cell(painter, 1, 3).evaluate((b) => b.matches(':focus')), true);
  await page.keyboard.press('Space');
  await settled(lab);
  assert.equal(await cell(painter, 1, 3).getAttribute('aria-pressed'), 'true');
  await page.keyboard.press('Enter');
  await settled(lab);
  assert.equal(await cell(painter, 1, 3).getAttribute('aria-pressed'), 'false');

  // presets
  await painter.locator('button[data-preset="none"]').click();
  await settled(lab);
  assert.ok((await painted(painter)).flat().every((x) => x === 1));
  await painter.locator('button[data-preset="window"]').click();
  await settled(lab);
  assert.deepEqual(
    await painted(painter),
    Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => (Math.abs(i - j) <= 1 ? 1 : 0))),
  );
  const statuses = await checkStatuses(page, ['attn-mask-lab']);
  assert.deepEqual(statuses, ['pass', 'pass', 'pass']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a fully masked row shows zero weights, a zero output and the explanation', async () => {
  const { page, problems } = await open(`${site.server.url}#/causal-masking`);
  const lab = page.locator('attn-mask-lab');
  const painter = lab.locator('attn-mask-painter');
  assert.equal(await lab.locator('.fully-masked').count(), 0);
  for (const j of [0, 1, 2]) await cell(painter, 2, j).click(); // causal row 2 allowed k0..k2: block them
  await settled(lab);
  const box = lab.locator('.fully-masked');
  assert.equal(await box.getAttribute('data-rows'), '2');
  assert.equal(await box.getAttribute('data-count'), '2'); // row 2 in each of the B = 2 batches
  const zeros = async (sel) => (await box.locator(sel).getAttribute('data-values')).split(',').map(Number);
  assert.deepEqual(await zeros('.zero-weights'), [0, 0, 0, 0, 0]);
  assert.deepEqual(await zeros('.zero-output'), [0, 0, 0, 0, 0, 0, 0, 0]);
  const text = await box.textContent();
  assert.match(text, /NaN/);
  assert.match(text, /fullyMaskedRows = 2/);
  assert.deepEqual(await heatmapRow(lab.locator('attn-heatmap'), 2), [0, 0, 0, 0, 0]);
  assert.deepEqual(await checkStatuses(page, ['attn-mask-lab']), ['pass', 'pass', 'pass']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a permalink restores a painted mask: the band given in the URL passes the exercise', async () => {
  const band = Array.from({ length: T }, (_, i) =>
    Array.from({ length: T }, (_, j) => (Math.abs(i - j) <= 1 ? 1 : 0)).join(','),
  ).join(';');
  const { page, problems } = await open(
    `${site.server.url}#/causal-masking?window3-mask.preset=custom&window3-mask.mask=${encodeURIComponent(band)}`,
    ['attn-local-window'],
  );
  const exercise = page.locator('attn-exercise#window3');
  await exercise.getByRole('button', { name: 'Reset Exercise 3: a local window of width 3' }).click();
  // Reset went back to the authored mask (None): wrong
  await exercise.getByRole('button', { name: 'Check', exact: true }).click();
  await settled(exercise);
  assert.equal(await exercise.getAttribute('data-status'), 'fail');
  assert.match(await exercise.locator('.verdict').textContent(), /12 cells are wrong/);
  await page.goto('about:blank');
  await page.goto(
    `${site.server.url}#/causal-masking?window3-mask.preset=custom&window3-mask.mask=${encodeURIComponent(band)}`,
  );
  await page.locator('attn-local-window').scrollIntoViewIfNeeded();
  await settled(exercise);
  const painter = exercise.locator('attn-mask-painter');
  assert.equal(await painter.locator('button[data-preset="custom"]').getAttribute('aria-pressed'), 'true');
  await exercise.getByRole('button', { name: 'Check', exact: true }).click();
  await settled(exercise);
  assert.equal(await exercise.getAttribute('data-status'), 'pass');
  assert.deepEqual(problems, []);
  await page.close();
});
