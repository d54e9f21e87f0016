// Phone first, for every lesson of the course (web/README.md, "Writing a lesson": what a page must
// never do on a phone): at 390×844 with touch, and again at 1280×900, every lesson is opened with
// every exercise answered once (so every figure held back for one is shown), every figure drawn and
// every element's content-visibility forced to visible, and measured by tests/e2e/layout-audit.js:
// - the page never scrolls sideways, and nothing is cut off;
// - no figure text (SVG or HTML) is under 12 px, and no two labels overlap;
// - a box scrolls sideways only for a matrix of more than 6 columns, marked data-wide-matrix;
// - every slider and draggable is a 44 × 44 px touch target (at 390);
// and on the home page the call to start sits in a phone's first screen.
// The lessons are the course's own list (every web/lessons/*.md, a teacher's included); the test
// fails if the site lists fewer. `npm run audit` prints the same faults as a table, with pictures.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/lib.mjs';
import { courseLessons, lessonIds, serveSite } from './browser.js';
import { AUDIT_SIZES, auditPage, openEverything } from './layout-audit.js';

const LESSONS = await lessonIds();
// the lessons audited one by one: every lesson (or those ATTNBOOK_COURSE_ONLY names, browser.js)
const AUDITED = (await courseLessons()).map((lesson) => lesson.id);
let browser;
let server;

before(async () => {
  server = await serveSite();
  browser = await chromium.launch(chromiumLaunchOptions());
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** "where: detail" lines of the faults, for a message that says what to fix. */
const listed = (faults) => faults.map((f) => `  ${f.kind}: ${f.where} — ${f.detail}`).join('\n');

for (const { name, ...options } of AUDIT_SIZES) {
  test(`${name.replace('x', '×')}: every lesson and the home page, every exercise answered once: no layout fault`, async () => {
    const context = await browser.newContext({ ...options, reducedMotion: 'reduce', serviceWorkers: 'block' });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    // the course as the site lists it: all of web/lessons, no fewer
    await page.goto(server.url);
    await page.locator('attn-app[data-settled]').waitFor();
    const listedIds = await page
      .locator('attn-lesson-list [data-lesson]')
      .evaluateAll((cards) => cards.map((card) => card.dataset.lesson));
    assert.deepEqual([...listedIds].sort(), [...LESSONS].sort(), 'the home page lists every lesson of web/lessons');
    const faults = [];
    for (const id of ['home', ...AUDITED]) {
      // a fresh document per page: nothing of the last lesson (a scheduled permalink) carries over
      await page.goto('about:blank');
      await page.goto(id === 'home' ? server.url : `${server.url}#/${id}`);
      await openEverything(page);
      if (id === 'home') await page.evaluate(() => scrollTo({ top: 0, behavior: 'instant' }));
      const result = await auditPage(page);
      assert.ok(result.checked.texts > 0, `${id}: something was measured`);
      faults.push(...result.faults.map((f) => ({ ...f, where: `${id} › ${f.where}` })));
    }
    assert.equal(faults.length, 0, `${faults.length} layout faults at ${name}:\n${listed(faults)}`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
