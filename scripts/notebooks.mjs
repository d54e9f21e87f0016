// npm run build's last step: every lesson as a Jupyter notebook, written by the lesson page itself
// (its "Download notebook" button, web/src/shell/attn-download-notebook.js) in headless Chromium on
// the built site, so the notebook the build ships and the one a learner downloads are one code:
//   dist/notebooks/<lesson id>.ipynb           the lesson as it opens, an empty cell per exercise
//   dist/notebooks/teacher/<lesson id>.ipynb   the same with the answers and explanations
// both copied into dist/site/notebooks/ too, for the site's links.
//   node scripts/notebooks.mjs [--only <lesson id>]…   after a build (npm run build runs it)
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { coursePages, parsePageArgs } from './course-pages.mjs';
import { chromiumLaunchOptions, root, step } from './lib.mjs';
import { serve, STRICT_CSP } from './serve.mjs';

const TIMEOUT_MS = 120000; // a lesson's every lab drawn on a busy machine

/**
 * Clicks the open lesson's "Download notebook" (the teacher's notebook when `teacher`) and
 * resolves to the notebook's text. Rejects with the page's own message when it could not write one.
 * @param {import('playwright-core').Page} page a lesson page of the site
 */
export async function downloadNotebook(page, { teacher = false, timeout = TIMEOUT_MS } = {}) {
  const control = page.locator('attn-download-notebook');
  await control.evaluate((el, on) => {
    el.teacher = on;
    return el.updateComplete;
  }, teacher);
  const download = page.waitForEvent('download', { timeout });
  const failure = control
    .locator('.copy-status', { hasText: /^Could not/ })
    .waitFor({ timeout })
    .then(
      () => control.locator('.copy-status').textContent(),
      () => null,
    );
  await control.locator('button').click();
  const first = await Promise.race([download, failure]);
  if (typeof first === 'string') throw new Error(`${page.url()}: ${first}`);
  return readFile(await (first ?? (await download)).path(), 'utf8');
}

/** Writes every lesson's notebooks (or those of `only`, a Set of ids) under `dist`. */
export async function writeNotebooks({ dist = path.join(root, 'dist'), only = null } = {}) {
  const out = path.join(dist, 'notebooks');
  if (!only) await rm(out, { recursive: true, force: true });
  await mkdir(path.join(out, 'teacher'), { recursive: true });
  const server = await serve(path.join(dist, 'site'), { headers: { 'Content-Security-Policy': STRICT_CSP } });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const context = await browser.newContext({ acceptDownloads: true });
    const home = await context.newPage();
    const lessons = (await coursePages(home, server.url, only, { timeout: TIMEOUT_MS })).filter((p) => p.id !== 'home');
    for (const lesson of lessons) {
      // a page of its own: a hash change on one page swaps the lesson in place, and a click while
      // it swaps would write the lesson before it
      const page = await context.newPage();
      try {
        await page.goto(lesson.url);
        await page.locator('attn-download-notebook').waitFor({ timeout: TIMEOUT_MS });
        await writeFile(path.join(out, `${lesson.id}.ipynb`), await downloadNotebook(page));
        const teacher = await downloadNotebook(page, { teacher: true });
        await writeFile(path.join(out, 'teacher', `${lesson.id}.ipynb`), teacher);
      } catch (error) {
        error.message = `lesson ${lesson.id}: ${error.message}`;
        throw error;
      } finally {
        await page.close();
      }
    }
    await cp(out, path.join(dist, 'site', 'notebooks'), { recursive: true });
    return lessons.map((lesson) => lesson.id);
  } finally {
    await browser.close();
    await server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { only } = parsePageArgs(process.argv.slice(2), { usage: 'node scripts/notebooks.mjs [--only <lesson id>]…' });
  step('writing the lessons as notebooks (dist/notebooks/)');
  writeNotebooks({ only }).then(
    (ids) => console.log(`wrote ${ids.length} notebooks and their teacher's notebooks in dist/notebooks/`),
    (error) => {
      console.error(`notebooks failed: ${error.message}`);
      process.exit(1);
    },
  );
}
