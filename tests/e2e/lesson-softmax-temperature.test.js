// Lesson 3, softmax-temperature, in headless Chromium (the site over http and the single file from
// file://): the source's numbers by default, every check passing, exactly one weight chart, one
// indexing convention (from 0), the τ limits, the three-temperature table driving the slider, a
// logit bar moved by keyboard and by pointer, the numerical-stability lab (naive NaN, stable
// finite, a bad entry refused), old permalinks of the cells the lab took over, and the layout a
// learner sees at 1280×900 and 390×844.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';
import { attemptById as attempt } from './exercise-steps.js';

const site = useBrowserAndSite();

const LOGITS = [1.2, 4.5, 2.0, 0.8];
const LAB = 'attn-softmax-temperature#t';

/** softmax(s / τ) in float64: the test's own oracle. */
function softmax(s, tau) {
  const m = Math.max(...s);
  const e = s.map((x) => Math.exp((x - m) / tau));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
}
const entropy = (p) => -p.reduce((h, x) => (x > 0 ? h + x * Math.log(x) : h), 0);

function assertClose(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((v, i) =>
    assert.ok(Math.abs(v - expected[i]) <= tol, `${what}: entry ${i} is ${v}, expected ${expected[i]}`),
  );
}

const numbers = (locator) => locator.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-value'))));
const weightBars = (page) => numbers(page.locator(`${LAB} .weights rect.bar`));
const stat = async (page, name) => Number(await page.locator(`${LAB} dd.${name}`).getAttribute('data-value'));
const tableRow = (page, k) => numbers(page.locator(`${LAB} table.compare tbody tr`).nth(k).locator('td'));

/**
 * Waits until the lab has drawn the state an action just set (the action removed data-settled
 * synchronously, nested slider and checks included) and its slider reads `tau` (a RegExp).
 */
async function labDrawnAt(page, tau) {
  await page.locator(`${LAB}[data-settled] attn-slider output`).filter({ hasText: tau }).waitFor();
}

/** Waits until no attn-check is pending, then returns [status, text] of each. */
async function checks(page) {
  const all = page.locator('attn-check');
  await page.waitForFunction(
    () => {
      const found = [];
      const walk = (root) =>
        root.querySelectorAll('*').forEach((el) => {
          if (el.localName === 'attn-check') found.push(el);
          if (el.shadowRoot) walk(el.shadowRoot);
        });
      walk(document);
      return found.length > 0 && found.every((c) => c.getAttribute('data-status') !== 'pending');
    },
    null,
    { timeout: 10000 },
  );
  return all.evaluateAll((cs) =>
    cs.map((c) => [c.getAttribute('data-status'), c.shadowRoot.textContent.replace(/\s+/g, ' ').trim()]),
  );
}

const exercise = (page, id) => page.locator(`attn-exercise#${id}`);

const NAN = 'NaN (not a number) for every weight';

/** Scrolls to each lab in turn (figures draw only near the viewport) and waits until it has drawn;
 * the stability table shows once its exercise has an attempt, so a learner answers that first. */
async function showLabs(page) {
  const overflow = exercise(page, 'naive-overflow');
  if (!(await overflow.getAttribute('data-progress'))) await attempt(page, 'naive-overflow', NAN);
  for (const selector of [LAB, 'attn-softmax-stability']) {
    await page.locator(selector).scrollIntoViewIfNeeded();
    await page.locator(`${selector}[data-settled]`).waitFor();
  }
}

async function open(page, url) {
  await page.goto(url);
  await showLabs(page);
}

/** In the page: the bar charts (through open shadow roots), as { label, editable, grouped }. */
function barCharts() {
  const found = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.localName === 'svg' && el.classList.contains('bar-chart')) {
        found.push({
          label: el.getAttribute('aria-label'),
          editable: el.classList.contains('editable'),
          grouped: el.classList.contains('grouped'),
        });
      }
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return found;
}

/** In the page: visible SVG text under 11 px as rendered (after the SVG's scaling), as [text, px]. */
function smallText() {
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
}

const targets = [
  ['the static site over http', () => `${site.server.url}#/softmax-temperature`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/softmax-temperature`],
];

for (const [name, url] of targets) {
  describe(name, () => {
    // one page per target, the tests run in order on it (page loads are the slow part)
    let page;
    let problems;
    before(async () => {
      page = await site.browser.context.newPage();
      ({ problems } = watch(page));
      await open(page, url());
    });
    after(() => page?.close());

    test("the source's numbers by default, and every check passes", async () => {
      // the comparison table: τ = 0.25, 1, 5, as in the source's figure
      for (const [k, tau] of [0.25, 1, 5].entries()) {
        assertClose(await tableRow(page, k), softmax(LOGITS, tau), 1e-6, `table row at τ = ${tau}`);
      }
      assertClose(await weightBars(page), [0.0322492, 0.8743615, 0.071772, 0.0216173], 1e-6, 'lab at τ = 1');
      const H = entropy(softmax(LOGITS, 1));
      assert.ok(Math.abs((await stat(page, 'entropy')) - H) < 1e-5, `entropy ${await stat(page, 'entropy')} vs ${H}`);
      assert.ok(Math.abs((await stat(page, 'effective')) - Math.exp(H)) < 1e-5, 'effective positions');
      assert.ok(Math.abs(H - 0.5001) < 1e-4 && Math.abs(Math.exp(H) - 1.649) < 1e-3, 'the prose quotes H and exp(H)');

      // every check the lesson had (3 + 1 + 4), each in a Verified line
      const all = await checks(page);
      assert.equal(all.length, 8, `8 checks: ${JSON.stringify(all)}`);
      for (const [status, text] of all) assert.equal(status, 'pass', text);
      assert.match(all.map((c) => c[1]).join('\n'), /float64 formula/);
      assert.match(all.map((c) => c[1]).join('\n'), /row sum − 1\| over the three temperatures/);
      const verified = await page
        .locator('attn-verified')
        .evaluateAll((vs) => vs.map((v) => [v.dataset.status, v.dataset.count]));
      assert.deepEqual(verified, [
        ['pass', '4'],
        ['pass', '4'],
      ]);
      // every code cell the lesson had: the lab's two and the stability lab's one
      assert.deepEqual(await page.locator('attn-code').evaluateAll((cs) => cs.map((c) => c.label)), [
        'PyTorch',
        "PyTorch: the source's figure",
        'NumPy',
      ]);
      assert.deepEqual(problems, []);
    });

    test('exactly one weight chart in the lesson; every older tag stays registered', async () => {
      const charts = await page.evaluate(barCharts);
      const weightCharts = charts.filter((c) => !c.editable);
      assert.deepEqual(weightCharts, [
        { label: 'Attention weights of each position', editable: false, grouped: false },
      ]);
      assert.deepEqual(
        charts.filter((c) => c.editable).map((c) => c.label),
        ['Logits s (editable)'],
      );
      const tags = [
        'attn-softmax-temperature',
        'attn-softmax-lab',
        'attn-temperature-compare',
        'attn-softmax-stability',
      ];
      assert.deepEqual(
        await page.evaluate((names) => names.filter((n) => !customElements.get(n)), tags),
        [],
        'every tag is registered',
      );
    });

    test('positions count from 0 in every formula, table, label and sentence', async () => {
      const tex = await page.locator('.lesson-body annotation').allTextContents();
      const all = tex.join('\n');
      assert.ok(tex.length > 0);
      for (const bad of [/_\{[jk]=1\}/, /\^\{?T\}? ?\\exp/, /s_1, \\dots/, /s_T\b/, /\\sum_\{[jk]=1\}\^\{?T\}?/]) {
        assert.doesNotMatch(all, bad, `KaTeX source: ${bad}`);
      }
      assert.match(all, /\\sum_\{k=0\}\^\{T-1\}/, 'the softmax sums k = 0 … T−1');
      assert.match(all, /\\sum_\{j=0\}\^\{T-1\}/, 'the entropy sums j = 0 … T−1');
      assert.match(all, /s_0, \\dots, s_\{T-1\}/);
      // the prose's "position 1" is the logit 4.5, as on the charts
      const prose = (await page.locator('.lesson-body > p').allTextContents()).join('\n');
      assert.match(prose, /position 1, the one with the largest logit/);
      assert.ok(tex.includes('s_1 = 4.5'), 's₁ = 4.5, the bar labelled Pos 1');
      const labels = await page.locator(`${LAB} .weights text.label`).allTextContents();
      assert.deepEqual(labels, ['Pos 0', 'Pos 1', 'Pos 2', 'Pos 3']);
      assert.deepEqual(await page.locator(`${LAB} .logits text.label`).allTextContents(), labels);
      const formula = (await page.locator(`${LAB} .formula`).textContent()).replace(/\s+/g, ' ');
      // typeset: the sum's limits as scripts, k = 0 below and T − 1 above; j runs over the 4 positions
      assert.match(formula, /∑T − 1k = 0 ?exp\(sk\/τ\) for j = 0, ?…, ?3/);
      const limits = page.locator(`${LAB} .formula .script.both`);
      assert.equal((await limits.locator('.sub').textContent()).replace(/\s+/g, ' ').trim(), 'k = 0');
      assert.equal((await limits.locator('.sup').textContent()).replace(/\s+/g, ' ').trim(), 'T − 1');
      assert.deepEqual(await page.locator(`${LAB} table.compare thead th`).allTextContents(), [
        'τ',
        'α at Pos 0',
        'α at Pos 1',
        'α at Pos 2',
        'α at Pos 3',
      ]);
      assert.deepEqual(await page.locator('attn-softmax-stability table.stability tbody th').allTextContents(), [
        '0',
        '1',
        '2',
        'Σ',
      ]);
    });

    test('τ → 0 gives a one-hot and τ → ∞ uniform weights', async () => {
      const lab = page.locator(LAB);
      await lab.getByRole('button', { name: 'τ → 0' }).click();
      await labDrawnAt(page, /^τ = 0$/);
      assert.deepEqual(await weightBars(page), [0, 1, 0, 0]);
      assert.equal(await stat(page, 'entropy'), 0);
      assert.equal(await stat(page, 'effective'), 1);

      await lab.getByRole('button', { name: 'τ → ∞' }).click();
      await labDrawnAt(page, /^τ = ∞$/);
      assert.deepEqual(await weightBars(page), [0.25, 0.25, 0.25, 0.25]);
      assert.ok(Math.abs((await stat(page, 'effective')) - 4) < 1e-5);
      for (const [status, text] of await checks(page)) assert.equal(status, 'pass', text);
      assert.deepEqual(problems, []);
    });

    test('a temperature of the table moves the slider there, and the one weight chart shows it', async () => {
      const lab = page.locator(LAB);
      const five = lab.getByRole('button', { name: 'Set τ to 5' });
      await five.click();
      await labDrawnAt(page, /^τ = 5\.00$/);
      assert.equal(await five.getAttribute('aria-pressed'), 'true');
      assert.equal(await lab.getByRole('button', { name: 'Set τ to 1' }).getAttribute('aria-pressed'), 'false');
      assertClose(await weightBars(page), softmax(LOGITS, 5), 1e-6, 'the chart at τ = 5');
      assertClose(await weightBars(page), await tableRow(page, 2), 1e-7, 'the chart and the table row agree');
      await lab.getByRole('button', { name: 'Set τ to 0.25' }).click();
      await labDrawnAt(page, /^τ = 0\.250$/);
      // the table keeps the tiny weights readable: position 2 holds about 5e-5
      assert.match(await lab.locator('table.compare tbody tr').first().textContent(), /4\.5e−5/);
      assert.deepEqual(problems, []);
    });

    test('one step of the slider is one state change: one attn-state-change event', async () => {
      const lab = page.locator(LAB);
      await lab.getByRole('button', { name: 'Set τ to 1' }).click();
      await labDrawnAt(page, /^τ = 1\.00$/);
      await page.evaluate(() => {
        window.__stateChanges = 0;
        document.addEventListener('attn-state-change', () => (window.__stateChanges += 1));
      });
      await lab.locator('attn-slider input[type=range]').focus();
      await page.keyboard.press('ArrowRight');
      await settled(lab);
      assert.equal(await page.evaluate(() => window.__stateChanges), 1);
      assert.deepEqual(problems, []);
    });

    test('Reset, then a logit bar moved by keyboard and by pointer changes the weights', async () => {
      const lab = page.locator(LAB);
      await lab.getByRole('button', { name: 'Reset', exact: true }).click();
      await labDrawnAt(page, /^τ = 1\.00$/);
      assertClose(await weightBars(page), softmax(LOGITS, 1), 1e-6, 'after Reset');
      const bar0 = lab.getByRole('slider', { name: 'Bar Pos 0' });
      await bar0.focus();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('PageUp'); // 1.2 + 0.1 + 0.1 + 1.0
      await settled(lab); // each key set the logits (unsettling the lab) as it was handled
      assert.equal(await bar0.getAttribute('aria-valuenow'), '2.4');
      assertClose(await weightBars(page), softmax([2.4, 4.5, 2.0, 0.8], 1), 1e-6, 'after the keyboard edit');
      assertClose(await tableRow(page, 1), softmax([2.4, 4.5, 2.0, 0.8], 1), 1e-6, 'the table follows the logits');

      // drag Pos 3 upwards with the mouse
      const bar3 = lab.getByRole('slider', { name: 'Bar Pos 3' });
      await bar3.scrollIntoViewIfNeeded();
      const box = await bar3.boundingBox();
      const before = Number(await bar3.getAttribute('aria-valuenow'));
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2, box.y - 60, { steps: 5 });
      await page.mouse.up();
      await settled(lab); // every pointer event that moved the bar set the logits as it was handled
      const after = Number(await bar3.getAttribute('aria-valuenow'));
      assert.ok(after > before + 0.5, `dragging up raised the logit from ${before} to ${after}`);
      assertClose(await weightBars(page), softmax([2.4, 4.5, 2.0, after], 1), 1e-6, 'after the drag');
      for (const [status, text] of await checks(page)) assert.equal(status, 'pass', text);
      assert.deepEqual(problems, []);
    });

    test('stability: naive exp gives NaN, the stable softmax stays finite; a bad entry is refused', async () => {
      const cell = page.locator('attn-softmax-stability');
      const row = (j) => cell.locator('table.stability tbody tr').nth(j).locator('td');
      assert.deepEqual(
        await row(0)
          .allTextContents()
          .then((t) => t.map((s) => s.trim())),
        ['1000', 'Infinity', 'NaN', '−2', '0.0900'],
      );
      const stable = async () => (await cell.locator('table.stability tbody tr.term').allTextContents()).join('\n');
      assert.match(await stable(), /0\.0900[\s\S]*0\.2447[\s\S]*0\.6652/);
      assert.equal(await cell.getAttribute('data-naive-nan'), '');
      assert.match(await cell.locator('.summary').textContent(), /Infinity \/ Infinity is NaN/);

      // a bad entry: the error shows beside the field, the last valid logits stay
      const field = cell.getByRole('textbox', { name: 'Logits s' });
      await field.fill('1000, abc, 1002');
      await settled(cell); // the editor's error state is drawn, and nothing else changed meanwhile
      await cell
        .locator('attn-vector-editor .field-error')
        .filter({ hasText: /Entry 1 \(counting from 0\)/ })
        .waitFor();
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      assert.match(await stable(), /NaN/);

      // small logits: the naive formula works too, and the checks say so
      await cell.getByRole('button', { name: '0, 1, 2' }).click();
      await settled(cell);
      assert.deepEqual(await cell.evaluate((el) => el.logits), [0, 1, 2]);
      assert.doesNotMatch(await stable(), /NaN|Infinity/);
      assert.equal(await cell.getAttribute('data-naive-nan'), null);
      const all = await checks(page);
      for (const [status, text] of all) assert.equal(status, 'pass', text);
      assert.ok(all.some(([, text]) => text.includes('naive softmax is finite here')));
      assert.deepEqual(problems, []);
    });

    test('permalinks: the lab at τ = 0 with tied logits, and the old ids of the cells it took over', async () => {
      // Only the hash changes: the app's hashchange handler puts in a fresh copy of the lesson with
      // the link's state, then scrolls to the top. Wait for that copy before scrolling to its lab.
      const state = (expected) =>
        page.waitForFunction((e) => {
          const lab = document.querySelector('#t');
          return lab && JSON.stringify(lab.getState()) === e;
        }, JSON.stringify(expected));
      const defaults = { logits: LOGITS, temperature: 1, temperatures: [0.25, 1, 5] };
      const links = [
        // the lesson's own cell, and the old cell `lab` it replaced
        ['t.temperature=0&t.logits=1,3,3,0', { ...defaults, temperature: 0, logits: [1, 3, 3, 0] }],
        ['lab.temperature=0&lab.logits=1,3,3,0', { ...defaults, temperature: 0, logits: [1, 3, 3, 0] }],
        // the old first figure `t` and the old three-temperature figure `three`
        ['t.temperature=2', { ...defaults, temperature: 2 }],
        ['three.temperatures=0.5,2', { ...defaults, temperatures: [0.5, 2] }],
        // an old copied link holds every cell: the one the reader had moved wins
        [
          't.logits=1.2,4.5,2,0.8&t.temperature=1&three.logits=1.2,4.5,2,0.8&three.temperatures=0.25,1,5&lab.logits=1,3,3,0&lab.temperature=0&overflow.logits=1000,1001,1002',
          { ...defaults, temperature: 0, logits: [1, 3, 3, 0] },
        ],
      ];
      for (const [query, expected] of links) {
        await page.goto(`${url()}?${query}`);
        await state(expected);
        await showLabs(page);
        await settled(page.locator('attn-app'));
        assert.equal(await page.locator('.link-notice').textContent(), '', `${query}: nothing ignored`);
        for (const [status, text] of await checks(page)) assert.equal(status, 'pass', `${query}: ${text}`);
      }
      // the last one: the tie shares the weight, and the URL now names the lab by its own id
      await page.waitForFunction(() => {
        const lab = document.querySelector('#t');
        return lab?.shadowRoot?.querySelector('.readout')?.dataset.weights === '0,0.5,0.5,0';
      });
      assert.equal(await stat(page, 'effective'), 2);
      await page.locator(LAB).getByRole('button', { name: 'Set τ to 1' }).click();
      await page.waitForFunction(() => !/[?&](lab|three)\./.test(location.hash)); // the URL follows a quarter second later
      // (the exercise's chart at τ = 2, id hot, comes first in the lesson and has its own fields)
      assert.match(page.url(), /[?&]t\.logits=1,3,3,0&t\.temperature=1&t\.temperatures=0\.25,1,5&overflow\.logits=/);
      assert.doesNotMatch(page.url(), /[?&](lab|three)\./);
      assert.deepEqual(problems, []);
    });
  });
}

describe('predict first: the two exercises', () => {
  test('α0 at τ = 2: hidden chart, slips with their own feedback, the answer after the chart counts as shown, a variant solves it', async () => {
    const page = await site.browser.context.newPage();
    const { problems } = watch(page);
    await page.goto(`${site.server.url}#/softmax-temperature`);
    const ex = exercise(page, 'alpha-hot');
    await ex.scrollIntoViewIfNeeded();
    await ex.getByRole('button', { name: 'Reset Exercise 1: a hot softmax' }).click();
    const reveal = page.locator('attn-reveal[after="alpha-hot"]');
    await page.locator('attn-reveal[after="alpha-hot"][data-revealed="false"]').waitFor();
    assert.equal(await page.locator('attn-softmax-temperature#hot').isVisible(), false, 'no chart before an attempt');
    assert.equal(await ex.getByRole('button', { name: 'Show explanation' }).count(), 0);
    const at2 = softmax(LOGITS, 2);
    const slips = [
      [softmax(LOGITS, 1)[0], /the logits were not divided by τ = 2/],
      [0.25, /is the limit τ → ∞/],
      [softmax(LOGITS, 1 / 2)[0], /multiplying by τ gives/],
      [0, /multiplying by τ gives/],
      [1.2 / 8.5, /the logit divided by the sum of the logits/],
    ];
    for (const [value, feedback] of slips) {
      const verdict = await attempt(page, 'alpha-hot', Number(value.toFixed(4)));
      assert.match(verdict, /^Not yet — /, `${value}`);
      assert.match(verdict, feedback, `${value}`);
    }
    await ex.getByRole('button', { name: 'Show hint' }).waitFor();
    assert.match(
      await attempt(page, 'alpha-hot', Number(at2[0].toFixed(3))),
      /^Correct — .*counts as shown, not solved/,
    );
    assert.equal(await ex.getAttribute('data-progress'), 'shown', 'the chart showed the answer');
    assert.equal(await reveal.getAttribute('data-revealed'), 'true');
    const hot = page.locator('attn-softmax-temperature#hot');
    await hot.scrollIntoViewIfNeeded();
    await settled(hot);
    assertClose(await numbers(hot.locator('.weights rect.bar')), at2, 1e-6, 'the chart at τ = 2');
    // Try another: a fresh question from the core (seed 1: s = (2, 1, 0.5, 3), τ = 3, α3)
    await ex.getByRole('button', { name: 'Try another' }).click();
    await settled(ex);
    assert.match(await ex.locator('#prompt').textContent(), /s = \(2, 1, 0\.5, 3\).*τ = 3.*α3/);
    await page.locator('attn-reveal[after="alpha-hot"][data-revealed="false"]').waitFor(); // held back again
    assert.match(await attempt(page, 'alpha-hot', 0.25), /is the limit τ → ∞ only/);
    assert.match(await attempt(page, 'alpha-hot', Number(softmax([2, 1, 0.5, 3], 3)[3].toFixed(3))), /^Correct — /);
    assert.equal(await ex.getAttribute('data-progress'), 'solved', 'a variant solved after a diagnosis counts');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('large logits: the stability table waits; three slips with their own feedback; NaN after them counts as shown', async () => {
    const page = await site.browser.context.newPage();
    const { problems } = watch(page);
    await page.goto(`${site.server.url}#/softmax-temperature`);
    const ex = exercise(page, 'naive-overflow');
    await ex.scrollIntoViewIfNeeded();
    await ex.getByRole('button', { name: 'Reset Exercise 2: large logits' }).click();
    await page.locator('attn-reveal[after="naive-overflow"][data-revealed="false"]').waitFor();
    assert.equal(await page.locator('attn-softmax-stability').isVisible(), false, 'no table before an attempt');
    const wrong = [
      ['(0.090, 0.245, 0.665), the weights of (0, 1, 2)', /those are the true weights/],
      ['(0, 0, 1): the largest logit takes all the weight', /only the gaps between them matter/],
      ['Infinity for every weight', /Infinity divided by infinity is not infinity/],
    ];
    for (const [option, feedback] of wrong) {
      const verdict = await attempt(page, 'naive-overflow', option);
      assert.match(verdict, /^Not yet — /, option);
      assert.match(verdict, feedback, option);
    }
    assert.match(await attempt(page, 'naive-overflow', NAN), /^Correct — /);
    assert.equal(await ex.getAttribute('data-progress'), 'shown', 'the table showed NaN');
    const cell = page.locator('attn-softmax-stability');
    await cell.scrollIntoViewIfNeeded();
    await settled(cell);
    assert.match(await cell.locator('table.stability').textContent(), /NaN/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('what a learner sees', () => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`${viewport.width}×${viewport.height}: slider and weight chart together, text ≥ 11 px, 44 px logit bars`, async () => {
      const page = await site.browser.context.newPage();
      await page.setViewportSize(viewport);
      const { problems } = watch(page);
      await open(page, `${site.server.url}#/softmax-temperature`);
      const lab = page.locator(LAB);
      await lab.evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
      await settled(lab);
      const boxes = {
        weights: await lab.locator('.chart.weights svg').boundingBox(),
        slider: await lab.locator('attn-slider input[type=range]').boundingBox(),
        logits: await lab.locator('.chart.logits svg').boundingBox(),
      };
      if (viewport.width === 1280) {
        // the controls sit beside the figure: the slider, the logits and the weights in one viewport
        for (const [what, box] of Object.entries(boxes)) {
          assert.ok(box.y >= 0 && box.y + box.height <= viewport.height, `${what} in view: ${JSON.stringify(box)}`);
        }
        assert.ok(boxes.slider.x > boxes.weights.x + boxes.weights.width - 1, 'the slider is beside the chart');
      } else {
        // stacked: the slider comes directly under the weights
        const gap = boxes.slider.y - (boxes.weights.y + boxes.weights.height);
        assert.ok(gap >= 0 && gap < 120, `the slider is ${gap} px under the weights`);
      }
      assert.ok(Math.max(boxes.weights.width, boxes.weights.height) >= 240, 'the chart keeps a useful size');
      // each logit bar can be taken anywhere in its column: a hit area of at least 44 px
      const hits = await lab.locator('.chart.logits rect.hit').evaluateAll((rs) =>
        rs.map((r) => {
          const b = r.getBoundingClientRect();
          return [b.width, b.height];
        }),
      );
      assert.equal(hits.length, 4);
      for (const [w, h] of hits) assert.ok(w >= 44 && h >= 44, `hit area ${w} × ${h}`);
      // the slider, its 0 and ∞ and the table's temperatures are 44 px targets too
      const targets = await lab
        .locator('attn-slider :is(input[type=range], button.limit), table.compare button')
        .evaluateAll((els) =>
          els.map((e) => [e.getAttribute('aria-label') ?? e.type, e.getBoundingClientRect().height]),
        );
      assert.equal(targets.length, 6);
      for (const [what, h] of targets) assert.ok(h >= 44, `${what} is ${h} px tall`);
      // figure text as rendered, in both labs
      await page.locator('attn-softmax-stability').scrollIntoViewIfNeeded();
      await settled(page.locator('attn-app'));
      const small = await page.evaluate(smallText);
      assert.deepEqual(small, [], 'SVG text under 11 px as rendered');
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});
