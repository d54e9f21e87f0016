// The build keeps only the KaTeX fonts the lessons use (scripts/vite-lessons-plugin.mjs):
// in the single file, every KaTeX font family that any lesson's maths is set in must
// have a font face, and it must load.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lessonIds, singleFileUrl, useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();

for (const id of await lessonIds()) {
  test(`${id}: every KaTeX font its maths uses is bundled and loads`, async () => {
    const page = await site.browser.context.newPage();
    const { problems } = watch(page);
    await page.goto(`${singleFileUrl}#/${id}`);
    await page.locator('.lesson-body .katex').first().waitFor();
    const { used, missing, failed } = await page.evaluate(async () => {
      const familyOf = (el) => getComputedStyle(el).fontFamily.split(',')[0].trim().replace(/"/g, '');
      const used = new Set();
      for (const el of document.querySelectorAll('.lesson-body .katex-html *')) {
        const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
        if (hasText && familyOf(el).startsWith('KaTeX_')) used.add(familyOf(el));
      }
      await document.fonts.ready;
      const faces = [...document.fonts];
      const facesOf = (family) => faces.filter((f) => f.family.replace(/"/g, '') === family);
      return {
        used: [...used],
        missing: [...used].filter((family) => facesOf(family).length === 0),
        failed: [...used].filter((family) => !facesOf(family).some((f) => f.status === 'loaded')),
      };
    });
    assert.ok(used.includes('KaTeX_Main') || used.includes('KaTeX_Math'), `maths found (${used})`);
    assert.deepEqual(missing, [], 'families without a font face');
    assert.deepEqual(failed, [], 'families whose font did not load');
    assert.deepEqual(problems, []);
    await page.close();
  });
}
