// The scaling-by-sqrt-dk lesson (Exercise 2 of "Lesson 44: The Attention Mechanism") in
// headless Chromium, on the static site over http and in the single file from file://:
// the two predict-first exercises (the spread of q·k at D = 128; the largest weight without the
// scaling) hide the labs that answer them until the learner commits; the variance of q·k is about D, unscaled weights collapse toward one-hot at D = 128 and
// scaled ones do not, every check passes inside its lab's one Verified line, the curves are
// computed in the Web Worker, the D sliders step through powers of two (an old link's D = 100
// still opens at 100), no literal "$" is left in the text, and at 1280 × 900 each D slider is
// in view with the figure it moves, its text at least 11 px.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';
import { commitTo, freshLesson, predictFirst, tryAnother } from './exercise-steps.js';
import { assertTogether, boxesInView, smallestFigureText, smallestHitArea } from './lab-layout.js';

const site = useBrowserAndSite();
const LABS = ['#variance', '#example', '#curves'];

const targets = [
  ['the static site over http', () => `${site.server.url}#/scaling-by-sqrt-dk`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/scaling-by-sqrt-dk`],
];

async function ready(page, selector) {
  const lab = page.locator(selector);
  await lab.scrollIntoViewIfNeeded();
  await page.locator(`${selector}[data-settled]`).waitFor({ timeout: 30000 });
  return lab;
}

/** The points of one series in the first line chart of the curves lab, as { d: y }. */
async function curve(page, series) {
  const points = await page
    .locator(`attn-scaling-curves .chart-max .point[data-series="${series}"]`)
    .evaluateAll((nodes) => nodes.map((n) => [Number(n.dataset.x), Number(n.dataset.y)]));
  return Object.fromEntries(points);
}

const dValue = (lab) => lab.locator('output.d-value');

/** The right answers that open the lesson's figures, as a learner who has tried each exercise. */
const ANSWERS = { 'score-spread': 11.3137, 'max-weight': /About 0\.93/ };

for (const [name, url] of targets) {
  describe(name, () => {
    test('predict first: the exercises hide the labs that answer them; mistakes get their own feedback', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await page.goto(url());
      await page.getByRole('heading', { name: 'Dot products grow with the dimension' }).waitFor();
      await freshLesson(page, 'scaling-by-sqrt-dk');
      await predictFirst(page, {
        id: 'score-spread',
        figures: ['#variance'],
        mistakes: [
          [128, /variance of q · k/],
          [1, /scaled score/],
          [0.0884, /not 1\/D/],
          [64, /D\/2/],
        ],
        right: 11.31,
      });
      // the second exercise's labs still wait: the variance lab shows no weights
      for (const id of ['#example', '#curves']) assert.equal(await page.locator(id).isVisible(), false, id);
      await predictFirst(page, {
        id: 'max-weight',
        figures: ['#example', '#curves'],
        mistakes: [
          [/About 0\.2/, /exponentiates/],
          [/About 0\.46/, /scaled weights give at every D/],
          [/Exactly 1/, /never exactly/],
        ],
        right: /About 0\.93/,
      });
      // the curves the revealed lab draws agree with the answer
      const u = await curve(page, 'unscaled: q·k');
      assert.ok(Math.abs(u[128] - 0.93) < 0.01, `unscaled mean max at D = 128: ${u[128]}`);
      // Try another: the standard deviation at another D
      await tryAnother(page, 'score-spread', (prompt) => Math.sqrt(Number(prompt.match(/D = (\d+)/)[1])).toFixed(3));
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('default state: var(q·k) ≈ D, unscaled weights near one-hot at D = 128, scaled not; every check passes', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await page.goto(url());
      await page.getByRole('heading', { name: 'Dot products grow with the dimension' }).waitFor();
      assert.ok((await page.locator('.katex').count()) > 3, 'KaTeX maths is rendered');
      await commitTo(page, ANSWERS);

      const variance = await ready(page, '#variance');
      const ratio = Number(await variance.locator('td.ratio').getAttribute('data-value'));
      assert.ok(Math.abs(ratio - 1) < 0.1, `var(q·k)/D = ${ratio}`);
      assert.equal(await variance.getAttribute('data-computed-in'), 'worker');
      assert.equal(await variance.locator('.chart path.line').count(), 2, 'the two histograms');

      await ready(page, '#example');
      const unscaled = Number(await page.locator('#example .unscaled-summary').getAttribute('data-mean-max'));
      const scaled = Number(await page.locator('#example .scaled-summary').getAttribute('data-mean-max'));
      assert.ok(unscaled > scaled, `example at D = 128: unscaled ${unscaled}, scaled ${scaled}`);

      const curves = await ready(page, '#curves');
      assert.equal(await curves.getAttribute('data-computed-in'), 'worker');
      await curves.getByText('computed in a Web Worker').waitFor();
      const u = await curve(page, 'unscaled: q·k');
      const s = await curve(page, 'scaled: q·k / √d');
      assert.deepEqual(Object.keys(u).map(Number), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
      assert.ok(u[128] >= 0.85 && u[512] > u[8], `unscaled mean max weight: ${JSON.stringify(u)}`);
      assert.ok(Math.abs(s[128] - s[8]) <= 0.05 && u[128] - s[128] >= 0.3, `scaled: ${JSON.stringify(s)}`);
      for (const [a, b] of [
        [8, 16],
        [16, 32],
        [32, 64],
        [64, 128],
        [128, 256],
      ])
        assert.ok(u[b] > u[a], `u(${b}) > u(${a})`);

      // every check passes, inside one quiet "Verified" line per lab: no check row on show
      const checks = page.locator('attn-check');
      assert.equal(await checks.count(), 5);
      for (const check of await checks.all()) {
        assert.equal(
          await check.getAttribute('data-status'),
          'pass',
          await check.evaluate((c) => c.shadowRoot.textContent),
        );
        assert.equal(await check.isVisible(), false, 'check rows stay folded');
      }
      for (const id of ['#variance', '#curves']) {
        const line = page.locator(`${id} attn-verified`);
        assert.equal(await line.getAttribute('data-status'), 'pass');
        await line.getByText(/Verified/).waitFor();
      }

      // the maths is all rendered: no "$" in the text a learner sees (issue 15: "variance$/D$")
      const text = await page.locator('main').innerText();
      assert.ok(!text.includes('$'), `a literal $ in: …${text.slice(text.indexOf('$') - 40, text.indexOf('$') + 20)}…`);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('the D slider of the example steps through powers of two: D = 8 is far less peaked unscaled than D = 512', async () => {
      const page = await site.browser.context.newPage();
      const { problems } = watch(page);
      await page.goto(url());
      await commitTo(page, ANSWERS);
      const example = await ready(page, '#example');
      const slider = example.getByRole('slider', { name: 'D (dimension)' });
      const meanMax = async (which) =>
        Number(await page.locator(`#example .${which}-summary`).getAttribute('data-mean-max'));
      await slider.fill('3'); // the slider moves along log₂ D
      await settled(example);
      assert.equal(await dValue(example).textContent(), 'D = 8');
      assert.equal(await slider.getAttribute('aria-valuetext'), 'D = 8');
      const at8 = await meanMax('unscaled');
      await slider.focus();
      await page.keyboard.press('ArrowRight');
      await settled(example);
      assert.equal(await dValue(example).textContent(), 'D = 16', 'one step: the next power of two');
      await page.keyboard.press('End');
      await settled(example);
      assert.equal(await dValue(example).textContent(), 'D = 512');
      const at512 = await meanMax('unscaled');
      assert.ok(at512 > 0.9 && at512 > at8, `unscaled mean max weight: D = 8 ${at8}, D = 512 ${at512}`);
      assert.ok((await meanMax('scaled')) < 0.9, 'scaled stays spread out at D = 512');
      await slider.fill('5.4'); // a drag between two powers snaps to the nearer one
      await settled(example);
      assert.equal(await dValue(example).textContent(), 'D = 32');
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

test('an old link with D = 100 opens every lab at D = 100 and shows it; a step down goes to 64', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/scaling-by-sqrt-dk?variance.d=100&example.d=100&curves.d=100`);
  await commitTo(page, ANSWERS);
  for (const id of LABS) {
    const lab = await ready(page, id);
    assert.equal(await dValue(lab).textContent(), 'D = 100', id);
    const position = Number(await lab.getByRole('slider', { name: 'D (dimension)' }).inputValue());
    assert.ok(Math.abs(position - Math.log2(100)) < 1e-9, `${id}: the thumb at log₂ 100, between 64 and 128`);
  }
  const curves = page.locator('#curves');
  assert.equal(await curves.locator('.readout').getAttribute('data-d'), '100');
  assert.equal(await curves.locator('.chart-max .point[data-x="100"]').count(), 2, 'D = 100 computed and drawn');
  const slider = curves.getByRole('slider', { name: 'D (dimension)' });
  await slider.focus();
  await page.keyboard.press('ArrowLeft');
  await settled(curves);
  assert.equal(await dValue(curves).textContent(), 'D = 64', 'down from 100: 64');
  assert.equal(await curves.locator('.chart-max .point[data-x="100"]').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('at 1280 × 900 each D slider is in view with the figure it moves; text ≥ 11 px; 44 px sliders', async () => {
  const page = await site.browser.context.newPage();
  const viewport = { width: 1280, height: 900 };
  await page.setViewportSize(viewport);
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/scaling-by-sqrt-dk`);
  await commitTo(page, ANSWERS);
  const figures = { '#variance': '.chart svg', '#example': '.pair', '#curves': '.chart-max svg' };
  for (const id of LABS) {
    const lab = await ready(page, id);
    const slider = lab.getByRole('slider', { name: 'D (dimension)' });
    assertTogether(assert, await boxesInView(page, lab, lab.locator(figures[id]).first(), slider), viewport, id);
    const [size, text] = await smallestFigureText(lab);
    assert.ok(size >= 11, `${id}: "${text}" is ${size.toFixed(1)} px`);
    assert.ok((await smallestHitArea(slider)) >= 44, `${id}: the slider's height`);
  }
  // the example's heatmaps are large enough for their numbers
  assert.equal(await page.locator('#example attn-heatmap .heatmap-note').first().isVisible(), false);
  assert.ok((await page.locator('#example attn-heatmap text.annotation').first().isVisible()) === true);
  assert.deepEqual(problems, []);
  await page.close();
});
