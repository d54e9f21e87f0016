// The causal-masking lesson in headless Chromium, over http and from the
// single file: the causal example's checks (zero weight on the future,
// agreement with the float64 reference), the mask painter by mouse and
// keyboard, a fully masked row, the predict-first Exercises 1 and 2 (their
// labs wait until the learner commits), and Exercise 3 (the width-3 local
// window), checked only on Check and marked correct only for the right mask.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readFile } from 'node:fs/promises';
import { exportFrom, settled, singleFileUrl, useBrowserAndSite, watch, scrollThrough } from './browser.js';
import { commitTo, freshLesson, predictFirst, tryAnother } from './exercise-steps.js';
import { smallestFigureText, smallestHitArea } from './lab-layout.js';

const site = useBrowserAndSite();
const T = 5;

const targets = [
  ['the static site over http', () => `${site.server.url}#/causal-masking`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/causal-masking`],
];

/** The answers that open the labs, as a learner who has tried Exercises 1 and 2. */
const ANSWERS = { 'future-count': 10, 'empty-row': /None at all/ };

async function open(url, labs = ['attn-causal-attention', 'attn-mask-lab#painter']) {
  const page = await site.browser.context.newPage();
  const watcher = watch(page);
  await page.goto(url);
  await commitTo(page, ANSWERS);
  for (const tag of labs) {
    await page.locator(tag).scrollIntoViewIfNeeded();
    await settled(page.locator(tag));
  }
  await scrollThrough(page); // the figures inside the labs draw once visible
  for (const tag of labs) await settled(page.locator(tag));
  return { page, problems: watcher.problems };
}

/** The data-status of every check in the labs `tags`, once those labs have settled. */
async function checkStatuses(page, tags = ['attn-causal-attention', 'attn-mask-lab#painter']) {
  for (const tag of tags) await settled(page.locator(tag));
  return page
    .locator(tags.map((tag) => `${tag} attn-check`).join(', '))
    .evaluateAll((cs) => cs.map((c) => c.getAttribute('data-status')));
}

/** The painter's cells as rows of 0/1 (aria-pressed). */
const painted = (painter) =>
  painter.locator('button[data-row]').evaluateAll((cells, n) => {
    const rows = Array.from({ length: n }, () => Array(n).fill(0));
    for (const c of cells)
      rows[Number(c.dataset.row)][Number(c.dataset.col)] = c.getAttribute('aria-pressed') === 'true' ? 1 : 0;
    return rows;
  }, T);

/** Row r of a lab's weights heatmap, read from its cells' data-value. */
const heatmapRow = (lab, r) =>
  lab
    .locator('attn-heatmap.weights')
    .locator(`[data-row="${r}"][data-value]`)
    .evaluateAll((cells) => cells.sort((a, b) => a.dataset.col - b.dataset.col).map((c) => Number(c.dataset.value)));

const cell = (painter, i, j) => painter.locator(`button[data-row="${i}"][data-col="${j}"]`);
const causal = Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => (j <= i ? 1 : 0)));

for (const [name, url] of targets) {
  describe(name, () => {
    test('predict first: Exercises 1 and 2 hide the labs that answer them; mistakes get their own feedback', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await page.goto(url());
      await freshLesson(page, 'causal-masking');
      await predictFirst(page, {
        id: 'future-count',
        figures: ['#causal'],
        mistakes: [
          [15, /entries that are kept/],
          [20, /every entry off the diagonal/],
          [6, /one short in every row/],
          [25, /Not every entry/],
        ],
        right: 10,
      });
      assert.equal(await page.locator('#painter').isVisible(), false, 'the painter waits for Exercise 2');
      await predictFirst(page, {
        id: 'empty-row',
        figures: ['#painter'],
        mistakes: [
          [/Weights of 0 on every key/, /what the formula divides it by/],
          [/Equal weights of 1\/5/, /the mask removed every key/],
          [/All the weight on key 2/, /blocked key 2 as well/],
        ],
        right: /None at all/,
      });
      await predictFirst(page, {
        id: 'window-conv',
        figures: ['#band-conv'],
        mistakes: [
          [/Nowhere/, /does each row of the weights hold the same three numbers/],
          [/still reaches every key/, /a weight of exactly 0/],
          [/must be ≥ 0 and sum to 1/, /comes out of a softmax/],
        ],
        right: /vary by row/,
      });
      // Try another: the count for another T
      await tryAnother(page, 'future-count', (prompt) => {
        const n = Number(prompt.match(/length T = (\d+)/)[1]);
        return (n * (n - 1)) / 2;
      });
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('default state: every check passes, zero weight on the future, ≤ 1e-6 from the reference', async () => {
      const { page, problems } = await open(url());
      const statuses = await checkStatuses(page);
      assert.equal(statuses.length, 6);
      assert.ok(
        statuses.every((s) => s === 'pass'),
        `statuses: ${statuses}`,
      );
      const lab = page.locator('attn-causal-attention');
      assert.equal(Number(await lab.locator('.future').first().getAttribute('data-value')), 0);
      const diff = Number(await lab.locator('.max-diff').getAttribute('data-value'));
      assert.ok(diff >= 0 && diff <= 1e-6, `max abs diff shown: ${diff}`);
      assert.match(
        await lab.locator('attn-output pre').textContent(),
        /total attention weight from position 0 onto FUTURE positions: 0\.000000 {2}\(should be exactly 0\)/,
      );
      // the painter starts on the causal preset
      const painter = page.locator('attn-mask-lab#painter attn-mask-painter');
      assert.deepEqual(await painted(painter), causal);
      assert.equal(await painter.locator('button[data-preset="causal"]').getAttribute('aria-pressed'), 'true');
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('the window-3 exercise: wrong masks are not accepted, the band is', async () => {
      const { page, problems } = await open(url(), ['attn-local-window']);
      const exercise = page.locator('attn-exercise#window3');
      await exercise.getByRole('button', { name: 'Reset Exercise 3: a local window of width 3' }).click();
      await settled(exercise);
      assert.equal(await exercise.getAttribute('data-status'), 'pending');
      const painter = exercise.locator('attn-mask-painter');
      const check = exercise.getByRole('button', { name: 'Check', exact: true });
      const verdict = exercise.locator('.verdict');

      // wrong: the causal triangle
      await painter.locator('button[data-preset="causal"]').click();
      await check.click();
      await settled(exercise);
      assert.equal(await exercise.getAttribute('data-status'), 'fail');
      const wrong = await verdict.textContent();
      assert.match(wrong, /Not yet/);
      assert.match(wrong, /10 cells are wrong: 4 cells inside the band, \|i − j\| ≤ 1, blocked; 6 cells below it/);
      // the lab held back for it now shows the band: a right mask after this no longer solves it
      assert.match(wrong, /The figure below now shows the answer, so this counts as shown, not solved/);
      assert.equal(await exercise.getAttribute('data-progress'), 'shown');

      // build the band from None with the mouse: block every cell with |i − j| > 1; painting checks nothing
      const attempts = () =>
        page.evaluate(() => JSON.parse(localStorage.getItem('attnbook:exercise:causal-masking/window3')).attempts);
      const reports = await page.evaluateHandle(() => {
        const seen = [];
        document.addEventListener('attn-progress', (e) => e.detail.exercise === 'window3' && seen.push(e.detail));
        return seen;
      });
      await painter.locator('button[data-preset="none"]').click();
      for (let i = 0; i < T; i++) {
        for (let j = 0; j < T; j++) if (Math.abs(i - j) > 1) await cell(painter, i, j).click();
      }
      // one cell too many, by keyboard: nothing is checked until Check
      await cell(painter, 0, 0).focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Space'); // (q0, k2): allowed again, wrong
      await settled(exercise);
      assert.equal(await attempts(), 1, 'painting is not an attempt');
      assert.equal(await reports.evaluate((seen) => seen.length), 0, 'painting sends no report');
      assert.match(
        await verdict.textContent(),
        /10 cells are wrong: 4 cells inside the band/,
        'the last verdict stays',
      );
      await check.click();
      await settled(exercise);
      assert.equal(await exercise.getAttribute('data-status'), 'fail');
      assert.match(
        await verdict.textContent(),
        /1 cell is wrong: 1 cell above it \(keys more than one step ahead\) allowed\./,
      );
      assert.equal(await attempts(), 2);
      await cell(painter, 0, 2).focus();
      await page.keyboard.press('Enter'); // blocked again: the band, not checked yet
      await settled(exercise);
      assert.equal(await exercise.getAttribute('data-status'), 'fail');
      assert.equal(await attempts(), 2);
      await check.focus();
      await page.keyboard.press('Enter');
      await settled(exercise);
      assert.equal(await exercise.getAttribute('data-status'), 'pass');
      assert.match(await verdict.textContent(), /Correct/);
      assert.equal(await attempts(), 3);
      assert.deepEqual(
        await reports.evaluate((seen) => seen.map((d) => [d.status, d.attempts])),
        [
          ['shown', 2],
          ['shown', 3],
        ],
        'one report per Check',
      );
      assert.deepEqual(
        await painted(painter),
        Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => (Math.abs(i - j) <= 1 ? 1 : 0))),
      );
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

test('the mask painter toggles cells by mouse and keyboard and drives the weights', async () => {
  const { page, problems } = await open(`${site.server.url}#/causal-masking`);
  const lab = page.locator('attn-mask-lab#painter');
  const painter = lab.locator('attn-mask-painter');
  const weightsRow0 = () => heatmapRow(lab, 0);
  assert.deepEqual(await weightsRow0(), [1, 0, 0, 0, 0]);

  // mouse: allow (q0, k1)
  await cell(painter, 0, 1).click();
  await settled(lab);
  assert.equal(await cell(painter, 0, 1).getAttribute('aria-pressed'), 'true');
  assert.equal(await painter.locator('button[data-preset="custom"]').getAttribute('aria-pressed'), 'true');
  const row0 = await weightsRow0();
  assert.ok(row0[0] > 0 && row0[1] > 0 && row0[0] + row0[1] > 0.999999, `row 0: ${row0}`);

  // keyboard: from (q0, k1) down to (q1, k1)… right to (q1, k3), Space allows it, Enter blocks it again
  await cell(painter, 0, 1).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await settled(lab);
  assert.equal(await cell(painter, 1, 3).evaluate((b) => b.matches(':focus')), true);
  await page.keyboard.press('Space');
  await settled(lab);
  assert.equal(await cell(painter, 1, 3).getAttribute('aria-pressed'), 'true');
  await page.keyboard.press('Enter');
  await settled(lab);
  assert.equal(await cell(painter, 1, 3).getAttribute('aria-pressed'), 'false');

  // presets
  await painter.locator('button[data-preset="none"]').click();
  await settled(lab);
  assert.ok((await painted(painter)).flat().every((x) => x === 1));
  // no local-window preset above Exercise 3: it would paint that exercise's answer
  assert.equal(await painter.locator('button[data-preset="window"]').count(), 0);
  assert.equal(await painter.locator('button.preset').count(), 3, 'none, causal, custom');
  const statuses = await checkStatuses(page, ['attn-mask-lab#painter']);
  assert.deepEqual(statuses, ['pass', 'pass', 'pass']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a fully masked row shows zero weights, a zero output and the explanation', async () => {
  const { page, problems } = await open(`${site.server.url}#/causal-masking`);
  const lab = page.locator('attn-mask-lab#painter');
  const painter = lab.locator('attn-mask-painter');
  assert.equal(await lab.locator('.fully-masked').count(), 0);
  for (const j of [0, 1, 2]) await cell(painter, 2, j).click(); // causal row 2 allowed k0..k2: block them
  await settled(lab);
  // only row 2 changed: the first click turns the preset to Custom, which must not move the grid under the
  // pressed pointer (it once did, and row 1 got painted too)
  const expected = causal.map((row, i) => (i === 2 ? [0, 0, 0, 0, 0] : row));
  assert.deepEqual(await painted(painter), expected);
  const box = lab.locator('.fully-masked');
  assert.equal(await box.getAttribute('data-rows'), '2');
  assert.equal(await box.getAttribute('data-count'), '2'); // row 2 in each of the B = 2 batches
  const zeros = async (sel) => (await box.locator(sel).getAttribute('data-values')).split(',').map(Number);
  assert.deepEqual(await zeros('.zero-weights'), [0, 0, 0, 0, 0]);
  assert.deepEqual(await zeros('.zero-output'), [0, 0, 0, 0, 0, 0, 0, 0]);
  const text = await box.textContent();
  assert.match(text, /NaN/);
  assert.match(text, /fullyMaskedRows = 2/);
  assert.deepEqual(await heatmapRow(lab, 2), [0, 0, 0, 0, 0]);
  assert.deepEqual(await checkStatuses(page, ['attn-mask-lab#painter']), ['pass', 'pass', 'pass']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a permalink restores a painted mask: the band given in the URL passes the exercise', async () => {
  const band = Array.from({ length: T }, (_, i) =>
    Array.from({ length: T }, (_, j) => (Math.abs(i - j) <= 1 ? 1 : 0)).join(','),
  ).join(';');
  const { page, problems } = await open(
    `${site.server.url}#/causal-masking?window3-mask.preset=custom&window3-mask.mask=${encodeURIComponent(band)}`,
    ['attn-local-window'],
  );
  const exercise = page.locator('attn-exercise#window3');
  await exercise.getByRole('button', { name: 'Reset Exercise 3: a local window of width 3' }).click();
  // Reset went back to the authored mask (None): wrong
  await exercise.getByRole('button', { name: 'Check', exact: true }).click();
  await settled(exercise);
  assert.equal(await exercise.getAttribute('data-status'), 'fail');
  assert.match(await exercise.locator('.verdict').textContent(), /12 cells are wrong/);
  await page.goto('about:blank');
  await page.goto(
    `${site.server.url}#/causal-masking?window3-mask.preset=custom&window3-mask.mask=${encodeURIComponent(band)}`,
  );
  await page.locator('attn-local-window').scrollIntoViewIfNeeded();
  await settled(exercise);
  const painter = exercise.locator('attn-mask-painter');
  assert.equal(await painter.locator('button[data-preset="custom"]').getAttribute('aria-pressed'), 'true');
  await exercise.getByRole('button', { name: 'Check', exact: true }).click();
  await settled(exercise);
  assert.equal(await exercise.getAttribute('data-status'), 'pass');
  assert.deepEqual(problems, []);
  await page.close();
});

// ---- layout, readability, quiet verification and errors (issue: explorable figures) ----

const LABS = ['attn-causal-attention', 'attn-mask-lab#painter', 'attn-local-window', 'attn-band-conv'];

/** The controls of each lab that move its figure. */
const CONTROLS = {
  'attn-causal-attention': ['#seed', '.reroll', '#causal-batch'],
  'attn-mask-lab#painter': [
    'attn-mask-painter button[data-row]',
    'attn-mask-painter button.preset',
    '#seed',
    '#mask-batch',
  ],
  'attn-local-window': ['attn-mask-painter button[data-row]', 'attn-mask-painter button.preset'],
  'attn-band-conv': ['attn-vector-editor input'],
};

/** Opens the lesson at width × height, every lab shown (the band-conv lab waits for Exercise 4). */
async function openAt(width, height) {
  const page = await site.browser.context.newPage();
  const watcher = watch(page);
  await page.setViewportSize({ width, height });
  await page.goto(`${site.server.url}#/causal-masking`);
  await commitTo(page, { ...ANSWERS, 'window-conv': /vary by row/ });
  for (const tag of LABS) {
    await page.locator(tag).scrollIntoViewIfNeeded();
    await settled(page.locator(tag));
  }
  return { page, problems: watcher.problems };
}

/** Scrolls the lab's top to the top of the viewport and waits until it is settled. */
async function labAtTop(page, tag) {
  const lab = page.locator(tag);
  await lab.evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
  await settled(lab);
  return lab;
}

/** The smallest font size (px) of the mask painters' row and column labels in the lab (Infinity: none). */
const painterText = (lab) =>
  lab
    .locator('attn-mask-painter .head')
    .evaluateAll((heads) => Math.min(...heads.map((h) => parseFloat(getComputedStyle(h).fontSize))));

/** Throws unless the lab's figure text and its painter's labels are at least 11 px as rendered. */
async function assertReadable(lab, what) {
  const [px, text] = await smallestFigureText(lab);
  assert.ok(px >= 11, `${what}: figure text “${text}” is ${px.toFixed(2)} px`);
  const labels = await painterText(lab);
  assert.ok(labels >= 11, `${what}: mask labels are ${labels} px`);
}

test('1280×900: each lab’s figure (≥ 240 px) and every control that moves it are in one viewport', async () => {
  const { page, problems } = await openAt(1280, 900);
  for (const tag of LABS) {
    const lab = await labAtTop(page, tag);
    const figures = await lab.locator('attn-heatmap svg.heatmap-svg').evaluateAll((svgs) =>
      svgs.map((svg) => {
        const r = svg.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, long: Math.max(r.width, r.height) };
      }),
    );
    assert.ok(figures.length >= 1, `${tag}: a figure`);
    for (const f of figures) {
      assert.ok(f.long >= 240, `${tag}: figure ${f.long} px on its longer side`);
      assert.ok(
        f.top >= 0 && f.bottom <= 900 && f.left >= 0 && f.right <= 1280,
        `${tag}: figure at ${JSON.stringify(f)}`,
      );
    }
    for (const selector of CONTROLS[tag]) {
      const boxes = await lab
        .locator(selector)
        .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()));
      assert.ok(boxes.length >= 1, `${tag}: ${selector} present`);
      for (const b of boxes) {
        assert.ok(b.top >= 0 && b.bottom <= 900 && b.right <= 1280, `${tag}: ${selector} at ${b.top}–${b.bottom}`);
      }
    }
    await assertReadable(lab, tag);
  }
  // hovering a cell of the causal heatmap reads out its whole row beside the figure
  const causalLab = await labAtTop(page, 'attn-causal-attention');
  await causalLab.locator('attn-heatmap.weights [data-row="2"][data-col="1"]').hover();
  const readout = causalLab.locator('.cell-readout');
  await readout.filter({ hasText: 'query 2 takes' }).waitFor();
  assert.match(
    await readout.textContent(),
    /query 2 takes \[0\.33, 0\.17, 0\.50, 0\.00, 0\.00\] from keys 0 to 4, sum 1\.0000/,
  );
  const [map, line] = [await causalLab.locator('attn-heatmap.weights svg').boundingBox(), await readout.boundingBox()];
  assert.ok(line.x >= map.x + map.width && line.y < map.y + map.height, 'the row readout sits beside the heatmap');
  // the linked views sit side by side: the painter beside the weights it drives
  for (const tag of ['attn-mask-lab#painter', 'attn-local-window']) {
    const lab = await labAtTop(page, tag);
    const heatmap = await lab.locator('attn-heatmap.weights svg.heatmap-svg').boundingBox();
    const painter = await lab.locator('attn-mask-painter .grid').boundingBox();
    assert.ok(painter.x >= heatmap.x + heatmap.width, `${tag}: the painter is beside the heatmap`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('390×844: every mask cell is a 44 px target, a 16 × 16 mask scrolls in its own box, keys still paint', async () => {
  const { page, problems } = await openAt(390, 844);
  for (const tag of ['attn-mask-lab#painter', 'attn-local-window']) {
    const cells = page.locator(`${tag} attn-mask-painter button[data-row]`);
    assert.equal(await cells.count(), T * T);
    const smallest = await smallestHitArea(cells);
    assert.ok(smallest >= 44, `${tag}: a mask cell is ${smallest} px`);
  }
  for (const tag of LABS) await assertReadable(await labAtTop(page, tag), `${tag} at 390 px`);

  // keyboard painting in the lab: (q1, k2) allowed by Space, and the weights follow
  const lab = await labAtTop(page, 'attn-mask-lab#painter');
  const painter = lab.locator('attn-mask-painter');
  await cell(painter, 1, 1).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  await settled(lab);
  assert.equal(await cell(painter, 1, 2).getAttribute('aria-pressed'), 'true');
  assert.ok((await heatmapRow(lab, 1))[2] > 0);

  // a 16 × 16 mask: cells stay 44 px, the grid scrolls inside its box, the page does not scroll sideways
  await page.evaluate(() => {
    const big = document.createElement('attn-mask-painter');
    big.id = 'big-mask';
    big.setAttribute('size', '16');
    big.setAttribute('preset', 'none');
    document.querySelector('.lesson-body').append(big);
  });
  const big = page.locator('#big-mask');
  await big.scrollIntoViewIfNeeded();
  await settled(big);
  const layout = await big.evaluate((el) => {
    const box = el.shadowRoot.querySelector('.grid-box');
    const cell = el.shadowRoot.querySelector('button[data-row="0"][data-col="0"]').getBoundingClientRect();
    return {
      cell: [cell.width, cell.height],
      scrolls: box.scrollWidth > box.clientWidth,
      right: box.getBoundingClientRect().right,
      page: document.documentElement.scrollWidth,
    };
  });
  assert.ok(layout.cell[0] >= 44 && layout.cell[1] >= 44, `16 × 16 cell ${layout.cell}`);
  assert.ok(layout.scrolls, 'the 16 × 16 grid scrolls inside its own box');
  assert.ok(layout.right <= 390 && layout.page <= 390, `box right ${layout.right}, page width ${layout.page}`);
  await cell(big, 0, 0).focus();
  await page.keyboard.press('End'); // (q0, k15), scrolled into view inside the box
  await page.keyboard.press('Enter');
  await settled(big);
  assert.equal(await cell(big, 0, 15).getAttribute('aria-pressed'), 'false');
  const seen = await cell(big, 0, 15).evaluate((b) => {
    const box = b.closest('.grid-box').getBoundingClientRect();
    const r = b.getBoundingClientRect();
    return r.left >= box.left - 1 && r.right <= box.right + 1;
  });
  assert.ok(seen, 'the focused cell was scrolled into view inside the box');
  assert.deepEqual(problems, []);
  await page.close();
});

test('checks stay folded in one Verified line; a failing check opens it and is announced', async () => {
  const { page, problems } = await open(`${site.server.url}#/causal-masking`);
  for (const tag of ['attn-causal-attention', 'attn-mask-lab#painter']) {
    const verified = page.locator(`${tag} attn-verified`);
    await settled(verified);
    assert.match(await verified.locator('summary').textContent(), /Verified ✓ \(3 checks\)/);
    assert.equal(await verified.locator('summary').isVisible(), true);
    for (const check of await page.locator(`${tag} attn-check`).all()) assert.equal(await check.isVisible(), false);
    for (const pre of await page.locator(`${tag} attn-code pre`).all()) {
      assert.equal(await pre.isVisible(), false, 'the code is folded too');
    }
  }
  // open one on demand
  const causalVerified = page.locator('attn-causal-attention attn-verified');
  await causalVerified.locator('summary').click();
  assert.equal(await page.locator('attn-causal-attention attn-check').first().isVisible(), true);

  // a core whose output drifts by 1e-3: the reference check fails, the line opens and says so
  const lab = page.locator('attn-mask-lab#painter');
  await lab.evaluate((el) => {
    const engine = el.task.engine;
    el._realEngine = engine;
    el.task.engine = {
      ...engine,
      randn: (...a) => engine.randn(...a),
      attentionReference: (...a) => engine.attentionReference(...a),
      attention: (...a) => {
        const r = engine.attention(...a);
        const data = Float32Array.from(r.output.data);
        data[0] += 1e-3;
        return { ...r, output: { ...r.output, data } };
      },
    };
    el.task.retry();
  });
  await settled(lab);
  const verified = lab.locator('attn-verified');
  assert.equal(await verified.getAttribute('data-status'), 'fail');
  assert.equal(await verified.locator('details').evaluate((d) => d.open), true);
  assert.equal(await lab.locator('attn-check.reference').getAttribute('data-status'), 'fail');
  assert.equal(await lab.locator('attn-check.reference').isVisible(), true);
  assert.match(await verified.locator('summary').textContent(), /1 of 3 checks failed/);
  assert.match(
    await verified.locator('[role="alert"]').textContent(),
    /Check failed: max \|ours − float64 reference\|/,
  );
  await lab.evaluate((el) => {
    el.task.engine = el._realEngine;
    el.task.retry();
  });
  await settled(lab);
  assert.equal(await verified.getAttribute('data-status'), 'pass');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a failed computation is said in the learner’s words and keeps the last weights; Retry where it can help', async () => {
  const { page, problems } = await open(`${site.server.url}#/causal-masking`);
  const lab = page.locator('attn-mask-lab#painter');
  /** Makes the lab's engine throw `kind` with an engine's raw message. */
  const failWith = (kind) =>
    lab.evaluate((el, kind) => {
      const engine = el._realEngine ?? el.task.engine;
      el._realEngine = engine;
      el.task.engine = {
        ...engine,
        randn: (...a) => engine.randn(...a),
        attention: () => {
          throw Object.assign(new Error('weights[1] is -0.200000003'), { kind });
        },
      };
    }, kind);
  const error = lab.locator('.lab-error');

  // out of memory: another run may work, so Retry is offered
  await failWith('MemoryError');
  await cell(lab.locator('attn-mask-painter'), 0, 1).click(); // a new mask: the run fails
  await settled(lab);
  assert.equal(await error.isVisible(), true);
  const text = await error.textContent();
  assert.match(text, /could not be worked out this time \(there was not enough memory for it\).*last ones that were/s);
  assert.doesNotMatch(text, /weights\[1\]|-0\.2/);
  assert.deepEqual(await heatmapRow(lab, 0), [1, 0, 0, 0, 0], 'the last valid weights stay');
  await lab.evaluate((el) => (el.task.engine = el._realEngine));
  await error.getByRole('button', { name: 'Retry' }).click();
  await settled(lab);
  assert.equal(await error.count(), 0);
  const row0 = await heatmapRow(lab, 0);
  assert.ok(row0[0] > 0 && row0[1] > 0, `row 0 after Retry: ${row0}`);

  // a value the attention refuses: the same input would be refused again, so no Retry, only the reason
  await failWith('ValueError');
  await cell(lab.locator('attn-mask-painter'), 0, 2).click();
  await settled(lab);
  assert.match(await error.textContent(), /one of the numbers could not be used/);
  assert.doesNotMatch(await error.textContent(), /weights\[1\]/);
  assert.equal(await error.getByRole('button', { name: 'Retry' }).count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('one indexing convention: sums from 0 to T − 1, positions and labels counted from 0', async () => {
  const { page, problems } = await open(`${site.server.url}#/causal-masking`);
  const tex = await page.locator('.lesson-body annotation[encoding="application/x-tex"]').allTextContents();
  const sums = tex.join('\n').match(/\\sum_\{[^}]*\}(\^\{[^}]*\})?/g) ?? [];
  assert.ok(sums.length >= 1, 'the softmax sum is written with its bounds');
  for (const sum of sums) assert.match(sum, /^\\sum_\{\w=0\}\^\{T-1\}$/, sum);
  assert.doesNotMatch(tex.join('\n'), /_\{?T\}?(?![-\w])/, 'no index T (the last position is T − 1)');
  const prose = await page.locator('.lesson-body').evaluate((body) => {
    const copy = body.cloneNode(true);
    copy.querySelectorAll('.katex, pre, code').forEach((el) => el.remove());
    return copy.textContent;
  });
  assert.doesNotMatch(prose, /\b(1 to T|positions? 5|row 5|1, …, T)\b/);
  const painter = page.locator('attn-mask-lab#painter attn-mask-painter');
  assert.deepEqual((await painter.locator('[role="columnheader"]').allTextContents()).slice(1), [
    'k0',
    'k1',
    'k2',
    'k3',
    'k4',
  ]);
  assert.deepEqual(await painter.locator('[role="rowheader"]').allTextContents(), ['q0', 'q1', 'q2', 'q3', 'q4']);
  const ticks = await page.locator('attn-causal-attention attn-heatmap.weights .axes text').allTextContents();
  assert.deepEqual(ticks.slice(0, T), ['0', '1', '2', '3', '4']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('one Export menu per lab: the weights as CSV, both band-versus-convolution matrices in one SVG', async () => {
  const { page, problems } = await openAt(1280, 900);
  const read = async (download) => readFile(await download.path(), 'utf8');
  const lab = await labAtTop(page, 'attn-mask-lab#painter');
  assert.equal(await lab.locator('details.export-menu').count(), 1, 'one Export menu, the lab’s own');
  const csv = await read(await exportFrom(page, lab, 'Export the data as CSV'));
  assert.equal(csv.split('\r\n')[1], '0,1,0,0,0,0'); // query 0 under the causal mask
  const band = await labAtTop(page, 'attn-band-conv');
  const svg = await read(await exportFrom(page, band, 'Export the figure as SVG'));
  assert.equal((svg.match(/<svg/g) ?? []).length, 3, 'one SVG holding the two matrices');
  assert.match(svg, /Convolution kernel \[0\.25, 0\.5, 0\.25\]/);
  const json = JSON.parse(await read(await exportFrom(page, band, 'Export the data as JSON')));
  assert.deepEqual(json.convolution[0], [0.5, 0.25, 0, 0, 0]);
  assert.equal(json.attention.length, T);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the convolution taps beside the band: typed taps redraw the matrix, bad text is refused beside the field', async () => {
  const { page, problems } = await openAt(1280, 900);
  const band = await labAtTop(page, 'attn-band-conv');
  const convRow = (r) =>
    band
      .locator(`attn-heatmap.conv [data-row="${r}"][data-value]`)
      .evaluateAll((cells) => cells.sort((a, b) => a.dataset.col - b.dataset.col).map((c) => Number(c.dataset.value)));
  assert.deepEqual(await convRow(0), [0.5, 0.25, 0, 0, 0]);
  const field = band.locator('attn-vector-editor input');
  await field.fill('-1, 2, -1');
  await settled(band);
  assert.deepEqual(await convRow(0), [2, -1, 0, 0, 0]); // row 0 loses the tap for offset −1
  assert.deepEqual(await convRow(2), [0, -1, 2, -1, 0]);
  assert.deepEqual(await band.evaluate((el) => el.kernel), [-1, 2, -1]);
  await field.fill('1, x, 1');
  await settled(band);
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  assert.match(await band.locator('attn-vector-editor .field-error').textContent(), /Entry 1 \(counting from 0\)/);
  assert.deepEqual(await band.evaluate((el) => el.kernel), [-1, 2, -1], 'the last valid taps stay');
  await band.locator('figure > .toolbar').getByRole('button', { name: 'Reset', exact: true }).click();
  await settled(band);
  assert.deepEqual(await convRow(0), [0.5, 0.25, 0, 0, 0]);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a pointer drag paints every cell it crosses, the same way as the first', async () => {
  const { page, problems } = await open(`${site.server.url}#/causal-masking`);
  const lab = page.locator('attn-mask-lab#painter');
  const painter = lab.locator('attn-mask-painter');
  await painter.scrollIntoViewIfNeeded();
  const from = await cell(painter, 0, 1).boundingBox();
  const to = await cell(painter, 0, 4).boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
  await settled(lab);
  const expected = causal.map((row, i) => (i === 0 ? [1, 1, 1, 1, 1] : row));
  assert.deepEqual(await painted(painter), expected);
  assert.deepEqual(await heatmapRow(lab, 0).then((r) => r.every((w) => w > 0)), true);
  assert.deepEqual(problems, []);
  await page.close();
});
