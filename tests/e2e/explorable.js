// What a learner reading a lesson at 1280×900 must find (web/README.md, "Writing a lesson"), checked
// by course-render.test.js on its page of each lesson over http, at this viewport:
// - before any exercise is attempted (readsQuietly): verification and exports stay quiet until
//   asked for (every check in a Verified line, which reads "Verified ✓" or says which exercise it
//   waits for), figure text is readable as rendered, and no formula is left as raw TeX. The
//   project's own lessons (tests/fixtures/lessons/project-lessons.js) show a Verified line, and
//   every one they show has passed;
// - with every figure shown (labsInTheMargin): every lab ([data-lab]) breaks out of the 46rem text
//   column into the margin, and neither it nor the text overlaps the table of contents, which sits
//   in the left margin; the project's own lessons have a lab each;
// - with every figure shown (controlsBesideFigures): every slider or draggable control that shows
//   before an attempt (markControls) can be seen together with a figure it changes. The control is nudged from the keyboard (as a learner would,
//   ArrowUp, or ArrowDown at the top of its range) and the figures (SVG, canvas, or a lab's figure
//   area) whose drawing changed are the ones it moves. With the control scrolled to the middle of
//   the viewport, at least one of them, at least 240 px on its longer side, must lie within the
//   viewport, or the two must fit in one viewport's height.
import assert from 'node:assert/strict';
import { settled } from './browser.js';
import { isProjectLesson } from '../fixtures/lessons/project-lessons.js';

export const VIEWPORT = { width: 1280, height: 900 };
const WIDER_BY = 160; // px more than the text column that a lab gets at 1280×900, at least

/** Before the page's scripts: window.deepAll(test), every element matching `test` through open shadow roots. */
export function installDeepAll(page) {
  return page.addInitScript(() => {
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
}

/** Lesson `id`, open in `page` (installDeepAll, every figure drawn, no exercise attempted): see the top. */
export async function readsQuietly(page, id) {
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
}

const box = (locator) =>
  locator.evaluate((el) => {
    const { left, right, top, bottom, width } = el.getBoundingClientRect();
    return { left, right, top, bottom, width };
  });
const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Lesson `id` open in `page` at VIEWPORT, every figure drawn: see the top. */
export async function labsInTheMargin(page, id) {
  const paragraph = page.locator('.lesson-body > p').first();
  if (!isProjectLesson(id) && (await paragraph.count()) === 0) return; // no text column to measure
  const text = await box(paragraph);
  assert.ok(text.width <= 46 * 17 + 1, `the text column is at most 46rem (${text.width} px)`);
  const toc = page.locator('.lesson-toc');
  if (await toc.count()) assert.ok((await box(toc)).right <= text.left, 'the contents are left of the text');
  const labs = page.locator('.lesson-body > [data-lab]');
  const count = await labs.count();
  if (isProjectLesson(id)) assert.ok(count > 0, 'the lesson has a lab');
  for (let i = 0; i < count; i += 1) {
    const lab = labs.nth(i);
    await lab.evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
    const labBox = await box(lab);
    assert.ok(labBox.width >= text.width + WIDER_BY, `lab ${i}: ${labBox.width} px, text ${text.width} px`);
    assert.ok(labBox.right <= VIEWPORT.width, `lab ${i} ends on screen (${labBox.right})`);
    if (await toc.count()) assert.equal(overlap(labBox, await box(toc)), false, `lab ${i} overlaps the contents`);
  }
}

/**
 * Before any exercise is attempted: labels every slider and draggable control the learner can see
 * (data-probe) and returns them, for controlsBesideFigures. Controls in figures held back for an
 * exercise are not among them.
 */
export function markControls(page) {
  return page.evaluate(() => {
    const seen = (el) => el.checkVisibility({ visibilityProperty: true });
    const list = window.deepAll(
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
}

/** Lesson open in `page` at VIEWPORT, every figure drawn; `controls` from markControls: see the top. */
export async function controlsBesideFigures(page, controls) {
  // label every drawing with a probe id
  await page.evaluate(() => {
    const drawing = (el) =>
      (el.localName === 'svg' && !el.ownerSVGElement) ||
      el.localName === 'canvas' ||
      el.classList?.contains('lab-figure');
    window.deepAll(drawing).forEach((el, i) => {
      el.dataset.probe = `figure-${i}`;
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
