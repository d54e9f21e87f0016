// axe-core on every page and route of the site (every lesson), in light and
// dark: no serious or critical accessibility violation anywhere. Each page is
// scrolled through first, so every figure has drawn (they draw when visible).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { axeViolations, lessonIds, scrollThrough, useBrowserAndSite, watch } from './browser.js';

const PAGES = [
  ['home', 'index.html#/', 'attn-lesson-list'],
  ...(await lessonIds()).map((id) => [`lesson ${id}`, `index.html#/${id}`, '.lesson-body .katex']),
  ['not found', 'index.html#/no-such-lesson', 'h1'],
  ['check this browser', 'selftest.html', 'body[data-done="true"]'],
  ['figure gallery', 'gallery/figures.html', 'attn-bars[data-settled]'],
  ['cell gallery', 'gallery/cells.html', 'attn-slider'],
  ['embed example', 'embed-example.html', 'attn-softmax-temperature[data-settled]'],
];

const site = useBrowserAndSite();

for (const [name, path, ready] of PAGES) {
  test(`${name}: no serious or critical axe violation, light and dark`, async () => {
    const page = await site.browser.context.newPage();
    const { problems } = watch(page);
    await page.goto(new URL(path, site.server.url).href);
    await page.locator(ready).first().waitFor();
    await scrollThrough(page);
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      assert.deepEqual(await axeViolations(page, { minImpact: 'serious' }), [], `${name}, ${colorScheme}`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
}
