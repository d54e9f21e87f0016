// The lesson page's layout on a phone, for every lesson of the course (tests/e2e/browser.js
// courseLessons(): a teacher's too; headless Chromium, the site over http, strict CSP; web/README.md,
// "Writing a lesson"): at 390×844 no lesson scrolls sideways, with every code cell open, and the
// frames of figures and cards are flat (no side border or padding; a frame inside another none at
// all). The project's own lessons (tests/fixtures/lessons/project-lessons.js) have framed figures.
// At 1280×900, labs in the margin beside the contents: course-render.test.js (explorable.js);
// embed mode and the frames at 1280×900: layout.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { courseLessons, settled, useBrowserAndSite, watch } from './browser.js';
import { drawEveryFigure } from '../../scripts/draw-figures.mjs';
import { frames } from './lab-layout.js';
import { isProjectLesson } from '../fixtures/lessons/project-lessons.js';

const site = useBrowserAndSite();
const LESSONS = (await courseLessons()).map((lesson) => lesson.id);
const appSettled = (page) => settled(page.locator('attn-app'));

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
