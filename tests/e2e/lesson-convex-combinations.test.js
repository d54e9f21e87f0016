// The convex-combinations lesson in headless Chromium (the site over http and
// the single file from file://): the notebook's example y = [0.7, 0.5, 0.9],
// every check passing behind one quiet Verified line, a broken rule explained in
// the learner's words (never the engine's) and repaired by Normalise, the "keep
// Σα = 1" mode (a drag rescales the others and moves y in the picture of where
// it lands), bars dragged by keyboard and mouse, bad editor entries keeping the
// last valid state, permalinks old and new, and the layout: figure and controls
// in one 1280×900 view, readable figure text, 44 px drag targets. The lab waits behind the
// lesson's two predict-first exercises (attn-reveal): each declared mistake gets its own
// feedback, the right answer solves it, and only then does the lab show.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';
import { attemptById as attempt } from './exercise-steps.js';

const site = useBrowserAndSite();
const LAB = 'attn-convex-mix';

const exercise = (page, id) => page.locator(`attn-exercise#${id}`);

const ANSWERS = { 'mix-entry': 0.9, 'sum-two': 'At 2v = (2, 4, 6)' };

/** The lab shows once both exercises above it have an attempt: as a learner, answer those not yet attempted. */
async function unlock(page) {
  for (const [id, answer] of Object.entries(ANSWERS)) {
    if (!(await exercise(page, id).getAttribute('data-progress'))) await attempt(page, id, answer);
  }
}

async function open(url) {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(url);
  await unlock(page);
  await page.locator(LAB).scrollIntoViewIfNeeded();
  await settled(page.locator(LAB));
  return { page, problems, lab: page.locator(LAB) };
}

/** y from the core, as the lab reflects it (empty when the core refuses α). */
async function readY(lab) {
  const text = await lab.getAttribute('data-y');
  return text === '' ? [] : text.split(',').map(Number);
}

function assertClose(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: length of ${JSON.stringify(actual)}`);
  actual.forEach((v, i) =>
    assert.ok(Math.abs(v - expected[i]) <= tol, `${what}[${i}] is ${v}, expected ${expected[i]}`),
  );
}

/** Where y lands in the picture: the ring's value on each coordinate's line. */
const marks = (lab) =>
  lab.locator('.value-strips .mark').evaluateAll((ms) => ms.map((m) => Number(m.getAttribute('data-value'))));

/** The weights the lab holds now. */
const weightsOf = (lab) => lab.evaluate((el) => el.weights);
const sumOf = (xs) => xs.reduce((a, b) => a + b, 0);

/** The "Keep Σα = 1" box, set to `on`. */
async function keepSum(lab, on) {
  const box = lab.getByRole('checkbox', { name: 'Keep Σα = 1' });
  if ((await box.isChecked()) !== on) await box.click();
  await settled(lab);
  assert.equal(await box.isChecked(), on);
}

async function statuses(page) {
  return page.locator('attn-check').evaluateAll((checks) => checks.map((c) => c.dataset.status));
}

/** One page per group of tests (page loads dominate the run time); each test leaves it usable. */
function sharedPage(url) {
  const shared = {};
  before(async () => Object.assign(shared, await open(url())));
  after(async () => shared.page?.close());
  return shared;
}

/** The lab's own Reset, in the toolbar under the lab; back to the notebook's example. */
async function resetLab(page, lab) {
  await lab
    .getByRole('group', { name: 'Attention output as a weighted mix of value vectors: tools' })
    .getByRole('button', { name: 'Reset', exact: true })
    .click();
  await settled(lab);
  await page.locator(`${LAB}[data-y="0.7,0.5,0.9"]`).waitFor();
  assert.equal(await lab.locator('attn-vector-editor input').inputValue(), '0.4, 0.1, 0.2, 0.3');
}

const targets = [
  ['the static site over http', () => `${site.server.url}#/convex-combinations`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/convex-combinations`],
];

for (const [name, url] of targets) {
  describe(name, () => {
    const shared = sharedPage(url);

    test('the notebook example: y = [0.7, 0.5, 0.9], loop and product agree, every check passes', async () => {
      const { page, problems, lab } = shared;
      assertClose(await readY(lab), [0.7, 0.5, 0.9], 1e-6, 'y');
      await assert.doesNotReject(lab.locator('.y-value').getByText('[0.7, 0.5, 0.9]').waitFor());
      const status = await statuses(page);
      assert.equal(status.length, 3, 'three checks: non-negative, sum to 1, loop = product');
      assert.deepEqual(status, ['pass', 'pass', 'pass']);
      const printed = await lab.locator('attn-output pre').textContent();
      assert.match(printed, /Output mixture vector: \[0\.7, 0\.5, 0\.9\]/);
      assert.match(printed, /\[OK\] Loop sum and matrix multiplication verified\./);
      // the loop's last running sum is the same y
      assert.equal(
        (await lab.locator('.terms tbody tr').last().locator('td').last().textContent()).trim(),
        '[0.7, 0.5, 0.9]',
      );
      const code = await lab
        .locator('attn-code')
        .first()
        .evaluate((el) => el.code);
      assert.match(code, /alpha = np\.array\(\[0\.4, 0\.1, 0\.2, 0\.3\]/);
      assert.match(code, /y_matrix = alpha @ V/);
      assert.equal(await lab.getAttribute('data-valid'), 'true');
      // y drawn where it lands among the values, one line per coordinate
      assertClose(await marks(lab), [0.7, 0.5, 0.9], 1e-6, 'y in the picture');
      // the checks are behind one quiet line until it is opened
      const verified = lab.locator('attn-verified');
      await verified.getByText('Verified').waitFor();
      assert.match(await verified.locator('summary').textContent(), /Verified\s*✓\s*\(3 checks\)/);
      assert.equal(await lab.locator('attn-check').first().isVisible(), false, 'no check row before opening');
      await verified.locator('summary').click();
      await lab.locator('attn-check').first().waitFor({ state: 'visible' });
      await verified.locator('summary').click();
      await lab.locator('attn-check').first().waitFor({ state: 'hidden' });
      assert.deepEqual(problems, []);
    });

    test('a negative weight breaks Rule 1, is explained, and Normalise repairs it', async () => {
      const { page, problems, lab } = shared;
      await lab.locator('attn-vector-editor input').fill('0.4, -0.1, 0.2, 0.3');
      await settled(lab);
      const rule1 = lab.locator('[data-rule="nonnegative"]');
      await rule1.getByText('Rule 1 broken').waitFor();
      assert.match(await rule1.textContent(), /α1 = −0\.1 is negative/);
      assert.match(await lab.locator('[data-rule="sum"]').textContent(), /Rule 2 broken.*add up to 0\.8, off by 0\.2/s);
      assert.equal(await lab.getAttribute('data-valid'), 'false');
      assert.deepEqual(await readY(lab), [], 'the core refuses a non-convex α');
      // said in the learner's words, never the engine's; the last y that was a mixture stays drawn
      const error = lab.locator('.lab-error');
      assert.match(await error.textContent(), /α1 = −0\.1 is negative, so y is not a mixture of the values/);
      assert.doesNotMatch(await lab.evaluate((el) => el.shadowRoot.textContent), /weights\[1\] is/);
      assert.doesNotMatch(await error.textContent(), /convexCombination|weights\[/);
      assertClose(await marks(lab), [0.7, 0.5, 0.9], 1e-6, 'the last valid y');
      assert.match(await lab.locator('.value-strips').getAttribute('class'), /stale/);
      // and where the weighted sum with these weights would land: 0.4 v0 − 0.1 v1 + … on dim 1 is 0.1
      const stray = await lab
        .locator('.value-strips .stray')
        .evaluateAll((xs) => xs.map((x) => Number(x.dataset.value)));
      assertClose(stray, [0.7, 0.1, 0.9], 1e-6, 'the weighted sum');
      assert.match(await lab.locator('attn-output pre').textContent(), /AssertionError: Weights must be non-negative!/);
      assert.equal(await lab.locator('attn-check.check-nonnegative').getAttribute('data-status'), 'fail');
      assert.equal(await lab.locator('attn-check.check-sum').getAttribute('data-status'), 'fail');

      await lab.getByRole('button', { name: 'Normalise α' }).click();
      await settled(lab);
      await page.locator(`${LAB}[data-valid="true"]`).waitFor();
      // clip -0.1 to 0, divide by 0.9, round to 4 decimals, the remainder on the largest
      assert.equal(await lab.locator('attn-vector-editor input').inputValue(), '0.4445, 0, 0.2222, 0.3333');
      assertClose(await readY(lab), [0.7778, 0.3333, 0.9999], 1e-5, 'y after Normalise');
      assert.deepEqual(await statuses(page), ['pass', 'pass', 'pass']);
      assert.ok(await lab.getByRole('button', { name: 'Normalise α' }).isDisabled(), 'nothing left to normalise');
      assert.equal(await lab.locator('.lab-error').count(), 0);
      assertClose(await marks(lab), [0.7778, 0.3333, 0.9999], 1e-5, 'y drawn after Normalise');
      await resetLab(page, lab);
      assert.deepEqual(problems, []);
    });
  });
}

describe('interactions, on one page of the site over http', () => {
  const shared = sharedPage(() => `${site.server.url}#/convex-combinations`);

  test('keep Σα = 1 (on by default): dragging one weight rescales the others, the sum stays 1, y moves', async () => {
    const { page, problems, lab } = shared;
    assert.equal(await lab.getByRole('checkbox', { name: 'Keep Σα = 1' }).isChecked(), true);
    // by keyboard: α2 up by 0.1, the others shrink in proportion
    const bar2 = lab.getByRole('slider', { name: 'Bar α2' });
    await bar2.focus();
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowUp');
    await settled(lab);
    let w = await weightsOf(lab);
    assert.equal(w[2], 0.3);
    assert.ok(Math.abs(sumOf(w) - 1) < 1e-9, `sum of ${w}`);
    assert.ok(Math.abs(w[0] / w[3] - 4 / 3) < 1e-3, `α0 : α3 kept at 4 : 3 (${w})`);
    assert.equal(await lab.getAttribute('data-valid'), 'true');
    assert.equal(await lab.locator('.lab-error').count(), 0);

    // by mouse: drag α2 to the top, all weight on v2 = (0, 0, 3), and y lands on it
    const before = await marks(lab);
    const box = await bar2.boundingBox();
    const svg = await lab.locator('.chart.bars svg').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y - 40, { steps: 3 });
    const during = await weightsOf(lab);
    assert.ok(Math.abs(sumOf(during) - 1) < 1e-9, `sum while dragging: ${during}`);
    await page.mouse.move(box.x + box.width / 2, svg.y - 20, { steps: 3 });
    await page.mouse.up();
    await settled(lab);
    w = await weightsOf(lab);
    assert.deepEqual(w, [0, 0, 1, 0]);
    assert.equal(await lab.getAttribute('data-y'), '0,0,3');
    const after = await marks(lab);
    assert.notDeepEqual(after, before, 'y moved in the picture');
    assert.deepEqual(after, [0, 0, 3]);
    assert.equal(await lab.locator('attn-vector-editor input').inputValue(), '0, 0, 1, 0');
    assert.deepEqual(await statuses(page), ['pass', 'pass', 'pass']);
    await resetLab(page, lab);
    assert.deepEqual(problems, []);
  });

  test('turning keep Σα = 1 on repairs weights that break a rule; a permalink keeps the mode', async () => {
    const { page, problems, lab } = shared;
    await keepSum(lab, false);
    await lab.locator('attn-vector-editor input').fill('0.4, -0.1, 0.2, 0.3');
    await settled(lab);
    assert.equal(await lab.getAttribute('data-valid'), 'false');
    await page.waitForFunction(() => /mix\.keep-sum=0(&|$)/.test(location.hash));
    const link = page.url();
    await keepSum(lab, true);
    await page.locator(`${LAB}[data-valid="true"]`).waitFor();
    assert.deepEqual(await weightsOf(lab), [0.4445, 0, 0.2222, 0.3333]);

    const again = await open(link);
    assert.equal(await again.lab.getByRole('checkbox', { name: 'Keep Σα = 1' }).isChecked(), false);
    assert.equal(await again.lab.getAttribute('data-valid'), 'false');
    await again.page.close();
    await resetLab(page, lab);
    assert.deepEqual(problems, []);
  });

  test('dragging bars with keep Σα = 1 off (keyboard, mouse) breaks a rule by the amount moved; Normalise and Reset restore', async () => {
    const { page, problems, lab } = shared;
    await keepSum(lab, false);
    const bar = lab.getByRole('slider', { name: 'Bar α0' });
    await bar.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowUp'); // 0.4 -> 0.45
    await settled(lab);
    const rule2 = lab.locator('[data-rule="sum"]');
    await rule2.getByText('Rule 2 broken').waitFor();
    assert.match(await rule2.textContent(), /add up to 1\.05, off by 0\.05/);
    assert.match(await lab.locator('[data-rule="nonnegative"]').textContent(), /Rule 1 kept/);
    assert.equal(await bar.getAttribute('aria-valuenow'), '0.45');
    assert.equal(await lab.locator('attn-vector-editor input').inputValue(), '0.45, 0.1, 0.2, 0.3');

    await lab.getByRole('button', { name: 'Normalise α' }).click();
    await settled(lab);
    await page.locator(`${LAB}[data-valid="true"]`).waitFor();
    assert.deepEqual(await statuses(page), ['pass', 'pass', 'pass']);

    // and with the mouse: drag α1 below the zero line
    const bar1 = lab.getByRole('slider', { name: 'Bar α1' });
    await bar1.scrollIntoViewIfNeeded();
    const box = await bar1.boundingBox();
    const zeroY = box.y + box.height; // the bottom of a positive bar is the zero line
    await page.mouse.move(box.x + box.width / 2, box.y + 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, zeroY + box.height * 1.5, { steps: 5 });
    await page.mouse.up();
    await settled(lab);
    await lab.locator('[data-rule="nonnegative"]').getByText('Rule 1 broken').waitFor();
    const value = Number(await bar1.getAttribute('aria-valuenow'));
    assert.ok(value < 0, `α1 dragged to ${value}`);
    assert.equal(await lab.locator('attn-check.check-nonnegative').getAttribute('data-status'), 'fail');
    await lab.getByRole('button', { name: 'Normalise α' }).click();
    await settled(lab);
    await page.locator(`${LAB}[data-valid="true"]`).waitFor();
    assert.equal(Number(await bar1.getAttribute('aria-valuenow')), 0);
    await resetLab(page, lab);
    assert.deepEqual(problems, []);
  });

  test('bad entries show an error and keep the last valid weights and values', async () => {
    const { page, problems, lab } = shared;
    const weights = lab.locator('attn-vector-editor input');
    await weights.fill('0.4, abc, 0.2, 0.3');
    await settled(lab);
    const error = lab.locator('attn-vector-editor .field-error');
    await error.waitFor();
    assert.match(await error.textContent(), /Entry 1 \(counting from 0\) is “abc”, not a number/);
    assert.equal(await weights.getAttribute('aria-invalid'), 'true');
    await weights.fill('0.5, 0.5');
    await settled(lab);
    assert.match(await error.textContent(), /Needs exactly 4 numbers, got 2/);
    assert.equal(await lab.getAttribute('data-y'), '0.7,0.5,0.9');
    assert.deepEqual(await statuses(page), ['pass', 'pass', 'pass']);

    const cell = lab.getByRole('textbox', { name: 'Values V, row v0, column dim 0' });
    await cell.fill('one');
    await settled(lab);
    await lab.locator('attn-matrix-editor .field-error').first().waitFor();
    assert.equal(await lab.getAttribute('data-y'), '0.7,0.5,0.9', 'V keeps its last valid entry');
    await cell.fill('2');
    await settled(lab);
    await page.locator(`${LAB}[data-y="1.1,0.5,0.9"]`).waitFor(); // 0.4·2 + 0.3·1 = 1.1
    assert.deepEqual(await statuses(page), ['pass', 'pass', 'pass']);
    await resetLab(page, lab);
    assert.deepEqual(problems, []);
  });

  test('an old permalink (no keep-sum field) opens with the mode on', async () => {
    const { problems } = shared;
    const old = await open(
      `${site.server.url}#/convex-combinations?mix.weights=0.1,0.2,0.3,0.4&mix.values=1,0,0;0,2,0;0,0,3;1,1,1`,
    );
    await old.page.locator(`${LAB}[data-y="0.5,0.8,1.3"]`).waitFor();
    assert.equal(await old.lab.getByRole('checkbox', { name: 'Keep Σα = 1' }).isChecked(), true);
    assert.deepEqual([...problems, ...old.problems], []);
    await old.page.close();
  });

  test('permalink: the weights survive a round trip through the URL', async () => {
    const { page, problems, lab } = shared;
    await lab.locator('attn-vector-editor input').fill('0.25, 0.25, 0.25, 0.25');
    await settled(lab);
    await page.waitForFunction(() => location.hash.includes('mix.weights=0.25,0.25,0.25,0.25'));
    const link = page.url();

    const again = await open(link);
    await again.page.locator(`${LAB}[data-y="0.5,0.75,1"]`).waitFor(); // the plain mean of the four values
    assert.equal(await again.lab.locator('attn-vector-editor input').inputValue(), '0.25, 0.25, 0.25, 0.25');
    assert.deepEqual([...problems, ...again.problems], []);
    await again.page.close();
  });
});

describe('predict first: the two exercises before the lab', () => {
  test('the lab stays hidden until both are attempted; each mistake gets its own feedback; only an answer before the figure solves', async () => {
    const page = await site.browser.context.newPage();
    const { problems } = watch(page);
    await page.goto(`${site.server.url}#/convex-combinations`);
    const outer = page.locator('attn-reveal[after="mix-entry"]');
    const inner = page.locator('attn-reveal[after="sum-two"]');
    for (const id of Object.keys(ANSWERS)) {
      const ex = exercise(page, id);
      await ex.scrollIntoViewIfNeeded();
      await ex.getByRole('button', { name: /^Reset Exercise/ }).click(); // a fresh start, whatever earlier tests did
    }
    await page.locator('attn-reveal[after="mix-entry"][data-revealed="false"]').waitFor();
    assert.equal(await page.locator(LAB).isVisible(), false, 'no lab before an attempt');
    assert.equal(await exercise(page, 'mix-entry').getByRole('button', { name: 'Show explanation' }).count(), 0);

    // Exercise 1: y2 for the notebook's weights; three likely slips, each with its own feedback
    const slips = [
      [1, /plain average of the third column/],
      [0.6, /α2 · 3 alone/],
      [0.5, /is y1, the entry with index 1/],
    ];
    for (const [value, feedback] of slips) {
      const verdict = await attempt(page, 'mix-entry', value);
      assert.match(verdict, /^Not yet — /, `${value}`);
      assert.match(verdict, feedback, `${value}`);
      assert.equal(await exercise(page, 'mix-entry').getAttribute('data-status'), 'fail');
      assert.equal(await exercise(page, 'mix-entry').getAttribute('data-progress'), 'shown', 'its figure shows y');
    }
    await exercise(page, 'mix-entry').getByRole('button', { name: 'Show hint' }).waitFor();
    await page.locator('attn-reveal[after="mix-entry"][data-revealed="true"]').waitFor();
    await page.locator('attn-reveal[after="sum-two"][data-revealed="false"]').waitFor();
    assert.equal(await page.locator(LAB).isVisible(), false, 'still hidden: Exercise 2 is not attempted');
    assert.match(await attempt(page, 'mix-entry', 0.9), /^Correct — .*counts as shown, not solved/);
    assert.equal(await exercise(page, 'mix-entry').getAttribute('data-progress'), 'shown');

    // Exercise 2: weights that add up to 2 on four copies of v
    const wrong = [
      ['At v = (1, 2, 3): a blend of copies of v is v', /weights adding up to 1 the copies blend back/],
      ['At v / 2 = (0.5, 1, 1.5), since each weight is 0.5', /is one term, 0\.5 v/],
      ['At 4v = (4, 8, 12), four copies of v', /each one counts only with its weight 0\.5/],
    ];
    for (const [option, feedback] of wrong) {
      const verdict = await attempt(page, 'sum-two', option);
      assert.match(verdict, feedback, option);
      assert.equal(await exercise(page, 'sum-two').getAttribute('data-status'), 'fail');
    }
    assert.match(await attempt(page, 'sum-two', ANSWERS['sum-two']), /^Correct — y = \(0\.5 \+ 0\.5/);
    assert.equal(await exercise(page, 'sum-two').getAttribute('data-progress'), 'shown', 'the figure was on show');
    await page.locator('attn-reveal[after="sum-two"][data-revealed="true"]').waitFor();
    const lab = page.locator(LAB);
    await lab.scrollIntoViewIfNeeded();
    await settled(lab);
    assert.ok(await lab.isVisible());
    assertClose(await readY(lab), [0.7, 0.5, 0.9], 1e-6, 'y');
    assert.equal(await outer.getAttribute('data-revealed'), 'true');
    assert.equal(await inner.getAttribute('data-revealed'), 'true');

    // the other side: Reset, and the right answer at the first attempt solves each
    for (const [id, answer] of Object.entries(ANSWERS)) {
      const ex = exercise(page, id);
      await ex.getByRole('button', { name: /^Reset Exercise/ }).click();
      await settled(ex);
      assert.match(await attempt(page, id, answer), /^Correct — /, id);
      assert.equal(await ex.getAttribute('data-progress'), 'solved', id);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('Try another asks a fresh question from the core, with its own slips', async () => {
    const page = await site.browser.context.newPage();
    const { problems } = watch(page);
    await page.goto(`${site.server.url}#/convex-combinations`);
    const ex = exercise(page, 'mix-entry');
    await ex.scrollIntoViewIfNeeded();
    await ex.getByRole('button', { name: /^Reset Exercise/ }).click();
    await attempt(page, 'mix-entry', 0.9);
    await ex.getByRole('button', { name: 'Try another' }).click();
    await settled(ex);
    // seed 1: α = (0.30, 0.30, 0.30, 0.10), entry 1: y1 = 0.3·2 + 0.1·1 = 0.7
    assert.match(await ex.locator('#prompt').textContent(), /α = \(0\.30, 0\.30, 0\.30, 0\.10\).*y1/);
    assert.match(await attempt(page, 'mix-entry', 0.75), /plain average of column 1/);
    assert.match(await attempt(page, 'mix-entry', 0.7), /^Correct — /);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('layout and readability', () => {
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ]) {
    test(`${width}×${height}: figure text ≥ 11 px as drawn, every bar a ≥ 44 px drag target`, async () => {
      const { page, problems, lab } = await open(`${site.server.url}#/convex-combinations`);
      await page.setViewportSize({ width, height });
      await settled(lab);
      const sizes = await lab.evaluate((el) =>
        [...el.shadowRoot.querySelectorAll('svg text')]
          .filter((t) => t.getBoundingClientRect().width > 0)
          .map((t) => {
            const svg = t.closest('svg');
            const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            return [parseFloat(getComputedStyle(t).fontSize) * scale, t.textContent];
          }),
      );
      assert.ok(sizes.length > 20, `${sizes.length} texts`);
      for (const [px, text] of sizes) assert.ok(px >= 11, `“${text}” drawn at ${px.toFixed(1)} px`);
      const targets = await lab
        .locator('.chart.bars rect.hit')
        .evaluateAll((rects) => rects.map((r) => [r.getBoundingClientRect().width, r.getBoundingClientRect().height]));
      assert.equal(targets.length, 4);
      for (const [w, h] of targets) assert.ok(w >= 44 && h >= 44, `a bar's target is ${w} × ${h} px`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  test('1280×900: the bars, the picture of y and the controls that move them are in one view', async () => {
    const { page, problems, lab } = await open(`${site.server.url}#/convex-combinations`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await lab.evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
    await settled(lab);
    const box = (locator) => locator.boundingBox();
    const parts = {
      bars: await box(lab.locator('.chart.bars svg')),
      picture: await box(lab.locator('.value-strips')),
      toggle: await box(lab.getByRole('checkbox', { name: 'Keep Σα = 1' })),
      weights: await box(lab.locator('attn-vector-editor input')),
      normalise: await box(lab.getByRole('button', { name: 'Normalise α' })),
      y: await box(lab.locator('.y-value')),
    };
    for (const [name, b] of Object.entries(parts)) {
      assert.ok(b.y >= 0 && b.y + b.height <= 900, `${name} at y ${b.y}…${b.y + b.height}, outside the view`);
    }
    for (const name of ['bars', 'picture']) {
      const b = parts[name];
      assert.ok(Math.max(b.width, b.height) >= 240, `${name} is ${b.width} × ${b.height}`);
    }
    assert.ok(parts.toggle.x > parts.bars.x + parts.bars.width, 'the controls sit beside the figure');
    assert.deepEqual(problems, []);
    await page.close();
  });
});
