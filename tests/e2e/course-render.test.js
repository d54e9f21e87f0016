// Every lesson of the course (tests/e2e/browser.js courseLessons(): web/lessons/*.md, a teacher's
// too), in the static site over http and in dist/attnbook.html from file://, at 1280×900 —
// web/README.md, "Writing a lesson": the home page lists it in course order; it renders, every
// figure draws once scrolled to (figures held back for an exercise once it is attempted), every
// check passes in the lesson's own state, maths is typeset, and nothing reaches the console. One
// page load per lesson and target serves everything checked of it there:
// - over http, first, before any exercise is attempted: verification and exports stay quiet until
//   asked for, figure text is readable, no formula is left as raw TeX (tests/e2e/explorable.js);
//   then predict first: nothing is revealed before an attempt, and each exercise attempted once
//   offers its explanation and shows its figure (tests/e2e/commit-first.js); then the grading rule:
//   an answer given after the page showed it counts as shown, not solved, in the progress line and
//   the SCORM score; Try another and Reset earn it (tests/e2e/grading.js);
//   once it has drawn whole: its labs use the margin beside the contents (explorable.js); no
//   serious or critical axe violation, light and dark (in dark, the colour rules: browser.js
//   axeLightAndDark); then every slider or draggable control that showed before an attempt is seen
//   together with a figure it changes (explorable.js); and all of it under README.md's CSP (the site
//   is served with it, browser.js STRICT_CSP) without a single violation, KaTeX's sizes applied
//   (every strut has its height: the build writes KaTeX's sizes as classes, not style="…");
// - in the single file, once it has drawn: every KaTeX font its maths is set in is bundled and
//   loads (the build keeps only the fonts the lessons use, scripts/vite-lessons-plugin.mjs).
// The project's own lessons (tests/fixtures/lessons/project-lessons.js) also have maths, figures
// and checks, each of them. The site's other pages are in a11y.test.js.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  axeLightAndDark,
  courseLessons,
  cspViolations,
  everyFigureShown,
  lessonList,
  openAllGates,
  recordCspViolations,
  scrollThrough,
  settled,
  singleFileUrl,
  useBrowserAndSite,
  watch,
} from './browser.js';
import { isProjectLesson } from '../fixtures/lessons/project-lessons.js';
import { commitsFirst } from './commit-first.js';
import { gradesWhatWasWorkedOut } from './grading.js';
import {
  VIEWPORT,
  controlsBesideFigures,
  installDeepAll,
  labsInTheMargin,
  markControls,
  readsQuietly,
} from './explorable.js';

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

/**
 * The KaTeX font families the lesson's maths is set in: { used, missing (no font face), failed (no
 * face loaded) }. Off-screen parts of a lesson are laid out only near the viewport
 * (content-visibility: auto), so a font only they use need not have been asked for yet: every face
 * used is asked for, and each has loaded or failed before the answer (document.fonts.ready alone
 * may come before the asking).
 */
async function katexFonts() {
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
  await Promise.all([...faces].map((face) => document.fonts.load(face).catch(() => [])));
  await document.fonts.ready;
  const all = [...document.fonts];
  const facesOf = (family) => all.filter((f) => f.family.replace(/"/g, '') === family);
  return {
    used: [...used],
    missing: [...used].filter((family) => facesOf(family).length === 0),
    failed: [...used].filter((family) => !facesOf(family).some((f) => f.status === 'loaded')),
  };
}

/** Checked on a lesson's page over http, once it has drawn whole (every exercise that holds a figure back attempted). */
async function afterRendering(t, page, id, before) {
  await t.test('labs use the margin, the contents sit in the left margin, nothing overlaps', () =>
    labsInTheMargin(page, id),
  );
  await t.test('no serious or critical axe violation, light and dark', async () => {
    assert.deepEqual(await axeLightAndDark(page, { minImpact: 'serious' }), [], id);
  });
  await t.test('each slider and draggable control is visible together with a figure it changes', () =>
    controlsBesideFigures(page, before.controls),
  );
  await t.test("under README.md's CSP: no violation in all of the above, and KaTeX's sizes applied", async () => {
    assert.deepEqual(await cspViolations(page), [], id);
    assert.deepEqual(await page.evaluate(unsizedMaths), [], "KaTeX's struts without their size");
  });
}

/**
 * KaTeX's struts that lack the size KaTeX gave them (its height and depth, a style KaTeX writes and
 * the build turns into a class): under a CSP that refused the sizes they would have none. Read from
 * the computed style, which a paragraph not laid out yet (content-visibility: auto) has too.
 * Returns their markup.
 */
function unsizedMaths() {
  const struts = [...document.querySelectorAll('.lesson-body .katex-html .strut')];
  // a strut outside the rendered tree (in an element's light DOM that no slot shows) has no computed style
  const shown = struts.filter((el) => getComputedStyle(el).display !== '');
  return shown.filter((el) => !(parseFloat(getComputedStyle(el).height) > 0)).map((el) => el.outerHTML);
}
/**
 * Checked on a lesson's page over http before rendersWhole, with no exercise attempted yet: opens it.
 * Returns what afterRendering needs of that moment.
 */
async function beforeAnAttempt(t, page, id, base) {
  await page.addInitScript(() => localStorage.clear()); // no attempt from before
  await recordCspViolations(page); // the site is served with README.md's CSP (browser.js STRICT_CSP)
  await page.goto(`${base}#/${id}`);
  await page.locator('attn-app[data-settled] .lesson-body').waitFor();
  await scrollThrough(page);
  await everyFigureShown(page);
  await settled(page.locator('attn-app'));
  await t.test(
    'before an attempt: checks and exports folded, the Verified lines show, figure text ≥ 11 px, maths rendered',
    () => readsQuietly(page, id),
  );
  const controls = await markControls(page); // nudged once the lesson has been checked whole
  await t.test('at least two exercises, nothing revealed before an attempt, the figure after one', () =>
    commitsFirst(page, id),
  );
  await t.test('solved only by an answer given before the page showed it; totals and SCORM count only that', () =>
    gradesWhatWasWorkedOut(page, id),
  );
  return { controls };
}
/** Checked on a lesson's page in the single file, once it has drawn. */
async function fontsLoad(t, page, id) {
  await t.test('every KaTeX font its maths uses is bundled and loads', async () => {
    const { used, missing, failed } = await page.evaluate(katexFonts);
    if (isProjectLesson(id) || used.length > 0) {
      assert.ok(used.includes('KaTeX_Main') || used.includes('KaTeX_Math'), `maths found (${used})`);
    }
    assert.deepEqual(missing, [], 'families without a font face');
    assert.deepEqual(failed, [], 'families whose font did not load');
  });
}

// [name, base URL, checked before rendersWhole (it opens the page; its result goes to the next), checked after it]
const targets = [
  ['the static site over http', () => site.server.url, beforeAnAttempt, afterRendering],
  ['dist/attnbook.html from file://', () => singleFileUrl, null, fontsLoad],
];

for (const [name, base, firstCheck, alsoCheck] of targets) {
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
      test(id, async (t) => {
        const page = await site.browser.context.newPage();
        await page.setViewportSize(VIEWPORT);
        await installDeepAll(page);
        const { problems } = watch(page);
        const before = firstCheck ? await firstCheck(t, page, id, base()) : null;
        await t.test('maths, every figure drawn, every check passing', () =>
          rendersWhole(page, id, title, base(), { loaded: Boolean(firstCheck) }),
        );
        await alsoCheck(t, page, id, before);
        assert.deepEqual(problems, [], 'a quiet console');
        await page.close();
      });
    }
  });
}

/** Opens lesson `id` in `page` (unless `loaded`: open already) and checks it renders whole (see the top of the file). */
async function rendersWhole(page, id, title, base, { loaded = false } = {}) {
  if (!loaded) await page.goto(`${base}#/${id}`);
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
}
