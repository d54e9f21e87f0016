// The figure gallery (gallery/figures.html) in headless Chromium over http:
// bars dragged by pointer and keyboard, heatmap contrast and data table, the
// canvas heatmap, the convex hull moved by keyboard, Reset and the exports.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { exportFrom, nextFrames, settled, showFigure, PNG_EXPORT_CSP, useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite({ csp: PNG_EXPORT_CSP }); // its PNG exports draw blob: images

/** Opens the gallery; returns { page, problems } once every figure is drawn. */
async function openGallery() {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(new URL('gallery/figures.html', site.server.url).href);
  for (const id of ['weights-bars', 'small-heatmap', 'weights-matrix', 'shapes-figure']) {
    await showFigure(page, `#${id}`);
  }
  await showFigure(page, '#large-heatmap-figure', '[data-mode="canvas"]');
  await showFigure(page, '#hull-figure');
  return { page, problems };
}

const barValues = (page) =>
  page.locator('#weights-bars rect.bar').evaluateAll((bars) => bars.map((b) => Number(b.getAttribute('data-value'))));

/** Clicks an export button of `figure` and returns the downloaded file's name and bytes. */
async function exportFile(page, figure, name) {
  const download = await exportFrom(page, page.locator(figure), name);
  return { filename: download.suggestedFilename(), bytes: await readFile(await download.path()) };
}

test('a bar follows a pointer drag and fires change; Reset restores it', async () => {
  const { page, problems } = await openGallery();
  await page.evaluate(() => {
    window.changes = [];
    document.getElementById('weights-bars').addEventListener('change', (e) => window.changes.push(e.detail.values));
  });
  const bar = page.locator('#weights-bars rect.bar[data-index="1"]');
  await bar.scrollIntoViewIfNeeded();
  const box = await bar.boundingBox();
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, box.y - 40, { steps: 6 });
  await page.mouse.up();
  const bars = await settled(page.locator('#weights-bars'));

  const after = await barValues(page);
  assert.ok(after[1] > 0.7, `dragged bar is ${after[1]}, expected above 0.7`);
  assert.deepEqual([after[0], ...after.slice(2)], [0.05, 0.15, 0.1, 0.1], 'other bars did not move');
  const changes = await page.evaluate(() => window.changes);
  assert.ok(changes.length >= 1, 'change fired');
  assert.deepEqual(changes.at(-1), after, 'change detail carries the values');
  assert.equal(await bar.getAttribute('aria-valuenow'), String(after[1]));

  await bars.getByRole('button', { name: 'Reset' }).click();
  await settled(bars);
  assert.deepEqual(await barValues(page), [0.05, 0.6, 0.15, 0.1, 0.1]);
  assert.deepEqual(problems, []);
  await page.close();
});

test('bars are sliders: ArrowUp, PageUp, Home and End change the focused bar', async () => {
  const { page, problems } = await openGallery();
  const bars = page.locator('#weights-bars');
  const slider = bars.getByRole('slider', { name: 'Bar The' });
  await slider.focus();
  const press = async (key) => {
    await page.keyboard.press(key);
    await settled(bars);
  };
  await press('ArrowUp');
  assert.equal((await barValues(page))[0], 0.06);
  assert.equal(await slider.getAttribute('aria-valuetext'), 'The: 0.06');
  await press('PageUp');
  assert.equal((await barValues(page))[0], 0.16);
  await press('End');
  assert.equal((await barValues(page))[0], 1);
  await press('Home');
  assert.equal((await barValues(page))[0], 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('heatmap: text contrasts with its cell, cells read by keyboard, the data table has the same numbers', async () => {
  const { page, problems } = await openGallery();
  const map = page.locator('#small-heatmap');
  const inks = await map
    .locator('text.annotation')
    .evaluateAll((texts) => texts.map((t) => [t.textContent, t.getAttribute('fill'), getComputedStyle(t).fill]));
  // Cell (0, 0) holds the largest value (yellow), cell (0, 1) the smallest (dark purple).
  assert.deepEqual(inks[0], ['1', '#000000', 'rgb(0, 0, 0)']);
  assert.deepEqual(inks[1], ['0', '#ffffff', 'rgb(255, 255, 255)']);

  await page.evaluate(() => {
    window.cells = [];
    document.getElementById('small-heatmap').addEventListener('cell-focus', (e) => window.cells.push(e.detail));
  });
  await map.getByRole('gridcell').first().focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await map.getByText('Row cat, column cat: 0.7').waitFor();
  assert.deepEqual(await page.evaluate(() => window.cells.at(-1)), { row: 1, col: 1 });

  await map.getByRole('button', { name: 'Data table' }).click();
  await settled(map);
  const table = await map
    .locator('table.data-table tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => Number(td.textContent))));
  const attribute = await map.getAttribute('values');
  assert.deepEqual(
    table,
    attribute.split(';').map((row) => row.split(',').map(Number)),
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('the 256 × 256 heatmap is a canvas without per-cell elements, readable by keyboard', async () => {
  const { page, problems } = await openGallery();
  const map = page.locator('#large-heatmap-figure');
  const canvas = map.locator('canvas.heatmap-canvas');
  assert.deepEqual(await canvas.evaluate((c) => [c.width, c.height]), [256, 256]);
  assert.equal(await map.locator('rect.cell').count(), 0);
  await canvas.focus();
  await page.keyboard.press('ArrowDown');
  await map.getByText(/Row 1, column 0: 0\.\d+/).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('moving a hull vertex by keyboard recomputes the hull and the outside count; Reset restores it', async () => {
  const { page, problems } = await openGallery();
  const figure = page.locator('#hull-figure');
  assert.equal(await figure.getAttribute('data-outside'), '0');
  await figure.getByText('Hull (counter-clockwise): v0 → v3 → v2 → v1').waitFor();
  await figure.getByText('of 500 mixtures lie outside the hull').waitFor();

  const v2 = figure.getByRole('button', { name: /^Point v2 at/ }); // counted from 0
  await v2.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+ArrowLeft'); // x: 5 -> 2.5
  for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowDown'); // y: 4.5 -> 2.5
  await settled(figure);
  assert.equal(await v2.getAttribute('aria-label'), 'Point v2 at (2.5, 2.5)');
  await figure.getByText('Hull (counter-clockwise): v0 → v3 → v1').waitFor();
  const outside = Number(await figure.getAttribute('data-outside'));
  assert.ok(outside > 0, `mixtures outside: ${outside}`);
  assert.equal(await figure.locator('.outside-count').textContent(), String(outside));

  await figure.getByRole('button', { name: 'Reset' }).click();
  await settled(figure);
  await figure.getByText('Hull (counter-clockwise): v0 → v3 → v2 → v1').waitFor();
  assert.equal(await figure.getAttribute('data-outside'), '0');
  assert.equal(await figure.locator('circle.point').nth(2).getAttribute('data-x'), '5');
  assert.deepEqual(problems, []);
  await page.close();
});

test('on a phone, every hull point is a drag target at least 44 px across, grabbed without a jump', async () => {
  const { page, problems } = await openGallery();
  await page.setViewportSize({ width: 390, height: 844 });
  const figure = page.locator('#hull-figure');
  await settled(figure);
  const dot = figure.locator('circle.point[data-index="0"]');
  await dot.scrollIntoViewIfNeeded();
  const drawn = await dot.boundingBox();
  assert.ok(drawn.width < 44, `the dot itself is small on a phone (${drawn.width} px)`);
  const targets = await figure
    .locator('circle.point-hit')
    .evaluateAll((cs) => cs.map((c) => Math.min(c.getBoundingClientRect().width, c.getBoundingClientRect().height)));
  assert.equal(targets.length, 4);
  for (const size of targets) assert.ok(size >= 44, `a point's target is ${size} px across`);
  // grab v0 from 18 px below it and drag up by 20 px: it moves with the pointer, by 20 px
  const [cx, cy] = [drawn.x + drawn.width / 2, drawn.y + drawn.height / 2];
  await page.mouse.move(cx, cy + 18);
  await page.mouse.down();
  await page.mouse.move(cx, cy - 2, { steps: 4 });
  await page.mouse.up();
  await settled(figure);
  const after = await dot.boundingBox();
  assert.ok(
    Math.abs(after.y + after.height / 2 - (cy - 20)) < 2,
    `v0 moved from ${cy} to ${after.y + after.height / 2}`,
  );
  // the keyboard still works on the point itself
  await dot.focus();
  await page.keyboard.press('ArrowRight');
  await settled(figure);
  assert.match(await dot.getAttribute('aria-label'), /^Point v0 at \(1\.1, /);
  assert.deepEqual(problems, []);
  await page.close();
});

test('exports: CSV and JSON hold the data, SVG is a standalone <svg> document, PNG is a PNG', async () => {
  const { page, problems } = await openGallery();
  const csv = await exportFile(page, '#weights-bars', 'Export the data as CSV');
  assert.equal(csv.filename, 'weights-bars.csv');
  assert.equal(csv.bytes.toString(), 'label,value\r\nThe,0.05\r\ncat,0.6\r\nsat,0.15\r\non,0.1\r\nmats,0.1\r\n');

  const json = await exportFile(page, '#small-heatmap', 'Export the data as JSON');
  const data = JSON.parse(json.bytes.toString());
  assert.deepEqual(data.rowLabels, ['The', 'cat', 'sat', 'on', 'mats']);
  assert.deepEqual(data.values[3], [0.05, 0.25, 0.2, 0.5, 0]);

  const svg = (await exportFile(page, '#weights-bars', 'Export the figure as SVG')).bytes.toString();
  assert.match(svg, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.equal(svg.match(/<rect /g).length, 1 + 5, 'background and five bars');
  assert.doesNotMatch(svg, /var\(--/, 'colours are inlined');
  assert.ok(svg.trimEnd().endsWith('</svg>'));

  const heatmapSvg = (await exportFile(page, '#large-heatmap-figure', 'Export the figure as SVG')).bytes.toString();
  assert.match(heatmapSvg, /<image [^>]*href="data:image\/png;base64,/);

  const png = (await exportFile(page, '#shapes-figure', 'Export the figure as PNG')).bytes;
  assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  assert.deepEqual(problems, []);
  await page.close();
});

test('data-settled goes the moment the state changes and comes back once the new state is drawn', async () => {
  const { page, problems } = await openGallery();
  const result = await page.evaluate(async () => {
    const bars = document.getElementById('weights-bars');
    const drawn = () => [...bars.shadowRoot.querySelectorAll('rect.bar')].map((r) => Number(r.dataset.value));
    // Resolves with what the figure shows at the moment data-settled is set again.
    const nextSettle = () =>
      new Promise((resolve) => {
        new MutationObserver((records, observer) => {
          if (!bars.hasAttribute('data-settled')) return;
          observer.disconnect();
          resolve(drawn());
        }).observe(bars, { attributes: true, attributeFilter: ['data-settled'] });
      });
    const before = bars.hasAttribute('data-settled');
    bars.values = [0.3, 0.2, 0.1, 0.25, 0.15]; // a property
    const afterProperty = bars.hasAttribute('data-settled');
    const drawnByProperty = await nextSettle();
    bars.setAttribute('values', '0.5,0.1,0.1,0.2,0.1'); // an attribute
    const afterAttribute = bars.hasAttribute('data-settled');
    const drawnByAttribute = await nextSettle();
    return { before, afterProperty, drawnByProperty, afterAttribute, drawnByAttribute };
  });
  assert.deepEqual(result, {
    before: true,
    afterProperty: false,
    drawnByProperty: [0.3, 0.2, 0.1, 0.25, 0.15],
    afterAttribute: false,
    drawnByAttribute: [0.5, 0.1, 0.1, 0.2, 0.1],
  });
  assert.deepEqual(problems, []);
  await page.close();
});

test('figures below the fold draw only when scrolled into view', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(new URL('gallery/figures.html', site.server.url).href);
  await settled(page.locator('#weights-bars'));
  const hull = page.locator('#hull-figure');
  const drawn = () =>
    hull.evaluate((el) => [el.hasAttribute('data-shown'), el.shadowRoot.querySelector('svg') !== null]);
  // An eager figure would have drawn in the first update with the one above (the same upgrade), and
  // the viewport observers report in the next frames: two frames later its chance has passed.
  await nextFrames(page);
  assert.deepEqual(await drawn(), [false, false], 'not drawn while far below the viewport');
  await showFigure(page, '#hull-figure', '[data-outside]');
  assert.deepEqual(await drawn(), [true, true], 'drawn once scrolled to');
  assert.deepEqual(problems, []);
  await page.close();
});
