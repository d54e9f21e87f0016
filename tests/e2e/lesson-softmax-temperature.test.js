// Lesson 3, softmax-temperature, in headless Chromium (the site over http and
// the single file from file://): the source's numbers by default, every check
// passing, the τ limits, a logit bar moved by keyboard and by pointer, and the
// numerical-stability cell (naive NaN, stable finite, a bad entry refused).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();

const LOGITS = [1.2, 4.5, 2.0, 0.8];

/** softmax(s / τ) in float64: the test's own oracle. */
function softmax(s, tau) {
  const m = Math.max(...s);
  const e = s.map((x) => Math.exp((x - m) / tau));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
}
const entropy = (p) => -p.reduce((h, x) => (x > 0 ? h + x * Math.log(x) : h), 0);

function assertClose(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((v, i) =>
    assert.ok(Math.abs(v - expected[i]) <= tol, `${what}: entry ${i} is ${v}, expected ${expected[i]}`),
  );
}

const numbers = (locator) => locator.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-value'))));
const weightBars = (page) => numbers(page.locator('attn-softmax-lab .weights rect.bar'));
const stat = async (page, name) => Number(await page.locator(`attn-softmax-lab dd.${name}`).getAttribute('data-value'));

/**
 * Waits until the lab has drawn the state an action just set (the action removed data-settled
 * synchronously, nested slider and checks included) and its slider reads `tau` (a RegExp).
 */
async function labDrawnAt(page, tau) {
  await page.locator('attn-softmax-lab[data-settled] attn-slider output').filter({ hasText: tau }).waitFor();
}

/** Waits until no attn-check is pending, then returns [status, text] of each. */
async function checks(page) {
  const all = page.locator('attn-check');
  await page.waitForFunction(
    () => {
      const found = [];
      const walk = (root) =>
        root.querySelectorAll('*').forEach((el) => {
          if (el.localName === 'attn-check') found.push(el);
          if (el.shadowRoot) walk(el.shadowRoot);
        });
      walk(document);
      return found.length > 0 && found.every((c) => c.getAttribute('data-status') !== 'pending');
    },
    null,
    { timeout: 10000 },
  );
  return all.evaluateAll((cs) =>
    cs.map((c) => [c.getAttribute('data-status'), c.shadowRoot.textContent.replace(/\s+/g, ' ').trim()]),
  );
}

/** Scrolls to each lab in turn (figures draw only near the viewport) and waits until it has drawn. */
async function showLabs(page) {
  for (const tag of ['attn-temperature-compare', 'attn-softmax-lab', 'attn-softmax-stability']) {
    const lab = page.locator(tag);
    await lab.scrollIntoViewIfNeeded();
    await page.locator(`${tag}[data-settled]`).waitFor();
  }
}

async function open(page, url) {
  await page.goto(url);
  await showLabs(page);
}

const targets = [
  ['the static site over http', () => `${site.server.url}#/softmax-temperature`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/softmax-temperature`],
];

for (const [name, url] of targets) {
  describe(name, () => {
    // one page per target, the tests run in order on it (page loads are the slow part)
    let page;
    let problems;
    before(async () => {
      page = await site.browser.context.newPage();
      ({ problems } = watch(page));
      await open(page, url());
    });
    after(() => page?.close());

    test("the source's numbers by default, and every check passes", async () => {
      // the grouped bars: τ = 0.25, 1, 5, as in the source's figure
      for (const [k, tau] of [0.25, 1, 5].entries()) {
        const bars = await numbers(page.locator(`attn-temperature-compare rect.bar[data-series="${k}"]`));
        assertClose(bars, softmax(LOGITS, tau), 1e-6, `grouped bars at τ = ${tau}`);
      }
      assertClose(await weightBars(page), [0.0322492, 0.8743615, 0.071772, 0.0216173], 1e-6, 'lab at τ = 1');
      const H = entropy(softmax(LOGITS, 1));
      assert.ok(Math.abs((await stat(page, 'entropy')) - H) < 1e-5, `entropy ${await stat(page, 'entropy')} vs ${H}`);
      assert.ok(Math.abs((await stat(page, 'effective')) - Math.exp(H)) < 1e-5, 'effective positions');
      assert.ok(Math.abs(H - 0.5001) < 1e-4 && Math.abs(Math.exp(H) - 1.649) < 1e-3, 'the prose quotes H and exp(H)');

      const all = await checks(page);
      assert.equal(all.length, 8, `8 checks: ${JSON.stringify(all)}`);
      for (const [status, text] of all) assert.equal(status, 'pass', text);
      assert.match(all.map((c) => c[1]).join('\n'), /float64 formula/);
      assert.deepEqual(problems, []);
    });

    test('τ → 0 gives a one-hot and τ → ∞ uniform weights', async () => {
      const lab = page.locator('attn-softmax-lab');
      await lab.getByRole('button', { name: 'τ → 0' }).click();
      await labDrawnAt(page, /^τ = 0$/);
      assert.deepEqual(await weightBars(page), [0, 1, 0, 0]);
      assert.equal(await stat(page, 'entropy'), 0);
      assert.equal(await stat(page, 'effective'), 1);

      await lab.getByRole('button', { name: 'τ → ∞' }).click();
      await labDrawnAt(page, /^τ = ∞$/);
      assert.deepEqual(await weightBars(page), [0.25, 0.25, 0.25, 0.25]);
      assert.ok(Math.abs((await stat(page, 'effective')) - 4) < 1e-5);
      for (const [status, text] of await checks(page)) assert.equal(status, 'pass', text);
      assert.deepEqual(problems, []);
    });

    test('Reset, then a logit bar moved by keyboard and by pointer changes the weights', async () => {
      const lab = page.locator('attn-softmax-lab');
      await lab.getByRole('button', { name: 'Reset', exact: true }).click();
      await labDrawnAt(page, /^τ = 1$/);
      assertClose(await weightBars(page), softmax(LOGITS, 1), 1e-6, 'after Reset');
      const bar0 = lab.getByRole('slider', { name: 'Bar Pos 0' });
      await bar0.focus();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('PageUp'); // 1.2 + 0.1 + 0.1 + 1.0
      await settled(lab); // each key set the logits (unsettling the lab) as it was handled
      assert.equal(await bar0.getAttribute('aria-valuenow'), '2.4');
      assertClose(await weightBars(page), softmax([2.4, 4.5, 2.0, 0.8], 1), 1e-6, 'after the keyboard edit');

      // drag Pos 3 upwards with the mouse
      const bar3 = lab.getByRole('slider', { name: 'Bar Pos 3' });
      await bar3.scrollIntoViewIfNeeded();
      const box = await bar3.boundingBox();
      const before = Number(await bar3.getAttribute('aria-valuenow'));
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2, box.y - 60, { steps: 5 });
      await page.mouse.up();
      await settled(lab); // every pointer event that moved the bar set the logits as it was handled
      const after = Number(await bar3.getAttribute('aria-valuenow'));
      assert.ok(after > before + 0.5, `dragging up raised the logit from ${before} to ${after}`);
      assertClose(await weightBars(page), softmax([2.4, 4.5, 2.0, after], 1), 1e-6, 'after the drag');
      for (const [status, text] of await checks(page)) assert.equal(status, 'pass', text);
      assert.deepEqual(problems, []);
    });

    test('stability: naive exp gives NaN, the stable softmax stays finite; a bad entry is refused', async () => {
      const cell = page.locator('attn-softmax-stability');
      const naive = cell.locator('attn-output.naive pre');
      const stable = cell.locator('attn-output.stable pre');
      assert.match(await naive.textContent(), /exp\(s\) {12}= \[Infinity, Infinity, Infinity\]/);
      assert.match(await naive.textContent(), /exp\(s\) \/ Σ exp\(s\) = \[NaN, NaN, NaN\]/);
      const stableText = await stable.textContent();
      assert.match(stableText, /α {9}= \[0\.0900, 0\.2447, 0\.6652\]/);
      assert.doesNotMatch(stableText, /NaN|Infinity/);
      assert.equal(await cell.getAttribute('data-naive-nan'), '');

      // a bad entry: the error shows beside the field, the last valid logits stay
      const field = cell.getByRole('textbox', { name: 'Logits s' });
      await field.fill('1000, abc, 1002');
      await settled(cell); // the editor's error state is drawn, and nothing else changed meanwhile
      await cell
        .locator('attn-vector-editor .field-error')
        .filter({ hasText: /Entry 2/ })
        .waitFor();
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      assert.match(await stable.textContent(), /\[0\.0900, 0\.2447, 0\.6652\]/);
      assert.match(await naive.textContent(), /NaN/);

      // small logits: the naive formula works too, and the checks say so
      await field.fill('1, 2, 3');
      await settled(cell); // both outputs and the checks show the new logits
      await stable.filter({ hasText: '[0.0900, 0.2447, 0.6652]' }).waitFor();
      await naive.filter({ hasText: '= [0.0900, 0.2447, 0.6652]' }).waitFor();
      assert.equal(await cell.getAttribute('data-naive-nan'), null);
      const all = await checks(page);
      for (const [status, text] of all) assert.equal(status, 'pass', text);
      assert.ok(all.some(([, text]) => text.includes('naive softmax is finite here')));
      assert.deepEqual(problems, []);
    });

    test('a permalink restores the lab at τ = 0 with tied logits (the tie shares the weight)', async () => {
      // Only the hash changes: the app's hashchange handler puts in a fresh copy of the lesson with
      // the link's state, then scrolls to the top. Wait for that copy before scrolling to its lab.
      await page.goto(`${url()}?lab.temperature=0&lab.logits=1,3,3,0`);
      await page.waitForFunction(() => {
        const lab = document.querySelector('attn-softmax-lab');
        return lab?.temperature === 0 && lab.logits.join(',') === '1,3,3,0';
      });
      await showLabs(page); // all three, so the checks read below are those of every lab
      await labDrawnAt(page, /^τ = 0$/);
      await page.waitForFunction(() => {
        const lab = document.querySelector('attn-softmax-lab');
        return lab?.shadowRoot?.querySelector('.readout')?.dataset.weights === '0,0.5,0.5,0';
      });
      assert.equal(await stat(page, 'effective'), 2);
      for (const [status, text] of await checks(page)) assert.equal(status, 'pass', text);
      assert.deepEqual(problems, []);
    });
  });
}
