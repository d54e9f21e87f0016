// Fault isolation in headless Chromium (the site over http and the single file
// from file://), on the softmax-temperature lesson (its two labs): a failure injected into one
// cell shows that cell's error state, naming the error, with a Retry button
// reachable by keyboard; the other cells keep answering input and their checks
// keep passing; nothing escapes as an uncaught exception and the console holds
// exactly the cell's warning; once the fault is gone, Retry brings the cell back
// drawn. Three failures: in the first render, in an update after an input, and
// in the wasm engine (its load for one cell, and its calls for another).
//
// Faults are injected from the test (faults.js): an init script wraps each attn-* class's
// renderFigure(), updated() and engine() as it is defined, and the wrappers
// throw while window.__faults names "<tag>:<method>" (the app has no test hook).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { settled, showFigure, singleFileUrl, useBrowserAndSite } from './browser.js';
import { installFaults } from './faults.js';

const site = useBrowserAndSite();

/** A page with the faults installed; records console warnings and errors, and uncaught exceptions. */
async function open(url, faults = {}) {
  const page = await site.browser.context.newPage();
  const log = { warnings: [], errors: [], uncaught: [] };
  page.on('console', (message) => {
    if (message.type() === 'warning') log.warnings.push(message.text());
    if (message.type() === 'error') log.errors.push(message.text());
  });
  page.on('pageerror', (error) => log.uncaught.push(error.message));
  await page.addInitScript(installFaults, faults);
  await page.goto(url);
  // the stability table waits for the lesson's exercise before it: answer it, as a learner must
  const exercise = page.locator('attn-exercise#naive-overflow');
  await exercise.scrollIntoViewIfNeeded();
  await exercise.getByRole('radio', { name: 'NaN (not a number) for every weight' }).check();
  await exercise.getByRole('button', { name: 'Check' }).click();
  await page.locator('attn-reveal[after="naive-overflow"][data-revealed="true"]').waitFor();
  return { page, log };
}

const setFaults = (page, faults) => page.evaluate((f) => (window.__faults = f), faults);

/** The console said exactly `expected` (each at least once, nothing else); nothing threw. */
function assertLog(log, expected) {
  assert.deepEqual(log.uncaught, [], 'no uncaught exception');
  assert.deepEqual(log.errors, [], 'no console error');
  assert.deepEqual([...new Set(log.warnings)].sort(), [...expected].sort(), 'the console warnings');
}

const numbers = (locator) => locator.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-value'))));

function softmax(s, tau) {
  const m = Math.max(...s);
  const e = s.map((x) => Math.exp((x - m) / tau));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
}

function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) < 1e-5, `${what}: ${i} is ${v}, not ${expected[i]}`));
}

/** The lesson's lab answers its slider: PageUp from τ = 1 gives τ = 2.51 and bars to match. */
async function labAnswers(page) {
  const figure = page.locator('attn-softmax-temperature#t');
  await figure.scrollIntoViewIfNeeded();
  await figure.getByRole('slider', { name: 'Temperature' }).focus();
  await page.keyboard.press('PageUp');
  await figure.getByText('τ = 2.51').waitFor();
  await page.locator('attn-softmax-temperature#t[data-settled]').waitFor();
  assertClose(await numbers(figure.locator('.weights rect.bar')), softmax([1.2, 4.5, 2, 0.8], 10 ** 0.4), 'τ = 2.51');
}

/** The stability lab answers its logits: "0, 1, 2" gives the weights softmax(0, 1, 2) in its table. */
async function stabilityAnswers(page) {
  const cell = await showFigure(page, 'attn-softmax-stability');
  await cell.getByRole('button', { name: '0, 1, 2' }).click();
  await settled(cell);
  const stable = await cell.locator('table.stability tbody tr.term td:last-child').allTextContents();
  assert.deepEqual(
    stable.map((t) => t.trim()),
    softmax([0, 1, 2], 1).map((w) => w.toFixed(4)),
  );
}

const TAGS = ['attn-softmax-temperature#t', 'attn-softmax-stability'];

async function checksPass(page, except) {
  for (const tag of TAGS) {
    if (!except.includes(tag)) await showFigure(page, tag);
  }
  await settled(page.locator('attn-app')); // every cell shown has drawn, its checks included
  // The status of every attn-check, except those inside the cells in `except` (the others have
  // settled: their checks hold the values of what they show).
  const results = await page.evaluate((skip) => {
    const found = [];
    const walk = (root, cell) =>
      root.querySelectorAll('*').forEach((el) => {
        if (el.localName === 'attn-check' && !skip.includes(cell)) found.push(el.getAttribute('data-status'));
        if (el.shadowRoot) walk(el.shadowRoot, cell ?? el.localName);
      });
    walk(document, null);
    return found;
  }, except);
  assert.ok(results.length >= 4, `checks of the other cells: ${results}`);
  assert.deepEqual(
    results.filter((s) => s !== 'pass'),
    [],
    'every check of the other cells passes',
  );
}

/** The error state of `tag`: its alert names `message`; returns the Retry button. */
async function errorState(page, tag, message) {
  await page.locator(tag).scrollIntoViewIfNeeded();
  const alert = page.locator(`${tag}[data-settled] .cell-error[role=alert]`); // a failed cell is settled
  await alert.waitFor();
  assert.match(await alert.textContent(), new RegExp(`This cell failed: ${message}`));
  return alert.getByRole('button', { name: 'Retry' });
}

/** Tabs forward from the focused element until `button` has focus (at most 40 presses). */
async function tabTo(page, button) {
  for (let i = 0; i < 40; i++) {
    if (await button.evaluate((b) => b.getRootNode().activeElement === b && b.matches(':focus-visible'))) return;
    await page.keyboard.press('Tab');
  }
  assert.fail('Retry is not reachable with Tab');
}

const LAB_AT_TAU_1 = softmax([1.2, 4.5, 2, 0.8], 1);

const targets = [
  ['the static site over http', () => `${site.server.url}#/softmax-temperature`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/softmax-temperature`],
];

for (const [name, url] of targets) {
  describe(name, () => {
    test('a failure in the first render: that cell shows the error and Retry, the rest works, Retry restores it', async () => {
      const { page, log } = await open(url(), { 'attn-softmax-stability:renderFigure': 'injected render failure' });
      const retry = await errorState(page, 'attn-softmax-stability', 'injected render failure');
      assert.equal(await page.locator('attn-softmax-stability table').count(), 0, 'no figure drawn');
      await showFigure(page, 'attn-softmax-temperature#t');
      await labAnswers(page);
      await checksPass(page, ['attn-softmax-stability']);

      // Keyboard: from the lab before it, Tab reaches Retry; Enter with the fault gone restores the cell.
      await page.locator('attn-softmax-temperature#t details.export-menu > summary').last().focus();
      await tabTo(page, retry);
      await setFaults(page, {});
      // Enter at once, while the page still scrolls to the focused Retry: the cell re-renders off
      // screen and must still come back drawn (not as a 0 px block the lesson never shows again)
      await page.keyboard.press('Enter');
      await page.locator('attn-softmax-stability[data-settled]').waitFor();
      assert.equal(await page.locator('attn-softmax-stability .cell-error').count(), 0);
      await stabilityAnswers(page);
      assertLog(log, ['attn-softmax-stability: injected render failure']);
      await page.close();
    });

    test('a failure in an update after an input: the error stays in that cell, Retry shows the new state', async () => {
      const { page, log } = await open(url());
      const lab = await showFigure(page, 'attn-softmax-temperature#t');
      assertClose(await numbers(lab.locator('.weights rect.bar')), LAB_AT_TAU_1, 'the lab before');
      await setFaults(page, { 'attn-softmax-temperature:updated': 'injected update failure' });
      await lab.getByRole('slider', { name: 'Temperature' }).focus();
      await page.keyboard.press('PageUp'); // τ = 1 -> 2.51: the lab's update throws while drawing
      const retry = await errorState(page, 'attn-softmax-temperature#t', 'injected update failure');
      assert.deepEqual(log.uncaught, [], 'the throw did not escape the cell');
      await stabilityAnswers(page);
      await checksPass(page, ['attn-softmax-temperature#t']);

      await setFaults(page, {});
      await retry.focus();
      await page.keyboard.press('Enter');
      await lab.locator('.weights rect.bar').first().waitFor();
      assert.equal(await page.locator('attn-softmax-temperature#t .cell-error').count(), 0);
      await lab.locator('attn-slider output').filter({ hasText: 'τ = 2.51' }).waitFor();
      assertClose(
        await numbers(lab.locator('.weights rect.bar')),
        softmax([1.2, 4.5, 2, 0.8], 10 ** 0.4),
        'the lab after Retry, at the τ the input set',
      );
      assertLog(log, ['attn-softmax-temperature: injected update failure']);
      await page.close();
    });

    test('a failing engine for one cell (its load) and for another (its calls): each shows it, the rest works', async () => {
      const { page, log } = await open(url(), {
        'attn-softmax-stability:engine': 'injected engine failure',
        'attn-softmax-temperature:engine-call': 'injected engine call failure',
      });
      // The load: the cell's error state with Retry.
      const retry = await errorState(
        page,
        'attn-softmax-stability',
        'the attention core could not be loaded: injected engine failure',
      );
      // A call: the lab says so in its own alert, in plain words, with Retry, and draws no bars.
      const first = page.locator('attn-softmax-temperature#t');
      await first.scrollIntoViewIfNeeded();
      await first.locator('.lab-error[role=alert]').filter({ hasText: 'The weights could not be computed' }).waitFor();
      await settled(first);
      assert.equal(await first.locator('rect.bar').count(), 0);
      assert.doesNotMatch(await first.locator('.lab-error').textContent(), /injected/, 'no raw engine message');

      // Faults gone: Retry loads the engine again for the stability cell; the next input redraws the lab.
      await setFaults(page, {});
      await retry.click();
      const stability = await showFigure(page, 'attn-softmax-stability');
      await stability.locator('table.stability td').filter({ hasText: '0.6652' }).waitFor();
      await labAnswers(page);
      assert.equal(await first.locator('.lab-error').count(), 0);
      await checksPass(page, []);
      assertLog(log, ['attn-softmax-stability: the attention core could not be loaded: injected engine failure']);
      await page.close();
    });
  });
}
