// npm run dev (scripts/dev.mjs): the live preview a teacher writes lessons against. It starts Vite's
// dev server on 127.0.0.1 and prints its URL; a lesson opened there renders (a figure settles) with
// nothing wrong in the browser, and the server logs no error or warning: no failed dependency scan
// ("failed to resolve rolldownOptions.input value"), no dependencies found late and re-bundled
// while the page loads (which answered the page's requests "504 (Outdated Optimize Dep)").
// Vite's dependency cache is a fresh folder, so the scan and the pre-bundling run every time.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { launch, showFigure, watch } from './browser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Lines of the server's standard output that say something went wrong. */
const TROUBLE = /\b(error|warning|warn|failed)\b|outdated|optimized dependencies changed|new dependencies optimized/i;

test('npm run dev serves a lesson that renders, and the server logs no error or warning', async (t) => {
  const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'attnbook-vite-cache-'));
  t.after(() => rm(cacheDir, { recursive: true, force: true }));
  const child = spawn(process.execPath, ['scripts/dev.mjs', '--cache-dir', cacheDir], {
    cwd: root,
    env: { ...process.env, PORT: '0' },
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = await new Promise((resolve) => {
    const found = () => stdout.match(/live preview at (http:\/\/127\.0\.0\.1:\d+\/)\n/)?.[1];
    child.stdout.on('data', () => found() && resolve(found()));
    child.on('close', () => resolve(null));
  });
  assert.ok(url, `npm run dev printed no URL before it exited:\n${stdout}\n${stderr}`);

  const browser = await launch();
  t.after(() => browser.close());
  const page = await browser.context.newPage();
  const { problems } = watch(page);
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.statusText()}: ${response.url()}`);
  });
  await page.goto(`${url}#/softmax-temperature`);
  const figure = await showFigure(page, 'attn-softmax-temperature#t');
  assert.equal(await page.locator('h1').first().innerText(), 'Softmax temperature');
  assert.ok(await figure.locator('svg').count(), 'the figure has drawn');
  assert.deepEqual(problems, [], 'the page had no console error, failed request or request off the machine');

  child.kill('SIGTERM'); // Vite closes the server and exits
  await exited;
  assert.equal(stderr, '', 'the dev server wrote nothing to stderr (where Vite logs warnings and errors)');
  const trouble = stdout.split('\n').filter((line) => TROUBLE.test(line));
  assert.deepEqual(trouble, [], `the dev server's log:\n${stdout}`);
});
