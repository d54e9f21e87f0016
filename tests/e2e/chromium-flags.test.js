// The browsers the tests and the bench launch run with the command line
// scripts/lib.mjs means them to: Chromium keeps only the last --disable-features,
// so exactly one must reach it, carrying playwright-core's list and ours.
// Read from the browser itself (DevTools' Browser.getBrowserCommandLine, which
// answers only with --enable-automation, added here), for both: the headless
// shell the tests drive and the full browser of the bench.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { CHROMIUM, HEADLESS_SHELL, PLAYWRIGHT_DISABLE_FEATURES, chromiumLaunchOptions } from '../../scripts/lib.mjs';

for (const [name, executablePath] of [
  ['the headless shell', HEADLESS_SHELL],
  ['the full browser', CHROMIUM],
]) {
  test(`Chromium (${name}) gets one --disable-features: playwright-core’s list and the omnibox popup`, async (t) => {
    const browser = await chromium.launch(chromiumLaunchOptions(['--enable-automation'], { executablePath }));
    t.after(() => browser.close());
    const session = await browser.newBrowserCDPSession();
    const { arguments: commandLine } = await session.send('Browser.getBrowserCommandLine');
    assert.ok(commandLine.includes('--no-sandbox'), `not the command line lib.mjs builds: ${commandLine.join(' ')}`);
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
}
