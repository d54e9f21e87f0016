// The convex-hull lesson in headless Chromium (the site over http and the
// single file from file://): the notebook's four values and 1,000 Dirichlet(1)
// mixtures with none outside the hull, every check passing behind one quiet
// Verified line; dragging a value by keyboard and by mouse (from beside it: a
// 44 px target) keeps the count at 0; the concentration slider and the seed; the
// softmax(s/τ) mixture at the limits τ = 0 and ∞, watched in the same view as
// the slider; a bad logit entry; a permalink; readable figure text. Predict first: the lab's
// scores part (τ, y(τ) and its path) waits for the cold-limit exercise above it
// (scores-after); both exercises give each declared mistake its own feedback.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();
const LAB = 'attn-hull-mixtures';
const VALUES = [
  [1, 1],
  [1.5, 4],
  [5, 4.5],
  [4, 0.5],
];
// softmax([1.2, 4.5, 2.0, 0.8]) at τ = 1, times the values
const ALPHA_AT_1 = [0.0322492, 0.8743615, 0.071772, 0.0216173];
const Y_AT_1 = [0, 1].map((c) => ALPHA_AT_1.reduce((sum, a, j) => sum + a * VALUES[j][c], 0));

async function open(url) {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(url);
  await page.locator(LAB).scrollIntoViewIfNeeded();
  await settled(page.locator(LAB)); // with the plot inside it and its checks
  return { page, problems, lab: page.locator(LAB) };
}

const exercise = (page, id) => page.locator(`attn-exercise#${id}`);

/** Checks the choice labelled `option` in exercise `id`, as a learner does; returns the verdict. */
async function choose(page, id, option) {
  const ex = exercise(page, id);
  await ex.scrollIntoViewIfNeeded();
  await ex.getByRole('radio', { name: option, exact: true }).check();
  await ex.getByRole('button', { name: 'Check' }).click();
  await settled(ex);
  return ex.locator('.verdict').textContent();
}

const V1 = 'To the value v1 = (1.5, 4)';

/** The scores part of the lab shows once the cold-limit exercise has an attempt: answer it if needed. */
async function unlockScores(page, lab) {
  if (!(await exercise(page, 'cold-limit').getAttribute('data-progress'))) await choose(page, 'cold-limit', V1);
  await lab.getByRole('slider', { name: 'Temperature τ' }).waitFor();
  await settled(lab);
}

const statuses = (page) => page.locator('attn-check').evaluateAll((checks) => checks.map((c) => c.dataset.status));
const points = (lab) =>
  lab.locator('circle.point').evaluateAll((dots) => dots.map((d) => [Number(d.dataset.x), Number(d.dataset.y)]));
const highlight = async (lab) => (await lab.getAttribute('data-highlight')).split(',').map(Number);

function assertClose(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((v, i) =>
    assert.ok(Math.abs(v - expected[i]) <= tol, `${what}[${i}] is ${v}, expected ${expected[i]}`),
  );
}

/** Every check passes and no mixture is outside the hull. */
async function assertAllInside(page, lab, what) {
  assert.equal(await lab.getAttribute('data-outside'), '0', `${what}: mixtures outside`);
  const status = await statuses(page);
  assert.equal(status.length, 4, `${what}: four checks`);
  assert.deepEqual(status, ['pass', 'pass', 'pass', 'pass'], what);
}

const targets = [
  ['the static site over http', () => `${site.server.url}#/convex-hull`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/convex-hull`],
];

/** One page per group of tests (page loads dominate the run time); each test leaves it usable. */
function sharedPage(url) {
  const shared = {};
  before(async () => Object.assign(shared, await open(url())));
  after(async () => shared.page?.close());
  return shared;
}

/** The lab's own Reset, in the toolbar under the whole lab (the plot inside has one too). */
async function resetLab(page, lab) {
  await lab
    .getByRole('group', { name: 'Values, their convex hull and random mixtures: tools' })
    .getByRole('button', { name: 'Reset', exact: true })
    .click();
  await settled(lab);
  await page.locator(`${LAB}[data-highlight="${Y_AT_1.map((v) => Number(v.toPrecision(6))).join(',')}"]`).waitFor();
  assert.deepEqual(await points(lab), VALUES, 'Reset restores the values');
  const state = await lab.evaluate((el) => [el.concentration, el.seed, el.logits, el.temperature]);
  assert.deepEqual(state, [1, 42, [1.2, 4.5, 2, 0.8], 1], 'Reset restores c, seed, logits and τ');
}

for (const [name, url] of targets) {
  describe(name, () => {
    const shared = sharedPage(url);

    test('four values, 1000 Dirichlet(1) mixtures, none outside the hull, every check passes', async () => {
      const { page, problems, lab } = shared;
      assert.deepEqual(await points(lab), VALUES);
      assert.equal(await lab.evaluate((el) => el.exportObject().mixtures.length), 1000);
      assert.match(await lab.locator('.count').textContent(), /0\s+of 1000 mixtures lie\s+outside the hull/);
      await assertAllInside(page, lab, 'default');
      // the checks are behind one quiet line until it is opened
      const verified = lab.locator('attn-verified');
      assert.match(await verified.locator('summary').textContent(), /Verified\s*✓\s*\(4 checks\)/);
      assert.equal(await lab.locator('attn-check').first().isVisible(), false, 'no check row before opening');
      assert.match(await lab.locator('.readout').first().textContent(), /v0 → v3 → v2 → v1/);
      assertClose(await highlight(lab), Y_AT_1, 1e-5, 'y(τ = 1)');
      const printed = await lab.locator('attn-output pre').first().textContent();
      assert.match(printed, /alpha_samples shape: \(1000, 4\)/);
      assert.match(printed, /mixtures outside the hull: 0 of 1000/);
      const code = await lab
        .locator('attn-code')
        .first()
        .evaluate((el) => el.code);
      assert.match(code, /rng\.dirichlet\(\[1\] \* 4, size=1000\)/);
      assert.match(code, /ConvexHull\(V_2d\)/);
      assert.deepEqual(problems, []);
    });

    test('dragging a value by keyboard keeps every mixture inside', async () => {
      const { page, problems, lab } = shared;
      const v0 = lab.locator('circle.point[data-index="0"]');
      await v0.focus();
      for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowLeft');
      await page.keyboard.press('Shift+ArrowDown');
      await settled(lab);
      await lab.locator('circle.point[data-index="0"][data-x="0"]').waitFor(); // clamped at the axis
      const [x0, y0] = (await points(lab))[0];
      assert.ok(x0 < 1 && y0 < 1, `v0 moved to (${x0}, ${y0})`);
      await assertAllInside(page, lab, 'after the keyboard drag');
      await resetLab(page, lab);
      assert.deepEqual(problems, []);
    });
  });
}

describe('interactions, on one page of the site over http', () => {
  const shared = sharedPage(() => `${site.server.url}#/convex-hull`);

  test('dragging v1 into the middle with the mouse: it leaves the hull, the mixtures stay inside', async () => {
    const { page, problems, lab } = shared;
    await resetLab(page, lab);
    const dot = (i) => lab.locator(`circle.point[data-index="${i}"]`);
    await dot(1).scrollIntoViewIfNeeded();
    const centre = async (i) => {
      const b = await dot(i).boundingBox();
      return [b.x + b.width / 2, b.y + b.height / 2];
    };
    const [p0, p1, p2] = [await centre(0), await centre(1), await centre(2)];
    // pixels per unit from v0 = (1, 1) and v2 = (5, 4.5); aim at (3, 2.5)
    const target = [p0[0] + ((p2[0] - p0[0]) * 2) / 4, p0[1] + ((p2[1] - p0[1]) * 1.5) / 3.5];
    await page.mouse.move(...p1);
    await page.mouse.down();
    await page.mouse.move(...target, { steps: 8 });
    await page.mouse.up();
    await settled(lab);
    await lab.locator('.readout').first().getByText('v0 → v3 → v2', { exact: false }).waitFor();
    const [x1, y1] = (await points(lab))[1];
    assert.ok(Math.abs(x1 - 3) < 0.15 && Math.abs(y1 - 2.5) < 0.15, `v1 dropped at (${x1}, ${y1})`);
    assert.doesNotMatch(await lab.locator('.readout').first().textContent(), /v1/, 'v1 is no longer a vertex');
    await assertAllInside(page, lab, 'after the mouse drag');
    assert.deepEqual(problems, []);
  });

  test('data-settled: a new state un-settles the lab at once; back, the plot shows it and the checks pass', async () => {
    const { page, problems, lab } = shared;
    await resetLab(page, lab);
    const moved = [
      [0, 0],
      [1, 5],
      [6, 5],
      [5, 0],
    ];
    const result = await lab.evaluate(
      async (el, [values, original]) => {
        const slider = el.shadowRoot.querySelector('attn-slider');
        const settledNow = () => [el.hasAttribute('data-settled'), slider.hasAttribute('data-settled')];
        // Resolves with what the lab shows at the moment its data-settled is set again.
        const nextSettle = () =>
          new Promise((resolve) => {
            new MutationObserver((records, observer) => {
              if (!el.hasAttribute('data-settled')) return;
              observer.disconnect();
              resolve({
                points: [...el.shadowRoot.querySelectorAll('circle.point')].map((d) => [
                  Number(d.dataset.x),
                  Number(d.dataset.y),
                ]),
                outside: el.getAttribute('data-outside'),
                checks: [...el.shadowRoot.querySelectorAll('attn-check')].map((c) => c.dataset.status),
              });
            }).observe(el, { attributes: true, attributeFilter: ['data-settled'] });
          });
        const before = settledNow();
        el.values = values;
        const afterLabChange = settledNow();
        const atLabSettle = await nextSettle();
        slider.requestUpdate(); // a change inside: the lab is not settled either until the slider has drawn it
        const afterNestedChange = settledNow();
        await nextSettle();
        el.values = original; // as a script sets it: the state the next tests start from
        await nextSettle();
        return { before, afterLabChange, atLabSettle, afterNestedChange };
      },
      [moved, VALUES],
    );
    assert.deepEqual(result, {
      before: [true, true],
      afterLabChange: [false, true],
      atLabSettle: { points: moved, outside: '0', checks: ['pass', 'pass', 'pass', 'pass'] },
      afterNestedChange: [false, false],
    });
    assert.deepEqual(await points(lab), VALUES);
    assert.deepEqual(problems, []);
  });

  test('concentration: small c gives sparse mixtures, large c even ones; still none outside', async () => {
    const { page, problems, lab } = shared;
    await resetLab(page, lab);
    const slider = lab.getByRole('slider', { name: 'Concentration c' });
    const meanEffective = async () => Number(await lab.locator('.mean-effective').getAttribute('data-value'));
    await slider.focus();
    await page.keyboard.press('Home'); // c = 0.01
    await settled(lab);
    await lab.getByText('c = 0.01').first().waitFor();
    assert.ok((await meanEffective()) < 1.2, `mean exp(H) at c = 0.01 is ${await meanEffective()}`);
    await assertAllInside(page, lab, 'c = 0.01');
    await page.keyboard.press('End'); // c = 100
    await settled(lab);
    await lab.getByText('c = 100').first().waitFor();
    assert.ok((await meanEffective()) > 3.9, `mean exp(H) at c = 100 is ${await meanEffective()}`);
    await assertAllInside(page, lab, 'c = 100');
    // a new draw from the seed: Re-roll, then a typed seed; still none outside
    const seed = await lab.evaluate((el) => el.seed);
    await lab.getByRole('button', { name: 'Re-roll' }).click();
    await settled(lab);
    assert.notEqual(await lab.evaluate((el) => el.seed), seed);
    await assertAllInside(page, lab, 're-rolled');
    await lab.getByRole('textbox', { name: 'Seed' }).fill('7');
    await settled(lab);
    assert.equal(await lab.evaluate((el) => el.seed), 7);
    assert.match(await lab.locator('attn-output pre').textContent(), /seed 7/);
    await assertAllInside(page, lab, 'seed 7');
    assert.deepEqual(problems, []);
  });

  test('y(τ) = softmax(s/τ) V: τ → 0 lands on v1, τ → ∞ on the mean; a bad logit keeps the last valid ones', async () => {
    const { page, problems, lab } = shared;
    await unlockScores(page, lab);
    await resetLab(page, lab);
    await lab.getByRole('button', { name: 'τ → 0' }).click();
    await settled(lab);
    await page.locator(`${LAB}[data-highlight="1.5,4"]`).waitFor();
    await lab.getByRole('button', { name: 'τ → ∞' }).click();
    await settled(lab);
    await page.locator(`${LAB}[data-highlight="2.875,2.5"]`).waitFor();
    await assertAllInside(page, lab, 'τ = ∞');

    const logits = lab.locator('attn-vector-editor input');
    await logits.fill('1.2, 4.5, x, 0.8');
    await settled(lab);
    await lab.locator('attn-vector-editor .field-error').getByText('Entry 2 (counting from 0)').waitFor();
    assert.equal(await lab.getAttribute('data-highlight'), '2.875,2.5');
    await logits.fill('9, 0, 0, 0');
    await lab.getByRole('button', { name: 'τ → 0' }).click();
    await settled(lab);
    await page.locator(`${LAB}[data-highlight="1,1"]`).waitFor(); // now v0 has the largest score
    assert.deepEqual(problems, []);
  });

  test('predict first: the scores part waits for the cold-limit exercise; each mistake its own feedback', async () => {
    const { page, problems, lab } = shared;
    await resetLab(page, lab); // the notebook's scores and τ = 1, whatever the last test set
    const cold = exercise(page, 'cold-limit');
    await cold.scrollIntoViewIfNeeded();
    await cold.getByRole('button', { name: 'Reset Exercise 2: the cold limit' }).click();
    await lab.locator('.scores-locked').waitFor();
    assert.equal(await lab.getByRole('slider', { name: 'Temperature τ' }).count(), 0, 'no τ slider before an attempt');
    assert.equal(await lab.getByRole('button', { name: 'τ → 0' }).count(), 0);
    assert.equal(await lab.locator('.highlight').isVisible(), false, 'no y(τ) in the plot');
    assert.equal(await lab.locator('polyline.path').getAttribute('points'), '', 'no τ path in the plot');
    assert.doesNotMatch(await lab.evaluate((el) => el.describe()), /y\(τ\)/, 'nor in its text alternative');
    assert.equal(await cold.getByRole('button', { name: 'Show explanation' }).count(), 0);
    const wrong = [
      ['To the average of the four values', /that is the hot limit τ → ∞/],
      ['Past v1, out of the hull', /cannot leave the hull/],
      ['To the value v2 = (5, 4.5)', /the scores, not the positions of the values, decide/],
    ];
    for (const [option, feedback] of wrong) {
      const verdict = await choose(page, 'cold-limit', option);
      assert.match(verdict, /^Not yet — /, option);
      assert.match(verdict, feedback, option);
    }
    await cold.getByRole('button', { name: 'Show hint' }).waitFor();
    assert.match(await choose(page, 'cold-limit', V1), /^Correct — all the weight goes to the largest score/);
    assert.equal(await cold.getAttribute('data-progress'), 'shown', 'the scores part was on show: not solved');
    // the lab above now shows the scores part: τ → 0 lands on v1
    await lab.getByRole('button', { name: 'τ → 0' }).click();
    await settled(lab);
    await page.locator(`${LAB}[data-highlight="1.5,4"]`).waitFor();
    assert.ok(await lab.locator('.highlight').isVisible(), 'y(τ) is drawn');
    assert.notEqual(await lab.locator('polyline.path').getAttribute('points'), '', 'and its path');
    await resetLab(page, lab);
    assert.deepEqual(problems, []);
  });

  test('the negative-weight exercise: two slips with their own feedback, then the right answer', async () => {
    const { page, problems } = shared;
    const ex = exercise(page, 'negative-weight');
    await ex.scrollIntoViewIfNeeded();
    await ex.getByRole('button', { name: 'Reset Exercise 1: a negative weight' }).click();
    assert.equal(await ex.getByRole('button', { name: 'Show explanation' }).count(), 0);
    assert.match(
      await choose(page, 'negative-weight', 'Inside the hull, because the weights add up to 1'),
      /adding up to 1 is only Rule 2/,
    );
    assert.match(
      await choose(page, 'negative-weight', 'Outside the hull, at (7, 7.5)'),
      /the minus sign of α0 was dropped/,
    );
    assert.equal(await ex.getAttribute('data-status'), 'fail');
    assert.match(await choose(page, 'negative-weight', 'Outside the hull, at (5, 5.5)'), /^Correct — /);
    assert.equal(await ex.getAttribute('data-progress'), 'shown', 'the last option left: not solved');
    await ex.getByRole('button', { name: 'Show explanation' }).click();
    await ex.getByText('A negative weight turns the blend into an extrapolation').waitFor();
    assert.deepEqual(problems, []);
  });

  test('permalink: temperature and values survive a round trip through the URL', async () => {
    const { page, problems, lab } = shared;
    await unlockScores(page, lab);
    await resetLab(page, lab);
    await lab.locator('circle.point[data-index="3"]').focus();
    await page.keyboard.press('ArrowRight'); // v3: (4, 0.5) -> (4.1, 0.5)
    await lab.getByRole('button', { name: 'τ → 0' }).click();
    await page.waitForFunction(
      () => /hull\.temperature=0(&|$)/.test(location.hash) && location.hash.includes('4.1,0.5'),
    );
    const link = page.url();

    const again = await open(link);
    assert.equal(await again.lab.getAttribute('data-highlight'), '1.5,4');
    assert.deepEqual((await points(again.lab))[3], [4.1, 0.5]);
    await assertAllInside(again.page, again.lab, 'restored');
    assert.deepEqual([...problems, ...again.problems], []);
    await again.page.close();
  });
});

describe('layout and readability', () => {
  test('1280×900: the τ slider and its 0 button sit beside the plot, in one view; pressing 0 moves y(τ) to v1', async () => {
    const { page, problems, lab } = await open(`${site.server.url}#/convex-hull`);
    await unlockScores(page, lab);
    await page.emulateMedia({ reducedMotion: 'reduce' }); // scrolls land at once: boxes are read where they stay
    await page.setViewportSize({ width: 1280, height: 900 });
    await lab.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await settled(lab);
    const plot = await lab.locator('.chart svg').boundingBox();
    const slider = await lab.getByRole('slider', { name: 'Temperature τ' }).boundingBox();
    const zero = lab.getByRole('button', { name: 'τ → 0' });
    const button = await zero.boundingBox();
    const concentration = await lab.getByRole('slider', { name: 'Concentration c' }).boundingBox();
    for (const [name, b] of Object.entries({ plot, slider, button, concentration })) {
      assert.ok(b.y >= 0 && b.y + b.height <= 900, `${name} at y ${b.y}…${b.y + b.height}, outside the view`);
    }
    assert.ok(Math.max(plot.width, plot.height) >= 240, `the plot is ${plot.width} × ${plot.height}`);
    assert.ok(slider.x > plot.x + plot.width, 'the slider sits beside the plot');
    const ring = lab.locator('.highlight circle').first();
    const before = await ring.boundingBox();
    const scroll = await page.evaluate(() => scrollY);
    await zero.click();
    await settled(lab);
    await page.locator(`${LAB}[data-highlight="1.5,4"]`).waitFor();
    const scrolled = Math.abs((await page.evaluate(() => scrollY)) - scroll);
    assert.ok(scrolled < 10, `the page stayed put (moved ${scrolled} px): the point was watched`);
    const after = await ring.boundingBox();
    const v1 = await lab.locator('circle.point[data-index="1"]').boundingBox();
    assert.ok(after.y >= 0 && after.y + after.height <= 900, 'y(τ) is in view');
    assert.notDeepEqual(after, before, 'y(τ) moved');
    assert.ok(Math.abs(after.x + after.width / 2 - (v1.x + v1.width / 2)) < 1, 'y(τ) on v1');
    assert.deepEqual(problems, []);
    await page.close();
  });

  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ]) {
    test(`${width}×${height}: figure text ≥ 11 px as drawn; each value a ≥ 44 px drag target, grabbed from beside it`, async () => {
      const { page, problems, lab } = await open(`${site.server.url}#/convex-hull`);
      await page.emulateMedia({ reducedMotion: 'reduce' }); // scrolls land at once: boxes are read where they stay
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
      assert.ok(sizes.length > 10, `${sizes.length} texts`);
      for (const [px, text] of sizes) assert.ok(px >= 11, `“${text}” drawn at ${px.toFixed(1)} px`);

      const targets = await lab
        .locator('circle.point-hit')
        .evaluateAll((cs) => cs.map((c) => [c.getBoundingClientRect().width, c.getBoundingClientRect().height]));
      assert.equal(targets.length, 4);
      for (const [w, h] of targets) assert.ok(w >= 44 && h >= 44, `a value's target is ${w} × ${h} px`);
      // grab v3 18 px to its left, drag 30 px right: v3 moves right with the pointer, without a jump
      const v3 = lab.locator('circle.point[data-index="3"]');
      await v3.scrollIntoViewIfNeeded();
      const b = await v3.boundingBox();
      const [cx, cy] = [b.x + b.width / 2, b.y + b.height / 2];
      const hit = await page.evaluate(
        ([x, y]) => {
          let el = document.elementFromPoint(x, y);
          while (el?.shadowRoot?.elementFromPoint(x, y) && el.shadowRoot.elementFromPoint(x, y) !== el) {
            el = el.shadowRoot.elementFromPoint(x, y);
          }
          return el?.getAttribute('class');
        },
        [cx - 18, cy],
      );
      assert.equal(hit, 'point-hit', '18 px beside the point is still its target');
      await page.mouse.move(cx - 18, cy);
      await page.mouse.down();
      await page.mouse.move(cx + 12, cy, { steps: 4 });
      await page.mouse.up();
      await settled(lab);
      const after = await v3.boundingBox();
      // within the plot's rounding of coordinates (a hundredth of a tick step, a few px on a wide plot);
      // a jump to where it was grabbed would be 18 px off
      assert.ok(
        Math.abs(after.x + after.width / 2 - (cx + 30)) < 5,
        `v3 followed the pointer: ${after.x + after.width / 2} (grabbed at ${cx - 18}, released at ${cx + 12}, was at ${cx})`,
      );
      assert.ok(Math.abs(after.y + after.height / 2 - cy) < 2, 'and did not jump to where it was grabbed');
      assert.equal(await lab.getAttribute('data-outside'), '0');
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});
