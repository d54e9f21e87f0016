// The home page in headless Chromium (the site over http, and the single file from file://): the
// live figure at the top moves at once and is in the first viewport of a wide screen and of a phone,
// with the call to start;
// the lessons are numbered; progress reads "N of M exercises solved" with the noun agreeing and
// nothing about exercises where a lesson has none; the link to the next lesson follows progress.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lessonList, lessonSource, settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();
const LESSONS = await lessonList();

/** The exercise ids of each lesson, read from its Markdown: { id, exercises: string[] }[]. */
const EXERCISES = await Promise.all(
  LESSONS.map(async ({ id }) => {
    const source = await lessonSource(id);
    return { id, exercises: [...source.matchAll(/<attn-exercise\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]) };
  }),
);
const TOTAL_EXERCISES = EXERCISES.reduce((n, lesson) => n + lesson.exercises.length, 0);
const exercisesSolved = (solved, total) => `${solved} of ${total} ${total === 1 ? 'exercise' : 'exercises'} solved`;

const appSettled = (page) => settled(page.locator('attn-app'));

async function open(url, viewport = { width: 1280, height: 900 }) {
  const page = await site.browser.context.newPage();
  await page.setViewportSize(viewport);
  const { problems } = watch(page);
  await page.goto(url);
  await appSettled(page);
  return { page, problems };
}

const targets = [
  ['the static site over http', () => site.server.url],
  ['dist/attnbook.html from file://', () => singleFileUrl],
];

for (const [name, base] of targets) {
  describe(name, () => {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      test(`${viewport.width}×${viewport.height}: the figure at the top is in the first viewport and moves at once`, async () => {
        const { page, problems } = await open(base(), viewport);
        const figure = page.locator('.home-hero attn-softmax-temperature');
        const slider = figure.getByRole('slider', { name: 'Temperature' });
        await settled(figure); // drawn in the first viewport, without scrolling
        // figure-only: the two charts and their controls, none of the lesson's table, checks or code
        assert.equal(await figure.locator('.chart').count(), 2);
        assert.equal(await figure.locator('table, attn-verified, attn-code, .hood').count(), 0);
        const range = await slider.boundingBox();
        const inView = await figure.evaluate(
          (el, sliderBottom) => ({ top: el.getBoundingClientRect().top, sliderBottom, height: innerHeight, scrollY }),
          range.y + range.height,
        );
        assert.equal(inView.scrollY, 0);
        assert.ok(
          inView.top >= 0 && inView.sliderBottom <= inView.height,
          `figure and slider on screen: ${JSON.stringify(inView)}`,
        );
        // the call to start sits in the first screen too, before the figure
        const start = await page.locator('.home-hero a.hero-next').boundingBox();
        assert.ok(
          start.y >= 0 && start.y + start.height <= inView.height,
          `the call to start: ${JSON.stringify(start)}`,
        );
        assert.ok(start.y < inView.top || viewport.width > 900, 'on a phone it comes before the figure');

        const bars = () =>
          figure.locator('rect.bar').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-value'))));
        const before = await bars();
        assert.ok(Math.max(...before) > 0.5, `τ = 1: one score dominates (${before})`);
        await slider.focus();
        await page.keyboard.press('End'); // τ = 100
        await settled(figure);
        await figure.getByText('τ = 100').first().waitFor();
        const after = await bars();
        assert.equal(after.length, before.length);
        assert.ok(Math.max(...after) - Math.min(...after) < 0.05, `τ = 100: the weights even out (${after})`);
        assert.deepEqual(problems, []);
        await page.close();
      });
    }

    test('numbered lessons; progress counts exercises with the noun agreeing; the next lesson to read', async () => {
      const { page, problems } = await open(base());
      await page.evaluate(() => localStorage.clear());
      await page.reload();
      await appSettled(page);
      const cards = page.locator('.lesson-card');
      const hero = page.locator('.home-hero');
      assert.equal(await cards.count(), LESSONS.length);
      assert.deepEqual(
        await cards.locator('.lesson-number').allTextContents(),
        LESSONS.map((_, i) => String(i + 1)),
      );
      assert.ok(
        (await cards.locator('.summary').allTextContents()).every((text) => text.trim().length > 0),
        'every lesson has its one-line promise',
      );
      const next = hero.locator('a.hero-next');
      assert.equal(await next.textContent(), `Start with lesson 1: ${LESSONS[0].title}`);
      assert.equal(await next.getAttribute('href'), `#/${LESSONS[0].id}`);
      const noExercises = `${LESSONS.length} lessons`;
      assert.equal(
        await hero.locator('.course-progress').textContent(),
        TOTAL_EXERCISES ? `${noExercises} · ${exercisesSolved(0, TOTAL_EXERCISES)}` : noExercises,
      );

      // The first lesson opened, and every exercise of the first lesson that has some solved.
      const withExercises = EXERCISES.find((lesson) => lesson.exercises.length > 0);
      assert.ok(withExercises, 'some lesson has an exercise');
      await page.evaluate(
        ({ first, lesson }) => {
          localStorage.setItem(`attnbook:visited:${first}`, 'true');
          for (const id of lesson.exercises) localStorage.setItem(`attnbook:exercise:${lesson.id}/${id}`, 'solved');
        },
        { first: LESSONS[0].id, lesson: withExercises },
      );
      await page.reload();
      await appSettled(page);
      const texts = await cards.locator('.progress').allTextContents();
      EXERCISES.forEach(({ id, exercises }, i) => {
        const opened = i === 0 ? 'Visited' : 'Not started';
        const solved = id === withExercises.id ? exercises.length : 0;
        const expected = exercises.length
          ? `${opened} · ${exercisesSolved(solved, exercises.length)}${solved === exercises.length ? ' ✓' : ''}`
          : opened;
        assert.equal(texts[i], expected, id);
        assert.doesNotMatch(texts[i], /no exercises|exercises yet|\b1 exercises\b/, id);
      });
      assert.equal(await next.textContent(), `Continue with lesson 2: ${LESSONS[1].title}`);
      assert.equal(
        await hero.locator('.course-progress').textContent(),
        `1 of ${LESSONS.length} lessons opened · ${exercisesSolved(withExercises.exercises.length, TOTAL_EXERCISES)}`,
      );
      assert.equal(await cards.first().evaluate((el) => el.classList.contains('visited')), true);
      await page.evaluate(() => localStorage.clear());
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

test('phones: the lesson cards are flat (no frame), wide screens: framed', async () => {
  const { page, problems } = await open(site.server.url, { width: 390, height: 844 });
  const frame = (locator) =>
    locator.evaluate((el) => {
      const style = getComputedStyle(el);
      return { left: style.borderLeftWidth, padding: style.paddingLeft, radius: style.borderTopLeftRadius };
    });
  assert.deepEqual(await frame(page.locator('.lesson-card').first()), { left: '0px', padding: '0px', radius: '0px' });
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.notEqual((await frame(page.locator('.lesson-card').first())).left, '0px');
  assert.deepEqual(problems, []);
  await page.close();
});
