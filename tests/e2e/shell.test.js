// The app shell in headless Chromium, over http (dist/site) and from file://
// (dist/attnbook.html): the lesson list, lesson pages with KaTeX maths and
// cells, previous/next, permalinks (round trip and hostile links), the theme
// toggle and embed mode.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import {
  everyFigureShown,
  launch,
  lessonList,
  scrollThrough,
  serveSite,
  settled,
  showFigure,
  singleFileUrl,
  watch,
} from './browser.js';

const LESSONS = await lessonList();
const LESSON_TITLES = LESSONS.map((lesson) => lesson.title);
const neighbourOf = (id, step) => LESSONS[LESSONS.findIndex((lesson) => lesson.id === id) + step];
const EXPECTED_AT_TAU_1 = [0.0322492, 0.8743615, 0.071772, 0.0216173];
const HOSTILE = '#/softmax-temperature?t.temperature=<script>alert(1)</script>&nope.x=1&t.logits=1,2,zz';

let browser;
let server;
let scratch;

before(async () => {
  browser = await launch();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  server = await serveSite();
  scratch = await mkdtemp(path.join(os.tmpdir(), 'attnbook-shell-'));
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A page that fails the test on console errors, exceptions, remote requests and dialogs. */
async function open(url) {
  const page = await browser.context.newPage();
  const { problems } = watch(page);
  page.on('dialog', async (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    await dialog.dismiss();
  });
  if (url) await page.goto(url);
  return { page, problems };
}

const barValues = (page) =>
  page
    .locator('attn-softmax-temperature#t rect.bar')
    .evaluateAll((bars) => bars.map((bar) => Number(bar.getAttribute('data-value'))));

function assertClose(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: number of bars`);
  actual.forEach((v, i) =>
    assert.ok(Math.abs(v - expected[i]) <= tol, `${what}: bar ${i} is ${v}, not ${expected[i]}`),
  );
}

const focusedText = (page) => page.evaluate(() => document.activeElement?.textContent.trim());

/** Waits until the app in `scope` (a page or frame locator) has drawn its route as far as it is shown. */
const appSettled = (scope) => settled(scope.locator('attn-app'));

/**
 * Sets location.hash in the page or frame it is evaluated in and resolves once its hashchange event has been dispatched: the
 * app handles that event (and stops being settled) only then, a task after the hash is set.
 */
function setHash(hash) {
  return new Promise((resolve) => {
    window.addEventListener('hashchange', () => resolve(), { once: true });
    location.hash = hash;
  });
}

const targets = [
  ['the static site over http', () => server.url],
  ['dist/attnbook.html from file://', () => singleFileUrl],
];

for (const [name, base] of targets) {
  describe(name, () => {
    test('the home page lists every lesson in course order, numbered, with progress', async () => {
      const { page, problems } = await open(base());
      await page.evaluate(() => localStorage.clear());
      await page.reload();
      const cards = page.locator('.lesson-card');
      await appSettled(page);
      assert.deepEqual(await cards.locator('h3').allTextContents(), LESSON_TITLES);
      assert.deepEqual(
        await cards.locator('.lesson-number').allTextContents(),
        LESSON_TITLES.map((_, i) => String(i + 1)),
      );
      for (const text of await cards.locator('.progress').allTextContents()) {
        assert.match(text, /^Not started( · 0 of (1 exercise|([2-9]|[1-9]\d+) exercises) solved)?$/);
      }
      assert.equal(await page.title(), 'attnbook — how attention works');

      await cards.first().getByRole('link', { name: LESSON_TITLES[0], exact: true }).click();
      await page.getByRole('heading', { level: 1, name: LESSON_TITLES[0] }).waitFor();
      await page.goBack();
      await cards.first().waitFor(); // the home page is back
      await appSettled(page);
      assert.match(await cards.first().locator('.progress').textContent(), /^Visited/);
      assert.match(await cards.nth(1).locator('.progress').textContent(), /^Not started/);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('a lesson page shows KaTeX maths, the bars, a table of contents, and moves focus', async () => {
      const { page, problems } = await open(base());
      await appSettled(page);
      await page.getByRole('link', { name: 'Softmax temperature' }).click();
      // the lesson's lab: the home page, still on screen for a moment, has one of its own
      await showFigure(page, '.lesson-body attn-softmax-temperature#t');
      await appSettled(page); // the route's title and focus are set once the lesson is drawn
      assert.ok(page.url().endsWith('#/softmax-temperature'));
      assert.equal(await page.title(), 'Softmax temperature — attnbook');
      assert.equal(await focusedText(page), 'Softmax temperature', 'focus moves to the page heading');

      const display = page.locator('.lesson-body .katex-display').filter({ hasText: 'α' }).first();
      assert.match(await display.locator('annotation').textContent(), /\\alpha_j = \\frac\{\\exp\(s_j\/\\tau\)\}/);
      const katexFont = await display
        .locator('.katex-html .mord.mathnormal')
        .first()
        .evaluate((el) => getComputedStyle(el).fontFamily);
      assert.match(katexFont, /KaTeX_Math/, 'the KaTeX stylesheet applies');
      assertClose(await barValues(page), EXPECTED_AT_TAU_1, 1e-5, 'τ = 1');

      const toc = page.getByRole('navigation', { name: 'On this page' });
      const headings = await page.locator('.lesson-body :is(h2, h3)').allTextContents();
      assert.ok(headings.length >= 2, 'the lesson has sections');
      assert.deepEqual(await toc.getByRole('link').allTextContents(), headings);
      await toc.getByRole('link', { name: headings[1], exact: true }).click();
      assert.equal(await focusedText(page), headings[1], 'the TOC moves focus to its heading');
      assert.ok(page.url().endsWith('#/softmax-temperature'), 'the TOC keeps the route');
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('previous and next links walk the course; an unknown lesson says so', async () => {
      const { page, problems } = await open(`${base()}#/softmax-temperature`);
      const pager = page.getByRole('navigation', { name: 'Previous and next lesson' });
      const previous = neighbourOf('softmax-temperature', -1);
      // The pager is at the bottom: every figure on the way draws first (a figure drawing as the
      // page scrolls there changes its height and would move the link under the pointer).
      const drawn = async () => {
        await appSettled(page); // the route is drawn (and scrolled to the top)
        await scrollThrough(page);
        await everyFigureShown(page);
        await appSettled(page);
      };
      await drawn();
      await pager.getByRole('link', { name: /Previous/ }).click();
      await page.getByRole('heading', { level: 1, name: previous.title }).waitFor();
      assert.ok(page.url().endsWith(`#/${previous.id}`));
      assert.equal(await page.locator('.lesson-body .katex').first().isVisible(), true);
      await drawn();
      await pager.getByRole('link', { name: /Next/ }).click();
      await showFigure(page, 'attn-softmax-temperature#t');
      assert.ok(page.url().endsWith('#/softmax-temperature'));
      await page.goBack();
      await page.getByRole('heading', { level: 1, name: previous.title }).waitFor();

      await page.goto(`${base()}#/no-such-lesson`);
      await page.getByRole('heading', { level: 1, name: 'Lesson not found' }).waitFor();
      await appSettled(page);
      assert.match(await page.locator('.not-found').textContent(), /no lesson called “no-such-lesson”/);
      await page.getByRole('link', { name: 'See all lessons' }).click();
      await page.locator('.lesson-card').first().waitFor();
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('a permalink round trip restores the slider and the bars', async () => {
      const { page, problems } = await open(`${base()}#/softmax-temperature`);
      await showFigure(page, 'attn-softmax-temperature#t');
      await page.locator('attn-softmax-temperature#t').getByRole('slider', { name: 'Temperature' }).focus();
      await page.keyboard.press('PageUp'); // a tenth of the range: log10 τ from 0 to 0.4
      await settled(page.locator('attn-softmax-temperature#t'));
      await page.getByText('τ = 2.51').first().waitFor();
      await page.waitForFunction(() => location.hash.includes('t.temperature=2.51'));
      const link = page.url();
      assert.match(link, /#\/softmax-temperature\?(.*&)?t\.logits=1\.2,4\.5,2,0\.8&t\.temperature=2\.51\d*(&|$)/);
      const bars = await barValues(page);
      assert.ok(bars[1] < 0.65, `τ ≈ 2.5 flattens the bars (bar 1 is ${bars[1]})`);

      const restored = await open(link);
      await showFigure(restored.page, 'attn-softmax-temperature#t');
      await appSettled(restored.page); // the link's settings are applied and any notice is drawn
      const slider = restored.page.locator('attn-softmax-temperature#t').getByRole('slider', { name: 'Temperature' });
      assert.equal(Number(await slider.inputValue()).toFixed(2), '0.40');
      await restored.page.getByText('τ = 2.51').first().waitFor();
      assertClose(await barValues(restored.page), bars, 1e-7, 'restored');
      assert.equal(await restored.page.locator('.link-notice').textContent(), '');
      assert.deepEqual([...problems, ...restored.problems], []);
      await page.close();
      await restored.page.close();
    });

    test('Copy link copies the permalink and says so', async () => {
      const { page, problems } = await open(`${base()}#/softmax-temperature?t.temperature=0.25`);
      await showFigure(page, 'attn-softmax-temperature#t');
      await appSettled(page);
      await page.getByText('τ = 0.250').first().waitFor();
      await page.getByRole('button', { name: 'Copy link' }).click();
      await page.getByText('Copied', { exact: true }).waitFor();
      await settled(page.locator('attn-copy-link'));
      const copied = await page.evaluate(async () => {
        // Clipboard access may be refused (file://); the fallback field then holds the link.
        const field = document.querySelector('.copy-field input');
        return field ? field.value : navigator.clipboard.readText();
      });
      assert.match(copied, /#\/softmax-temperature\?(.*&)?t\.logits=1\.2,4\.5,2,0\.8&t\.temperature=0\.25(&|$)/);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('a hostile permalink loads the defaults, says what was ignored, runs nothing', async () => {
      const { page, problems } = await open(`${base()}${HOSTILE}`);
      await showFigure(page, 'attn-softmax-temperature#t');
      const notice = page.getByRole('status').filter({ hasText: 'Some settings in this link were ignored' });
      await notice.waitFor();
      await appSettled(page); // the issues found while applying the settings are drawn after the link's own
      const text = await notice.textContent();
      assert.match(text, /t\.temperature: "<script>alert\(1\)<\/script>" is not a number/);
      assert.match(text, /nope: no such cell in this lesson/);
      assert.match(text, /t\.logits\[2\]: "zz" is not a number/);
      assert.match(text, /lesson's own settings instead: t\./);
      assertClose(await barValues(page), EXPECTED_AT_TAU_1, 1e-5, 'defaults');
      await page.getByText('τ = 1.00').first().waitFor();
      assert.equal(await page.locator('main script, main img, main iframe').count(), 0, 'nothing injected');
      assert.equal(await page.evaluate(() => document.scripts.length <= 1), true);

      // More hostile links, applied by hashchange on the same page.
      const cases = [
        ['#/softmax-temperature?t.temperature=%E0%A4%A', /t\.temperature: not valid percent-encoding/],
        [`#/softmax-temperature?t.temperature=${'9'.repeat(30000)}`, /t\.temperature: is too long/],
        ['#/softmax-temperature?t.colour=red', /t\.colour: not a setting of this cell/],
        ['#/softmax-temperature?x=1', /x: not a cell setting \(expected cell\.field=value\)/],
        ['#/softmax-temperature?t.temperature=1e999', /t\.temperature: must be finite/],
        ['#/softmax-temperature?t.temperature=-1', /t\.temperature: -1 is outside \[0, Infinity\]/],
      ];
      for (const [hash, expected] of cases) {
        // The previous link's notice says "ignored" too: wait for the app to handle this hash.
        await page.evaluate(setHash, hash);
        await appSettled(page);
        assert.equal(await page.evaluate(() => location.hash), hash, hash.slice(0, 60));
        const shown = await page.locator('.link-notice').textContent();
        assert.match(shown, /ignored/, hash.slice(0, 60));
        assert.match(shown, expected, hash.slice(0, 60));
        await showFigure(page, 'attn-softmax-temperature#t');
        await page.getByText('τ = 1.00').first().waitFor();
      }
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('the theme toggle sets data-theme, persists, and System follows the OS', async () => {
      const { page, problems } = await open(base());
      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const theme = () => page.evaluate(() => document.documentElement.dataset.theme ?? null);
      const group = page.getByRole('group', { name: 'Colour theme' });
      const toggle = page.locator('attn-theme-toggle');
      await group.getByRole('button', { name: 'System' }).click();
      assert.equal(await theme(), null);
      const light = await background();

      await group.getByRole('button', { name: 'Dark' }).click();
      assert.equal(await theme(), 'dark');
      assert.notEqual(await background(), light, 'dark colours apply');
      await settled(toggle);
      assert.equal(await group.getByRole('button', { name: 'Dark' }).getAttribute('aria-pressed'), 'true');
      await page.reload();
      await settled(toggle); // the stored theme is applied before the toggle first draws
      assert.equal(await theme(), 'dark', 'the choice is stored');
      assert.equal(await group.getByRole('button', { name: 'Dark' }).getAttribute('aria-pressed'), 'true');

      await group.getByRole('button', { name: 'Light' }).click();
      assert.equal(await theme(), 'light');
      await page.emulateMedia({ colorScheme: 'dark' });
      assert.equal(await background(), light, 'Light wins over a dark system');
      await group.getByRole('button', { name: 'System' }).click();
      assert.equal(await theme(), null);
      assert.notEqual(await background(), light, 'System follows the dark system setting');
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('embed mode shows only the lesson and posts its height to the parent', async () => {
      const src = `${base()}#/softmax-temperature?embed=1&t.temperature=5`;
      const parent = `<!doctype html><title>host</title>
        <script>window.heights = []; addEventListener('message', (e) => {
          if (e.data && e.data.type === 'attnbook:height') window.heights.push(e.data.height);
        });</script>
        <iframe title="lesson" src="${src}" style="width: 600px; height: 300px"></iframe>`;
      const { page, problems } = await open();
      if (src.startsWith('file:')) {
        const file = path.join(scratch, 'host.html');
        await writeFile(file, parent);
        await page.goto(pathToFileURL(file).href);
      } else {
        await page.setContent(parent);
      }
      const frame = page.frameLocator('iframe');
      await showFigure(frame, 'attn-softmax-temperature#t');
      await frame.getByText('τ = 5.00').first().waitFor();
      await appSettled(frame);
      assert.equal(await frame.locator('.site-header').isHidden(), true);
      assert.equal(await frame.locator('.site-footer').isHidden(), true);
      assert.equal(await frame.getByRole('navigation').count(), 0, 'no TOC, no previous/next');
      assert.equal(await frame.getByRole('button', { name: 'Copy link' }).count(), 0);
      // The lesson is drawn as far as it is shown; once its fonts have loaded its height is final,
      // and the last height reported to the parent must come to be that one.
      const actual = await frame.locator('body').evaluate(async (b) => {
        b.getBoundingClientRect(); // lay out, so every font the text needs starts loading
        await document.fonts.ready;
        return Math.ceil(b.getBoundingClientRect().height);
      });
      assert.ok(actual > 500, `the lesson is ${actual} px tall`);
      await page.waitForFunction((h) => window.heights.at(-1) === h, actual);
      const reported = await page.evaluate(() => window.heights.at(-1));
      assert.equal(reported, actual);

      // The height follows the content: a hostile link adds a notice and a new report.
      await page.mainFrame().childFrames()[0].evaluate(setHash, '#/softmax-temperature?embed=1&bad.x=1');
      await appSettled(frame); // the new route is drawn (its figure is a fresh one)
      await showFigure(frame, 'attn-softmax-temperature#t'); // the fresh figure draws once scrolled to
      await page.waitForFunction((h) => window.heights.at(-1) > h, reported);
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}
