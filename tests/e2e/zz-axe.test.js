import assert from 'node:assert/strict';
import { test } from 'node:test';
import { axeViolations, useBrowserAndSite, watch } from './browser.js';
const site = useBrowserAndSite();
for (const [route, sel] of [
  ['scaling-by-sqrt-dk', '#curves[data-ready]'],
  ['attention-at-scale', '#fused[data-ready]'],
]) {
  test(route, async () => {
    const page = await site.browser.context.newPage();
    const { problems } = watch(page);
    await page.goto(`${site.server.url}#/${route}`);
    for (const id of await page
      .locator('[id]')
      .evaluateAll((els) => els.filter((e) => e.localName.startsWith('attn-')).map((e) => e.id))) {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    }
    await page.locator(sel).waitFor({ timeout: 30000 });
    await page.waitForTimeout(1000);
    const v = await axeViolations(page, { minImpact: 'moderate' });
    console.log(route, JSON.stringify(v, null, 1));
    await page.setViewportSize({ width: 360, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    console.log('scrollWidth at 360', overflow);
    assert.deepEqual(problems, []);
  });
}
