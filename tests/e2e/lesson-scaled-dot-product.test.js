// The scaled-dot-product lesson in headless Chromium, over http and from the
// single file: the default example (B, T, D) = (2, 5, 8) with its checks, both
// ways of computing the output against double precision (each labelled, the
// summary and the checks agreeing), the formula's linked terms, the
// step-through of the four passes, and the layout a learner sees at 1280×900
// and 390×844 (one toolbar per lab, controls in view with the figures, text of
// at least 11 px, quiet checks).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  exportAll,
  settled,
  singleFileUrl,
  PNG_EXPORT_CSP,
  useBrowserAndSite,
  watch,
  scrollThrough,
} from './browser.js';
import { checkPredictFirst } from './exercise-steps.js';

const site = useBrowserAndSite({ csp: PNG_EXPORT_CSP }); // its PNG exports draw blob: images

const targets = [
  ['the static site over http', () => `${site.server.url}#/scaled-dot-product`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/scaled-dot-product`],
];

/** Opens the lesson and waits until both labs have computed. */
async function open(url) {
  const page = await site.browser.context.newPage();
  const watcher = watch(page);
  await page.goto(url);
  for (const tag of ['attn-sdpa', 'attn-sdpa-steps']) {
    await page.locator(tag).scrollIntoViewIfNeeded();
    await settled(page.locator(tag));
  }
  await scrollThrough(page); // the figures inside the labs draw once visible
  for (const tag of ['attn-sdpa', 'attn-sdpa-steps']) await settled(page.locator(tag));
  return { page, problems: watcher.problems };
}

/** data-status of every attn-check on the page (all in attn-sdpa), once the lab has settled. */
async function checkStatuses(page) {
  await settled(page.locator('attn-sdpa'));
  return page.locator('attn-check').evaluateAll((cs) => cs.map((c) => c.getAttribute('data-status')));
}

const stepValues = (page, pass) =>
  page
    .locator(`attn-sdpa-steps td[data-pass="${pass}"][data-value]`)
    .evaluateAll((cells) => cells.map((c) => Number(c.dataset.value)));

for (const [name, url] of targets) {
  describe(name, () => {
    test('default state: seed 0, shape (2, 5, 8), every check passes, max |ours − float64| ≤ 1e-6', async () => {
      const { page, problems } = await open(url());
      const lab = page.locator('attn-sdpa');
      assert.equal(await lab.locator('#seed').inputValue(), '0');
      const statuses = await checkStatuses(page);
      assert.equal(statuses.length, 4);
      assert.deepEqual(statuses, ['pass', 'pass', 'pass', 'pass']);
      const diff = Number(await lab.locator('.max-diff').getAttribute('data-value'));
      assert.ok(Number.isFinite(diff) && diff >= 0 && diff <= 1e-6, `max abs diff shown: ${diff}`);
      const printout = await lab.locator('details.hood attn-output pre').textContent();
      assert.match(printout, /output shape: \(2, 5, 8\)/);
      assert.match(printout, /each attention-weight row sums to 1: True/);
      assert.match(printout, /max abs diff vs float64 reference \(fused kernel\): \d\.\d\de-\d\d/);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('the step-through moves through the four passes with buttons and keys', async () => {
      const { page, problems } = await open(url());
      const steps = page.locator('attn-sdpa-steps');
      assert.equal(await steps.getAttribute('data-step'), '0');
      const scores = await stepValues(page, 'scores');
      assert.equal(scores.length, 5);
      assert.deepEqual(await stepValues(page, 'scale'), [], 'later passes are not shown yet');

      await steps.getByRole('button', { name: 'Next →' }).click();

      await settled(steps);
      assert.equal(await steps.getAttribute('data-step'), '1');
      const scaled = await stepValues(page, 'scale');
      scaled.forEach((s, j) =>
        assert.ok(Math.abs(s - scores[j] / Math.sqrt(8)) < 1e-5, `key ${j}: ${s} vs ${scores[j]} / √8`),
      );

      await steps.getByRole('button', { name: 'Next →' }).click();

      await settled(steps);
      assert.equal(await steps.getAttribute('data-step'), '2');
      const weights = await stepValues(page, 'softmax');
      assert.equal(weights.length, 5);
      assert.ok(weights.every((w) => w > 0 && w < 1));
      const sum = Number(await steps.locator('.weight-sum').getAttribute('data-value'));
      assert.ok(Math.abs(sum - 1) < 1e-6, `weights sum to ${sum}`);
      // the largest scaled score gets the largest weight
      assert.equal(weights.indexOf(Math.max(...weights)), scaled.indexOf(Math.max(...scaled)));

      await steps.getByRole('button', { name: 'Next →' }).click();

      await settled(steps);
      assert.equal(await steps.getAttribute('data-step'), '3');
      const y = (await steps.locator('.y-row').getAttribute('data-values')).split(',').map(Number);
      assert.equal(y.length, 8);
      assert.ok(await steps.getByRole('button', { name: 'Next →' }).isDisabled());
      assert.match(await steps.locator('.current-pass').textContent(), /Pass 4 of 4/);

      const list = steps.locator('ol.passes');
      await list.focus();
      await page.keyboard.press('ArrowLeft');
      await settled(steps);
      assert.equal(await steps.getAttribute('data-step'), '2');
      await page.keyboard.press('Home');
      await settled(steps);
      assert.equal(await steps.getAttribute('data-step'), '0');
      await page.keyboard.press('End');
      await settled(steps);
      assert.equal(await steps.getAttribute('data-step'), '3');
      await steps.getByRole('button', { name: '← Previous' }).click();
      await settled(steps);
      assert.equal(await steps.getAttribute('data-step'), '2');

      // another query row: other numbers, still a softmax
      await steps.locator('#row').selectOption('3');
      await settled(steps);
      const weights3 = await stepValues(page, 'softmax');
      assert.notDeepEqual(weights3, weights);
      assert.ok(Math.abs(weights3.reduce((a, b) => a + b, 0) - 1) < 1e-6);
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

test('hovering or focusing a term of the formula outlines its figure', async () => {
  const { page, problems } = await open(`${site.server.url}#/scaled-dot-product`);
  const lab = page.locator('attn-sdpa');
  const linked = () => lab.locator('.panel.linked').evaluateAll((ps) => ps.map((p) => p.dataset.panel));
  assert.deepEqual(await linked(), []);
  await lab.locator('.term[data-term="scores"]').hover();
  await settled(lab);
  assert.deepEqual(await linked(), ['q', 'k', 'scores']);
  assert.match(await lab.locator('#term-text').textContent(), /every query dotted with every key/);
  await lab.locator('.term[data-term="softmax"]').hover();
  await settled(lab);
  assert.deepEqual(await linked(), ['weights']);
  await lab.locator('.term[data-term="scale"]').focus();
  await settled(lab);
  assert.deepEqual(await linked(), ['scaled']);
  await page.keyboard.press('Tab'); // on to V
  await settled(lab);
  assert.deepEqual(await linked(), ['v']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('Re-roll draws new Q, K, V and the checks still pass; a bad seed shows an error and keeps the last one', async () => {
  const { page, problems } = await open(`${site.server.url}#/scaled-dot-product`);
  const lab = page.locator('attn-sdpa');
  const before = await lab.locator('.max-diff').getAttribute('data-value');
  const firstGapText = await lab.locator('.max-diff').textContent();
  const firstQ = await lab.locator('attn-matrix').first().locator('tbody td').first().textContent();
  await lab.getByRole('button', { name: 'Re-roll' }).click();
  await settled(lab);
  assert.notEqual(await lab.locator('#seed').inputValue(), '0');
  assert.notEqual(await lab.locator('attn-matrix').first().locator('tbody td').first().textContent(), firstQ);
  assert.deepEqual(await checkStatuses(page), ['pass', 'pass', 'pass', 'pass']);
  const after = Number(await lab.locator('.max-diff').getAttribute('data-value'));
  assert.ok(after <= 1e-6, `after re-roll: ${after} (before ${before})`);

  await lab.locator('#seed').fill('12x');
  await settled(lab);
  assert.match(await lab.locator('#seed-error').textContent(), /not a number/);
  assert.equal(await lab.locator('#seed').getAttribute('aria-invalid'), 'true');
  assert.deepEqual(await checkStatuses(page), ['pass', 'pass', 'pass', 'pass']);
  await lab.locator('button.reset').first().click();
  await settled(lab);
  assert.equal(await lab.locator('#seed').inputValue(), '0');
  assert.equal(await lab.locator('#seed').getAttribute('aria-invalid'), 'false');
  assert.equal(await lab.locator('.max-diff').getAttribute('data-value'), before);
  assert.equal(await lab.locator('.max-diff').textContent(), firstGapText, 'Reset: back to seed 0');
  assert.deepEqual(problems, []);
  await page.close();
});

test('regression: the summary names both ways of computing the output, and its numbers are the checks’ numbers', async () => {
  const { page, problems } = await open(`${site.server.url}#/scaled-dot-product`);
  const lab = page.locator('attn-sdpa');
  const gaps = await lab.locator('.gap').evaluateAll((spans) =>
    spans.map((s) => ({
      way: s.dataset.way,
      value: Number(s.dataset.value),
      text: s.textContent.trim(),
      line: s.closest('li').textContent.replace(/\s+/g, ' ').trim(),
    })),
  );
  assert.deepEqual(
    gaps.map((g) => g.way),
    ['one-pass', 'step-by-step'],
  );
  assert.match(gaps[0].line, /in one pass \(the weights are never stored\)/);
  assert.match(gaps[1].line, /step by step \(the weights are kept/);
  const checks = await lab.locator('attn-check.reference').evaluateAll((cs) =>
    cs.map((c) => ({
      way: ['one-pass', 'step-by-step'].find((way) => c.classList.contains(way)),
      value: c.value,
      text: c.shadowRoot.textContent.replace(/\s+/g, ' '),
    })),
  );
  assert.equal(checks.length, 2, 'one check per way');
  for (const gap of gaps) {
    const check = checks.find((c) => c.way === gap.way);
    assert.equal(check.value, gap.value, `${gap.way}: the check measures the number the summary shows`);
    assert.ok(check.text.includes(`= ${gap.text} ≤`), `${gap.way}: check "${check.text}" shows ${gap.text}`);
    assert.ok(
      check.text.includes(gap.line.replace(gap.text, '').trim()),
      `${gap.way}: the check is named as the summary`,
    );
  }
  // the learner's words: the engineering names are under the hood only
  const prose = await lab.evaluate((el) => {
    const copy = document.createElement('div');
    for (const node of el.shadowRoot.childNodes) copy.append(node.cloneNode(true));
    copy.querySelectorAll('details.hood, attn-code, style').forEach((n) => n.remove());
    return copy.textContent;
  });
  assert.doesNotMatch(prose, /kernel|float64|SIMD/i);
  assert.match(await lab.locator('details.hood').textContent(), /fused kernel/);
  assert.deepEqual(problems, []);
  await page.close();
});

/** In the page: the smallest SVG text of `host` (any depth of shadow roots) as rendered, in px. */
const smallestText = (host) =>
  host.evaluate((el) => {
    let least = Infinity;
    const visit = (root) => {
      for (const node of root.querySelectorAll('*')) {
        if (node instanceof SVGTextElement && node.textContent.trim() && node.getClientRects().length) {
          const m = node.getScreenCTM();
          least = Math.min(least, parseFloat(getComputedStyle(node).fontSize) * Math.hypot(m.a, m.b));
        }
        if (node.shadowRoot) visit(node.shadowRoot);
      }
    };
    visit(el.shadowRoot);
    return least;
  });

/** In the page: the visible toolbars and Export menus inside `host`, nested figures included. */
const toolbars = (host) =>
  host.evaluate((el) => {
    let count = 0;
    const visit = (root) => {
      for (const node of root.querySelectorAll('*')) {
        if (node.matches('.toolbar, details.export-menu') && node.checkVisibility()) count += 1;
        if (node.shadowRoot) visit(node.shadowRoot);
      }
    };
    visit(el.shadowRoot);
    return count;
  });

const inView = (box, viewport) => box && box.y >= 0 && box.y + Math.min(box.height, 44) <= viewport.height;

for (const [width, height] of [
  [1280, 900],
  [390, 844],
]) {
  test(`at ${width}×${height}: one toolbar per lab, the seed with the figures, figure text ≥ 11 px, checks closed`, async () => {
    const { page, problems } = await open(`${site.server.url}#/scaled-dot-product`);
    await page.setViewportSize({ width, height });
    for (const tag of ['attn-sdpa', 'attn-sdpa-steps']) {
      const lab = page.locator(tag);
      await settled(lab);
      assert.equal(await toolbars(lab), 2, `${tag}: one toolbar (Reset, Export menu), no nested ones`);
      assert.ok((await smallestText(lab)) >= 11, `${tag}: text of ${await smallestText(lab)} px`);
      const verified = lab.locator('attn-verified');
      if (await verified.count()) assert.equal(await lab.locator('attn-check').first().isVisible(), false);
    }
    const lab = page.locator('attn-sdpa');
    // scrolled down to the weights, the seed and the formula are still in view (on a screen this tall)
    await lab
      .locator('[data-panel="weights"]')
      .evaluate((el) => el.scrollIntoView({ block: 'end', behavior: 'instant' }));
    const viewport = page.viewportSize();
    const weights = await lab.locator('[data-panel="weights"] attn-heatmap').boundingBox();
    assert.ok(Math.max(weights.width, weights.height) >= 240, `weights heatmap ${weights.width} × ${weights.height}`);
    if (width >= 1280) {
      assert.ok(inView(await lab.locator('#seed').boundingBox(), viewport), 'the seed field is in view');
      assert.ok(
        inView(await lab.locator('.term[data-term="softmax"]').boundingBox(), viewport),
        'the formula is in view',
      );
    }
    // the step-through: its passes, table and Previous/Next in one view
    const steps = page.locator('attn-sdpa-steps');
    await steps.evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
    for (const part of ['ol.passes', 'table.steps', 'button.next']) {
      assert.ok(inView(await steps.locator(part).boundingBox(), viewport), `steps: ${part} in view`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('each lab’s one Export menu saves a picture and its numbers', async () => {
  const { page, problems } = await open(`${site.server.url}#/scaled-dot-product`);
  for (const [tag, stem, rows] of [
    ['attn-sdpa', 'sdpa', 1 + 4 * 5 * 8 + 3 * 5 * 5],
    ['attn-sdpa-steps', 'steps', 1 + 5],
  ]) {
    const files = await exportAll(page, page.locator(tag));
    for (const kind of ['svg', 'png', 'csv', 'json']) assert.equal(files[kind].filename, `${stem}.${kind}`);
    assert.deepEqual([...files.png.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]); // a PNG
    assert.match(files.svg.text, /<svg[^>]*viewBox/, `${tag} svg`);
    assert.equal(files.csv.text.trim().split('\n').length, rows, `${tag} csv`);
    assert.equal(JSON.parse(files.json.text).seed, 0, `${tag} json`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('predict first: the exercises hide their figures until an attempt; each likely slip gets its own feedback', async () => {
  const page = await site.browser.context.newPage();
  await page.addInitScript(() => localStorage.clear()); // a learner who has not tried them yet
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/scaled-dot-product`);
  const figure = await checkPredictFirst(page, {
    id: 'sdpa-score',
    mistakes: [
      ['4', /raw dot product/],
      ['1', /divides by dk = 4/ /* d_k, typeset */],
      ['3', /adds the entries pairwise/],
    ],
    right: '2',
    figure: 'attn-attention',
  });
  // the bars under the weights are the core's scaled scores of the exercise's query
  const bars = figure.locator('attn-bars');
  await settled(bars);
  assert.deepEqual(await bars.evaluate((el) => Array.from(el.values)), [2, -1.5, 0.5]);
  await checkPredictFirst(page, {
    id: 'sdpa-shape',
    mistakes: [
      ['(2, 7, 3)', /one row per query/],
      ['(2, 5, 8)', /its width is not the 8/],
      ['(2, 5, 7)', /scores and the weights/],
    ],
    right: '(2, 5, 3)',
    figure: 'attn-shape-diagram',
  });
  assert.deepEqual(problems, []);
  await page.close();
});
