// npm run shots [-- <label>] [--only <home|lesson-id>]…: screenshots of the built site, to look at the pages as a learner
// does and to compare two versions side by side (take one set per version, each with its own label).
//
// Builds nothing: it serves the existing dist/site (run `npm run build` first) with
// scripts/serve.mjs, under the site's strict CSP, and drives headless Chromium through
// playwright-core. At 1280×900 and at 390×844 (a phone) it writes
//   build/shots/<label>/<width>x<height>/00-home.png            the home page, full length
//   build/shots/<label>/<width>x<height>/<nn>-<lesson-id>.png     each lesson, full length
//   build/shots/<label>/<width>x<height>/<nn>-<lesson-id>.lab-<k>-<name>.png
//                                        the first viewport of each lab ([data-lab]) scrolled to the top
// and build/shots/<label>/index.md listing them. The label (default "current") names the folder,
// which is emptied first; --only (repeatable) limits the pages to the home page and the lessons named. Every screenshot waits for the page's own signal (data-settled on
// <attn-app> and the lab, after every figure was scrolled past and drawn), never for a fixed delay.
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { coursePages, parsePageArgs } from './course-pages.mjs';
import { drawEveryFigure } from './draw-figures.mjs';
import { chromiumLaunchOptions, root, run, step } from './lib.mjs';
import { serve, STRICT_CSP } from './serve.mjs';

const VIEWPORTS = [
  { name: '1280x900', viewport: { width: 1280, height: 900 } },
  { name: '390x844', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
];
const PAINT_ALL = '* { content-visibility: visible !important; }';
const TIMEOUT = 120_000; // ms for one page to settle (the largest lessons compute in a worker)

const appSettled = (page) => page.locator('attn-app[data-settled]').waitFor({ timeout: TIMEOUT });

/** Screenshots of one route: the full page, then each lab's first viewport. Returns the file names written. */
async function shootRoute(page, url, stem, dir) {
  await page.goto(url);
  await appSettled(page);
  await drawEveryFigure(page, { timeout: TIMEOUT });
  const files = [`${stem}.png`];
  // The lesson lets off-screen parts skip painting (content-visibility), which a full-page capture
  // would show as blank: paint them all for this one picture. The strict CSP refuses the <style>
  // that Playwright's `style` option adds, so each part is also told through the CSSOM, which the
  // policy allows (as charts/style-props.js does); then put back as it was.
  const painted = await page.evaluate(() => {
    const parts = [...document.querySelectorAll('.lesson-body > *')];
    for (const el of parts) el.style.setProperty('content-visibility', 'visible');
    return parts.length;
  });
  await page.screenshot({ path: path.join(dir, files[0]), fullPage: true, style: PAINT_ALL });
  if (painted) {
    await page.evaluate(() => {
      for (const el of document.querySelectorAll('.lesson-body > *')) el.style.removeProperty('content-visibility');
    });
  }
  const labs = page.locator('.lesson-body [data-lab]');
  const count = await labs.count();
  for (let i = 0; i < count; i += 1) {
    const lab = labs.nth(i);
    // a lab inside an exercise's explanation stays hidden (and undrawn) until the learner has answered
    if (!(await lab.isVisible())) continue;
    const name = await lab.evaluate((el) => el.id || el.localName);
    await lab.evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await lab.locator(':scope[data-settled]').waitFor({ timeout: TIMEOUT });
    await appSettled(page);
    const file = `${stem}.lab-${i + 1}-${name.replace(/[^A-Za-z0-9_-]/g, '_')}.png`;
    await page.screenshot({ path: path.join(dir, file) });
    files.push(file);
  }
  return files;
}

async function main() {
  const { label, only } = parsePageArgs(process.argv.slice(2), {
    usage: 'npm run shots -- [label] [--only home|<lesson-id>]…',
  });
  const site = path.join(root, 'dist', 'site');
  if (!existsSync(path.join(site, 'index.html'))) {
    throw new Error('dist/site is missing: this script builds nothing; run `npm run build` first');
  }
  const out = path.join(root, 'build', 'shots', label);
  await rm(out, { recursive: true, force: true });

  const git = await run('git', ['describe', '--always', '--dirty'], { quiet: true }).catch(() => null);
  const commit = git?.code === 0 ? git.output.trim() : '';
  const server = await serve(site, { headers: { 'Content-Security-Policy': STRICT_CSP } });
  const browser = await chromium.launch(chromiumLaunchOptions());
  const index = [`# Screenshots "${label}"`, '', `dist/site${commit ? ` (source at ${commit})` : ''}.`];
  try {
    for (const { name, ...options } of VIEWPORTS) {
      step(`screenshots at ${name} → build/shots/${label}/${name}/`);
      const dir = path.join(out, name);
      await mkdir(dir, { recursive: true });
      const context = await browser.newContext({ ...options, reducedMotion: 'reduce', serviceWorkers: 'block' });
      const page = await context.newPage();
      page.setDefaultTimeout(TIMEOUT);
      index.push('', `## ${name.replace('x', '×')}`, '');

      for (const { id, url, index: n } of await coursePages(page, server.url, only, { timeout: TIMEOUT })) {
        const stem = `${String(n).padStart(2, '0')}-${id}`;
        const files = await shootRoute(page, url, stem, dir);
        console.log(`  ${stem}: ${files.length} file${files.length === 1 ? '' : 's'}`);
        index.push(`- ${stem}: ${files.map((f) => `[${f}](${name}/${f})`).join(', ')}`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  await writeFile(path.join(out, 'index.md'), `${index.join('\n')}\n`);
  console.log(`\nwrote build/shots/${label}/ (index: build/shots/${label}/index.md)`);
}

main().catch((error) => {
  console.error(`shots: ${error.message}`);
  process.exitCode = 1;
});
