// The convex-combinations lesson in headless Chromium (the site over http and
// the single file from file://): the notebook's example y = [0.7, 0.5, 0.9],
// every check passing, a broken rule explained and repaired by Normalise,
// bars dragged by keyboard and mouse, bad editor entries keeping the last valid
// state, and a permalink round trip.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();
const LAB = 'attn-convex-mix';

async function open(url) {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(url);
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
      assert.match(await lab.locator('.refused').textContent(), /weights\[1\] is -0\.1/);
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
      await resetLab(page, lab);
      assert.deepEqual(problems, []);
    });
  });
}

describe('interactions, on one page of the site over http', () => {
  const shared = sharedPage(() => `${site.server.url}#/convex-combinations`);

  test('dragging bars (keyboard, mouse) breaks a rule by the amount moved; Normalise and Reset restore', async () => {
    const { page, problems, lab } = shared;
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
    assert.match(await error.textContent(), /Entry 2 is “abc”, not a number/);
    assert.equal(await weights.getAttribute('aria-invalid'), 'true');
    await weights.fill('0.5, 0.5');
    await settled(lab);
    assert.match(await error.textContent(), /Needs exactly 4 numbers, got 2/);
    assert.equal(await lab.getAttribute('data-y'), '0.7,0.5,0.9');
    assert.deepEqual(await statuses(page), ['pass', 'pass', 'pass']);

    const cell = lab.getByRole('textbox', { name: 'Values V, row v0, column d1' });
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
