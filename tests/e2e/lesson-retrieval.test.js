// Lesson 7, retrieval, in headless Chromium (the site over http and the single
// file from file://): the source's weights [0, 0, 1, 0, 0] and retrieved id 2,
// every check passing, another queried token, the query builder (presets, a
// bad entry refused) and Exercise 1, marked correct only for the right answer.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();

/** The source's example in float64: q = vocab[query] mixes, keys = values = 5·e_t for t = 0..4, d_k = 6. */
function retrieval(mix) {
  const q = mix.map((c) => 5 * c);
  const dots = [0, 1, 2, 3, 4].map((t) => 5 * q[t]);
  const scores = dots.map((d) => d / Math.sqrt(6));
  const m = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - m));
  const z = e.reduce((a, b) => a + b, 0);
  return { dots, weights: e.map((x) => x / z) };
}

const listAttr = async (locator, name) => (await locator.getAttribute(name)).split(',').map(Number);

function assertClose(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((v, i) =>
    assert.ok(Math.abs(v - expected[i]) <= tol, `${what}: entry ${i} is ${v}, expected ${expected[i]}`),
  );
}

async function checkStatuses(page) {
  const all = page.locator('attn-check');
  await settled(page.locator('attn-retrieval'));
  await settled(page.locator('attn-query-builder'));
  return all.evaluateAll((cs) =>
    cs.map((c) => [c.getAttribute('data-status'), c.shadowRoot.textContent.replace(/\s+/g, ' ').trim()]),
  );
}

const targets = [
  ['the static site over http', () => `${site.server.url}#/retrieval`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/retrieval`],
];

for (const [name, url] of targets) {
  describe(name, () => {
    let page;
    let problems;
    before(async () => {
      page = await site.browser.context.newPage();
      ({ problems } = watch(page));
      await page.goto(url());
      await page.locator('attn-retrieval[data-settled]').waitFor();
      await page.locator('attn-query-builder').scrollIntoViewIfNeeded();
      await page.locator('attn-query-builder[data-settled]').waitFor();
    });
    after(() => page?.close());

    test('query = token 2: weights [0, 0, 1, 0, 0] to 3 decimals, retrieved id 2, checks pass', async () => {
      const cell = page.locator('attn-retrieval');
      const weights = await listAttr(cell, 'data-weights');
      assert.deepEqual(
        weights.map((w) => Number(w.toFixed(3))),
        [0, 0, 1, 0, 0],
      );
      assertClose(weights, retrieval([0, 0, 1, 0, 0, 0]).weights, 1e-6, 'weights');
      assert.equal(await cell.getAttribute('data-retrieved'), '2');
      const printout = await cell.locator('attn-output pre').textContent();
      assert.match(printout, /attention weights over the 5 sequence positions: \[0\.0, 0\.0, 1\.0, 0\.0, 0\.0\]/);
      assert.match(printout, /retrieved token id: 2 {2}\(queried for token 2\)/);

      const all = await checkStatuses(page);
      assert.equal(all.length, 2);
      for (const [status, text] of all) assert.equal(status, 'pass', text);
      assert.deepEqual(problems, []);
    });

    test('querying token 4 retrieves token 4', async () => {
      const cell = page.locator('attn-retrieval');
      await cell.getByLabel('Query = embedding of token').selectOption('4');
      await settled(cell);
      await page.locator('attn-retrieval[data-retrieved="4"]').waitFor();
      const weights = await listAttr(cell, 'data-weights');
      assert.deepEqual(
        weights.map((w) => Number(w.toFixed(3))),
        [0, 0, 0, 0, 1],
      );
      for (const [status, text] of await checkStatuses(page)) assert.equal(status, 'pass', text);
      assert.match(await cell.locator('attn-code').evaluate((el) => el.code), /query = vocab\[4\]/);
      await cell.getByRole('button', { name: /^Reset Retrieval/ }).click();
      await settled(cell);
      await page.locator('attn-retrieval[data-retrieved="2"]').waitFor();
      assert.deepEqual(problems, []);
    });

    test('the builder: vocab[2] + vocab[4] splits the weight evenly; a bad entry keeps the last query', async () => {
      const builder = page.locator('attn-query-builder');
      assert.deepEqual(await listAttr(builder, 'data-dots'), [0, 0, 25, 0, 0]);
      await builder.getByRole('button', { name: 'vocab[2] + vocab[4]' }).click();
      await settled(builder);
      await page.locator('attn-query-builder[data-dots="0,0,25,0,25"]').waitFor();
      const weights = await listAttr(builder, 'data-weights');
      assertClose(weights, retrieval([0, 0, 1, 0, 1, 0]).weights, 1e-6, 'blend weights');
      assert.equal(weights[2], weights[4]);
      assert.ok(Math.abs(weights[2] - 0.49997) < 1e-5, `α₂ = ${weights[2]}`);
      assert.equal(await builder.getAttribute('data-retrieved'), '2');
      assert.equal(await builder.getByRole('textbox').inputValue(), '0, 0, 1, 0, 1, 0');

      const field = builder.getByRole('textbox');
      await field.fill('0, 0, 1, 0, x, 0');
      await settled(builder);
      await builder
        .locator('attn-vector-editor .field-error')
        .filter({ hasText: /Entry 5/ })
        .waitFor();
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      assert.equal(await builder.getAttribute('data-dots'), '0,0,25,0,25');
      await field.fill('0, 0, 0, 0, 0, 1');
      await settled(builder);
      await page.locator('attn-query-builder[data-dots="0,0,0,0,0"]').waitFor();
      assertClose(await listAttr(builder, 'data-weights'), [0.2, 0.2, 0.2, 0.2, 0.2], 1e-6, 'token 5');
      assert.deepEqual(problems, []);
    });

    test('Exercise 1 is marked correct only for the dot-product answer', async () => {
      const exercise = page.locator('attn-exercise#blend');
      await exercise.scrollIntoViewIfNeeded();
      assert.equal(await exercise.getAttribute('data-status'), 'pending');
      const check = exercise.getByRole('button', { name: 'Check', exact: true });
      for (const wrong of [/dividing by √d_k/, /two largest scores/, /averaged before/]) {
        await exercise.getByRole('radio', { name: wrong }).check();
        await check.click();
        await settled(exercise);
        await page.locator('attn-exercise#blend[data-status="fail"]').waitFor();
        assert.match(await exercise.locator('.verdict').textContent(), /^Not yet/);
      }
      await exercise.getByRole('button', { name: 'Show hint' }).click();
      await settled(exercise);
      assert.ok(await exercise.locator('[slot="hint"]').isVisible());
      await exercise.getByRole('radio', { name: /same dot product with keys 2 and 4/ }).check();
      await check.click();
      await settled(exercise);
      await page.locator('attn-exercise#blend[data-status="pass"]').waitFor();
      assert.match(await exercise.locator('.verdict').textContent(), /^Correct — q·k₂ = q·k₄ = 25/);
      await exercise.getByRole('button', { name: 'Show explanation' }).click();
      await settled(exercise);
      assert.match(await exercise.locator('[slot="explanation"]').textContent(), /0\.49997/);
      assert.equal(await page.evaluate(() => localStorage.getItem('attnbook:exercise:retrieval/blend')), 'solved');
      await exercise.getByRole('button', { name: /^Reset Exercise/ }).click();
      await settled(exercise);
      assert.equal(await exercise.getAttribute('data-status'), 'pending');
      assert.deepEqual(problems, []);
    });

    test('a permalink restores the queried token and the builder mix', async () => {
      await page.goto(`${url()}?retrieve.query=3&builder.mix=0,1,0,0.5,0,0`);
      await page.locator('attn-retrieval[data-retrieved="3"]').waitFor();
      await page.locator('attn-query-builder[data-dots="0,25,0,12.5,0"]').waitFor();
      const builder = page.locator('attn-query-builder');
      assertClose(await listAttr(builder, 'data-weights'), retrieval([0, 1, 0, 0.5, 0, 0]).weights, 1e-6, 'mix');
      assert.equal(await builder.getAttribute('data-retrieved'), '1');
      for (const [status, text] of await checkStatuses(page)) assert.equal(status, 'pass', text);
      assert.deepEqual(problems, []);
    });
  });
}
