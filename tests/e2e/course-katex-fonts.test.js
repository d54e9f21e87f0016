// The build keeps only the KaTeX fonts the lessons use (scripts/vite-lessons-plugin.mjs):
// in the single file, every KaTeX font family that any lesson's maths is set in must
// have a font face, and it must load. Every lesson of the course (courseLessons(): a teacher's
// too); the project's own lessons (tests/fixtures/lessons/project-lessons.js) all have maths.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { courseLessons, settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';
import { isProjectLesson } from '../fixtures/lessons/project-lessons.js';

const site = useBrowserAndSite();

for (const { id } of await courseLessons()) {
  test(`${id}: every KaTeX font its maths uses is bundled and loads`, async () => {
    const page = await site.browser.context.newPage();
    const { problems } = watch(page);
    await page.goto(`${singleFileUrl}#/${id}`);
    await settled(page.locator('attn-app')); // the lesson is drawn, its maths included
    const { used, missing, failed } = await page.evaluate(async () => {
      const familyOf = (el) => getComputedStyle(el).fontFamily.split(',')[0].trim().replace(/"/g, '');
      const used = new Set();
      const faces = new Set(); // each face the maths is set in, as a CSS font shorthand
      for (const el of document.querySelectorAll('.lesson-body .katex-html *')) {
        const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
        if (hasText && familyOf(el).startsWith('KaTeX_')) {
          used.add(familyOf(el));
          const { fontStyle, fontWeight } = getComputedStyle(el);
          faces.add(`${fontStyle} ${fontWeight} 16px "${familyOf(el)}"`);
        }
      }
      // Off-screen parts of a lesson are laid out only near the viewport (content-visibility: auto),
      // so a font only they use need not have been asked for yet: ask for every face used, and
      // wait until each has loaded or failed (document.fonts.ready alone may come before the asking).
      await Promise.all([...faces].map((face) => document.fonts.load(face).catch(() => [])));
      await document.fonts.ready;
      const all = [...document.fonts];
      const facesOf = (family) => all.filter((f) => f.family.replace(/"/g, '') === family);
      return {
        used: [...used],
        missing: [...used].filter((family) => facesOf(family).length === 0),
        failed: [...used].filter((family) => !facesOf(family).some((f) => f.status === 'loaded')),
      };
    });
    if (isProjectLesson(id) || used.length > 0) {
      assert.ok(used.includes('KaTeX_Main') || used.includes('KaTeX_Math'), `maths found (${used})`);
    }
    assert.deepEqual(missing, [], 'families without a font face');
    assert.deepEqual(failed, [], 'families whose font did not load');
    assert.deepEqual(problems, []);
    await page.close();
  });
}
