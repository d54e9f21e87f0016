// The browser the tests and the bench launch runs with the command line
// scripts/lib.mjs means it to: Chromium keeps only the last --disable-features,
// so exactly one must reach it, carrying playwright-core's list and ours.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PLAYWRIGHT_DISABLE_FEATURES } from '../../scripts/lib.mjs';
import { launch } from './browser.js';

test('Chromium gets one --disable-features: playwright-core’s list and the omnibox popup', async (t) => {
  const browser = await launch();
  t.after(() => browser.close());
  const page = await browser.context.newPage();
  await page.goto('chrome://version');
  const line = page.locator('#command_line', { hasText: /\S/ }); // filled in once the page has the browser's data
  await line.waitFor();
  const commandLine = (await line.textContent()).split(/\s+/);
  const switches = commandLine.filter((arg) => arg.startsWith('--disable-features='));
  assert.equal(
    switches.length,
    1,
    `expected one --disable-features, got ${switches.length}: ${switches.join(' ')}\n` +
      'Has playwright-core changed its own list? Copy it into PLAYWRIGHT_DISABLE_FEATURES in scripts/lib.mjs.',
  );
  const features = switches[0].slice('--disable-features='.length).split(',');
  for (const feature of PLAYWRIGHT_DISABLE_FEATURES.slice('--disable-features='.length).split(',')) {
    assert.ok(features.includes(feature), `${feature} (playwright-core's) is missing`);
  }
  assert.ok(features.includes('WebUIOmniboxPopup'), 'WebUIOmniboxPopup is not disabled');
  assert.ok(features.includes('WebUIOmniboxAimPopup'), 'WebUIOmniboxAimPopup is not disabled');
});
