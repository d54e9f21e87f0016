// Every lesson of the course (tests/e2e/browser.js courseLessons(): web/lessons/*.md, a teacher's
// too), in the static site over http and in dist/attnbook.html from file:// — web/README.md,
// "Writing a lesson": the home page lists it in course order; it renders, every figure draws once
// scrolled to (figures held back for an exercise once it is attempted), every check passes in the
// lesson's own state, maths is typeset, and nothing reaches the console. The project's own lessons
// (tests/fixtures/lessons/project-lessons.js) also have maths, figures and checks, each of them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  courseLessons,
  lessonList,
  openAllGates,
  scrollThrough,
  settled,
  singleFileUrl,
  useBrowserAndSite,
  watch,
} from './browser.js';
import { isProjectLesson } from '../fixtures/lessons/project-lessons.js';

const site = useBrowserAndSite();
const lessons = await courseLessons();
const course = await lessonList();

/** Every attn-* element on the page, through open shadow roots: { tag, figure, shown, status }
 * (figure: a figure not hidden by its surroundings, so one that must draw once scrolled to). */
function cellsOnPage() {
  const found = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.localName.startsWith('attn-')) {
        const ctor = customElements.get(el.localName);
        found.push({
          tag: el.localName,
          // a figure the reader can reach: not inside something hidden (a closed hint, say)
          figure: Boolean(ctor && 'figureStyles' in ctor) && el.checkVisibility(),
          shown: el.hasAttribute('data-shown'),
          status: el.getAttribute('data-status'),
        });
      }
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return found;
}

const targets = [
  ['the static site over http', () => site.server.url],
  ['dist/attnbook.html from file://', () => singleFileUrl],
];

for (const [name, base] of targets) {
  describe(name, () => {
    test('the home page lists every lesson in course order, with its summary', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await page.goto(`${base()}#/`);
      await settled(page.locator('attn-app'));
      const cards = page.locator('.lesson-card');
      assert.deepEqual(
        await cards.evaluateAll((els) => els.map((el) => el.dataset.lesson)),
        course.map((lesson) => lesson.id),
      );
      assert.deepEqual(
        (await cards.locator('h3').allTextContents()).map((t) => t.trim()),
        course.map((lesson) => lesson.title),
      );
      for (const summary of await cards.locator('.summary').allTextContents()) assert.ok(summary.trim());
      assert.deepEqual(problems, []);
      await page.close();
    });

    for (const { id, title } of lessons) {
      test(`${id}: maths, every figure drawn, every check passing, a quiet console`, async () => {
        const page = await site.browser.context.newPage();
        const { problems } = watch(page);
        await page.goto(`${base()}#/${id}`);
        await page.getByRole('heading', { level: 1, name: title }).waitFor();
        if (isProjectLesson(id)) {
          assert.ok((await page.locator('.lesson-body .katex').count()) > 0, 'KaTeX maths is rendered');
        }
        await openAllGates(page); // the figures held back for exercises: attempt those first
        // Every figure comes near the viewport on the way down; the app settles once every cell
        // in the lesson has drawn what it shows (nested cells and checks included).
        await scrollThrough(page);
        // A figure scrolled to is reported near the viewport a frame and a task later, and only
        // from then on does the app wait for it: wait for every reachable figure's report (it sets
        // data-shown), then for the app to settle. If one never comes, the assertion below names it.
        await page
          .waitForFunction(`(${cellsOnPage})().every((c) => !c.figure || c.shown)`, null, { timeout: 10000 })
          .catch(() => {});
        await settled(page.locator('attn-app'));
        const cells = await page.evaluate(cellsOnPage);
        assert.deepEqual(
          cells.filter((c) => c.figure && !c.shown).map((c) => c.tag),
          [],
          'figures not drawn after scrolling through',
        );
        const figures = cells.filter((c) => c.figure);
        const checks = cells.filter((c) => c.tag === 'attn-check');
        if (isProjectLesson(id)) {
          assert.ok(figures.length > 0, 'the lesson has figures');
          assert.ok(checks.length > 0, 'the lesson has checks');
        }
        assert.deepEqual(
          checks.filter((c) => c.status !== 'pass'),
          [],
          'every check passes',
        );
        assert.deepEqual(problems, []);
        await page.close();
      });
    }
  });
}
