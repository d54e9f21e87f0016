// The multi-head lesson (#/multi-head) in headless Chromium, over http and from
// the single file: B, h, T, d_v = 2, 3, 5, 4 by default, one row-stochastic
// map per (sequence, head) in the grid and the picked one large beside it, the
// shapes in the diagram, the printout and the audit table, every check passing;
// changing h (and T, d_v) updates all of them; a bad size shows an error and
// keeps the last valid sizes; Re-roll. And what a learner reads: no query or key
// before lesson 6 defines them, positions from 0, text of at least 11 px, the
// sizes in view with the grid they change.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  exportAll,
  settled,
  singleFileUrl,
  steadyInView,
  PNG_EXPORT_CSP,
  useBrowserAndSite,
  watch,
} from './browser.js';
import { checkPredictFirst } from './exercise-steps.js';

const site = useBrowserAndSite({ csp: PNG_EXPORT_CSP }); // its PNG exports draw blob: images
const LAB = 'attn-multi-head';

const shapeText = (dims) => `(${dims.join(', ')})`;

async function open(page, url) {
  await page.setViewportSize({ width: 1000, height: 1800 });
  await page.goto(url);
  await settled(page.locator(LAB));
}

/** After an action: waits for the lab to draw its new state. */
const labSettled = (page) => settled(page.locator(LAB));

/**
 * Every map of the grid as { batch, head, rows } (each map is a button holding one rect per weight).
 * The grid is scrolled into view (figures draw when visible).
 */
async function heatmaps(page) {
  const grid = page.locator(`${LAB} .maps`);
  await grid.scrollIntoViewIfNeeded();
  await labSettled(page);
  return grid.evaluate((el) =>
    [...el.querySelectorAll('button.tile')].map((tile) => {
      const rows = [];
      for (const cell of tile.querySelectorAll('rect[data-value]')) {
        (rows[Number(cell.dataset.row)] ??= [])[Number(cell.dataset.col)] = Number(cell.getAttribute('data-value'));
      }
      return { batch: Number(tile.dataset.batch), head: Number(tile.dataset.head), rows };
    }),
  );
}

function assertGrid(maps, [B, h, T], what) {
  assert.equal(maps.length, B * h, `${what}: ${maps.length} maps, expected B·h = ${B * h}`);
  const pairs = maps.map((m) => `${m.batch},${m.head}`);
  const expected = [];
  for (let b = 0; b < B; b++) for (let k = 0; k < h; k++) expected.push(`${b},${k}`);
  assert.deepEqual(pairs, expected, `${what}: one map per (batch, head)`);
  for (const m of maps) {
    assert.equal(m.rows.length, T, `${what}: A[${m.batch}, ${m.head}] has ${m.rows.length} rows`);
    m.rows.forEach((row, i) => {
      assert.equal(row.length, T);
      const sum = row.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) <= 1e-6, `${what}: A[${m.batch}, ${m.head}] row ${i} sums to ${sum}`);
      assert.ok(row.every((a) => a >= 0));
    });
  }
}

async function assertShapes(page, [B, h, T, dv]) {
  const diagram = page.locator(`${LAB} attn-shape-diagram`);
  await diagram.scrollIntoViewIfNeeded();
  const sizes = `${shapeText([B, h, T, T])} × ${shapeText([B, h, T, dv])} → ${shapeText([B, h, T, dv])}`;
  await page.waitForFunction(
    (text) =>
      document.querySelector('#mh').shadowRoot.querySelector('attn-shape-diagram').shadowRoot.querySelector('.sizes')
        ?.textContent === text,
    sizes,
  );
  assert.equal(await diagram.locator('text.formula').textContent(), '(B, h, T, T) × (B, h, T, d_v) → (B, h, T, d_v)');
  const audit = await page
    .locator(`${LAB} table.audit tbody tr`)
    .evaluateAll((trs) => trs.map((tr) => [tr.dataset.object, tr.querySelector('.live-shape').textContent]));
  assert.deepEqual(audit, [
    ['V', shapeText([B, h, T, dv])],
    ['S', shapeText([B, h, T, T])],
    ['A', shapeText([B, h, T, T])],
    ['Y', shapeText([B, h, T, dv])],
  ]);
  const printout = await page.locator(`${LAB} attn-output pre`).innerText();
  assert.match(printout, new RegExp(`A shape: \\(${B}, ${h}, ${T}, ${T}\\)`));
  assert.match(printout, new RegExp(`V shape: \\(${B}, ${h}, ${T}, ${dv}\\)`));
  assert.match(printout, new RegExp(`Y shape: \\(${B}, ${h}, ${T}, ${dv}\\)`));
}

async function assertChecksPass(page) {
  const statuses = await page.locator('attn-check').evaluateAll((checks) => checks.map((c) => c.dataset.status));
  assert.deepEqual(statuses, ['pass', 'pass']);
}

const sizeInput = (page, field) => page.locator(`${LAB} input[data-field="${field}"]`);

const targets = [
  ['the static site over http', () => `${site.server.url}#/multi-head`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/multi-head`],
];

for (const [name, url] of targets) {
  describe(name, () => {
    test('default B, h, T, d_v = 2, 3, 5, 4: six row-stochastic heatmaps, the shapes, every check passing', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await open(page, url());
      const sizes = await page.locator(LAB).evaluate((el) => [el.batch, el.heads, el.length, el.dv]);
      assert.deepEqual(sizes, [2, 3, 5, 4]);
      assertGrid(await heatmaps(page), [2, 3, 5], 'default');
      await assertShapes(page, [2, 3, 5, 4]);
      await assertChecksPass(page);
      assert.match(
        await page.locator(`${LAB} attn-check.row-sums .check`).textContent(), // inside the closed Verified line
        /over all 30 rows \(B·h·T\) of A/,
      );
      assert.match(await page.locator(`${LAB} attn-code pre`).innerText(), /B, h, T, d_v = 2, 3, 5, 4/);
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

test('changing h (then T and d_v) updates the grid, the shapes and the code; a bad size keeps the last valid one', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await open(page, `${site.server.url}#/multi-head`);

  await sizeInput(page, 'heads').fill('4');
  await labSettled(page);
  assertGrid(await heatmaps(page), [2, 4, 5], 'h = 4');
  await assertShapes(page, [2, 4, 5, 4]);
  await assertChecksPass(page);
  assert.match(await page.locator(`${LAB} attn-code pre`).innerText(), /B, h, T, d_v = 2, 4, 5, 4/);
  await page.waitForFunction(() => location.hash.includes('mh.heads=4'));

  await sizeInput(page, 'heads').fill('9'); // above the maximum of 6
  await labSettled(page);
  const error = page.locator(`${LAB} .field-error`);
  assert.match(await error.innerText(), /h is 9, above the maximum 6; a whole number from 1 to 6/);
  assert.equal(await sizeInput(page, 'heads').getAttribute('aria-invalid'), 'true');
  assert.equal(await page.locator(LAB).evaluate((el) => el.heads), 4, 'h keeps its last valid value');
  assert.equal(await page.locator(`${LAB} button.tile`).count(), 8);
  await assertChecksPass(page);

  await sizeInput(page, 'heads').fill('2.5'); // not a whole number
  await labSettled(page);
  assert.match(await error.innerText(), /whole number/);
  assert.equal(await page.locator(LAB).evaluate((el) => el.heads), 4);

  await sizeInput(page, 'heads').fill('1');
  await labSettled(page);
  assert.equal(await error.count(), 0);
  await sizeInput(page, 'length').fill('3');
  await sizeInput(page, 'dv').fill('2');
  await labSettled(page);
  assert.equal(await page.locator(LAB).evaluate((el) => el.dv), 2);
  assertGrid(await heatmaps(page), [2, 1, 3], 'h = 1, T = 3');
  await assertShapes(page, [2, 1, 3, 2]);
  await assertChecksPass(page);
  assert.deepEqual(problems, []);
  await page.close();
});

test('Re-roll draws new logits; every row still sums to 1 and Reset restores the defaults', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await open(page, `${site.server.url}#/multi-head`);
  const before = await heatmaps(page);
  const seed = await page.locator(LAB).evaluate((el) => el.seed);
  await page.locator(LAB).getByRole('button', { name: 'Re-roll' }).click();
  await labSettled(page);
  assert.notEqual(await page.locator(LAB).evaluate((el) => el.seed), seed);
  const after = await heatmaps(page);
  assertGrid(after, [2, 3, 5], 'after Re-roll');
  assert.notDeepEqual(after, before, 'the weights changed');
  await assertChecksPass(page);

  await sizeInput(page, 'batch').fill('3');
  await labSettled(page);
  assert.equal(await page.locator(`${LAB} button.tile`).count(), 9);
  await page.locator(LAB).getByRole('button', { name: 'Reset', exact: true }).first().click();
  await labSettled(page);
  assert.deepEqual(await page.locator(LAB).evaluate((el) => [el.seed, el.batch]), [42, 2]);
  assert.deepEqual(await heatmaps(page), before, 'Reset: back to the default draw');
  assert.equal(await sizeInput(page, 'batch').inputValue(), '2');
  assert.deepEqual(problems, []);
  await page.close();
});

test('picking a map in the grid shows it large, with the same weights; arrow keys move the pick', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await open(page, `${site.server.url}#/multi-head`);
  const maps = await heatmaps(page);
  const detail = page.locator(`${LAB} .detail attn-heatmap`);
  const shown = () =>
    detail.evaluate((map) => {
      const rows = [];
      for (const cell of map.shadowRoot.querySelectorAll('rect.cell')) {
        (rows[Number(cell.dataset.row)] ??= [])[Number(cell.dataset.col)] = Number(cell.getAttribute('data-value'));
      }
      return { batch: Number(map.dataset.batch), head: Number(map.dataset.head), rows };
    });
  await steadyInView(detail, detail); // the large map draws once near the viewport, after the grid
  assert.deepEqual(await shown(), maps[0], 'A[0, 0] is shown large at first');
  await page.locator(`${LAB} button.tile[data-batch="1"][data-head="2"]`).click();
  await labSettled(page);
  await settled(detail);
  assert.deepEqual(await shown(), maps[5]);
  assert.equal(await page.locator(`${LAB} button.tile[aria-pressed="true"]`).getAttribute('data-head'), '2');
  await page.keyboard.press('ArrowUp');
  await labSettled(page);
  await settled(detail);
  assert.deepEqual(await shown(), maps[2], 'ArrowUp: A[0, 2]');
  assert.equal(await page.evaluate(() => document.activeElement.shadowRoot?.activeElement?.dataset.batch), '0');
  assert.deepEqual(problems, []);
  await page.close();
});

/** The lesson's text as rendered: the article and, inside it, the lab's shadow DOM (code cells aside). */
const renderedText = (page) =>
  page
    .locator('article, main')
    .first()
    .evaluate((root) => {
      const parts = [];
      const visit = (node) => {
        for (const child of node.childNodes) {
          if (child.nodeType === Node.TEXT_NODE) parts.push(child.textContent);
          else if (child.nodeType === Node.ELEMENT_NODE && !['STYLE', 'SCRIPT', 'ATTN-CODE'].includes(child.tagName)) {
            if (child.shadowRoot) visit(child.shadowRoot);
            visit(child);
          }
        }
      };
      visit(root);
      return parts.join(' ').replace(/\s+/g, ' ');
    });

test('regression: lesson 5 never uses queries or keys (lesson 6 defines them), and counts positions from 0', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await open(page, `${site.server.url}#/multi-head`);
  await heatmaps(page);
  const text = await renderedText(page);
  assert.match(text, /Dimensional audit/, 'the lab is part of the text read');
  const words = text.replace(/arrow keys/gi, '');
  assert.doesNotMatch(words, /quer(y|ies)|\bkeys?\b/i, 'no query or key in lesson 5');
  const audit = await page.locator(`${LAB} table.audit tr[data-object="Y"]`).textContent();
  // typeset: v_0 and v_{T-1} with their indices as subscripts, T − 1 spaced as a difference
  assert.match(audit.replace(/\s+/g, ' '), /Conv\(v0, ?…, ?vT − 1\)/);
  assert.doesNotMatch(text, /v1, …, vT\b|v₁/);
  assert.deepEqual(problems, []);
  await page.close();
});

/** The smallest SVG text inside `host` as rendered (px), and the smallest cell of the large map. */
const measure = (host) =>
  host.evaluate((el) => {
    let text = Infinity;
    const visit = (root) => {
      for (const node of root.querySelectorAll('*')) {
        if (node instanceof SVGTextElement && node.textContent.trim() && node.getClientRects().length) {
          const m = node.getScreenCTM();
          text = Math.min(text, parseFloat(getComputedStyle(node).fontSize) * Math.hypot(m.a, m.b));
        }
        if (node.shadowRoot) visit(node.shadowRoot);
      }
    };
    visit(el.shadowRoot);
    const cells = [...el.shadowRoot.querySelector('.detail attn-heatmap').shadowRoot.querySelectorAll('rect.cell')];
    const tiles = [...el.shadowRoot.querySelectorAll('button.tile')].map((t) => t.getBoundingClientRect());
    return {
      text,
      cell: Math.min(...cells.map((c) => c.getBoundingClientRect().width)),
      tile: Math.min(...tiles.map((t) => Math.min(t.width, t.height))),
      tileText: el.shadowRoot.querySelectorAll('button.tile text').length,
    };
  });

for (const [width, height] of [
  [1280, 900],
  [390, 844],
]) {
  test(`at ${width}×${height}, T = 8 and 24 maps: text ≥ 12 px, numbers only in cells ≥ 28 px, 44 px targets, sizes in view with the grid`, async () => {
    const page = await site.browser.context.newPage();
    const { problems } = watch(page);
    await page.setViewportSize({ width, height });
    await page.goto(`${site.server.url}#/multi-head?mh.batch=4&mh.heads=6&mh.length=8`);
    const lab = page.locator(LAB);
    await lab.scrollIntoViewIfNeeded();
    await settled(lab);
    await lab.locator('.detail attn-heatmap').scrollIntoViewIfNeeded();
    await settled(lab);
    const m = await measure(lab);
    assert.ok(m.text >= 12 - 0.05, `smallest figure text ${m.text} px`);
    assert.ok(m.cell >= 28, `cells of the large map ${m.cell} px wide hold numbers`);
    assert.equal(m.tileText, 0, 'the small maps print no numbers');
    assert.match(await lab.locator('.overview .note').textContent(), /colours only/);
    assert.ok(m.tile >= 44, `map buttons ${m.tile} px`);
    const toolbars = await lab.evaluate(
      (el) => [...el.shadowRoot.querySelectorAll('.toolbar')].filter((t) => t.checkVisibility()).length,
    );
    assert.equal(toolbars, 1, 'the lab has one toolbar; the maps have none');
    // the grid and the sizes that change it, in one view
    await lab.locator('.maps').evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
    const viewport = page.viewportSize();
    const grid = await lab.locator('.maps').boundingBox();
    const stepper = await lab.locator('input[data-field="heads"]').boundingBox();
    assert.ok(Math.max(grid.width, grid.height) >= 240, `grid ${grid.width} × ${grid.height}`);
    assert.ok(stepper.y >= 0 && stepper.y + stepper.height <= viewport.height, `h field at y = ${stepper.y}`);
    assert.ok(stepper.height >= 44);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('the lab’s one Export menu saves the grid as SVG and PNG and every weight as CSV and JSON', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await open(page, `${site.server.url}#/multi-head`);
  const files = await exportAll(page, page.locator(LAB));
  for (const kind of ['svg', 'png', 'csv', 'json']) assert.equal(files[kind].filename, `mh.${kind}`);
  assert.deepEqual([...files.png.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]); // a PNG
  assert.match(files.svg.text, /<svg[^>]*viewBox/);
  assert.equal(files.csv.text.trim().split('\n').length, 1 + 2 * 3 * 5 * 5);
  assert.deepEqual(JSON.parse(files.json.text).shapes.A, [2, 3, 5, 5]);
  assert.deepEqual(problems, []);
  await page.close();
});

test('predict first: the exercises hide their figures until an attempt; each likely slip gets its own feedback', async () => {
  const page = await site.browser.context.newPage();
  await page.addInitScript(() => localStorage.clear()); // a learner who has not tried them yet
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/multi-head`);
  await checkPredictFirst(page, {
    id: 'mh-rows',
    mistakes: [
      ['32', /counts the maps/],
      ['3200', /counts every weight/],
      ['40', /leaves out the heads/],
      ['80', /leaves out the batch/],
    ],
    right: '320',
    figure: 'attn-shape-diagram',
  });
  const map = await checkPredictFirst(page, {
    id: 'mh-entry',
    mistakes: [
      ['In head 1 of sequence 0, position 4 takes 93% of its mixture from position 3.', /whose weights sum to 1/],
      ['In every head of sequence 0, position 3 mixes mostly position 4.', /its own map/],
      ["Position 4 is the reason for the model's output at position 3.", /analysis across layers/],
    ],
    right: 'In head 1 of sequence 0, the output of position 3 is 93% the value of position 4.',
    figure: 'attn-heatmap',
  });
  assert.equal(await map.getAttribute('highlight-row'), '3');
  assert.deepEqual(problems, []);
  await page.close();
});
