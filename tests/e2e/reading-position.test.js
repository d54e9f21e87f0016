// Back and Forward return to where the reader was, in headless Chromium (the site over http and the
// single file from file://): deep in a lesson, on the home page, and after a reload. A new page
// opens at its top. Each step waits for the app to settle (its navigation includes restoring the
// position once the figures near it have drawn), never for a delay.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lessonList, settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();
const LESSONS = await lessonList();
const TOLERANCE = 2; // px

const appSettled = (page) => settled(page.locator('attn-app'));

/** Moves through history by `steps` (as Back or Forward does) and resolves once the app has handled it. */
function historyGo(steps) {
  return new Promise((resolve) => {
    window.addEventListener('hashchange', () => resolve(), { once: true });
    history.go(steps);
  });
}

/** Follows a link to `hash` (a new history entry) and resolves once the app has handled it. */
function setHash(hash) {
  return new Promise((resolve) => {
    window.addEventListener('hashchange', () => resolve(), { once: true });
    location.hash = hash;
  });
}

/**
 * Scrolls so that the top of `locator` is `offset` px below the top of the viewport, waits until what
 * came near the viewport has drawn, and returns where its top then is (the reader's position).
 */
async function readAt(page, locator, offset) {
  await locator.evaluate((el, y) => scrollBy({ top: el.getBoundingClientRect().top - y, behavior: 'instant' }), offset);
  await nearFiguresShown(page);
  await appSettled(page);
  return top(locator);
}

/**
 * Waits until every figure on screen or near it has been reported near the viewport (data-shown): only
 * from then on does the app wait for it to draw.
 */
const nearFiguresShown = (page) =>
  page.waitForFunction(() => {
    const near = (el) => {
      const box = el.getBoundingClientRect();
      return box.bottom > -200 && box.top < innerHeight + 200 && el.checkVisibility();
    };
    const pending = [];
    const visit = (root) => {
      for (const el of root.querySelectorAll('*')) {
        const isFigure = el.localName.startsWith('attn-') && 'figureStyles' in (customElements.get(el.localName) ?? {});
        if (isFigure && !el.hasAttribute('data-shown') && near(el)) pending.push(el);
        if (el.shadowRoot) visit(el.shadowRoot);
      }
    };
    visit(document);
    return pending.length === 0;
  });

const top = (locator) => locator.evaluate((el) => el.getBoundingClientRect().top);

function assertAt(actual, expected, what) {
  assert.ok(Math.abs(actual - expected) <= TOLERANCE, `${what}: top at ${actual} px, expected ${expected} px`);
}

const targets = [
  ['the static site over http', () => site.server.url],
  ['dist/attnbook.html from file://', () => singleFileUrl],
];

for (const [name, base] of targets) {
  describe(name, () => {
    test('Back and Forward return to the reading position in each lesson; a new page opens at the top', async () => {
      const page = await site.browser.context.newPage();
      await page.setViewportSize({ width: 1280, height: 900 });
      const { problems } = watch(page);
      const [first, second] = [LESSONS[2], LESSONS[3]];
      await page.goto(`${base()}#/${first.id}`);
      await appSettled(page);
      // Deep in the lesson: its last section, with every figure above it not drawn (never scrolled past).
      const deep = page.locator('.lesson-body h2').last();
      const deepTop = await readAt(page, deep, 140);
      const deepText = await deep.textContent();

      await page.evaluate(setHash, `#/${second.id}`);
      await appSettled(page);
      assert.equal(await page.evaluate(() => scrollY), 0, 'a page never seen opens at its top');
      const middle = page.locator('.lesson-body h2').nth(1);
      const middleTop = await readAt(page, middle, 60);

      await page.evaluate(historyGo, -1);
      await appSettled(page);
      assert.ok(page.url().endsWith(`#/${first.id}`));
      assert.equal(await deep.textContent(), deepText);
      assertAt(await top(deep), deepTop, `Back: "${deepText}"`);

      await page.evaluate(historyGo, 1);
      await appSettled(page);
      assert.ok(page.url().endsWith(`#/${second.id}`));
      assertAt(await top(middle), middleTop, 'Forward');

      await page.reload();
      await appSettled(page);
      assertAt(await top(middle), middleTop, 'after a reload');
      assert.equal(await page.evaluate(() => document.activeElement?.localName), 'body', 'a reload leaves focus alone');
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('Back from a lesson returns to the same place on the home page, on a phone', async () => {
      const page = await site.browser.context.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      const { problems } = watch(page);
      await page.goto(base());
      await appSettled(page);
      const card = page.locator('.lesson-card').nth(LESSONS.length - 2);
      const cardTop = await readAt(page, card, 300);
      await card.getByRole('link').click(); // on screen: the click does not scroll
      await page.getByRole('heading', { level: 1, name: LESSONS.at(-2).title }).waitFor();
      await appSettled(page);
      assert.equal(await page.evaluate(() => scrollY), 0);
      await page.evaluate(historyGo, -1);
      await appSettled(page);
      assertAt(await top(card), cardTop, 'the home page after Back');
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}
