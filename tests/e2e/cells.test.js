// The controls and notebook cells on their gallery page (gallery/cells.html),
// over http in headless Chromium: keyboard and pointer input, what each cell
// shows, data-status, saved progress, Reset, and no console errors.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { settled, useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();

/**
 * Waits until every cell of the page (every attn-* element) has data-settled: it has drawn its
 * current state and has no engine load, check or copy under way. Every action on a cell removes
 * the attribute synchronously, on that cell and on the cells the gallery's script updates in
 * its change handlers, so after an action this waits for the drawing of the new state.
 */
function allSettled(page) {
  return page.waitForFunction(() =>
    [...document.querySelectorAll('*')].every(
      (el) => !el.localName.startsWith('attn-') || el.hasAttribute('data-settled'),
    ),
  );
}

/** After a load or a reload: waits until the engine has filled in the cells and every cell has drawn. */
async function loadGallery(page) {
  await page.locator('body[data-ready="true"]').waitFor();
  await allSettled(page);
}

/** A fresh page on the gallery, once the engine has filled in the cells and they have drawn. */
async function openGallery({ init } = {}) {
  const page = await site.browser.context.newPage();
  const watcher = watch(page);
  if (init) await page.addInitScript(init);
  await page.goto(new URL('gallery/cells.html', site.server.url).href);
  await loadGallery(page);
  return { page, problems: watcher.problems };
}

/** Init script: empties localStorage on the first load only (init scripts run again on reload). */
function clearStorageOnce() {
  if (!sessionStorage.getItem('attnbook-test-cleared')) {
    localStorage.clear();
    sessionStorage.setItem('attnbook-test-cleared', '1');
  }
}

const prop = (page, id, name) => page.evaluate(([i, n]) => document.getElementById(i)[n], [id, name]);
const text = (page, selector) => page.locator(selector).innerText();

function assertClose(actual, expected, tol, what) {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual}, expected ${expected}`);
}

test('the log slider maps keys to values on a log scale; the limit buttons give exactly 0 and ∞', async () => {
  const { page, problems } = await openGallery();
  const slider = page.getByRole('slider', { name: 'Temperature' });
  assert.equal(await prop(page, 'tau', 'value'), 1);
  assert.equal(await slider.getAttribute('aria-valuetext'), 'τ = 1');

  await slider.focus();
  await page.keyboard.press('Home');
  await allSettled(page);
  assert.equal(await prop(page, 'tau', 'value'), 0.01);
  assert.equal(await text(page, '#tau output'), 'τ = 0.01');
  await page.keyboard.press('ArrowRight'); // one step of 0.1 decade: 10^-1.9
  await allSettled(page);
  assertClose(await prop(page, 'tau', 'value'), 10 ** -1.9, 1e-6, 'Home then ArrowRight');
  assert.equal(await slider.getAttribute('aria-valuetext'), 'τ = 0.0126');

  await page.keyboard.press('End');
  await allSettled(page);
  assert.equal(await prop(page, 'tau', 'value'), 100);
  await page.keyboard.press('ArrowLeft'); // 10^1.9
  await allSettled(page);
  assertClose(await prop(page, 'tau', 'value'), 10 ** 1.9, 1e-3, 'End then ArrowLeft');
  assert.equal(await text(page, '#tau output'), 'τ = 79.4');
  // the printed weights follow: nearly uniform at τ ≈ 79
  assert.match(await text(page, '#softmax-output pre'), /^τ = 79\.43\nweights = \[0\.24\d\d, 0\.25\d\d/);

  await page.getByRole('button', { name: 'τ → 0' }).click();
  await allSettled(page);
  assert.equal(await prop(page, 'tau', 'value'), 0);
  assert.equal(await text(page, '#tau output'), 'τ = 0');
  assert.equal(await page.getByRole('button', { name: 'τ → 0' }).getAttribute('aria-pressed'), 'true');
  assert.match(await text(page, '#softmax-output pre'), /weights = \[0\.0000, 1\.0000, 0\.0000, 0\.0000\]/);

  await page.getByRole('button', { name: 'τ → ∞' }).click();
  await allSettled(page);
  assert.equal(await prop(page, 'tau', 'value'), Infinity);
  assert.equal(await text(page, '#tau output'), 'τ = ∞');
  assert.equal(await slider.getAttribute('aria-valuetext'), 'τ = infinity');
  assert.match(await text(page, '#softmax-output pre'), /weights = \[0\.2500, 0\.2500, 0\.2500, 0\.2500\]/);

  await page.getByRole('button', { name: 'Reset Temperature' }).click();
  await allSettled(page);
  assert.equal(await prop(page, 'tau', 'value'), 1);
  assert.match(await text(page, '#softmax-output pre'), /^τ = 1\nweights = \[0\.0322, 0\.8744, 0\.0718, 0\.0216\]/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the vector editor explains a bad entry beside the field and keeps the last valid values', async () => {
  const { page, problems } = await openGallery();
  await page.evaluate(() => {
    window.changes = 0;
    document.getElementById('logits').addEventListener('change', () => window.changes++);
  });
  const field = page.getByRole('textbox', { name: 'Logits s' });
  const original = [1.2, 4.5, 2, 0.8];

  for (const [typed, message] of [
    ['1, x, 3', 'Entry 1 (counting from 0) is “x”, not a number.'],
    ['1, NaN, 3', 'Entry 1 (counting from 0) is “NaN”, not a number.'],
    ['1, Infinity', 'Entry 1 (counting from 0) must be a finite number.'],
    ['1, 1e400', 'Entry 1 (counting from 0) must be a finite number.'],
    ['1, 500', 'Entry 1 (counting from 0) is 500, above the maximum 100.'],
    ['1,,2', 'Entry 1 (counting from 0) is empty.'],
  ]) {
    await field.fill(typed);
    await allSettled(page);
    assert.equal(await field.getAttribute('aria-invalid'), 'true', typed);
    const describedBy = await field.getAttribute('aria-describedby');
    const error = page.locator('#logits .field-error');
    assert.equal(await error.innerText(), `⚠ ${message}`.replace('⚠ ', ''), typed);
    assert.ok(describedBy.split(' ').includes(await error.getAttribute('id')), 'aria-describedby names the message');
    // beside the field: in the same row, to its right or just below it
    const [f, e] = [await field.boundingBox(), await error.boundingBox()];
    assert.ok(e.y < f.y + f.height + 30 && e.y + e.height > f.y - 5, `error next to the field (${typed})`);
    assert.deepEqual(await prop(page, 'logits', 'values'), original, typed);
  }
  assert.equal(await page.evaluate(() => window.changes), 0);
  assert.match(await text(page, '#softmax-output pre'), /0\.8744/);

  await field.fill('1, 2, 3');
  await allSettled(page);
  assert.equal(await field.getAttribute('aria-invalid'), 'false');
  assert.equal(await page.locator('#logits .field-error').isVisible(), false);
  assert.deepEqual(await prop(page, 'logits', 'values'), [1, 2, 3]);
  assert.equal(await page.evaluate(() => window.changes), 1);
  assert.match(await text(page, '#softmax-output pre'), /weights = \[0\.0900, 0\.2447, 0\.6652\]/);

  // a fixed count: the exercise's weights need exactly 3 numbers
  const weights = page.getByRole('textbox', { name: 'Weights w' });
  await weights.fill('0.5, 0.5');
  await allSettled(page);
  assert.equal(await text(page, '#mix-weights .field-error'), 'Needs exactly 3 numbers, got 2.');
  assert.deepEqual(await prop(page, 'mix-weights', 'values'), [0.5, 0.7, -0.2]);

  await page.getByRole('button', { name: 'Reset Logits s' }).click();
  await allSettled(page);
  assert.deepEqual(await prop(page, 'logits', 'values'), original);
  assert.equal(await field.inputValue(), '1.2, 4.5, 2, 0.8');
  assert.match(await text(page, '#softmax-output pre'), /0\.8744/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the matrix editor checks each cell, keeps the last valid entry and moves with the arrow keys', async () => {
  const { page, problems } = await openGallery();
  const cell = (r, c) => page.getByRole('textbox', { name: `Attention weights A, row q${r}, column k${c}` });
  const original = [
    [0.7, 0.2, 0.1],
    [0.1, 0.8, 0.1],
    [0.3, 0.3, 0.4],
  ];
  const status = () => page.locator('#check-rows').getAttribute('data-status');
  assert.equal(await status(), 'pass');

  await cell(0, 0).fill('abc');
  await allSettled(page);
  assert.equal(await cell(0, 0).getAttribute('aria-invalid'), 'true');
  const errorId = await cell(0, 0).getAttribute('aria-describedby');
  assert.equal(
    await page.locator(`#matrix #${errorId}`).innerText(),
    'Entry at row q0, column k0 is “abc”, not a number.',
  );
  assert.deepEqual(await prop(page, 'matrix', 'values'), original);
  await cell(0, 0).fill('2');
  await allSettled(page);
  assert.equal(
    await page.locator(`#matrix #${errorId}`).innerText(),
    'Entry at row q0, column k0 is 2, above the maximum 1.',
  );
  assert.deepEqual(await prop(page, 'matrix', 'values'), original);
  assert.equal(await status(), 'pass');

  await cell(0, 0).fill('0.5');
  await allSettled(page);
  assert.equal(await cell(0, 0).getAttribute('aria-invalid'), 'false');
  assert.equal(await page.locator('#matrix .field-error').count(), 0);
  assert.deepEqual((await prop(page, 'matrix', 'values'))[0], [0.5, 0.2, 0.1]);
  assert.equal(await status(), 'fail'); // row 0 now sums to 0.8
  assert.match(await text(page, '#matrix-output pre'), /row 0: 0\.800000/);

  // arrows: Right from q0,k0 (text selected on focus) to q0,k1, Down to q1,k1, Left to q1,k0
  await cell(0, 0).focus();
  const focused = () =>
    page.evaluate(() => document.getElementById('matrix').shadowRoot.activeElement.getAttribute('aria-label'));
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(), 'Attention weights A, row q0, column k1');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), 'Attention weights A, row q1, column k1');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(), 'Attention weights A, row q1, column k0');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.type('0.7'); // replaces the selected text
  await allSettled(page);
  assert.deepEqual((await prop(page, 'matrix', 'values'))[0], [0.7, 0.2, 0.1]);
  assert.equal(await status(), 'pass');

  await cell(2, 2).fill('0.9');
  await allSettled(page);
  assert.deepEqual((await prop(page, 'matrix', 'values'))[2], [0.3, 0.3, 0.9]);
  await page.getByRole('button', { name: 'Reset Attention weights A' }).click();
  await allSettled(page);
  assert.deepEqual(await prop(page, 'matrix', 'values'), original);
  assert.equal(await cell(2, 2).inputValue(), '0.4');
  assert.equal(await status(), 'pass');
  assert.deepEqual(problems, []);
  await page.close();
});

test('attn-check flips data-status as its value crosses the threshold', async () => {
  const { page, problems } = await openGallery();
  const check = page.locator('#check-dominant');
  assert.equal(await check.getAttribute('data-status'), 'pass');
  const shown = async () => (await check.locator('p').textContent()).replace(/\s+/g, ' ').trim();
  assert.equal(await shown(), '✓ Passed: max α = 0.874 ≥ 0.5'); // "Passed:" is for screen readers
  // through the slider: τ = ∞ makes the largest weight 0.25
  await page.getByRole('button', { name: 'τ → ∞' }).click();
  await allSettled(page);
  assert.equal(await check.getAttribute('data-status'), 'fail');
  assert.equal(await shown(), '✗ Failed: max α = 0.25, not ≥ 0.5');

  // set from JS, exactly at and just past the threshold (le 1e-6); the status it had before
  // (pass) is no sign of the new value being drawn: wait for the check to settle
  const sum = page.locator('#check-sum');
  const set = async (v) => {
    await page.evaluate((x) => (document.getElementById('check-sum').value = x), v);
    await settled(sum);
  };
  await set(1e-6);
  assert.equal(await sum.getAttribute('data-status'), 'pass');
  const sumText = async () => (await sum.locator('p').textContent()).replace(/\s+/g, ' ').trim();
  assert.equal(await sumText(), '✓ Passed: |Σ α − 1| = 1e-6 ≤ 1e-6');
  await set(1.01e-6);
  assert.equal(await sum.getAttribute('data-status'), 'fail');
  assert.equal(await sumText(), '✗ Failed: |Σ α − 1| = 1.01e-6, not ≤ 1e-6');
  await set(Number.NaN);
  assert.equal(await sum.getAttribute('data-status'), 'fail');
  // pass set directly overrides the comparison
  await page.evaluate(() => (document.getElementById('check-sum').pass = true));
  await settled(sum);
  assert.equal(await sum.getAttribute('data-status'), 'pass');
  assert.equal(await sum.getByRole('status').count(), 1);
  assert.deepEqual(problems, []);
  await page.close();
});

test('attn-code copies the code with the current values and never turns params into HTML', async () => {
  const { page, problems } = await openGallery();
  await site.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(site.server.url).origin,
  });
  const code = page.locator('#softmax-code');
  const copy = page.getByRole('button', { name: 'Copy NumPy' });
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  await copy.click();
  // "Copied" shows for 2.5 s: the status and the button's word are read in the frame that shows it
  const button = await page.waitForFunction(() => {
    const root = document.getElementById('softmax-code').shadowRoot;
    return root.querySelector('.copy-status').textContent === 'Copied' && root.querySelector('button.copy').innerText;
  });
  assert.equal((await button.jsonValue()).trim(), 'Copied');
  await settled(code); // the clipboard write is done
  let copied = await clipboard();
  assert.match(copied, /^import numpy as np\n\nlogits = np\.array\(\[1\.2, 4\.5, 2, 0\.8\]\)\ntau = 1 {2}#/);
  assert.match(copied, /print\(weights\) {2}# \[0\.0322, 0\.8744, 0\.0718, 0\.0216\]$/);

  await page.getByRole('button', { name: 'τ → ∞' }).click();
  await page.getByRole('textbox', { name: 'Logits s' }).fill('3, 1');
  await allSettled(page);
  await copy.click();
  await settled(code); // the clipboard write of this copy is done
  copied = await clipboard();
  assert.match(copied, /logits = np\.array\(\[3, 1\]\)\ntau = float\('inf'\)/);
  assert.match(copied, /# \[0\.5, 0\.5\]$/);

  // markup in params stays text: no element is made, and the Python literal escapes < > &
  await page.evaluate(() => {
    const code = document.getElementById('softmax-code');
    code.template = 'name = {{name}}\nmissing = {{nothing}}';
    code.params = { name: '<img src=x onerror="window.pwned=1">&amp;' };
  });
  await settled(code);
  await code.getByRole('button', { name: 'NumPy', exact: true }).click(); // unfold the code
  assert.equal(await code.getAttribute('open'), '');
  assert.match(await code.getByRole('region', { name: 'NumPy' }).innerText(), /^name = /);
  assert.equal(await page.locator('#softmax-code img').count(), 0);
  await copy.click();
  await settled(code);
  copied = await clipboard();
  assert.equal(copied, 'name = \'\\x3cimg src=x onerror="window.pwned=1"\\x3e\\x26amp;\'\nmissing = {{nothing}}');
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.deepEqual(problems, []);
  await page.close();
});

test('attn-code falls back to selecting the text when the clipboard is refused', async () => {
  const { page, problems } = await openGallery({
    init: () => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) },
      });
    },
  });
  await page.getByRole('button', { name: 'Copy NumPy' }).click();
  await page.locator('#softmax-code .copy-status', { hasText: /Copied|Ctrl\+C/ }).waitFor();
  await settled(page.locator('#softmax-code'));
  const selected = await page.evaluate(() => String(window.getSelection()));
  assert.match(selected, /logits = np\.array\(\[1\.2, 4\.5, 2, 0\.8\]\)\ntau = 1 /);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the exercise says Not yet, then Correct, and remembers it across a reload until Reset', async () => {
  const { page, problems } = await openGallery({ init: clearStorageOnce });
  const exercise = page.locator('#convex-weights');
  const verdict = exercise.locator('.verdict');
  const key = 'attnbook:exercise:gallery/convex-weights';
  assert.equal(await exercise.getAttribute('data-status'), 'pending');

  await exercise.getByRole('button', { name: 'Check' }).click();
  await allSettled(page);
  assert.equal(await exercise.getAttribute('data-status'), 'fail');
  assert.equal(await verdict.innerText(), 'Not yet — weight 2 (counting from 0) is -0.2; no weight may be negative.');
  assert.equal(await verdict.getAttribute('role'), 'status');

  await page.getByRole('textbox', { name: 'Weights w' }).fill('0.5, 0.3, 0.1');
  await allSettled(page);
  await exercise.getByRole('button', { name: 'Check' }).click();
  await allSettled(page);
  assert.equal(await verdict.innerText(), 'Not yet — the weights sum to 0.9, not 1.');
  assert.equal(await exercise.getAttribute('data-status'), 'fail');
  const saved = () => page.evaluate((k) => JSON.parse(localStorage.getItem(k)), key);
  assert.deepEqual(await saved(), { status: 'attempted', attempts: 2, score: 0 });

  await page.getByRole('textbox', { name: 'Weights w' }).fill('0.5, 0.3, 0.2');
  await allSettled(page);
  await exercise.getByRole('button', { name: 'Check' }).click();
  await allSettled(page);
  assert.equal(await exercise.getAttribute('data-status'), 'pass');
  assert.match(await verdict.innerText(), /^Correct — no weight is negative/);
  assert.deepEqual(await saved(), { status: 'solved', attempts: 3, score: 1 });

  // hint and explanation open and close
  const hint = exercise.getByRole('button', { name: 'Show hint' });
  assert.equal(await hint.getAttribute('aria-expanded'), 'false');
  assert.equal(await exercise.getByText('Make every weight zero or more').isVisible(), false);
  await hint.click();
  await allSettled(page);
  assert.equal(await exercise.getByRole('button', { name: 'Hide hint' }).getAttribute('aria-expanded'), 'true');
  assert.equal(await exercise.getByText('Make every weight zero or more').isVisible(), true);

  await page.reload();
  await loadGallery(page);
  assert.equal(await exercise.getAttribute('data-status'), 'pass');
  assert.equal(await verdict.innerText(), 'Correct — you solved this exercise before.');
  assert.equal(await exercise.getByText('✓ Solved').isVisible(), true);

  await exercise.getByRole('button', { name: 'Reset Exercise: a convex combination' }).click();
  await allSettled(page);
  assert.equal(await exercise.getAttribute('data-status'), 'pending');
  assert.equal(await verdict.innerText(), '');
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), key), null);
  assert.deepEqual(await prop(page, 'mix-weights', 'values'), [0.5, 0.7, -0.2]); // the attempt's editor is reset too
  await page.reload();
  await loadGallery(page);
  assert.equal(await exercise.getAttribute('data-status'), 'pending');
  assert.deepEqual(problems, []);
  await page.close();
});

test('multiple-choice and number exercises judge answers with the built-in modes', async () => {
  const { page, problems } = await openGallery({ init: clearStorageOnce });
  const choice = page.locator('#uniform-limit');
  // Check with nothing chosen is not an attempt: it says what to do, records nothing, shows nothing
  await choice.getByRole('button', { name: 'Check' }).click();
  await allSettled(page);
  assert.equal(await choice.locator('#choice-error').innerText(), 'Choose one of the answers first.');
  assert.equal(await choice.locator('.verdict').innerText(), '');
  assert.equal(await choice.getAttribute('data-status'), 'pending');
  assert.equal(await choice.getAttribute('data-progress'), null, 'no attempt recorded');
  assert.equal(await choice.getByRole('button', { name: 'Show me' }).count(), 0);
  await choice.getByRole('radio', { name: 'τ → 0' }).check();
  assert.equal(await choice.locator('#choice-error').isVisible(), false, 'choosing clears it');
  await choice.getByRole('button', { name: 'Check' }).click();
  await allSettled(page);
  assert.match(await choice.locator('.verdict').innerText(), /^Not yet — τ → 0 does the opposite/);
  assert.equal(await choice.getAttribute('data-status'), 'fail');
  await choice.getByRole('radio', { name: 'τ → ∞' }).check();
  await choice.getByRole('button', { name: 'Check' }).click();
  await allSettled(page);
  assert.match(await choice.locator('.verdict').innerText(), /^Correct — every logit divided by ∞ is 0/);
  assert.equal(await choice.getAttribute('data-status'), 'pass');

  const number = page.locator('#top-weight');
  const answer = number.getByRole('textbox', { name: 'Your answer' });
  await answer.fill('zero point eight');
  await number.getByRole('button', { name: 'Check' }).click();
  await allSettled(page);
  assert.equal(await answer.getAttribute('aria-invalid'), 'true');
  assert.equal(await number.locator('.field-error').innerText(), 'Your answer is “zero point eight”, not a number.');
  assert.equal(await number.getAttribute('data-status'), 'pending');
  await answer.fill('0.87');
  await answer.press('Enter');
  await allSettled(page);
  assert.equal(await number.locator('.verdict').innerText(), 'Not yet — 0.87 is not it; try again.');
  await answer.fill('0.874');
  await answer.press('Enter');
  await allSettled(page);
  assert.equal(await number.locator('.verdict').innerText(), 'Correct — 0.874 matches the answer to within 0.0006.');
  assert.equal(await number.getAttribute('data-status'), 'pass');
  assert.deepEqual(problems, []);
  await page.close();
});

test('progress falls back to memory when localStorage throws (sandboxed iframe, file://)', async () => {
  const { page, problems } = await openGallery({
    init: () => {
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('The document is sandboxed', 'SecurityError');
        },
      });
    },
  });
  const exercise = page.locator('#uniform-limit');
  await exercise.getByRole('radio', { name: 'τ → ∞' }).check();
  await exercise.getByRole('button', { name: 'Check' }).click();
  await allSettled(page);
  assert.equal(await exercise.getAttribute('data-status'), 'pass');
  await exercise.getByRole('button', { name: /^Reset/ }).click();
  await allSettled(page);
  assert.equal(await exercise.getAttribute('data-status'), 'pending');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the gallery has no axe-core accessibility violations (light DOM and shadow roots)', async () => {
  const { page, problems } = await openGallery();
  // Evaluated through DevTools rather than added as an inline <script>, which the site's CSP refuses.
  await page.evaluate(await readFile(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8'));
  // an invalid entry, an open hint and the buttons shown after a wrong attempt must be accessible
  await page.getByRole('textbox', { name: 'Logits s' }).fill('1, x');
  const exercise = page.locator('#convex-weights');
  await exercise.getByRole('button', { name: 'Check' }).click();
  await exercise.getByRole('button', { name: 'Show hint' }).click();
  await exercise.getByRole('button', { name: 'Show me' }).waitFor();
  await allSettled(page);
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    const { violations, passes } = await page.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ['violations'] });
      return {
        violations: result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        passes: result.passes.length,
      };
    });
    assert.deepEqual(violations, [], colorScheme);
    assert.ok(passes > 10, `axe ran its rules (${passes} passed)`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});
