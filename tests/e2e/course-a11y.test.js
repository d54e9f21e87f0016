// axe-core on every lesson of the course (tests/e2e/browser.js courseLessons(): a teacher's too),
// in light and dark: no serious or critical accessibility violation (web/README.md, "Writing a
// lesson"). Each lesson is scrolled through first, so every figure has drawn (they draw when
// visible). The site's other pages are in a11y.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  axeViolations,
  courseLessons,
  everyFigureShown,
  scrollThrough,
  settled,
  useBrowserAndSite,
  watch,
} from './browser.js';

const site = useBrowserAndSite();

for (const { id } of await courseLessons()) {
  const name = `lesson ${id}`;
  test(`${name}: no serious or critical axe violation, light and dark`, async () => {
    const page = await site.browser.context.newPage();
    const { problems } = watch(page);
    await page.goto(new URL(`index.html#/${id}`, site.server.url).href);
    await settled(page.locator('attn-app')); // the lesson is there, so scrolling through reaches all of it
    await scrollThrough(page);
    await everyFigureShown(page); // every figure reached has started drawing
    await settled(page.locator('attn-app'));
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      assert.deepEqual(await axeViolations(page, { minImpact: 'serious' }), [], `${name}, ${colorScheme}`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
}
