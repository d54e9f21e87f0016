// Quiet verification, one Export menu, folded code: the parts of a lab that are there for the
// learner who asks. The Verified line opens on demand and by itself when a check fails (announced);
// the Export menu opens and closes from the keyboard; code cells stay folded until opened, and the
// course-wide "Always show code" preference opens every code cell, in every lesson, until unticked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { showFigure, useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();

async function openLab() {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/softmax-temperature`);
  const lab = await showFigure(page, 'attn-softmax-temperature#t');
  return { page, problems, lab };
}

test('the Verified line opens on demand, and a failing check opens it and is announced', async () => {
  const { page, problems, lab } = await openLab();
  const verified = lab.locator('attn-verified');
  const summary = verified.locator('summary');
  assert.equal(await summary.innerText(), 'Verified ✓ (4 checks)');
  assert.equal(await verified.getAttribute('data-status'), 'pass');
  assert.equal(await lab.locator('attn-check').first().isVisible(), false, 'folded');

  await summary.focus();
  await page.keyboard.press('Enter');
  await lab.locator('attn-check').first().waitFor({ state: 'visible' });
  assert.equal(await lab.locator('attn-check:visible').count(), 4);
  await page.keyboard.press('Enter');
  await lab.locator('attn-check').first().waitFor({ state: 'hidden' });

  // a check that fails (its verdict forced, as a broken core would give) opens the line and says so
  await lab.locator('attn-check#check-cold').evaluate((check) => {
    check.pass = false;
  });
  await verified.locator(':scope[data-status="fail"]').waitFor();
  await lab.locator('attn-check#check-cold').waitFor({ state: 'visible' });
  assert.match(await summary.innerText(), /^✗ 1 of 4 checks failed$/);
  assert.match(
    await verified.getByRole('alert').textContent(),
    /Check failed: τ → 0: max \|α − one-hot of the argmax\|/,
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('the Export menu opens from the keyboard, Escape closes it, and an item exports', async () => {
  const { page, problems, lab } = await openLab();
  const menu = lab.locator('details.export-menu').last();
  const csv = lab.getByRole('button', { name: 'Export the data as CSV' });
  assert.equal(await csv.isVisible(), false);
  await menu.locator('summary').focus();
  await page.keyboard.press('Enter');
  await csv.waitFor({ state: 'visible' });
  await page.keyboard.press('Escape');
  await csv.waitFor({ state: 'hidden' });
  assert.equal(await menu.locator('summary').evaluate((s) => s.matches(':focus')), true, 'focus back on Export');

  await page.keyboard.press('Enter');
  const [download] = await Promise.all([page.waitForEvent('download'), csv.click()]);
  assert.equal(download.suggestedFilename(), 't.csv');
  await csv.waitFor({ state: 'hidden' }); // choosing an item closes the menu
  assert.deepEqual(problems, []);
  await page.close();
});

test('code cells stay folded until opened; "Always show code" opens them in every lesson until unticked', async () => {
  const { page, problems, lab } = await openLab();
  const code = lab.locator('attn-code').first();
  const pre = code.locator('pre');
  assert.equal(await pre.isVisible(), false, 'folded');
  assert.match(await code.evaluate((c) => c.code), /^import torch/, 'the code is there while folded');
  await code.getByRole('button', { name: 'PyTorch', exact: true }).click();
  await pre.waitFor({ state: 'visible' });
  await code.getByRole('button', { name: 'PyTorch', exact: true }).click();
  await pre.waitFor({ state: 'hidden' });

  await code.getByRole('checkbox', { name: 'Always show code' }).check();
  await pre.waitFor({ state: 'visible' });
  // every code cell of the page follows, and the preference holds in the next lesson
  await page.goto(`${site.server.url}#/convex-combinations`);
  // the lab waits for the two exercises before it: attempt them, as a learner must
  for (const [id, fill] of [
    ['mix-entry', (ex) => ex.getByRole('textbox', { name: 'Your answer' }).fill('0.9')],
    ['sum-two', (ex) => ex.getByRole('radio', { name: 'At 2v = (2, 4, 6)' }).check()],
  ]) {
    const ex = page.locator(`attn-exercise#${id}`);
    await fill(ex);
    await ex.getByRole('button', { name: 'Check' }).click();
    await page.locator(`attn-reveal[after="${id}"][data-revealed="true"]`).waitFor();
  }
  const next = (await showFigure(page, 'attn-convex-mix')).locator('attn-code').first();
  await next.locator('pre').waitFor({ state: 'visible' });
  await next.getByRole('checkbox', { name: 'Always show code' }).uncheck();
  await next.locator('pre').waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => localStorage.getItem('attnbook:show-code')), null);
  assert.deepEqual(problems, []);
  await page.close();
});
