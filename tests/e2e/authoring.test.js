// A lesson written only with generic cells wired by attributes (tests/fixtures/lessons/
// authoring-fixture.md), built into a site of its own (tests/fixtures/build-site.mjs: the app
// shell and every cell, with the course taken from the fixture folder) and run in headless
// Chromium under the strict CSP: every cell draws from the core, the controls drive the attention
// cell and the readers follow it, a permalink sets it, and bad attributes are explained while the
// cells stay usable.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildLessonsSite, root } from '../fixtures/build-site.mjs';
import { distDir, everyFigureShown, launch, scrollThrough, serveDir, settled, watch } from './browser.js';
import { installFaults } from './faults.js';

const Q = [
  [1, 0],
  [0, 2],
  [1, 1],
];
const K = [
  [1, 0],
  [0, 1],
  [2, 1],
];
const V = [
  [1, 2],
  [3, 4],
  [5, 6],
];
const causal = (i, j) => j <= i;

/** The test's own float64 oracle: softmax(q kᵀ/(√d τ), blocked keys at −∞) and its product with v. */
function attention(q, k, v, { allowed = causal, tau = 1, scale = 1 / Math.sqrt(q[0].length) } = {}) {
  const weights = q.map((qi, i) => {
    const s = k.map((kj, j) => (allowed(i, j) ? (qi.reduce((a, x, e) => a + x * kj[e], 0) * scale) / tau : -Infinity));
    const m = Math.max(...s);
    const e = s.map((x) => Math.exp(x - m));
    const z = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / z);
  });
  return { weights, output: weights.map((w) => v[0].map((_, c) => w.reduce((a, x, j) => a + x * v[j][c], 0))) };
}

function assertClose(actual, expected, tol, what) {
  assert.equal(actual.flat().length, expected.flat().length, `${what}: size`);
  actual.flat().forEach((x, i) => {
    const want = expected.flat()[i];
    assert.ok(Math.abs(x - want) <= tol, `${what}: entry ${i} is ${x}, expected ${want}`);
  });
}

/** Waits until `predicate(document)` holds in the page (it reads cells and their data-settled). */
const setFaults = (page, faults) => page.evaluate((f) => (window.__faults = f), faults);

const until = (page, predicate, arg) => page.waitForFunction(predicate, arg, { timeout: 15000 });

/** The attention cell's state and results, read once it has settled. */
const att = (page) =>
  page.evaluate(() => {
    const a = document.querySelector('#att');
    return { q: a.q, temperature: a.temperature, mask: a.mask, weights: a.weights, output: a.output };
  });

/** Every notice (a bad attribute, a broken wiring) shown by a cell in `scope`: [tag#id: text]. */
const notices = (page, scope = '.lesson-body') =>
  page.evaluate(
    (selector) =>
      [...document.querySelectorAll(`${selector} *`)]
        .filter((el) => el.localName.startsWith('attn-') && el._notice)
        .map((el) => `${el.localName}${el.id ? `#${el.id}` : ''}: ${el._notice}`),
    scope,
  );

let browser;
let server;

before(async () => {
  const dir = await buildLessonsSite('tests/fixtures/lessons', 'build/fixture-site');
  browser = await launch();
  server = await serveDir(dir);
});
const scratches = []; // [{ dir, host }] of the plain page, closed after the browser (its connections end then)

after(async () => {
  await browser?.close();
  await server?.close();
  for (const { dir, host } of scratches) {
    await host.close();
    await rm(dir, { recursive: true, force: true });
  }
});

/** Opens the fixture lesson (with a permalink's settings) and waits until every cell has drawn. */
async function open(page, query = '') {
  await page.goto(`${server.url}#/authoring-fixture${query}`);
  await page.locator('.lesson-body').waitFor();
  await scrollThrough(page);
  await everyFigureShown(page);
  await settled(page.locator('attn-app'));
}

describe('a lesson written with generic cells and attributes only', () => {
  let page;
  let problems;
  before(async () => {
    page = await browser.context.newPage();
    ({ problems } = watch(page));
    await open(page);
  });
  after(() => page?.close());

  test('it is built into the site of fixtures, apart from the course', async () => {
    const other = await browser.context.newPage();
    await other.goto(`${server.url}#/`);
    const titles = other.locator('attn-lesson-list a');
    await titles.first().waitFor();
    assert.deepEqual(await titles.allTextContents().then((t) => t.map((s) => s.trim()).filter(Boolean).length), 1);
    assert.match(await titles.first().textContent(), /Attention from attributes/);
    await other.close();
  });

  test('every cell draws from the core, with no notice, and every check passes', async () => {
    assert.deepEqual(await notices(page), []);
    const a = await att(page);
    const want = attention(Q, K, V);
    assertClose(a.weights, want.weights, 1e-6, 'weights');
    assertClose(a.output, want.output, 1e-5, 'output');
    assert.equal(a.weights[0][1], 0, 'causal: query 0 gives key 1 nothing');
    const heatmap = await page.evaluate(
      () => document.querySelector('#att').shadowRoot.querySelector('attn-heatmap').values,
    );
    assert.deepEqual(heatmap, a.weights, 'the heatmap shows the weights');
    // the readers follow the cell
    assert.deepEqual(await page.evaluate(() => document.querySelector('#row2').values), a.weights[2]);
    const printed = await page.locator('attn-output').evaluate((el) => el.text);
    assert.equal(printed.split('\n')[0], `[[${want.output[0].map((x) => x.toFixed(4)).join(', ')}],`);
    const [code, sums] = await page.locator('attn-code').evaluateAll((els) => els.map((el) => el.code));
    assert.match(code, /^q = torch\.tensor\(\[\[1, 0\], \[0, 2\], \[1, 1\]\], dtype=torch\.float32\)/m);
    assert.match(code, /^mask = 'causal'/m);
    assert.match(code, /^tau = 1 /m);
    // a template of the lesson's own, filled from the same cell
    const filled = `weights = np.array([${a.weights.map((row) => `[${row.map((x) => Number(x.toPrecision(6))).join(', ')}]`).join(', ')}])`;
    assert.equal(sums.split('\n')[1], filled);
    // two checks of the cell itself and the two the lesson wired, all passing
    const checks = await page.evaluate(() => {
      const found = [];
      const walk = (root) =>
        root.querySelectorAll('*').forEach((el) => {
          if (el.localName === 'attn-check')
            found.push([el.getAttribute('data-status'), el.shadowRoot.textContent.trim()]);
          if (el.shadowRoot) walk(el.shadowRoot);
        });
      walk(document);
      return found;
    });
    assert.equal(checks.length, 4, JSON.stringify(checks));
    for (const [status, text] of checks) assert.equal(status, 'pass', text);
    assert.match(checks.map((c) => c[1]).join('\n'), /max \|row sum of A − 1\| = /);
    assert.equal(await page.locator('.lesson-body > attn-verified').getAttribute('data-status'), 'pass');
    // the unwired figures draw from their attributes
    assert.deepEqual(await page.evaluate(() => document.querySelector('#scores').values), [2, 1, 0.1]);
    assert.equal(await page.locator('.lesson-body > attn-heatmap').getAttribute('data-mode'), 'svg');
    assert.deepEqual(problems, []);
  });

  test('the slider beside the figure drives the temperature; its Reset goes back to the lesson’s', async () => {
    const slider = page.locator('#att attn-slider');
    await slider.getByRole('button', { name: 'τ → 0' }).click();
    await until(page, () => {
      const a = document.querySelector('#att');
      return a.temperature === 0 && a.hasAttribute('data-settled') && document.querySelector('#row2[data-settled]');
    });
    const a = await att(page);
    assert.deepEqual(a.weights[2], [0, 0, 1], 'τ = 0: query 2 puts all its weight on its best key');
    assert.deepEqual(await page.evaluate(() => document.querySelector('#row2').values), [0, 0, 1]);
    assert.match(
      await page
        .locator('attn-code')
        .first()
        .evaluate((el) => el.code),
      /^tau = 0 /m,
    );
    await until(page, () => decodeURIComponent(location.hash).includes('att.temperature=0'));

    await slider.getByRole('button', { name: 'Reset Temperature' }).click();
    await until(page, () => {
      const a = document.querySelector('#att');
      return a.temperature === 1 && a.hasAttribute('data-settled');
    });
    await slider
      .locator('output')
      .filter({ hasText: /^τ = 1$/ })
      .waitFor();
    assertClose((await att(page)).weights, attention(Q, K, V).weights, 1e-6, 'weights after Reset');
  });

  test('the matrix editor drives the queries, and the weights follow', async () => {
    await page.getByRole('textbox', { name: 'Queries Q, row q2, column 0' }).fill('3');
    await until(page, () => {
      const a = document.querySelector('#att');
      return a.q[2][0] === 3 && a.hasAttribute('data-settled') && document.querySelector('#row2[data-settled]');
    });
    const q = [Q[0], Q[1], [3, 1]];
    const want = attention(q, K, V);
    assertClose((await att(page)).weights, want.weights, 1e-6, 'weights with q2 = (3, 1)');
    assertClose(await page.evaluate(() => document.querySelector('#row2').values), want.weights[2], 1e-6, 'bars');
    // the cell's own Reset puts back what the lesson wrote, and its editor follows
    await page.locator('#att').getByRole('button', { name: 'Reset', exact: true }).click();
    await until(page, () => document.querySelector('#att').q[2][0] === 1);
    const entry = page.getByRole('textbox', { name: 'Queries Q, row q2, column 0' });
    await until(page, (input) => input.value === '1', await entry.elementHandle());
  });

  test('the vector editor drives the bar chart', async () => {
    await page.getByRole('textbox', { name: 'Scores s' }).fill('0.5, 1.5, 2.5');
    await until(page, () => document.querySelector('#scores[data-settled]')?.values.join() === '0.5,1.5,2.5');
    await page.getByRole('textbox', { name: 'Scores s' }).fill('0.5, x');
    await page.locator('attn-vector-editor .field-error').filter({ hasText: 'Entry 1 (counting from 0)' }).waitFor();
    assert.deepEqual(await page.evaluate(() => document.querySelector('#scores').values), [0.5, 1.5, 2.5]);
  });

  test('bad attributes are explained, naming the attribute, and the cells stay usable', async () => {
    const set = (selector, name, value) =>
      page.evaluate(([s, n, v]) => document.querySelector(s).setAttribute(n, v), [selector, name, value]);
    await set('#att', 'v', '1,2');
    const error = page.locator('#att .lab-error');
    await error.filter({ hasText: /^\s*Attribute v: 1 rows but k has 3 keys/ }).waitFor();
    assertClose((await att(page)).weights, attention(Q, K, V).weights, 1e-6, 'the last valid weights stay');
    await set('#att', 'v', '1;2;3');
    await until(
      page,
      () =>
        document.querySelector('#att').output?.length === 3 && document.querySelector('#att').output[0].length === 1,
    );
    assert.equal(await error.count(), 0, 'a good value clears the error');

    await set('#att', 'mask', 'upper');
    await until(page, () =>
      /^Attribute mask: "upper" is not none, causal/.test(document.querySelector('#att')._notice),
    );

    await set('.lesson-body > attn-verified > attn-check', 'value-of', 'nope');
    const check = page.locator('.lesson-body > attn-verified > attn-check').first();
    await check.locator('p.cell-notice', { hasText: 'Attribute value-of: #att has no value "nope"' }).waitFor();
    assert.equal(await check.getAttribute('data-status'), 'fail', 'a check that cannot read its value fails');

    await set('attn-output', 'for', 'missing');
    await page
      .locator('attn-output p.cell-notice', { hasText: 'Attribute for: no cell with id "missing" on this page.' })
      .waitFor();

    await set('#att attn-slider', 'field', 'speed');
    const slider = page.locator('#att attn-slider');
    await slider
      .locator('p.cell-notice', {
        hasText: 'Attribute field: #att has no setting "speed" (it has q, k, v, mask, temperature, scale)',
      })
      .waitFor();
    await slider.getByRole('button', { name: 'τ → ∞' }).click();
    await slider
      .locator('output')
      .filter({ hasText: /^τ = ∞$/ })
      .waitFor();
    assert.equal((await att(page)).temperature, 1, 'a slider wired to no setting changes only itself');
    assert.deepEqual(problems, []);
  });
});

test('a permalink sets the attention cell, its slider follows, a check it breaks says so; a late slider sets the scale', async () => {
  const page = await browser.context.newPage();
  const { problems } = watch(page);
  await open(page, '?att.temperature=2&att.mask=none');
  await page
    .locator('#att attn-slider output')
    .filter({ hasText: /^τ = 2$/ })
    .waitFor();
  const a = await att(page);
  assert.equal(a.mask, 'none');
  assertClose(
    a.weights,
    attention(Q, K, V, { allowed: () => true, tau: 2 }).weights,
    1e-6,
    'weights at τ = 2, no mask',
  );
  const verified = page.locator('.lesson-body > attn-verified');
  assert.equal(await verified.getAttribute('data-status'), 'fail', 'with no mask query 0 sees key 1');
  assert.match(
    await verified.locator('attn-check[data-status="fail"]').evaluate((el) => el.shadowRoot.textContent),
    /weight of query 0 on key 1/,
  );
  // a slider put into the page later, for a setting that is automatic until set (scale: 1/√E),
  // gives that setting its own value
  await page.evaluate(() => {
    const slider = Object.assign(document.createElement('attn-slider'), { id: 'late' });
    for (const [name, value] of Object.entries({ for: 'att', field: 'scale', min: '0.1', max: '2', value: '0.5' })) {
      slider.setAttribute(name, value);
    }
    document.querySelector('#att').after(slider);
  });
  await until(page, () => document.querySelector('#att').scale === 0.5 && document.querySelector('#att[data-settled]'));
  const scaled = attention(Q, K, V, { allowed: () => true, tau: 2, scale: 0.5 }).weights;
  assertClose((await att(page)).weights, scaled, 1e-6, 'weights at scale 0.5');
  await page.locator('#late input[type="range"]').press('End');
  await until(page, () => document.querySelector('#att').scale === 2);
  await page.locator('#late').getByRole('button', { name: 'Reset Value' }).click();
  await until(page, () => document.querySelector('#att').scale === 0.5 && document.querySelector('#att[data-settled]'));
  assert.deepEqual(problems, []);
  await page.close();
});

test('the same wiring works on a plain course page with the embeddable widgets', async () => {
  // a page of HTML with one classic script, which defines the cells before the page is parsed
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'attnbook-wired-'));
  await copyFile(path.join(distDir, 'embed', 'attn-widgets.js'), path.join(scratch, 'attn-widgets.js'));
  await copyFile(
    path.join(root, 'tests', 'fixtures', 'pages', 'wired-by-attributes.html'),
    path.join(scratch, 'index.html'),
  );
  const host = await serveDir(scratch);
  scratches.push({ dir: scratch, host });
  const page = await browser.context.newPage();
  const { problems } = watch(page);
  try {
    await page.goto(host.url);
    const cell = page.locator('#att');
    await cell.scrollIntoViewIfNeeded();
    await settled(cell);
    assertClose(await cell.evaluate((el) => el.weights), attention(Q, K, V).weights, 1e-6, 'weights');
    // the slider came before its cell in the page and still found it: it shows the cell's τ, not its own 0
    const slider = page.locator('attn-slider');
    await slider
      .locator('output')
      .filter({ hasText: /^τ = 1$/ })
      .waitFor();
    await page.locator('main > attn-check[data-status="pass"]').waitFor();
    await slider.getByRole('button', { name: 'τ → ∞' }).click();
    await until(page, () => {
      const a = document.querySelector('#att');
      return a.temperature === Infinity && a.hasAttribute('data-settled');
    });
    assertClose((await cell.evaluate((el) => el.weights))[2], [1 / 3, 1 / 3, 1 / 3], 1e-6, 'τ = ∞');
    assert.match(await page.locator('attn-code').evaluate((el) => el.code), /^tau = float\('inf'\) /m);
    assert.deepEqual(await notices(page, 'main'), []);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('a chart wired to a cell whose core failed draws no bars, never its own default numbers; Retry fills it', async () => {
  const page = await browser.context.newPage();
  const warnings = [];
  page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
  await page.addInitScript(installFaults, { 'attn-attention:engine': 'injected engine failure' });
  await page.goto(`${server.url}#/authoring-fixture`);
  const source = page.locator('attn-attention#att');
  await source.scrollIntoViewIfNeeded();
  const alert = page.locator('attn-attention#att[data-settled] .cell-error[role=alert]');
  await alert.waitFor();
  const bars = page.locator('attn-bars#row2');
  await bars.scrollIntoViewIfNeeded();
  await bars.locator('.waiting').waitFor();
  await settled(bars);
  assert.equal(await bars.locator('rect.bar').count(), 0, 'no bars: nothing was computed');
  assert.match(
    await bars.locator('.cell-notice').textContent(),
    /#att could not compute weights\[2\]: the attention core could not be loaded: injected engine failure/,
  );
  assert.match(await bars.evaluate((el) => el.describe()), /no bars yet, waiting for #att/);

  await page.evaluate(() => (window.__faults = {}));
  await alert.getByRole('button', { name: 'Retry' }).click();
  await bars.locator('rect.bar').nth(2).waitFor();
  await settled(bars);
  const shown = await bars
    .locator('rect.bar')
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-value'))));
  assertClose([shown], [attention(Q, K, V).weights[2]], 1e-6, "query 2's weights, from the core");
  assert.equal(await bars.locator('.cell-notice').count(), 0, 'the notice is gone');
  assert.deepEqual(
    [...new Set(warnings)],
    ['attn-attention: the attention core could not be loaded: injected engine failure'],
  );
  await page.close();
});

test('readers of a cell that failed after computing show none of its old numbers; Retry brings them back', async () => {
  const page = await browser.context.newPage();
  await page.addInitScript(installFaults, {});
  await page.goto(`${server.url}#/authoring-fixture`);
  const source = page.locator('attn-attention#att');
  await source.scrollIntoViewIfNeeded();
  await settled(source);
  const output = page.locator('attn-output[for="att"]');
  const checks = page.locator('attn-check[for="att"]');
  const numpy = page.locator('attn-code[for="att"][label^="NumPy"]');
  await page.locator('attn-check[for="att"][data-status="pass"]').nth(1).waitFor({ state: 'attached' });
  assert.match(await output.locator('pre').textContent(), /\d/, 'the output printed, computed');
  // the cell fails in an update after an input: its weights were computed for the old temperature
  await setFaults(page, { 'attn-attention:updated': 'injected update failure' });
  await page.locator('attn-slider[for="att"]').getByRole('button', { name: 'τ → ∞' }).click();
  await source.locator('.cell-error[role=alert]').waitFor();
  await page.locator('attn-bars#row2 .waiting').waitFor();
  await settled(output);
  assert.equal((await output.locator('pre').textContent()).trim(), '', 'attn-output prints nothing');
  assert.match(
    await output.locator('.cell-notice').textContent(),
    /#att could not compute output: injected update failure/,
  );
  assert.deepEqual(
    await checks.evaluateAll((els) => els.map((el) => el.getAttribute('data-status'))),
    ['pending', 'pending'],
    'the checks wait, unmeasured: they neither pass nor fail on numbers of other inputs',
  );
  assert.match(
    await numpy.evaluate((el) => el.code),
    /np\.array\(\{\{weights\}\}\)/,
    'attn-code leaves {{weights}} unfilled',
  );

  await setFaults(page, {});
  await source.getByRole('button', { name: 'Retry' }).click();
  await page.locator('attn-check[for="att"][data-status="pass"]').nth(1).waitFor({ state: 'attached' });
  await settled(output);
  assert.match(await output.locator('pre').textContent(), /\d/);
  assert.equal(await output.locator('.cell-notice').count(), 0, 'the notice is gone');
  assert.doesNotMatch(await numpy.evaluate((el) => el.code), /\{\{weights\}\}/);
  await page.close();
});
