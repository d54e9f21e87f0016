// npm run audit [-- <label>] [--only <home|lesson-id>]… [--shots]: a layout audit of the built site, every
// fault a learner would see, at 390×844 (a phone: touch, coarse pointer) and at 1280×900.
//
// Builds nothing: it serves the existing dist/site (run `npm run build` first) with scripts/serve.mjs,
// under the site's strict CSP, and drives headless Chromium through playwright-core. For the home
// page and every lesson (in course order, from the home page's list) it answers every exercise once,
// so every figure held back for one shows, draws every figure, and measures the page with
// tests/e2e/layout-audit.js (sideways page or boxes, clipped content, small text, overlapping labels,
// small touch targets at 390, the home page's next-lesson link below the first screen). It prints a
// table per size (faults per page and kind) and writes every fault to build/audit/<label>.json:
//   { label, source, sizes: { '390x844': { <page>: { checked, faults: [{ kind, where, detail, shot? }] } } } }
// The label (default "current") names the file; --only (repeatable) limits the pages to the home page
// and the lessons named; --shots also takes a picture of each fault (up to 40 a page) into
// build/audit/<label>/<size>/<page>-<nn>-<kind>.png (the folder is emptied first), to judge them by eye.
// Waits for the page's own signals only, never for a fixed delay.
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { AUDIT_SIZES, auditPage, openEverything, unmarkFaults } from '../tests/e2e/layout-audit.js';
import { coursePages, parsePageArgs } from './course-pages.mjs';
import { chromiumLaunchOptions, root, run, step } from './lib.mjs';
import { serve, STRICT_CSP } from './serve.mjs';

const KINDS = ['sideways-page', 'sideways-box', 'clipped', 'small-text', 'overlap', 'touch-target', 'cta-below-fold'];
const SHORT = {
  'sideways-page': 'page',
  'sideways-box': 'box',
  clipped: 'clip',
  'small-text': 'small',
  overlap: 'overlap',
  'touch-target': 'touch',
  'cta-below-fold': 'cta',
};
const TIMEOUT = 120_000; // ms for one wait (the largest lessons compute in a worker)
const MAX_SHOTS = 40; // pictures per page with --shots
const MARGIN = 24; // px of surroundings in a picture
const MIN_SHOT = 240; // px: a picture is at least this wide and half as high

const appSettled = (page) => page.locator('attn-app[data-settled]').waitFor({ timeout: TIMEOUT });

/**
 * Opens `url` in `page` as a fresh document and audits it. (Following the route's link in the same
 * document is faster, but a permalink the previous lesson had scheduled can rewrite the address
 * between the link and its hashchange, and the app then shows the previous lesson again.)
 */
async function auditRoute(page, url, id, { mark = false } = {}) {
  await page.goto('about:blank');
  await page.goto(url);
  await appSettled(page);
  const route = await page.evaluate(() => location.hash.replace(/^#\/?/, '').split('?')[0] || 'home');
  if (route !== id) throw new Error(`${id}: the page shows "${route}" instead`);
  await openEverything(page, { timeout: TIMEOUT });
  // the home page as a first visitor sees it: at the top
  if (id === 'home') await page.evaluate(() => scrollTo({ top: 0, behavior: 'instant' }));
  return auditPage(page, { timeout: TIMEOUT, mark });
}

/**
 * A picture of each fault (up to MAX_SHOTS) from the marks auditPage left: the marked elements
 * scrolled into view, with MARGIN px around them. Sets `shot` (the file, relative to build/audit/)
 * on each fault pictured.
 */
async function shootFaults(page, faults, dir, stem) {
  const { width, height } = page.viewportSize();
  await mkdir(path.join(root, 'build', 'audit', dir), { recursive: true });
  for (let i = 0; i < faults.length && i < MAX_SHOTS; i += 1) {
    const marked = await page.locator(`[data-layout-fault~="${i}"]`).all();
    if (!marked.length) continue;
    await marked[0].evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' }));
    const boxes = (await Promise.all(marked.map((m) => m.boundingBox()))).filter(Boolean);
    if (!boxes.length) continue;
    // the marked boxes with MARGIN px around, at least MIN_SHOT px on each side, inside the window
    const grow = (lo, hi, min, max) => {
      const extra = Math.max(0, (min - (hi - lo)) / 2);
      return [Math.max(0, lo - extra), Math.min(max, hi + extra)];
    };
    const [left, right] = grow(
      Math.min(...boxes.map((b) => b.x)) - MARGIN,
      Math.max(...boxes.map((b) => b.x + b.width)) + MARGIN,
      MIN_SHOT,
      width,
    );
    const [top, bottom] = grow(
      Math.min(...boxes.map((b) => b.y)) - MARGIN,
      Math.max(...boxes.map((b) => b.y + b.height)) + MARGIN,
      MIN_SHOT / 2,
      height,
    );
    if (right - left < 1 || bottom - top < 1) continue;
    const file = path.join(dir, `${stem}-${String(i).padStart(2, '0')}-${faults[i].kind}.png`);
    await page.screenshot({
      path: path.join(root, 'build', 'audit', file),
      clip: { x: left, y: top, width: right - left, height: bottom - top },
    });
    faults[i].shot = file;
  }
  await unmarkFaults(page);
}

const pad = (text, width) => String(text).padStart(width);

/** A table: one row per page, one column per kind of fault. */
function table(results) {
  const width = Math.max(4, ...results.map((r) => r.id.length));
  const head = `  ${'page'.padEnd(width)} ${KINDS.map((k) => pad(SHORT[k], 8)).join('')} ${pad('total', 7)}`;
  const rows = results.map(({ id, faults }) => {
    const counts = KINDS.map((k) => faults.filter((f) => f.kind === k).length);
    return `  ${id.padEnd(width)} ${counts.map((c) => pad(c || '·', 8)).join('')} ${pad(faults.length, 7)}`;
  });
  const totals = KINDS.map((k) => results.reduce((n, r) => n + r.faults.filter((f) => f.kind === k).length, 0));
  const all = totals.reduce((a, b) => a + b, 0);
  const foot = `  ${'all'.padEnd(width)} ${totals.map((c) => pad(c || '·', 8)).join('')} ${pad(all, 7)}`;
  return [head, ...rows, foot].join('\n');
}

async function main() {
  const { label, only, switches } = parsePageArgs(process.argv.slice(2), {
    usage: 'npm run audit -- [label] [--only home|<lesson-id>]… [--shots]',
    known: ['--shots'],
  });
  const shots = switches.has('--shots');
  const site = path.join(root, 'dist', 'site');
  if (!existsSync(path.join(site, 'index.html'))) {
    throw new Error('dist/site is missing: this script builds nothing; run `npm run build` first');
  }
  const started = performance.now();
  if (shots) await rm(path.join(root, 'build', 'audit', label), { recursive: true, force: true });
  const git = await run('git', ['describe', '--always', '--dirty'], { quiet: true }).catch(() => null);
  const commit = git?.code === 0 ? git.output.trim() : '';
  const server = await serve(site, { headers: { 'Content-Security-Policy': STRICT_CSP } });
  const browser = await chromium.launch(chromiumLaunchOptions());
  const report = { label, source: commit, sizes: {} };
  try {
    for (const { name, ...options } of AUDIT_SIZES) {
      step(`layout audit at ${name.replace('x', '×')}`);
      // one context per size (a phone's touch and coarse pointer are the context's), one page in it
      const context = await browser.newContext({ ...options, reducedMotion: 'reduce', serviceWorkers: 'block' });
      const page = await context.newPage();
      page.setDefaultTimeout(TIMEOUT);
      const results = [];
      for (const { id, url } of await coursePages(page, server.url, only, { timeout: TIMEOUT })) {
        const t0 = performance.now();
        const { faults, checked } = await auditRoute(page, url, id, { mark: shots });
        if (shots) await shootFaults(page, faults, path.join(label, name), id);
        results.push({ id, faults, checked });
        const seconds = ((performance.now() - t0) / 1000).toFixed(1);
        const measured = `${checked.texts} texts (${checked.svgTexts} in SVG), ${checked.pictures} svg/canvas, ${checked.touchTargets} drag targets`;
        console.log(
          `  ${id}: ${faults.length} fault${faults.length === 1 ? '' : 's'}; measured ${measured} (${seconds} s)`,
        );
      }
      await context.close();
      console.log(`\n${table(results)}`);
      const scripts = results.flatMap((r) => r.faults).filter((f) => /sub- or superscript/.test(f.detail)).length;
      if (scripts) console.log(`  (${scripts} of the small-text faults are a formula's sub- or superscripts)`);
      report.sizes[name] = Object.fromEntries(results.map(({ id, faults, checked }) => [id, { checked, faults }]));
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const out = path.join(root, 'build', 'audit');
  await mkdir(out, { recursive: true });
  if (shots) console.log(`pictures of the faults in build/audit/${label}/`);
  await writeFile(path.join(out, `${label}.json`), `${JSON.stringify(report, null, 2)}\n`);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`\nwrote build/audit/${label}.json (${seconds} s)`);
}

main().catch((error) => {
  console.error(`audit: ${error.message}`);
  process.exitCode = 1;
});
