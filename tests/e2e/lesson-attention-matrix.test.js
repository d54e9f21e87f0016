// The attention-matrix lesson (#/attention-matrix) in headless Chromium, over
// http and from the single file: S and V drawn from the seed, A = softmax(S)
// as a 5 × 5 heatmap whose rows sum to 1, Y = AV of shape (5, 4), every check
// passing; focusing or hovering a row shows y_i as Σ_j A_ij v_j beside the
// heatmap (under it on a phone); Re-roll and the permalink; a bad entry in the
// S editor keeps the last valid S; positions counted from 0.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { settled, showFigure, singleFileUrl, useBrowserAndSite, watch } from './browser.js';
import { checkPredictFirst } from './exercise-steps.js';

const T = 5;
const DV = 4;
const site = useBrowserAndSite();
const LAB = 'attn-attention-matrix';

/** Rows of numbers from the heatmap's cells (their data-value attributes). */
function heatmapRows(page) {
  return page.locator(`${LAB} attn-heatmap rect.cell`).evaluateAll((cells) => {
    const rows = [];
    for (const cell of cells) {
      (rows[Number(cell.dataset.row)] ??= [])[Number(cell.dataset.col)] = Number(cell.getAttribute('data-value'));
    }
    return rows;
  });
}

/** The numbers of an attn-matrix table inside the lab, by its label. */
function matrixRows(page, label) {
  return page
    .locator(`${LAB} attn-matrix[label="${label}"] tbody tr`)
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.textContent))));
}

const lab = (page) => page.locator(LAB);
const labState = (page) => lab(page).evaluate((el) => ({ seed: el.seed, edited: el.edited, scores: el.scores }));

/**
 * Opens the lesson and shows the lab and each figure the tests read (figures draw only near the
 * viewport), then waits until the lab has settled: every nested figure, output and check drawn.
 */
async function open(page, url) {
  await page.goto(url);
  await showFigure(page, LAB);
  for (const figure of [
    'attn-matrix[label="Values V (T × d_v)"]',
    'attn-heatmap',
    'attn-matrix[label="Output Y = AV (T × d_v)"]',
  ]) {
    await showFigure(page, `${LAB} ${figure}`);
  }
  await settled(lab(page));
}

function assertRowStochastic(rows, what) {
  assert.equal(rows.length, T, `${what}: ${rows.length} rows`);
  rows.forEach((row, i) => {
    assert.equal(row.length, T, `${what}: row ${i} has ${row.length} cells`);
    assert.ok(
      row.every((a) => a >= 0),
      `${what}: row ${i} has a negative weight`,
    );
    const sum = row.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) <= 1e-6, `${what}: row ${i} sums to ${sum}`);
  });
}

async function assertChecksPass(page, count) {
  const statuses = await page.locator('attn-check').evaluateAll((checks) => checks.map((c) => c.dataset.status));
  assert.equal(statuses.length, count, `${statuses.length} checks on the page`);
  assert.deepEqual(statuses, Array(count).fill('pass'));
}

const targets = [
  ['the static site over http', () => `${site.server.url}#/attention-matrix`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/attention-matrix`],
];

for (const [name, url] of targets) {
  describe(name, () => {
    test('default: a 5 × 5 row-stochastic heatmap, Y of shape (5, 4), every check passing', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await open(page, url());
      assert.deepEqual(await labState(page).then((s) => [s.seed, s.edited]), [42, false]);
      const A = await heatmapRows(page);
      assertRowStochastic(A, 'A');
      const Y = await matrixRows(page, 'Output Y = AV (T × d_v)');
      assert.equal(Y.length, T);
      Y.forEach((row) => assert.equal(row.length, DV));
      const printout = await page.locator(`${LAB} attn-output pre`).innerText();
      assert.match(printout, /Attention Matrix A shape: \(5, 5\)/);
      assert.match(printout, /Output Matrix Y shape: \(5, 4\)/);
      await assertChecksPass(page, 3);
      // folded into the lab's Verified line, the check is still in the page (textContent, not innerText)
      assert.match(await page.locator(`${LAB} attn-check.shape .check`).textContent(), /Y\.shape = \(5, 4\)/);
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

test('focusing or hovering a cell shows its row of Y as a convex combination of the rows of V', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await open(page, `${site.server.url}#/attention-matrix`);
  const A = await heatmapRows(page);
  const V = await matrixRows(page, 'Values V (T × d_v)');
  const Y = await matrixRows(page, 'Output Y = AV (T × d_v)');

  await page.locator(`${LAB} attn-heatmap rect.cell[data-row="3"][data-col="1"]`).focus();
  await settled(lab(page)); // the focus set the row; the heatmap's and Y's highlights are drawn too
  const breakdown = page.locator(`${LAB} .breakdown[data-row="3"]`);
  await breakdown.waitFor();
  const weights = await breakdown
    .locator('tr.term')
    .evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-weight'))));
  weights.forEach((w, j) => assert.ok(Math.abs(w - A[3][j]) <= 1e-6, `weight ${j}: ${w} vs A[3][${j}] ${A[3][j]}`));
  assert.equal(await breakdown.locator('tr.current th').innerText(), '1');
  assert.equal(await breakdown.locator('.weight-sum').innerText(), '1.0000');
  const y = (await breakdown.locator('.y-row').getAttribute('data-values')).split(',').map(Number);
  for (let d = 0; d < DV; d++) {
    const mixture = weights.reduce((s, w, j) => s + w * V[j][d], 0); // Σ_j A_3j v_j, from the shown numbers
    assert.ok(Math.abs(y[d] - mixture) <= 1e-5, `y_3[${d}] = ${y[d]}, Σ_j A_3j v_j = ${mixture}`);
    assert.ok(Math.abs(y[d] - Y[3][d]) <= 5e-4, `y_3[${d}] = ${y[d]}, Y[3][${d}] shows ${Y[3][d]}`);
    const column = V.map((v) => v[d]);
    assert.ok(y[d] >= Math.min(...column) - 1e-6 && y[d] <= Math.max(...column) + 1e-6, `y_3[${d}] outside the hull`);
  }
  assert.equal(
    await page.locator(`${LAB} attn-heatmap rect.row-highlight`).getAttribute('data-row'),
    '3',
    'the heatmap outlines row 3',
  );
  assert.equal(await page.locator(`${LAB} attn-matrix[label="Output Y = AV (T × d_v)"] tr[data-highlight]`).count(), 1);
  // the linked views: row 3 of Y and row 1 of V (the value the cell weights) are marked
  const marked = (label) =>
    page
      .locator(`${LAB} attn-matrix[label="${label}"] tr[data-highlight] th`)
      .textContent()
      .then((t) => t.trim());
  assert.match(await marked('Output Y = AV (T × d_v)'), /^y3/);
  assert.match(await marked('Values V (T × d_v)'), /^v1/);

  await page.keyboard.press('ArrowUp'); // keyboard: row 2
  await page.locator(`${LAB} .breakdown[data-row="2"]`).waitFor();
  await page.locator(`${LAB} attn-heatmap rect.cell[data-row="0"][data-col="4"]`).hover();
  await page.locator(`${LAB} .breakdown[data-row="0"]`).waitFor();
  await settled(lab(page));
  assert.deepEqual(problems, []);
  await page.close();
});

test('Re-roll draws a new S (checks stay green) and the permalink restores its seed', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await open(page, `${site.server.url}#/attention-matrix`);
  const before = await labState(page);
  const A0 = await heatmapRows(page);
  await lab(page).getByRole('button', { name: 'Re-roll' }).click();
  await page.waitForFunction((seed) => document.querySelector('#am')?.seed !== seed, before.seed);
  await settled(lab(page)); // the seed field, the heatmap and the checks show the new draw
  const after = await labState(page);
  assert.notEqual(after.seed, before.seed);
  assert.notDeepEqual(after.scores, before.scores, 'S changed');
  assert.equal(after.edited, false);
  assert.equal(await page.locator(`${LAB} #seed`).inputValue(), String(after.seed));
  const A1 = await heatmapRows(page);
  assert.notDeepEqual(A1, A0, 'A changed');
  assertRowStochastic(A1, 'A after Re-roll');
  await assertChecksPass(page, 3);

  // The URL follows (a quarter second after the change); a fresh page from it shows the same draw.
  await page.waitForFunction((seed) => location.hash.includes(`am.seed=${seed}&`), after.seed);
  const link = page.url();
  const copy = await site.browser.context.newPage();
  await open(copy, link);
  const restored = await labState(copy);
  assert.equal(restored.seed, after.seed);
  assert.deepEqual(restored.scores, after.scores);
  assert.deepEqual(await heatmapRows(copy), A1);
  await copy.close();

  await lab(page).getByRole('button', { name: 'Reset', exact: true }).first().click();
  await page.waitForFunction(() => document.querySelector('#am')?.seed === 42);
  await settled(lab(page));
  assert.deepEqual(await heatmapRows(page), A0, 'Reset: back to seed 42');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the S editor: a bad entry shows an error and keeps the last valid S; a good one updates A', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await open(page, `${site.server.url}#/attention-matrix`);
  const before = await labState(page);
  const A0 = await heatmapRows(page);
  const cell = page.locator(`${LAB} attn-matrix-editor input[data-r="0"][data-c="0"]`);

  await cell.fill('abc');
  await settled(lab(page)); // the editor shows its error, and the lab has reacted (or not) to it
  const error = page.locator(`${LAB} attn-matrix-editor .field-error`);
  await error.waitFor();
  assert.match(await error.innerText(), /row 0, column 0 is “abc”, not a number/);
  assert.equal(await cell.getAttribute('aria-invalid'), 'true');
  assert.deepEqual(await labState(page), before, 'S keeps its last valid value');
  assert.deepEqual(await heatmapRows(page), A0);
  await assertChecksPass(page, 3);

  await cell.fill('1e9'); // out of range: also refused
  await settled(lab(page));
  await page.waitForFunction(() =>
    document
      .querySelector('#am')
      .shadowRoot.querySelector('attn-matrix-editor')
      .shadowRoot.querySelector('.field-error')
      ?.textContent.includes('above the maximum'),
  );
  assert.deepEqual((await labState(page)).scores, before.scores);

  await cell.fill('8'); // a valid entry: row 0 of A becomes nearly one-hot on key 0
  await settled(lab(page)); // A, the note and the checks are drawn from the new S
  await error.waitFor({ state: 'detached' });
  const edited = await labState(page);
  assert.equal(edited.edited, true);
  assert.equal(edited.scores[0][0], 8);
  assert.deepEqual(edited.scores.slice(1), before.scores.slice(1));
  await page.waitForFunction(
    () =>
      Number(
        document
          .querySelector('#am')
          .shadowRoot.querySelector('attn-heatmap')
          .shadowRoot.querySelector('rect.cell[data-row="0"][data-col="0"]')
          .getAttribute('data-value'),
      ) > 0.95,
  );
  const A1 = await heatmapRows(page);
  assertRowStochastic(A1, 'A after the edit');
  assert.deepEqual(A1.slice(1), A0.slice(1), 'the other rows of A are unchanged');
  assert.match(await lab(page).locator('.note').first().innerText(), /edited by hand/);
  await assertChecksPass(page, 3);

  // The permalink carries the edited S.
  await page.waitForFunction(() => /am\.edited=1&am\.scores=8,/.test(location.hash));
  const copy = await site.browser.context.newPage();
  await open(copy, page.url());
  assert.deepEqual(await labState(copy), edited);
  assert.deepEqual(await heatmapRows(copy), A1);
  await copy.close();
  assert.deepEqual(problems, []);
  await page.close();
});

/** Boxes (viewport pixels) of the heatmap's figure, its cells, the breakdown and the S editor. */
async function layout(page) {
  const box = (selector) => page.locator(`${LAB} ${selector}`).first().boundingBox();
  const cells = await page
    .locator(`${LAB} attn-heatmap rect.cell`)
    .evaluateAll((rs) => rs.map((r) => r.getBoundingClientRect()).map((b) => Math.min(b.width, b.height)));
  return {
    heatmap: await box('attn-heatmap svg'),
    figure: await box('attn-heatmap'), // the heatmap with its readout and caption
    breakdown: await box('.breakdown'),
    editor: await box('attn-matrix-editor'),
    smallestCell: Math.min(...cells),
  };
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`${viewport.width}×${viewport.height}: the heatmap and its row breakdown are seen together, cells of 44 px, text ≥ 11 px`, async () => {
    const page = await site.browser.context.newPage();
    await page.setViewportSize(viewport);
    const { problems } = watch(page);
    await open(page, `${site.server.url}#/attention-matrix`);
    await lab(page).evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
    const cell = page.locator(`${LAB} attn-heatmap rect.cell[data-row="2"][data-col="4"]`);
    await cell.hover();
    await page.locator(`${LAB} .breakdown[data-row="2"]`).waitFor();
    await settled(lab(page));
    const { heatmap, figure, breakdown, editor, smallestCell } = await layout(page);
    const inView = (b) => b.y >= 0 && b.y + b.height <= viewport.height;
    if (viewport.width === 1280) {
      assert.ok(breakdown.x >= heatmap.x + heatmap.width, 'the breakdown sits beside the heatmap');
      assert.ok(breakdown.y < heatmap.y + heatmap.height, 'at the same height');
      assert.ok(
        inView(heatmap) && inView(breakdown),
        `both in one viewport: ${JSON.stringify({ heatmap, breakdown })}`,
      );
      assert.ok(inView(editor), `S, which moves the heatmap, is in the same viewport: ${JSON.stringify(editor)}`);
    } else {
      const gap = breakdown.y - (figure.y + figure.height);
      assert.ok(gap >= 0 && gap < 40, `the breakdown comes directly under the heatmap (${gap} px)`);
      assert.ok(breakdown.x < figure.x + figure.width, 'stacked, not side by side');
    }
    assert.ok(Math.max(heatmap.width, heatmap.height) >= 240, `the heatmap is ${heatmap.width} px wide`);
    assert.ok(smallestCell >= 44, `heatmap cells are ${smallestCell} px`);
    const seedRow = await page
      .locator(`${LAB} .seed-row :is(input, button)`)
      .evaluateAll((els) => els.map((e) => [e.textContent.trim() || e.id, e.getBoundingClientRect().height]));
    assert.equal(seedRow.length, 3);
    for (const [what, h] of seedRow) assert.ok(h >= 44, `${what} is ${h} px tall`);
    const small = await page.evaluate(() => {
      const found = [];
      const visit = (root) => {
        for (const el of root.querySelectorAll('*')) {
          if (el.localName === 'text' && el.textContent.trim() !== '' && el.checkVisibility()) {
            const px = parseFloat(getComputedStyle(el).fontSize) * Math.abs(el.getScreenCTM().a);
            if (px < 11) found.push([el.textContent.trim(), px]);
          }
          if (el.shadowRoot) visit(el.shadowRoot);
        }
      };
      visit(document);
      return found;
    });
    assert.deepEqual(small, [], 'SVG text under 11 px as rendered');
    // keyboard: focus drives the same breakdown
    await cell.focus();
    await page.keyboard.press('ArrowDown');
    await page.locator(`${LAB} .breakdown[data-row="3"] tr.current`).waitFor();
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('positions, keys and value entries are counted from 0 in the formulas, labels and tables', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await open(page, `${site.server.url}#/attention-matrix`);
  const tex = (await page.locator('.lesson-body annotation').allTextContents()).join('\n');
  assert.doesNotMatch(tex, /_\{[ijk]=1\}/);
  assert.match(tex, /\\sum_\{j=0\}\^\{T-1\} A_\{ij\} = 1/);
  assert.match(tex, /y_i = \\sum_\{j=0\}\^\{T-1\}/);
  const heads = (label) => page.locator(`${LAB} attn-matrix[label="${label}"] thead th`).allTextContents();
  assert.deepEqual(
    (await heads('Values V (T × d_v)')).map((t) => t.trim()),
    ['d0', 'd1', 'd2', 'd3'],
  );
  assert.deepEqual(
    (await heads('Output Y = AV (T × d_v)')).map((t) => t.trim()),
    ['d0', 'd1', 'd2', 'd3'],
  );
  const ticks = await page.locator(`${LAB} attn-heatmap .axes text`).allTextContents();
  assert.deepEqual(ticks, ['0', '1', '2', '3', '4', '0', '1', '2', '3', '4']);
  const terms = await page.locator(`${LAB} .breakdown tbody th`).allTextContents();
  assert.deepEqual(terms, ['0', '1', '2', '3', '4']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('predict first: the three exercises hide their figures until an attempt; each likely slip gets its own feedback', async () => {
  const page = await site.browser.context.newPage();
  await page.addInitScript(() => localStorage.clear()); // a learner who has not tried them yet
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/attention-matrix`);
  const weights = await checkPredictFirst(page, {
    id: 'am-weight',
    mistakes: [
      ['0.5', /sum of the logits/],
      ['0.368', /largest exponential/],
      ['0.2', /1\/5 each/],
    ],
    right: '0.218',
    figure: 'attn-attention',
  });
  const row = await weights.locator('attn-heatmap').evaluate((el) => Array.from(el.values?.data ?? el.values.flat()));
  assert.deepEqual(
    row.map((x) => x.toFixed(3)),
    ['0.218', '0.080', '0.592', '0.080', '0.029'],
  );
  await checkPredictFirst(page, {
    id: 'am-output',
    mistakes: [
      ['1.4', /column 1 of A/],
      ['2.667', /plain mean/],
      ['4.4', /row 0 of A/],
      ['2.25', /entry 1 of y1/],
    ],
    right: '3.5',
    figure: 'attn-matrix',
  });
  await checkPredictFirst(page, {
    id: 'am-axis',
    mistakes: [
      ['Nothing changes: S is square, so both axes give the same matrix.', /symmetric/],
      ['Both the rows and the columns sum to 1.', /doubly stochastic/],
      ['Some weights become negative.', /exponentiates/],
    ],
    right: 'Every column sums to 1, and the rows in general do not.',
    figure: 'attn-heatmap',
  });
  // Try another draws a fresh question from the engine (variants.js): a new row of S to read
  const exercise = page.locator('attn-exercise#am-weight');
  await exercise.getByRole('button', { name: 'Try another' }).click();
  const prompt = exercise.locator('p.task.variant');
  await prompt.waitFor();
  assert.match(
    await prompt.innerText(),
    /^Row \d of S is \(-?\d(, -?\d){4}\)\. What weight A\[\d, \d\] does query \d give to key \d\?/,
  );
  assert.equal(
    await exercise
      .getByRole('textbox', { name: 'Your answer' })
      .evaluate((el) => el === el.getRootNode().activeElement),
    true,
  );
  assert.deepEqual(problems, []);
  await page.close();
});
