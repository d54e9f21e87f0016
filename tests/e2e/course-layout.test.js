// The lesson page's layout, for every lesson of the course (tests/e2e/browser.js courseLessons():
// a teacher's too; headless Chromium, the site over http, strict CSP; web/README.md, "Writing a
// lesson"):
// - at 1280×900 every lab ([data-lab]) breaks out of the 46rem text column into the margin, and
//   neither it nor the text overlaps the table of contents, which sits in the left margin;
// - at 390×844 (a phone) no lesson scrolls sideways, with every code cell open, and the frames of
//   figures and cards are flat (no side border or padding; a frame inside another none at all).
// The project's own lessons (tests/fixtures/lessons/project-lessons.js) have framed figures, and
// labs among them. Embed mode and the frames at 1280×900: layout.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { courseLessons, settled, useBrowserAndSite, watch } from './browser.js';
import { drawEveryFigure } from '../../scripts/draw-figures.mjs';
import { frames } from './lab-layout.js';
import { isProjectLesson } from '../fixtures/lessons/project-lessons.js';

const site = useBrowserAndSite();
const LESSONS = (await courseLessons()).map((lesson) => lesson.id);
const WIDER_BY = 160; // px more than the text column that a lab gets at 1280×900, at least

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
/** Follows a link to `hash` and resolves once the app has handled it (it stops being settled then). */
function setHash(hash) {
  return new Promise((resolve) => {
    window.addEventListener('hashchange', () => resolve(), { once: true });
    location.hash = hash;
  });
}

const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

test('1280×900: labs use the margin, the contents sit in the left margin, nothing overlaps', async () => {
  const { page, problems } = await open('', { width: 1280, height: 900 });
  let labsSeen = 0;
  for (const id of LESSONS) {
    await page.evaluate(setHash, `#/${id}`);
    await appSettled(page);
    const paragraph = page.locator('.lesson-body > p').first();
    if (!isProjectLesson(id) && (await paragraph.count()) === 0) continue; // no text column to measure
    const text = await box(paragraph);
    assert.ok(text.width <= 46 * 17 + 1, `${id}: the text column is at most 46rem (${text.width} px)`);
    const toc = page.locator('.lesson-toc');
    if (await toc.count()) assert.ok((await box(toc)).right <= text.left, `${id}: the contents are left of the text`);
    const labs = page.locator('.lesson-body > [data-lab]');
    for (let i = 0; i < (await labs.count()); i += 1) {
      const lab = labs.nth(i);
      await lab.evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
      const labBox = await box(lab);
      assert.ok(labBox.width >= text.width + WIDER_BY, `${id} lab ${i}: ${labBox.width} px, text ${text.width} px`);
      assert.ok(labBox.right <= 1280, `${id} lab ${i} ends on screen (${labBox.right})`);
      if (await toc.count())
        assert.equal(overlap(labBox, await box(toc)), false, `${id} lab ${i} overlaps the contents`);
      labsSeen += 1;
    }
  }
  if (LESSONS.some(isProjectLesson)) assert.ok(labsSeen > 0, 'some lesson has a lab');
  assert.deepEqual(problems, []);
  await page.close();
});

for (const id of LESSONS) {
  test(`390×844, ${id}: nothing scrolls the page sideways, code cells open; frames are flat`, async () => {
    const page = await site.browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const { problems } = watch(page);
    await page.goto(site.server.url);
    await page.evaluate(() => localStorage.setItem('attnbook:show-code', 'on')); // every code cell open
    await page.goto(`${site.server.url}#/${id}`);
    await appSettled(page);
    await drawEveryFigure(page);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.scrollingElement.scrollWidth,
      innerWidth,
    }));
    assert.ok(scrollWidth <= innerWidth, `${id}: the page is ${scrollWidth} px wide in a ${innerWidth} px window`);
    assert.equal(
      await page.locator('attn-code:not([open])').count(),
      0,
      `${id}: every code cell is open (the course-wide preference)`,
    );

    const found = await page.evaluate(frames);
    if (isProjectLesson(id)) assert.ok(found.length > 0, 'the lesson has framed figures');
    for (const frame of found) {
      assert.equal(frame.right, '0px', `${id}: ${frame.where} has a side border`);
      assert.equal(frame.paddingRight, '0px', `${id}: ${frame.where} has side padding`);
      // a coloured stripe down the left side (an exercise's status) keeps its text clear of it
      if (frame.left === '0px') assert.equal(frame.paddingLeft, '0px', `${id}: ${frame.where} has side padding`);
      else
        assert.ok(frame.depth === 0 && parseFloat(frame.left) >= 3, `${id}: ${frame.where}: ${frame.left} left border`);
      if (frame.depth > 0) assert.equal(frame.top, '0px', `${id}: ${frame.where}, inside a frame, has a border`);
    }
    await page.evaluate(() => localStorage.removeItem('attnbook:show-code'));
    assert.deepEqual(problems, []);
    await page.close();
  });
}
