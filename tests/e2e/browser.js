// Shared set-up for the browser tests: Debian's Chromium driven by
// playwright-core, the built site served on 127.0.0.1, and a watcher that
// collects console errors, uncaught exceptions and any non-local request.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Launches headless Chromium with a fresh profile. Returns { browser, close }. */
export async function launch() {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'attnbook-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--allow-file-access-from-files',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Serves dist/site on a free loopback port. */
export function serveSite() {
  return serve(path.join(root, 'dist', 'site'));
}

/** file:// URL of the offline single file. */
export const singleFileUrl = pathToFileURL(path.join(root, 'dist', 'attnbook.html')).href;

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
