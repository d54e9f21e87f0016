// The attention-at-scale lesson in headless Chromium, on the static site over http and
// in the single file from file://: the weights heatmap (canvas) with its masks, the fused
// kernel's memory per call (the core's scratch buffers) against the T·T·4 bytes of the weights at
// the lesson's T = 4,096, and the live benchmark (wasm SIMD, wasm scalar, plain JS) run in the Web
// Worker while a slider on the page still responds. On the site: the 4,096 × 4,096 weights with
// the local window, whose band stands out on the log colour scale; the magnifier on a tap; old
// links; figure and controls together at 1280 × 900 (T = 16,384 of the fused kernel takes seconds
// of CPU and is left to the page).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';
import { assertTogether, boxesInView, smallestFigureText, smallestHitArea } from './lab-layout.js';
import { checkPredictFirst, solve } from './exercise-steps.js';
import { workersFor } from '../../web/src/engine/pool-split.js';

/** The fused lab waits for Exercise 2 (predict first): the right answer, as a learner gives it. */
const FUSED_ANSWER = 'Memory ×2, time about ×4';

const site = useBrowserAndSite();
const MiB = 1024 * 1024;

const targets = [
  ['the static site over http', () => `${site.server.url}#/attention-at-scale`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/attention-at-scale`],
];

async function ready(page, selector) {
  await page.locator(selector).scrollIntoViewIfNeeded();
  await page.locator(`${selector}[data-settled]`).waitFor({ timeout: 30000 });
  return page.locator(selector);
}

const number = async (locator) => Number(await locator.getAttribute('data-value'));

for (const [name, url] of targets) {
  describe(name, () => {
    test('default state: causal weights on a canvas at T = 256; the fused kernel at T = 4096 uses 1 MiB per call against 64 MiB; every check passes', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await page.goto(url());
      await page.getByRole('heading', { name: 'The square in the cost' }).waitFor();

      const heatmap = await ready(page, '#heatmap');
      assert.equal(await heatmap.getAttribute('data-t'), '256');
      assert.equal(await heatmap.getAttribute('data-computed-in'), 'worker');
      await page.locator('#heatmap attn-heatmap[data-mode="canvas"][data-scale="linear"]').waitFor();
      assert.equal(await number(page.locator('#heatmap .weights-bytes')), 256 * 256 * 4);

      await solve(page, 'scale-fused', FUSED_ANSWER);
      const fused = await ready(page, '#fused');
      assert.equal(await fused.getAttribute('data-t'), '4096');
      assert.equal(await fused.getAttribute('data-computed-in'), 'worker');
      const weights = await number(fused.locator('.weights-bytes'));
      const perCall = await number(fused.locator('.fused-bytes'));
      assert.equal(weights, 4096 * 4096 * 4);
      assert.equal(perCall, 4096 * 64 * 4 + 4 * 128 * 4, 'keys packed for the kernel and one tile of scores');
      assert.ok(perCall * 60 < weights, `the fused kernel saves memory: ${perCall} against ${weights}`);
      assert.equal(await fused.locator('.times').textContent(), '64×');
      assert.equal(await fused.locator('.fused-bytes').textContent(), '1.00 MiB');
      const heap = await number(fused.locator('.heap-bytes'));
      assert.ok(heap > 0 && heap <= 64 * MiB, `fused heap ${heap}`);
      assert.equal(await fused.locator('.heap-bytes').isVisible(), false, 'the heap is told under the hood');
      // the same call on every core: the page's pool, how many workers it used, the same output
      const cores = await page.evaluate(() => navigator.hardwareConcurrency);
      const line = await fused.locator('.every-core').innerText();
      const used = line.match(
        new RegExp(
          `^On every core \\((\\d+) of ${cores} workers?\\): \\d+ ms \\([\\d.]+ GFLOP/s\\), [\\d.]+× the speed of one, the same output bit for bit\\.$`,
        ),
      );
      assert.ok(used, line);
      const workers = workersFor(4096, () => 4 * 4096 * 64, cores); // one call of 4096 rows
      assert.equal(Number(used[1]), workers, `T = 4096, split across the cores: ${line}`);

      const checks = page.locator('attn-check');
      assert.equal(await checks.count(), 3);
      for (const check of await checks.all()) {
        assert.equal(
          await check.getAttribute('data-status'),
          'pass',
          await check.evaluate((c) => c.shadowRoot.textContent),
        );
      }
      const text = await page.locator('main').innerText();
      assert.ok(!text.includes('$'), 'no literal $ in the lesson text');
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('the benchmark runs in the worker with progress while the T slider still responds; no mask and window keep the check green', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await page.goto(url());
      await ready(page, '#heatmap');
      const bench = page.locator('#benchmark');
      await bench.scrollIntoViewIfNeeded();
      await bench.getByRole('button', { name: 'Run benchmark' }).click();
      await page.locator('#benchmark[data-status="running"]').waitFor();
      await bench.locator('progress').waitFor();

      assert.equal(await bench.getAttribute('data-computed-in'), 'worker');
      await bench.getByText('computed in a Web Worker').waitFor();

      // While it runs: the heatmap's T slider moves and its readout follows, before the benchmark ends.
      const slider = page.locator('#heatmap').getByRole('slider', { name: 'Sequence length T' });
      await slider.focus();
      await page.keyboard.press('ArrowLeft');
      await page.locator('#heatmap .t-value').getByText('T = 128').waitFor({ timeout: 5000 });
      assert.equal(await bench.getAttribute('data-status'), 'running', 'the benchmark was still running');

      await page.locator('#benchmark[data-status="done"]').waitFor({ timeout: 60000 });
      await settled(bench);
      const rows = await bench
        .locator('tr[data-contender]')
        .evaluateAll((trs) => trs.map((tr) => ({ ...tr.dataset, diff: tr.cells[5].textContent })));
      assert.equal(rows.length, 4 * 4, 'T = 32, 64, 128, 256 × four contenders');
      for (const row of rows) {
        assert.ok(Number(row.ms) > 0 && Number(row.gflops) > 0, JSON.stringify(row));
        assert.ok(Number(row.diff) <= 1e-4, `max |diff| vs plain JS: ${JSON.stringify(row)}`);
      }
      // every core: the page's pool, bit for bit the SIMD output (its diff is the SIMD row's), and
      // a line saying how many workers it has; T ≤ 256 is too small to split, so one worker each
      const cores = await page.evaluate(() => navigator.hardwareConcurrency);
      for (const T of ['32', '64', '128', '256']) {
        const simd = rows.find((r) => r.t === T && r.contender === 'simd');
        const pool = rows.find((r) => r.t === T && r.contender === 'pool');
        assert.equal(pool.diff, simd.diff, `T = ${T}: the pool's output is the SIMD build's`);
      }
      assert.match(
        await bench.locator('.cores').innerText(),
        new RegExp(
          `^Every core: a pool of ${cores} workers?, one per core this device reports; the largest call was split across 1\\.`,
        ),
      );
      assert.equal(await bench.locator('.chart .point').count(), 16);

      // The mask menu: none, then a local window; the masked weight stays exactly 0.
      const heatmap = page.locator('#heatmap');
      await heatmap.scrollIntoViewIfNeeded();
      for (const mask of ['none', 'window']) {
        await heatmap.locator('select#mask').selectOption(mask);
        await settled(heatmap); // the worker's answer for this mask is drawn, its check updated
        assert.equal(await heatmap.getAttribute('data-t'), '128');
        assert.equal(await heatmap.locator('attn-check').getAttribute('data-status'), 'pass', mask);
      }
      await heatmap.getByRole('slider', { name: 'Window w' }).waitFor();
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

/** Luminance (0–255) of the canvas pixel of row r, column c. */
function pixel(canvas, r, c) {
  return canvas.evaluate(
    (el, [row, col]) => {
      const [red, green, blue] = el.getContext('2d').getImageData(col, row, 1, 1).data;
      return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
    },
    [r, c],
  );
}

test('the 4,096 × 4,096 local-window weights: the band is faint on the linear colour scale and stands out on the log one', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/attention-at-scale?heatmap.t=4096&heatmap.mask=window&heatmap.window=8`);
  await page.locator('#heatmap').scrollIntoViewIfNeeded();
  await page.locator('#heatmap[data-t="4096"][data-settled]').waitFor({ timeout: 30000 });
  const heatmap = page.locator('#heatmap');
  const map = heatmap.locator('attn-heatmap');
  await heatmap.locator('attn-heatmap[data-mode="canvas"][data-settled]').waitFor();
  assert.equal(await number(heatmap.locator('.weights-bytes')), 4096 * 4096 * 4);
  assert.equal(await heatmap.locator('attn-check').getAttribute('data-status'), 'pass');
  const canvas = map.locator('canvas.heatmap-canvas');
  // the mean band pixel against a masked one (exactly 0): rows 1000…1015, on the diagonal and far from it
  const contrast = async () => {
    let band = 0;
    for (let r = 1000; r < 1016; r++) band += (await pixel(canvas, r, r + 3)) / 16;
    return band - (await pixel(canvas, 1000, 3000));
  };
  const linear = await contrast();
  await heatmap.getByRole('radio', { name: /^log/ }).check();
  await settled(heatmap);
  assert.equal(await map.getAttribute('data-scale'), 'log');
  const log = await contrast();
  assert.ok(log > 100 && log > 3 * linear, `band against the masked zeros: linear ${linear}, log ${log}`);
  await map.getByText('10⁻³').first().waitFor(); // the legend counts in powers of ten
  await page.waitForURL(/heatmap\.scale=log/); // the permalink keeps the colour scale
  assert.deepEqual(problems, []);
  await page.close();
});

test('a large heatmap magnifies on a tap (touch) and under the keyboard cursor', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/attention-at-scale?heatmap.t=1024`);
  await page.locator('#heatmap').scrollIntoViewIfNeeded();
  await page.locator('#heatmap[data-t="1024"][data-settled]').waitFor({ timeout: 30000 });
  const map = page.locator('#heatmap attn-heatmap');
  const canvas = map.locator('canvas.heatmap-canvas');
  const lens = map.locator('.heatmap-lens');
  assert.equal(await lens.isVisible(), false);
  const box = await canvas.boundingBox();
  await canvas.dispatchEvent('pointerdown', {
    pointerType: 'touch',
    isPrimary: true,
    clientX: box.x + box.width * 0.75,
    clientY: box.y + box.height * 0.25,
  });
  await lens.waitFor();
  const [row, col] = [Number(await lens.getAttribute('data-row')), Number(await lens.getAttribute('data-col'))];
  assert.ok(Math.abs(row - 256) <= 4 && Math.abs(col - 768) <= 4, `the tapped cell ${row}, ${col}`);
  const lensBox = await lens.boundingBox();
  const [tapX, tapY] = [box.x + box.width * 0.75, box.y + box.height * 0.25];
  const covers =
    tapX >= lensBox.x && tapX <= lensBox.x + lensBox.width && tapY >= lensBox.y && tapY <= lensBox.y + lensBox.height;
  assert.ok(lensBox.width >= 100 && !covers, `the lens ${JSON.stringify(lensBox)} is large and away from the finger`);
  await map.getByText(new RegExp(`Row ${row}, column ${col}: `)).waitFor();
  await canvas.focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await lens.getAttribute('data-row'), String(row + 1));
  assert.deepEqual(problems, []);
  await page.close();
});

test('old links keep their values: the fused kernel at T = 1024, a window of 5', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/attention-at-scale?fused.t=1024&heatmap.mask=window&heatmap.window=5`);
  const heatmap = await ready(page, '#heatmap');
  assert.equal(await heatmap.locator('output.w-value').textContent(), 'w = 5');
  assert.equal(await heatmap.locator('attn-check').getAttribute('data-status'), 'pass');
  await solve(page, 'scale-fused', FUSED_ANSWER);
  const fused = await ready(page, '#fused');
  assert.equal(await fused.getAttribute('data-t'), '1024');
  assert.equal(await number(fused.locator('.fused-bytes')), 1024 * 64 * 4 + 2048);
  assert.equal(await number(fused.locator('.weights-bytes')), 4 * MiB);
  assert.deepEqual(problems, []);
  await page.close();
});

test('at 1280 × 900 every control is in view with the figure it moves; text ≥ 11 px; 44 px targets', async () => {
  const page = await site.browser.context.newPage();
  const viewport = { width: 1280, height: 900 };
  await page.setViewportSize(viewport);
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/attention-at-scale?heatmap.mask=window`);
  const cases = [
    [
      '#heatmap',
      'attn-heatmap canvas',
      ['slider:Sequence length T', 'slider:Window w', 'radio:log (small weights show)'],
    ],
    ['#fused', '.bars', ['slider:Sequence length T']],
    ['#benchmark', '.chart', ['button:Run benchmark']],
  ];
  await solve(page, 'scale-fused', FUSED_ANSWER);
  for (const [id, figureSelector, controls] of cases) {
    const lab = await ready(page, id);
    if (id === '#benchmark') {
      await lab.getByRole('button', { name: 'Run benchmark' }).click();
      await page.locator('#benchmark[data-status="done"]').waitFor({ timeout: 60000 });
      await settled(lab);
    }
    for (const control of controls) {
      const [role, name] = control.split(':');
      const target = lab.getByRole(role, { name, exact: true });
      assertTogether(
        assert,
        await boxesInView(page, lab, lab.locator(figureSelector).first(), target),
        viewport,
        `${id} ${name}`,
      );
      const hit = role === 'radio' ? lab.locator('label.choice').filter({ hasText: name }) : target;
      assert.ok((await smallestHitArea(hit)) >= 44, `${id} ${name}: 44 px`);
    }
    const [size, text] = await smallestFigureText(lab);
    assert.ok(size >= 11, `${id}: "${text}" is ${size.toFixed(1)} px`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('predict first: the exercises hide their figures until an attempt; each likely slip gets its own feedback', async () => {
  const page = await site.browser.context.newPage();
  await page.addInitScript(() => localStorage.clear()); // a learner who has not tried them yet
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/attention-at-scale`);
  const bars = await checkPredictFirst(page, {
    id: 'scale-memory',
    mistakes: [
      ['1', /how many bytes does one float32 take/],
      ['4.295', /gigabytes of 109 bytes/ /* 10⁹, typeset */],
      ['2', /quadruples/],
      ['256', /width E too/],
    ],
    right: '4',
    figure: 'attn-bars',
  });
  assert.equal(await bars.getAttribute('values'), '0.0625,0.25,1,4');
  const fused = await checkPredictFirst(page, {
    id: 'scale-fused',
    mistakes: [
      ['Memory ×2, time ×2', /Now count the work/],
      ['Memory ×4, time about ×4', /storing the T × T weights/],
      ['Memory unchanged, time ×2', /not all that is kept/],
    ],
    right: FUSED_ANSWER,
    figure: 'attn-scale-fused',
  });
  assert.equal(await fused.locator('.times').textContent(), '64×');
  // Reset hides the figure again, so the learner can predict afresh
  await page.locator('attn-exercise#scale-fused').getByRole('button', { name: 'Reset' }).click();
  await page.locator('attn-reveal[after="scale-fused"][data-revealed="false"]').waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});
