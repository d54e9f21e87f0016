// Lesson 7, retrieval, in headless Chromium (the site over http and the single
// file from file://): the source's weights [0, 0, 1, 0, 0] and retrieved id 2,
// every check passing, another queried token, the query builder (presets, a
// bad entry refused), the predict-first exercises (a fainter query, a blended one: their
// figures wait until the learner commits; each declared mistake has its own feedback);
// and the layout at 1280×900 and 390×844 (controls in view with the figures
// they move, text of at least 11 px, 44 px targets, one toolbar per lab).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { exportAll, settled, singleFileUrl, PNG_EXPORT_CSP, useBrowserAndSite, watch } from './browser.js';
import { commitTo, freshLesson, predictFirst, tryAnother } from './exercise-steps.js';

const site = useBrowserAndSite({ csp: PNG_EXPORT_CSP }); // its PNG exports draw blob: images

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

const ANSWERS = { faint: 0.658, blend: /About half on position 2/ };

const listAttr = async (locator, name) => (await locator.getAttribute(name)).split(',').map(Number);

function assertClose(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((v, i) =>
    assert.ok(Math.abs(v - expected[i]) <= tol, `${what}: entry ${i} is ${v}, expected ${expected[i]}`),
  );
}

async function checkStatuses(page) {
  const all = page.locator('attn-retrieval attn-check, attn-query-builder attn-check'); // the two labs' own
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
      await commitTo(page, ANSWERS);
      await page.locator('attn-retrieval').scrollIntoViewIfNeeded(); // labs draw once near the viewport
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
      await cell.getByRole('button', { name: 'Query token 4' }).click();
      await settled(cell);
      await page.locator('attn-retrieval[data-retrieved="4"]').waitFor();
      const weights = await listAttr(cell, 'data-weights');
      assert.deepEqual(
        weights.map((w) => Number(w.toFixed(3))),
        [0, 0, 0, 0, 1],
      );
      for (const [status, text] of await checkStatuses(page)) assert.equal(status, 'pass', text);
      assert.match(
        await cell
          .locator('attn-code')
          .first()
          .evaluate((el) => el.code),
        /query = vocab\[4\]/,
      );
      assert.equal(await cell.getByRole('button', { name: 'Query token 4' }).getAttribute('aria-pressed'), 'true');
      await cell.getByRole('button', { name: 'Reset', exact: true }).click();
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
        .filter({ hasText: /Entry 4 \(counting from 0\)/ })
        .waitFor();
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      assert.equal(await builder.getAttribute('data-dots'), '0,0,25,0,25');
      await field.fill('0, 0, 0, 0, 0, 1');
      await settled(builder);
      await page.locator('attn-query-builder[data-dots="0,0,0,0,0"]').waitFor();
      assertClose(await listAttr(builder, 'data-weights'), [0.2, 0.2, 0.2, 0.2, 0.2], 1e-6, 'token 5');
      assert.deepEqual(problems, []);
    });

    test('predict first: a fainter query and a blended one hide their figures until an attempt', async () => {
      await freshLesson(page, 'retrieval');
      await predictFirst(page, {
        id: 'faint',
        figures: ['#faint-figure'],
        mistakes: [
          [0.9738, /without the 1\/√dk/ /* 1/√d_k, typeset */],
          [0.8851, /That is es\/\(es \+ 1\)/ /* e^s / (e^s + 1), typeset */],
          [0.6063, /six keys/],
          [1, /leaves them some weight/],
          [0.2, /uniform only if/],
        ],
        right: 0.658,
      });
      // the builder waits for the second exercise: it would show the blend's split
      assert.equal(await page.locator('#builder').isVisible(), false);
      await predictFirst(page, {
        id: 'blend',
        figures: ['#builder'],
        mistakes: [
          [/first of the two tokens/, /not a search that stops at the first match/],
          [/even more sharply/, /a sum of two directions/],
          [/About 0\.2 on each/, /Uniform weights need equal scores/],
        ],
        right: /About half on position 2/,
      });
      const exercise = page.locator('attn-exercise#blend');
      await exercise.getByRole('button', { name: 'Show explanation' }).click();
      assert.match(await exercise.locator('[slot="explanation"]').textContent(), /0\.49997/);
      const record = await page.evaluate(() => JSON.parse(localStorage.getItem('attnbook:exercise:retrieval/blend')));
      assert.equal(record.status, 'shown', 'answered after its figure showed');
      // the revealed builder shows what was predicted
      const builder = page.locator('attn-query-builder');
      await builder.getByRole('button', { name: 'vocab[2] + vocab[4]' }).click();
      await page.locator('attn-query-builder[data-dots="0,0,25,0,25"]').waitFor();
      const weights = await listAttr(builder, 'data-weights');
      assert.ok(Math.abs(weights[2] - 0.49997) < 1e-5 && weights[2] === weights[4], `${weights}`);
      // Try another: a fresh strength and token, checked against float64 here
      await tryAnother(page, 'faint', (prompt) => {
        const [, c] = prompt.match(/q = ([\d.]+) · vocab\[(\d)\]/);
        const e = Math.exp((Number(c) * 25) / Math.sqrt(6));
        return (e / (e + 4)).toFixed(4);
      });
      assert.deepEqual(problems, []);
    });

    test('a permalink restores the queried token and the builder mix', async () => {
      await page.goto(`${url()}?retrieve.query=3&builder.mix=0,1,0,0.5,0,0`);
      await page.locator('attn-retrieval').scrollIntoViewIfNeeded();
      await page.locator('attn-retrieval[data-retrieved="3"]').waitFor();
      await page.locator('attn-query-builder').scrollIntoViewIfNeeded();
      await page.locator('attn-query-builder[data-dots="0,25,0,12.5,0"]').waitFor();
      const builder = page.locator('attn-query-builder');
      assertClose(await listAttr(builder, 'data-weights'), retrieval([0, 1, 0, 0.5, 0, 0]).weights, 1e-6, 'mix');
      assert.equal(await builder.getAttribute('data-retrieved'), '1');
      for (const [status, text] of await checkStatuses(page)) assert.equal(status, 'pass', text);
      assert.deepEqual(problems, []);
    });
  });
}

/** In the page: the smallest SVG text inside `host` as rendered (px) and its visible toolbars. */
const measure = (host) =>
  host.evaluate((el) => {
    let text = Infinity;
    let toolbars = 0;
    const visit = (root) => {
      for (const node of root.querySelectorAll('*')) {
        if (node instanceof SVGTextElement && node.textContent.trim() && node.getClientRects().length) {
          const m = node.getScreenCTM();
          text = Math.min(text, parseFloat(getComputedStyle(node).fontSize) * Math.hypot(m.a, m.b));
        }
        if (node.matches('.toolbar') && node.checkVisibility()) toolbars += 1;
        if (node.shadowRoot) visit(node.shadowRoot);
      }
    };
    visit(el.shadowRoot);
    return { text, toolbars };
  });

const inView = (box, viewport) => box.y >= 0 && box.y + box.height <= viewport.height;

for (const [width, height] of [
  [1280, 900],
  [390, 844],
]) {
  test(`at ${width}×${height}: each lab's controls in view with its figure, text ≥ 11 px, 44 px targets`, async () => {
    const page = await site.browser.context.newPage();
    const { problems } = watch(page);
    await page.setViewportSize({ width, height });
    await page.goto(`${site.server.url}#/retrieval`);
    await commitTo(page, ANSWERS);
    const cases = [
      ['attn-retrieval', 'attn-heatmap', 'button[data-token="4"]'],
      ['attn-query-builder', '.chart svg', 'attn-vector-editor'],
    ];
    for (const [tag, figure, control] of cases) {
      const lab = page.locator(tag);
      await lab.scrollIntoViewIfNeeded();
      await settled(lab);
      const m = await measure(lab);
      assert.ok(m.text >= 11, `${tag}: text of ${m.text} px`);
      assert.equal(m.toolbars, 1, `${tag}: one toolbar`);
      assert.equal(
        await lab
          .locator('attn-check')
          .first()
          .isVisible()
          .catch(() => false),
        false,
        `${tag}: checks closed`,
      );
      await lab.evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
      const viewport = page.viewportSize();
      const box = await lab.locator(figure).first().boundingBox();
      assert.ok(Math.max(box.width, box.height) >= 240, `${tag}: figure ${box.width} × ${box.height}`);
      if (width >= 1280) assert.ok(inView(box, viewport), `${tag}: the figure in view`);
      else assert.ok(box.y < viewport.height, `${tag}: the figure starts in view`);
      assert.ok(inView(await lab.locator(control).first().boundingBox(), viewport), `${tag}: ${control} in view`);
    }
    const targets = await page
      .locator('attn-retrieval .tokens button, attn-query-builder .presets button')
      .evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect().height));
    assert.equal(targets.length, 9);
    assert.ok(
      targets.every((h) => h >= 44),
      `button heights ${targets}`,
    );
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('each lab’s one Export menu saves a picture and the scores and weights', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/retrieval`);
  await commitTo(page, ANSWERS);
  for (const [tag, stem] of [
    ['attn-retrieval', 'retrieve'],
    ['attn-query-builder', 'builder'],
  ]) {
    const lab = page.locator(tag);
    await lab.scrollIntoViewIfNeeded();
    await settled(lab);
    const files = await exportAll(page, lab);
    for (const kind of ['svg', 'png', 'csv', 'json']) assert.equal(files[kind].filename, `${stem}.${kind}`);
    assert.deepEqual([...files.png.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]); // a PNG
    assert.match(files.svg.text, /<svg[^>]*viewBox/, `${tag} svg`);
    assert.equal(files.csv.text.trim().split('\n').length, 6, `${tag} csv`);
    assert.equal(JSON.parse(files.json.text).retrieved, 2, `${tag} json`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});
