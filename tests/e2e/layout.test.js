// The lesson page's layout in headless Chromium (the site over http, strict CSP):
// - embed mode (?embed=1) keeps one column the width of the frame: no lab wider than the text;
// - at 1280×900 the frames of figures are drawn (flat only on phones).
// Every lesson's layout at 1280×900 and on a phone: course-layout.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { settled, useBrowserAndSite, watch } from './browser.js';
import { drawEveryFigure } from '../../scripts/draw-figures.mjs';
import { frames } from './lab-layout.js';

const site = useBrowserAndSite();

const appSettled = (page) => settled(page.locator('attn-app'));

async function open(hash, viewport) {
  const page = await site.browser.context.newPage();
  await page.setViewportSize(viewport);
  const { problems } = watch(page);
  await page.goto(`${site.server.url}${hash}`);
  await appSettled(page);
  return { page, problems };
}

const box = (locator) =>
  locator.evaluate((el) => {
    const { left, right, top, bottom, width } = el.getBoundingClientRect();
    return { left, right, top, bottom, width };
  });

test('embed mode keeps one column the width of the frame: labs no wider than the text', async () => {
  const { page, problems } = await open('#/softmax-temperature?embed=1', { width: 1280, height: 900 });
  assert.equal(await page.locator('.lesson-toc').count(), 0);
  const body = await box(page.locator('.lesson-body'));
  const text = await box(page.locator('.lesson-body > p').first());
  assert.equal(text.width, body.width, 'the text fills the frame');
  const lab = page.locator('.lesson-body > [data-lab]').first();
  assert.equal((await box(lab)).width, body.width, 'a lab is as wide as the text');
  assert.deepEqual(problems, []);
  await page.close();
});

test('1280×900: the frames of figures are drawn (flat only on phones)', async () => {
  const { page, problems } = await open('#/softmax-temperature', { width: 1280, height: 900 });
  await drawEveryFigure(page);
  const outer = (await page.evaluate(frames)).filter((frame) => frame.depth === 0);
  assert.ok(outer.length > 0);
  for (const frame of outer) assert.equal(frame.right, '1px', `${frame.where} keeps its frame`);
  assert.deepEqual(problems, []);
  await page.close();
});
