// Shared set-up for the browser tests: Debian's Chromium driven by
// playwright-core, the built site served on 127.0.0.1, and a watcher that
// collects console errors, uncaught exceptions and any non-local request.
//
// The course's lessons are read from web/lessons and the builds from dist/, unless
//   ATTNBOOK_LESSONS_DIR  another folder of lessons (the course a build was made from), and
//   ATTNBOOK_DIST_DIR     another build folder (with site/ and attnbook.html)
// say otherwise; ATTNBOOK_COURSE_ONLY (lesson ids, comma-separated) limits the lessons that the
// course-wide tests (tests/e2e/course-*.test.js, courseLessons()) run one by one.
// tests/e2e/teacher-lesson.test.js builds a course with a teacher's lesson added and runs them so.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before } from 'node:test';
import frontMatter from 'front-matter';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/lib.mjs';
import { PNG_EXPORT_CSP, serve, STRICT_CSP } from '../../scripts/serve.mjs';
import { FRAME_TIMEOUT_MS, nextFrames } from './next-frames.js';
import { MARGIN_PX } from '../../web/src/cells/base/near-viewport.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The folder of the course's lessons (web/lessons, or ATTNBOOK_LESSONS_DIR). */
export const lessonsDir = path.resolve(root, process.env.ATTNBOOK_LESSONS_DIR || path.join('web', 'lessons'));

/** Launches headless Chromium with a fresh profile. Returns { browser, close }. */
export async function launch() {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'attnbook-chromium-'));
  const context = await chromium.launchPersistentContext(profile, chromiumLaunchOptions());
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * The Content-Security-Policy every page of the site must run under, README.md's: no eval, no
 * inline script or style, nothing fetched from another origin (nor from data: or blob:).
 * PNG_EXPORT_CSP adds blob: images, for the tests of PNG exports.
 */
export { PNG_EXPORT_CSP, STRICT_CSP, nextFrames };

/**
 * Serves `dir` on a free loopback port, by default with the strict CSP header; `csp` false sends
 * none, a string sends that policy.
 * @param {string} dir @param {{ csp?: boolean | string }} [options]
 */
export function serveDir(dir, { csp = true } = {}) {
  const policy = csp === true ? STRICT_CSP : csp;
  return serve(dir, { headers: policy ? { 'Content-Security-Policy': policy } : {} });
}

/** Where the builds land (dist/, or ATTNBOOK_DIST_DIR). */
export const distDir = path.resolve(root, process.env.ATTNBOOK_DIST_DIR || 'dist');

/** Serves dist/site on a free loopback port, with the strict CSP unless { csp: false } (or another policy). */
export function serveSite({ csp = true } = {}) {
  return serveDir(path.join(distDir, 'site'), { csp });
}

/** file:// URL of the offline single file. */
export const singleFileUrl = pathToFileURL(path.join(distDir, 'attnbook.html')).href;

/**
 * Records every CSP violation in `page` and its frames (a securitypolicyviolation
 * listener installed before any script of the page runs). Call before goto();
 * read them with cspViolations(page).
 */
export async function recordCspViolations(page) {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
}

/** The violations recorded in every frame of `page`. @returns {Promise<string[]>} */
export async function cspViolations(page) {
  const all = [];
  for (const frame of page.frames()) {
    const found = await frame.evaluate(() => window.__cspViolations ?? null).catch(() => null);
    if (found === null) all.push(`no CSP recorder in frame ${frame.url()}`);
    else all.push(...found.map((v) => `${frame.url()}: ${v}`));
  }
  return all;
}

/**
 * Watches `page` for console errors, uncaught exceptions and requests that
 * leave the machine (anything but 127.0.0.1, file: and data:).
 * @returns {{ problems: string[] }}
 */
export function watch(page) {
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught exception: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    if (!/^(https?:\/\/127\.0\.0\.1[:/]|file:|data:|blob:)/.test(url)) problems.push(`non-local request: ${url}`);
  });
  return { problems };
}

/**
 * Runs axe-core in `page` (light DOM and shadow roots) and returns its violations
 * of at least `minImpact` as "rule: targets" strings. axe is evaluated through
 * DevTools rather than added as an inline <script>, which the site's CSP refuses.
 */
export async function axeViolations(page, { minImpact = 'minor', rules } = {}) {
  const levels = ['minor', 'moderate', 'serious', 'critical'];
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.evaluate(await readFile(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8'));
  }
  const violations = await page.evaluate(async (only) => {
    const options = { resultTypes: ['violations'], ...(only ? { runOnly: { type: 'rule', values: only } } : {}) };
    const result = await window.axe.run(document, options);
    return result.violations.map((v) => ({
      impact: v.impact,
      text: `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    }));
  }, rules ?? null);
  return violations.filter((v) => levels.indexOf(v.impact) >= levels.indexOf(minImpact)).map((v) => v.text);
}

/** The axe rules whose outcome depends on colour: all that the dark theme can change. */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe in the light theme, every rule, then in the dark theme, COLOUR_RULES only: the dark theme
 * changes colours and nothing else (custom properties in web/src/styles/base.css and a few
 * components), so the other rules would only repeat the light run. Returns the violations of at
 * least `minImpact`, each prefixed with its theme; then stops emulating a colour scheme.
 */
export async function axeLightAndDark(page, { minImpact } = {}) {
  const found = [];
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    const rules = colorScheme === 'dark' ? COLOUR_RULES : undefined;
    found.push(...(await axeViolations(page, { minImpact, rules })).map((v) => `${colorScheme}: ${v}`));
  }
  await page.emulateMedia({ colorScheme: null });
  return found;
}

/**
 * Waits until the first element of `locator` (an attn-* cell) has data-settled:
 * it has drawn its current state, its nested cells and checks included, and
 * has no engine or worker work left. Every state change removes the attribute
 * synchronously, so after an action (click, key, drag, fill, a property set)
 * this waits for the drawing of the new state, never a stale one. Returns the
 * locator.
 */
export async function settled(locator) {
  await locator.locator(':scope[data-settled]').first().waitFor();
  return locator;
}

/**
 * Predict first: a figure held back until an exercise has an answer (inside an attn-reveal, or a
 * hull lab's scores-after part) shows once that exercise has been attempted. Attempts each such
 * exercise of the first match of `locator` (or of an element handle) with the exercise's own
 * attempt, or none (a wrong answer is an attempt too), as a learner must before using the figure.
 * Returns `locator`.
 */
export async function openGates(locator) {
  const target = typeof locator.first === 'function' ? locator.first() : locator; // or an element handle
  await target.evaluate(async (el) => {
    const gates = [];
    for (let node = el; node; node = node.parentElement ?? node.getRootNode().host) {
      if (node.localName === 'attn-reveal') gates.push(node.getAttribute('after'));
    }
    if (el.getAttribute('scores-after')) gates.push(el.getAttribute('scores-after'));
    for (const id of gates) {
      const exercise = document.querySelector(`attn-exercise[id="${CSS.escape(id)}"]`);
      if (!exercise || exercise.record.status !== 'none' || exercise.record.attempts > 0) continue;
      await exercise.submit(exercise.getAttempt?.());
      await exercise.updateComplete;
    }
  });
  return locator;
}

/** openGates for every figure of the page held back for an exercise: the whole lesson shows. */
export async function openAllGates(page) {
  for (const gated of await page.locator('attn-reveal, [scores-after]').all()) await openGates(gated);
}

/**
 * Figures draw only once they are near the viewport: scrolls the first match of
 * `selector` in `scope` (a page, frame locator or locator) into view, waits until
 * it is settled and also matches `state` (extra attribute selectors, default
 * none) and returns that locator.
 */
export async function showFigure(scope, selector, state = '') {
  await scope.locator(selector).first().scrollIntoViewIfNeeded();
  const figure = scope.locator(`${selector}[data-settled]${state}`).first();
  await figure.waitFor();
  return figure;
}

/**
 * Scrolls `locator` into view and waits until what is around it has drawn: every figure within the
 * near-viewport margin (MARGIN_PX) has been reported near (data-shown), and the cell is settled.
 * A figure scrolled to draws a frame and a task later and can push what lies below it down: a
 * click aimed before then lands where its target was (a lab's Export menu, under its heatmap that
 * grew from 192 to 449 px, was missed so under load). Click after this, in the same viewport.
 * @param {import('playwright-core').Locator} locator @param {import('playwright-core').Locator} cell
 */
export async function steadyInView(locator, cell) {
  await locator.scrollIntoViewIfNeeded();
  await locator.page().waitForFunction(
    (margin) => {
      const near = (el) => {
        const box = el.getBoundingClientRect();
        return (box.width > 0 || box.height > 0) && box.bottom > 1 - margin && box.top < innerHeight + margin - 1;
      };
      const waiting = (root) =>
        [...root.querySelectorAll('*')].some(
          (el) =>
            (el.localName.startsWith('attn-') &&
              'figureStyles' in (customElements.get(el.localName) ?? {}) &&
              !el.hasAttribute('data-shown') &&
              near(el)) ||
            (el.shadowRoot && waiting(el.shadowRoot)),
        );
      return !waiting(document);
    },
    MARGIN_PX,
    { timeout: FRAME_TIMEOUT_MS },
  );
  await settled(cell);
}

/**
 * Waits until `expression` (JS source, evaluated in the page) is true, checking it every animation
 * frame, for at most `timeout` ms; resolves to whether it came true. Unlike page.waitForFunction,
 * the source is compiled once, in the one evaluation that starts the wait: under a CSP without
 * 'unsafe-eval', Playwright's repeated evaluation of a waitForFunction predicate can be refused
 * while other evaluations interleave ("Evaluating a string as JavaScript violates …", thrown in the
 * page as an uncaught exception).
 */
export function untilInPage(page, expression, { timeout = 30000 } = {}) {
  return page.evaluate(`new Promise((resolve) => {
    const holds = () => (${expression});
    const until = performance.now() + ${Number(timeout)};
    const tick = () => {
      if (holds()) resolve(true);
      else if (performance.now() > until) resolve(false);
      else requestAnimationFrame(tick);
    };
    tick();
  })`);
}

/**
 * Waits until every figure the reader can reach (not inside something hidden) has been reported near
 * the viewport (data-shown). A figure scrolled to is reported a frame and a task later, and only from
 * then on does the app wait for it: right after a scroll through, the app can still be settled.
 */
export const everyFigureShown = (page) =>
  page.waitForFunction(() => {
    const figures = [];
    const visit = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.localName.startsWith('attn-') && 'figureStyles' in (customElements.get(el.localName) ?? {})) {
          figures.push(el);
        }
        if (el.shadowRoot) visit(el.shadowRoot);
      }
    };
    visit(document);
    return figures.every((el) => el.hasAttribute('data-shown') || !el.checkVisibility());
  });

/**
 * Scrolls down through the whole page (figures draw only when visible), then back to the top.
 * Each step waits for two animation frames, bounded by FRAME_TIMEOUT_MS. A page that stops drawing
 * fails here, and the error says what the page was doing meanwhile, to tell the causes apart:
 * whether it was visible and focused (a hidden page gets no frames), the longest time its own
 * timers did not run (a main-thread task that long: the page was busy; short: it was idle and
 * simply drew nothing) and whether it draws once the browser is asked for a screenshot.
 */
export async function scrollThrough(page) {
  try {
    await page.evaluate(async (limit) => {
      const frame = () =>
        new Promise((resolve, reject) => {
          // a tick every 250 ms: the longest gap between two is the longest the main thread was busy
          let last = performance.now();
          let longest = 0;
          const changes = [];
          const onVisibility = () => changes.push(document.visibilityState);
          document.addEventListener('visibilitychange', onVisibility);
          const ticks = setInterval(() => {
            const now = performance.now();
            longest = Math.max(longest, now - last);
            last = now;
          }, 250);
          const end = () => {
            clearTimeout(timer);
            clearInterval(ticks);
            document.removeEventListener('visibilitychange', onVisibility);
          };
          const timer = setTimeout(() => {
            longest = Math.max(longest, performance.now() - last);
            end();
            const state =
              `${document.visibilityState}${changes.length ? ` (changed: ${changes.join(', ')})` : ''}, ` +
              `${document.hasFocus() ? 'focused' : 'not focused'}, longest gap between its 250 ms ticks ` +
              `${(longest / 1000).toFixed(1)} s, at y = ${Math.round(scrollY)} of ${document.documentElement.scrollHeight}`;
            reject(new Error(`scrollThrough: no animation frame for ${limit / 1000} s (page ${state})`));
          }, limit);
          requestAnimationFrame(() => {
            end();
            resolve();
          });
        });
      for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
        scrollTo({ top: y, behavior: 'instant' });
        await frame();
        await frame();
      }
      scrollTo({ top: 0, behavior: 'instant' });
    }, FRAME_TIMEOUT_MS);
  } catch (error) {
    if (!error.message.includes('scrollThrough: no animation frame')) throw error;
    // the test fails either way; whether the browser can still draw this page says where the frames stopped
    const shot = await page.screenshot({ timeout: 10000 }).then(
      () => 'a screenshot was taken',
      (e) => `no screenshot (${e.message.split('\n')[0]})`,
    );
    const again = await nextFrames(page, 1).then(
      () => 'then frames came',
      () => 'then still no frame',
    );
    const [first, ...rest] = error.message.split('\n');
    error.message = [`${first}; afterwards ${shot}, ${again}`, ...rest].join('\n');
    throw error;
  }
}

/** Every lesson (web/lessons/*.md) in course order: [{ id, title }]. */
export async function lessonList() {
  const lessons = [];
  for (const name of (await readdir(lessonsDir)).filter((n) => n.endsWith('.md'))) {
    const { attributes } = frontMatter(await readFile(path.join(lessonsDir, name), 'utf8'));
    lessons.push(attributes);
  }
  return lessons
    .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id))
    .map(({ id, title }) => ({ id, title: title.trim() }));
}

/** The ids of every lesson, in course order. */
export async function lessonIds() {
  return (await lessonList()).map((lesson) => lesson.id);
}

/** A lesson's Markdown source, by id. */
export function lessonSource(id) {
  return readFile(path.join(lessonsDir, `${id}.md`), 'utf8');
}

/**
 * The lessons a course-wide test runs one by one: every lesson, or those ATTNBOOK_COURSE_ONLY names.
 * @returns {Promise<{ id: string, title: string }[]>}
 */
export async function courseLessons() {
  const only = process.env.ATTNBOOK_COURSE_ONLY?.split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const lessons = await lessonList();
  if (!only) return lessons;
  const unknown = only.filter((id) => !lessons.some((lesson) => lesson.id === id));
  if (unknown.length) throw new Error(`ATTNBOOK_COURSE_ONLY names no lesson of ${lessonsDir}: ${unknown.join(', ')}`);
  return lessons.filter((lesson) => only.includes(lesson.id));
}

/**
 * For a test file: a fresh browser and the site (served with the strict CSP, or the policy `csp`
 * names: PNG_EXPORT_CSP for PNG exports), started before its tests and closed after them. Read
 * `shared.browser` and `shared.server` inside tests.
 */
export function useBrowserAndSite({ csp = true } = {}) {
  const shared = { browser: null, server: null };
  before(async () => {
    shared.browser = await launch();
    shared.server = await serveSite({ csp });
  });
  after(async () => {
    await shared.browser?.close();
    await shared.server?.close();
  });
  return shared;
}

/**
 * Waits for the download that `click` starts. When none comes, the error names the item and the
 * status line(s) `figure` shows (e.g. "Could not export PNG: …"), so a failure says what happened.
 */
async function downloadFrom(page, figure, name, click) {
  const download = page.waitForEvent('download').catch(async (error) => {
    const status = await figure
      .locator('.toolbar .status')
      .allTextContents()
      .catch(() => []);
    // whether each Export menu was open: a closed one means the item was never clicked
    const open = await figure
      .locator('details.export-menu')
      .evaluateAll((menus) => menus.map((menu) => menu.open))
      .catch(() => []);
    throw new Error(
      `"${name}" started no download (${error.message}); status: ${JSON.stringify(status)}; menus open: ${JSON.stringify(open)}`,
    );
  });
  const [result] = await Promise.all([download, click()]);
  return result;
}

/** Opens the Export menu `selector` of `figure` with a click on its summary, once the layout is steady. */
async function openMenu(figure, selector) {
  const summary = figure.locator(`${selector} > summary`);
  await steadyInView(summary, figure);
  await summary.click();
  await figure.locator(`${selector}[open]`).waitFor();
}

/**
 * Exports from a figure's Export menu as a learner does: opens the menu that holds the item named
 * `name` (its aria-label, e.g. 'Export the data as CSV') and clicks the item. Resolves to the
 * Playwright download.
 * @param {import('playwright-core').Page} page @param {import('playwright-core').Locator} figure
 */
export async function exportFrom(page, figure, name) {
  const menu = `details.export-menu:has(button[aria-label="${name}"])`;
  await openMenu(figure, menu);
  return downloadFrom(page, figure, name, () => figure.getByRole('button', { name }).click());
}

/**
 * Saves all four exports of a lab's own Export menu (in the toolbar labelled "<its name>: tools",
 * not its figures' menus), one after another. Returns { svg, png, csv, json }, each
 * { filename, bytes, text }.
 * @param {import('playwright-core').Page} page @param {import('playwright-core').Locator} lab
 */
export async function exportAll(page, lab) {
  const name = await lab.evaluate((el) => el.accessibleName);
  const selector = `.toolbar[aria-label="${name}: tools"] details.export-menu`;
  const menu = lab.locator(selector);
  const files = {};
  for (const [kind, label] of [
    ['svg', 'Export the figure as SVG'],
    ['png', 'Export the figure as PNG'],
    ['csv', 'Export the data as CSV'],
    ['json', 'Export the data as JSON'],
  ]) {
    await openMenu(lab, selector);
    const download = await downloadFrom(page, lab, label, () => menu.getByRole('button', { name: label }).click());
    const bytes = Buffer.concat(await (await download.createReadStream()).toArray());
    files[kind] = { filename: download.suggestedFilename(), bytes, text: bytes.toString() };
  }
  return files;
}
