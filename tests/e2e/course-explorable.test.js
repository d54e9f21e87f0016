// Every lesson of the course (tests/e2e/browser.js courseLessons(): a teacher's too) read as a
// learner at 1280×900 (issue: explorable figures; web/README.md, "Writing a lesson"): verification
// and exports stay quiet until asked for (every check in a Verified line, which reads "Verified ✓"
// or says which exercise it waits for), figure text is readable as rendered, no formula is left as
// raw TeX, and every slider or draggable control can be seen together with a figure it changes.
// The project's own lessons (tests/fixtures/lessons/project-lessons.js) show a Verified line, and
// every one they show has passed, before any exercise is attempted.
//
// "Together": the control is nudged from the keyboard (as a learner would, ArrowUp/Right or
// Down/Left at the end of its range) and the figures (SVG, canvas, or a lab's figure area) whose
// drawing changed are the ones it moves. With the control scrolled to the middle of the viewport, at least one of them,
// at least 240 px on its longer side, must lie within the viewport, or the two must fit in one
// viewport's height.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { courseLessons, everyFigureShown, scrollThrough, settled, useBrowserAndSite, watch } from './browser.js';
import { isProjectLesson } from '../fixtures/lessons/project-lessons.js';

const site = useBrowserAndSite();
const lessons = await courseLessons();
const VIEWPORT = { width: 1280, height: 900 };

/** Opens a lesson at 1280×900 with every figure drawn. */
async function openLesson(id) {
  const page = await site.browser.context.newPage();
  await page.setViewportSize(VIEWPORT);
  const { problems } = watch(page);
  // deepAll(test): every element matching `test`, through open shadow roots (for the evaluations below)
  await page.addInitScript(() => {
    window.deepAll = (test) => {
      const found = [];
      const visit = (root) => {
        for (const el of root.querySelectorAll('*')) {
          if (test(el)) found.push(el);
          if (el.shadowRoot) visit(el.shadowRoot);
        }
      };
      visit(document);
      return found;
    };
  });
  await page.goto(`${site.server.url}#/${id}`);
  await page.locator('attn-app[data-settled] .lesson-body').waitFor();
  await scrollThrough(page);
  await everyFigureShown(page);
  await settled(page.locator('attn-app'));
  return { page, problems };
}

describe('every lesson at 1280×900', () => {
  for (const { id } of lessons) {
    describe(id, () => lessonTests(id));
  }
});

/**
 * The two tests of lesson `id`, on one load of it: the first only reads the page, the second then
 * nudges its controls (each checks the page's problems so far).
 */
function lessonTests(id) {
  let page;
  let problems;
  before(async () => ({ page, problems } = await openLesson(id)));
  after(() => page?.close());

  test(`${id}: checks and exports stay folded, the Verified lines show, figure text is ≥ 11 px, maths rendered`, async () => {
    const report = await page.evaluate(() => {
      const all = window.deepAll;
      const seen = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
      const checks = all((el) => el.localName === 'attn-check');
      const exports = all(
        (el) => el.localName === 'button' && /^Export the (figure|data) as /.test(el.getAttribute('aria-label') ?? ''),
      );
      const verified = all((el) => el.localName === 'attn-verified');
      const small = all((el) => el.localName === 'text' && el.textContent.trim() !== '' && seen(el))
        .map((t) => ({
          text: t.textContent.trim().slice(0, 20),
          px: parseFloat(getComputedStyle(t).fontSize) * Math.hypot(t.getScreenCTM().a, t.getScreenCTM().b),
        }))
        .filter((t) => t.px < 10.95);
      // maths the build did not render: a literal $ or a TeX command (\frac, \sqrt…) in the text a learner reads
      // (code listings and KaTeX's hidden MathML copy excepted)
      const roots = [document, ...all((el) => el.shadowRoot).map((el) => el.shadowRoot)];
      const rawMaths = [];
      for (const root of roots) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const parent = node.parentElement;
          if (!parent || parent.closest('pre, code, script, style, .katex-mathml')) continue;
          if (/\$|\\[a-zA-Z]{2,}/.test(node.data) && seen(parent)) rawMaths.push(node.data.trim().slice(0, 60));
        }
      }
      return {
        rawMaths,
        checks: checks.length,
        checksShown: checks.filter(seen).map((c) => c.label),
        exportsShown: exports.filter(seen).length,
        exports: exports.length,
        verifiedShown: verified.filter(seen).map((v) => v.shadowRoot.querySelector('summary').textContent.trim()),
        uncovered: checks.filter((c) => !c.closest('attn-verified')).map((c) => c.label),
        small,
      };
    });
    assert.deepEqual(report.checksShown, [], 'no check row shows before the learner opens its Verified line');
    assert.deepEqual(report.uncovered, [], 'every check sits in a Verified line');
    assert.equal(report.exportsShown, 0, `no export button shows (of ${report.exports}) until its menu opens`);
    for (const line of report.verifiedShown) {
      assert.match(line, /^(Verified ✓ \(\d+ checks?\)|Waits for .+ \(\d+ of \d+ checks? done\))$/);
    }
    if (isProjectLesson(id) && report.checks > 0) {
      assert.ok(report.verifiedShown.length > 0, 'the Verified lines show');
      for (const line of report.verifiedShown) assert.match(line, /^Verified ✓ \(\d+ checks?\)$/);
    }
    assert.deepEqual(report.small, [], 'figure text under 11 px as rendered');
    assert.deepEqual(report.rawMaths, [], 'every formula is rendered: no literal $ or TeX command in the text');
    assert.deepEqual(problems, []);
  });

  test(`${id}: each slider and draggable control is visible together with a figure it changes`, async () => {
    // label every control and every drawing with a probe id
    const controls = await page.evaluate(() => {
      const all = window.deepAll;
      const seen = (el) => el.checkVisibility({ visibilityProperty: true });
      const drawing = (el) =>
        (el.localName === 'svg' && !el.ownerSVGElement) ||
        el.localName === 'canvas' ||
        el.classList?.contains('lab-figure');
      all(drawing).forEach((el, i) => {
        el.dataset.probe = `figure-${i}`;
      });
      const list = all(
        (el) =>
          seen(el) &&
          !el.disabled &&
          ((el.localName === 'input' && el.type === 'range') || el.getAttribute('role') === 'slider'),
      );
      return list.map((el, i) => {
        el.dataset.probe = `control-${i}`;
        let host = el.getRootNode().host;
        while (host?.getRootNode().host) host = host.getRootNode().host; // the lesson's top-level cell
        return { probe: `control-${i}`, name: el.getAttribute('aria-label') ?? el.id, cell: host?.localName ?? '' };
      });
    });
    const failures = [];
    for (const control of controls) {
      const locator = page.locator(`[data-probe="${control.probe}"]`);
      await locator.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
      const before = await drawings(page);
      await locator.focus();
      const key = (await locator.evaluate(isAtMax)) ? 'ArrowDown' : 'ArrowUp';
      await page.keyboard.press(key);
      await settled(page.locator('attn-app'));
      const after = await drawings(page);
      const changed = Object.keys(after).filter((probe) => after[probe].sig !== before[probe]?.sig);
      const box = await locator.boundingBox();
      const together = changed.some((probe) => {
        const f = after[probe];
        if (Math.max(f.width, f.height) < 240) return false;
        const inView = f.top >= 0 && f.bottom <= VIEWPORT.height;
        const top = Math.min(f.top, box.y);
        const bottom = Math.max(f.bottom, box.y + box.height);
        return inView || bottom - top <= VIEWPORT.height;
      });
      if (!together) failures.push(`${control.cell} ${control.name}: changed ${changed.length} drawings`);
    }
    assert.deepEqual(failures, [], 'controls without a figure they change in view');
    assert.deepEqual(problems, []);
  });
}

/** In the page: whether a range input or role=slider sits at the top of its range. */
function isAtMax(el) {
  const value = Number(el.localName === 'input' ? el.value : el.getAttribute('aria-valuenow'));
  const max = Number(el.localName === 'input' ? el.max || 100 : el.getAttribute('aria-valuemax'));
  return Number.isFinite(max) && value >= max;
}

/** Every probed drawing's signature (its markup, or a canvas's pixels) and its box in the viewport. */
function drawings(page) {
  return page.evaluate(() => {
    const all = window.deepAll;
    const out = {};
    for (const el of all((e) => e.dataset?.probe?.startsWith('figure-'))) {
      const r = el.getBoundingClientRect();
      const sig = el.localName === 'canvas' ? el.toDataURL() : el.innerHTML;
      out[el.dataset.probe] = { sig, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
    }
    return out;
  });
}
