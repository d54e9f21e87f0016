// axe-core on every page and route of the site, in light and dark (in dark, the colour rules:
// browser.js axeLightAndDark): no serious or critical accessibility violation anywhere. Each page is scrolled through first, so
// every figure has drawn (they draw when visible). Every lesson: course-render.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { axeLightAndDark, everyFigureShown, scrollThrough, settled, useBrowserAndSite, watch } from './browser.js';

/** Waits until every attn-* cell of the page has drawn its current state (data-settled). */
const everyCellSettled = (page) =>
  page.waitForFunction(() =>
    [...document.querySelectorAll('*')].every(
      (el) => !el.localName.startsWith('attn-') || el.hasAttribute('data-settled'),
    ),
  );

/** The app (a lesson, the list, not found) has drawn its route as far as it is shown. */
const app = (page) => settled(page.locator('attn-app'));

/** After the scroll through: every figure reached has started drawing, and the app has settled. */
async function appDrawn(page) {
  await everyFigureShown(page);
  await app(page);
}

const nothing = async () => {};

// [name, path, ready, drawn]: ready(page) waits until the page's content is there (so scrolling
// through reaches all of it); drawn(page), once the page has been scrolled through and every figure
// has come near the viewport, waits until what axe reads is drawn.
const PAGES = [
  ['home', 'index.html#/', app, appDrawn],
  ['not found', 'index.html#/no-such-lesson', app, appDrawn],
  ['check this browser', 'selftest.html', (page) => page.locator('body[data-done="true"]').waitFor(), nothing],
  [
    'figure gallery',
    'gallery/figures.html',
    // the gallery's script gives the hull its 500 mixtures (and the large heatmap its values, in
    // the same task) once the engine is there
    (page) => page.waitForFunction(() => document.getElementById('hull-figure').mixtures?.length === 500),
    everyCellSettled,
  ],
  [
    'cell gallery',
    'gallery/cells.html',
    (page) => page.locator('body[data-ready="true"]').waitFor(), // the engine's results are given to the cells
    everyCellSettled,
  ],
  [
    'embed example',
    'embed-example.html',
    (page) => app(page.frameLocator('#lesson-frame')),
    async (page) => {
      await everyCellSettled(page);
      await app(page.frameLocator('#lesson-frame'));
    },
  ],
];

const site = useBrowserAndSite();

for (const [name, path, ready, drawn] of PAGES) {
  test(`${name}: no serious or critical axe violation, light and dark`, async () => {
    const page = await site.browser.context.newPage();
    const { problems } = watch(page);
    await page.goto(new URL(path, site.server.url).href);
    await ready(page);
    await scrollThrough(page);
    await drawn(page);
    assert.deepEqual(await axeLightAndDark(page, { minImpact: 'serious' }), [], name);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
