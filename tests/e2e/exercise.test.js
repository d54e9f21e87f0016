// The exercise framework (attn-exercise) in headless Chromium, on the cell gallery and the site:
// declared mistakes with their own feedback, hint only after a wrong attempt, explanation and
// "Show me" only after an attempt (not in the accessibility tree before), Try another, keyboard
// use and focus, the attn-progress event (the script-embed protocol), saved records (older
// 'solved' values read as solved), the progress view and "Reset my progress".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { settled, useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();

/** Waits until every attn-* element of the page has data-settled. */
const allSettled = (page) =>
  page.waitForFunction(() =>
    [...document.querySelectorAll('*')].every(
      (el) => !el.localName.startsWith('attn-') || el.hasAttribute('data-settled'),
    ),
  );

/**
 * A fresh gallery page with empty storage, recording every attn-progress detail that reaches
 * `window` (bubbling, composed) in window.progressEvents.
 */
async function openGallery() {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('cleared')) {
      localStorage.clear();
      sessionStorage.setItem('cleared', '1');
    }
    window.progressEvents = [];
    window.addEventListener('attn-progress', (e) => window.progressEvents.push(e.detail));
  });
  await page.goto(new URL('gallery/cells.html', site.server.url).href);
  await page.locator('body[data-ready="true"]').waitFor();
  await allSettled(page);
  return { page, problems };
}

const events = (page) => page.evaluate(() => window.progressEvents);
const saved = (page, key) => page.evaluate((k) => JSON.parse(localStorage.getItem(k)), key);
/** The names of the exercise's buttons, in order (the accessibility tree reaches into its shadow root). */
const buttons = (exercise) =>
  exercise
    .getByRole('button')
    .evaluateAll((all) => all.map((b) => b.getAttribute('aria-label') ?? b.textContent.trim()));

test('hint, explanation, Show me and Try another are absent before an attempt, then appear as they should', async () => {
  const { page, problems } = await openGallery();
  const number = page.locator('#top-weight');
  assert.deepEqual(await buttons(number), ['Reset Exercise: read a weight', 'Check']);
  const tree = await number.ariaSnapshot();
  assert.doesNotMatch(
    tree,
    /hint|explanation|Show me|Try another|e4\.5|0\.874/i,
    'nothing of them in the accessibility tree',
  );
  // nothing focusable beyond the answer, Check and Reset
  const focusable = await number.evaluate((el) =>
    [...el.shadowRoot.querySelectorAll('button, input, [tabindex]')]
      .filter((x) => x.checkVisibility() && x.tabIndex >= 0)
      .map((x) => x.textContent.trim() || x.id),
  );
  assert.deepEqual(focusable, ['Reset', 'number', 'Check']);

  const answer = number.getByRole('textbox', { name: 'Your answer' });
  await answer.fill('0.9');
  await answer.press('Enter');
  await settled(number);
  assert.deepEqual(await buttons(number), [
    'Reset Exercise: read a weight',
    'Check',
    'Show hint',
    'Show explanation',
    'Show me',
    'Try another',
  ]);
  assert.equal(await number.getByRole('button', { name: 'Show explanation' }).getAttribute('aria-expanded'), 'false');
  await number.getByRole('button', { name: 'Show explanation' }).click();
  await settled(number);
  assert.ok(await number.getByText('≈ 0.874').isVisible());

  // the choice exercise: a right first answer opens the explanation's door but no hint (none was wrong)
  const choice = page.locator('#uniform-limit');
  await choice.getByRole('radio', { name: 'τ → ∞' }).check();
  await choice.getByRole('button', { name: 'Check' }).click();
  await settled(choice);
  assert.equal(await choice.getByRole('button', { name: 'Show hint' }).count(), 0);
  assert.equal(await choice.getByRole('button', { name: 'Show me' }).count(), 0, 'solved: nothing to show');
  assert.deepEqual(problems, []);
  await page.close();
});

test('each declared likely mistake gets its own feedback; other wrong answers a plain "not it"', async () => {
  const { page, problems } = await openGallery();
  const number = page.locator('#top-weight');
  const verdict = number.locator('.verdict');
  const answer = number.getByRole('textbox', { name: 'Your answer' });
  const expectations = [
    [
      '0.529',
      'Not yet — 4.5 / 8.5 divides the logit by the sum of the logits; softmax exponentiates every logit first.',
    ],
    ['0.25', 'Not yet — 1/4 is every weight at the hot limit τ → ∞; at τ = 1 the largest logit gets more.'],
    ['1', /^Not yet — 1 is the cold limit τ → 0/],
    ['0.6', 'Not yet — 0.6 is not it; try again.'],
  ];
  const mistakes = [];
  await page.evaluate(() => document.addEventListener('attn-verdict', (e) => (window.lastMistake = e.detail.mistake)));
  for (const [typed, expected] of expectations) {
    await answer.fill(typed);
    await number.getByRole('button', { name: 'Check' }).click();
    await settled(number);
    const said = await verdict.innerText();
    if (typeof expected === 'string') assert.equal(said, expected);
    else assert.match(said, expected);
    mistakes.push(await page.evaluate(() => window.lastMistake));
  }
  assert.deepEqual(mistakes, [0.5294, 0.25, 1, null]);
  // the choice mode: each wrong option its own feedback
  const choice = page.locator('#uniform-limit');
  await choice.getByRole('radio', { name: 'τ → 0' }).check();
  await choice.getByRole('button', { name: 'Check' }).click();
  await settled(choice);
  assert.match(await choice.locator('.verdict').innerText(), /^Not yet — τ → 0 does the opposite/);
  await choice.getByRole('radio', { name: 'τ = 1' }).check();
  await choice.getByRole('button', { name: 'Check' }).click();
  await settled(choice);
  // two of three options ruled out: the last one is the answer, on show, so it no longer counts
  assert.equal(
    await choice.locator('.verdict').innerText(),
    'Not yet — “τ = 1” is not it. Only one answer is left, so this counts as shown, not solved: Reset to earn it.',
  );
  assert.equal(await choice.getAttribute('data-progress'), 'shown');
  await choice.getByRole('radio', { name: 'τ → ∞' }).check();
  await choice.getByRole('button', { name: 'Check' }).click();
  await settled(choice);
  assert.match(await choice.locator('.verdict').innerText(), /^Correct — .*counts as shown, not solved/);
  assert.equal(await choice.getAttribute('data-progress'), 'shown');
  assert.deepEqual(problems, []);
  await page.close();
});

test('attn-progress reaches window with exactly { version, lesson, exercise, status, score, attempts }', async () => {
  const { page, problems } = await openGallery();
  const number = page.locator('#top-weight');
  const answer = number.getByRole('textbox', { name: 'Your answer' });
  for (const typed of ['0.25', '0.5', '0.874', '0.1']) {
    await answer.fill(typed);
    await answer.press('Enter');
    await settled(number);
  }
  const detail = (status, attempts, score) => ({
    version: 1,
    lesson: 'gallery',
    exercise: 'top-weight',
    status,
    score,
    attempts,
  });
  const got = await events(page);
  assert.deepEqual(got, [
    detail('attempted', 1, 0),
    detail('attempted', 2, 0),
    detail('solved', 3, 1),
    detail('solved', 4, 1),
  ]);
  for (const d of got)
    assert.deepEqual(Object.keys(d), ['version', 'lesson', 'exercise', 'status', 'score', 'attempts']);
  assert.deepEqual(await saved(page, 'attnbook:exercise:gallery/top-weight'), {
    status: 'solved',
    attempts: 4,
    score: 1,
  });
  // composed and bubbling: a listener on document sees the custom-mode exercise too
  await page.evaluate(() =>
    document.addEventListener('attn-progress', (e) => (window.onDocument = e.composed && e.bubbles)),
  );
  await page.locator('#convex-weights').getByRole('button', { name: 'Check' }).click();
  await settled(page.locator('#convex-weights'));
  assert.equal(await page.evaluate(() => window.onDocument), true);
  assert.deepEqual((await events(page)).at(-1), { ...detail('attempted', 1, 0), exercise: 'convex-weights' });
  assert.deepEqual(problems, []);
  await page.close();
});

test('"Show me" after a wrong attempt reveals the answer, counts as shown, and a later right answer does not solve it', async () => {
  const { page, problems } = await openGallery();
  const choice = page.locator('#uniform-limit');
  const verdict = choice.locator('.verdict');
  await choice.getByRole('radio', { name: 'τ = 1' }).check();
  await choice.getByRole('button', { name: 'Check' }).click();
  await settled(choice);
  const showMe = choice.getByRole('button', { name: 'Show me' });
  await showMe.focus();
  await page.keyboard.press('Enter');
  await settled(choice);
  assert.equal(
    await verdict.innerText(),
    'Shown — the answer is “τ → ∞”: every logit divided by ∞ is 0, and exp(0) is the same for all.',
  );
  assert.equal(await verdict.getAttribute('role'), 'status');
  assert.equal(
    await choice.evaluate((el) => el.shadowRoot.activeElement?.className),
    'verdict shown',
    'focus moves to the verdict',
  );
  assert.equal(await showMe.count(), 0);
  assert.equal(await choice.getAttribute('data-progress'), 'shown');
  assert.ok(await choice.getByText('Answer shown').isVisible());
  assert.deepEqual(await saved(page, 'attnbook:exercise:gallery/uniform-limit'), {
    status: 'shown',
    attempts: 1,
    score: 0,
  });

  await choice.getByRole('radio', { name: 'τ → ∞' }).check();
  await choice.getByRole('button', { name: 'Check' }).click();
  await settled(choice);
  assert.match(await verdict.innerText(), /^Correct — .* counts as shown, not solved: Reset to earn it\.$/);
  assert.equal(await choice.getAttribute('data-progress'), 'shown');
  assert.equal(await choice.getByText('✓ Solved').count(), 0);
  const statuses = (await events(page)).map((d) => `${d.status}/${d.attempts}/${d.score}`);
  assert.deepEqual(statuses, ['attempted/1/0', 'shown/1/0', 'shown/2/0']);

  // a reload keeps it shown; Reset, then a right answer solves it
  await page.reload();
  await page.locator('body[data-ready="true"]').waitFor();
  await allSettled(page);
  assert.equal(await choice.getAttribute('data-progress'), 'shown');
  await choice.getByRole('button', { name: /^Reset/ }).click();
  await choice.getByRole('radio', { name: 'τ → ∞' }).check();
  await choice.getByRole('button', { name: 'Check' }).click();
  await settled(choice);
  assert.equal(await choice.getAttribute('data-progress'), 'solved');

  // the number exercise: Show me opens the explanation and moves focus to it
  const number = page.locator('#top-weight');
  await number.getByRole('textbox', { name: 'Your answer' }).fill('0.5');
  await number.getByRole('button', { name: 'Check' }).click();
  await number.getByRole('button', { name: 'Show me' }).click();
  await settled(number);
  assert.equal(await number.locator('.verdict').innerText(), 'Shown — the answer is 0.8744.');
  assert.equal(await number.evaluate((el) => el.shadowRoot.activeElement?.id), 'panel-explanation');
  assert.ok(await number.getByText('≈ 0.874').isVisible());
  assert.equal(await number.getByRole('button', { name: 'Hide explanation' }).getAttribute('aria-expanded'), 'true');
  assert.deepEqual(problems, []);
  await page.close();
});

test('Try another asks a fresh question, by keyboard alone, and solving it counts even after Show me', async () => {
  const { page, problems } = await openGallery();
  const number = page.locator('#top-weight');
  const answer = number.getByRole('textbox', { name: 'Your answer' });
  await answer.focus();
  await page.keyboard.type('0.5');
  await page.keyboard.press('Enter');
  await settled(number);
  assert.equal(await answer.evaluate((el) => el.matches(':focus')), true, 'Enter checks; focus stays in the field');
  await number.getByRole('button', { name: 'Show me' }).click();
  await settled(number);
  await number.getByRole('button', { name: 'Try another' }).focus();
  await page.keyboard.press('Enter');
  await settled(number);
  // seed 1: τ = 0.5; the new prompt replaces the authored one and describes the field
  const prompt =
    'At τ = 0.5, what weight does softmax give to the logit 4.5 in [1.2, 4.5, 2, 0.8]? Three decimals are enough.';
  assert.equal(await number.locator('#prompt').innerText(), prompt);
  assert.equal(await number.getByText('At τ = 1, what weight').isVisible(), false);
  assert.equal(await answer.evaluate((el) => el.matches(':focus')), true, 'focus moves to the answer');
  assert.equal(await answer.getAttribute('aria-describedby'), 'prompt');
  assert.equal(await answer.inputValue(), '');
  assert.equal(await number.locator('.verdict').innerText(), '');
  assert.equal(await number.getAttribute('data-status'), 'pending');
  assert.equal(await number.getByRole('button', { name: 'Show hint' }).count(), 0, 'a fresh question: no hint yet');

  await page.keyboard.type('0.8744'); // the answer at τ = 1: the variant's declared mistake
  await page.keyboard.press('Enter');
  await settled(number);
  assert.equal(
    await number.locator('.verdict').innerText(),
    'Not yet — that is the weight at τ = 1: divide the logits by τ first.',
  );
  await number.getByRole('button', { name: 'Show hint' }).click();
  assert.ok(await number.getByText('Divide every logit by τ = 0.5 first').isVisible());
  const expected = await page.evaluate(() => {
    const e = [1.2, 4.5, 2, 0.8].map((s) => Math.exp(s / 0.5));
    return e[1] / e.reduce((a, b) => a + b, 0);
  });
  await answer.fill(expected.toFixed(4));
  await answer.press('Enter');
  await settled(number);
  assert.match(await number.locator('.verdict').innerText(), /^Correct — /);
  assert.equal(await number.getAttribute('data-progress'), 'solved', 'a fresh question solved after Show me counts');
  assert.deepEqual(
    (await events(page)).map((d) => d.status),
    ['attempted', 'shown', 'shown', 'solved'],
  );
  // Reset goes back to the authored question
  await number.getByRole('button', { name: /^Reset/ }).click();
  await settled(number);
  assert.equal(await number.locator('#prompt').count(), 0);
  assert.ok(await number.getByText('At τ = 1, what weight').isVisible());
  assert.deepEqual(problems, []);
  await page.close();
});

test("older saved 'solved' values read as solved; the progress view and Reset my progress", async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(site.server.url);
  await page.evaluate(() => {
    localStorage.clear();
    localStorage.setItem('attnbook:exercise:retrieval/blend', 'solved'); // as older versions saved it
    localStorage.setItem('attnbook:exercise:convex-hull/cold-limit', '{"status":"shown","attempts":2,"score":0}');
    localStorage.setItem('attnbook:visited:retrieval', 'true');
    localStorage.setItem('attnbook:theme', 'dark');
  });
  await page.goto(`${site.server.url}#/retrieval`);
  const blend = page.locator('attn-exercise#blend');
  await blend.scrollIntoViewIfNeeded();
  await settled(blend);
  assert.equal(await blend.getAttribute('data-status'), 'pass');
  assert.equal(await blend.getAttribute('data-progress'), 'solved');
  assert.ok(await blend.getByText('✓ Solved').isVisible());
  assert.equal(
    await page.evaluate(() => localStorage.getItem('attnbook:exercise:retrieval/blend')),
    'solved',
    'kept as it was',
  );

  await page.goto(`${site.server.url}#/`);
  await settled(page.locator('attn-app'));
  const progress = page.locator('.course-progress');
  assert.match(await progress.textContent(), /· 1 of \d+ exercises? solved$/);
  const view = page.locator('attn-progress-view');
  await view.getByText('Your progress, exercise by exercise').click();
  assert.match(await view.locator('li[data-exercise-id="blend"]').innerText(), /^Exercise\b.*: Solved$/); // its label, not its id
  assert.match(await view.locator('li[data-exercise-id="cold-limit"]').innerText(), /^Exercise\b.*: Answer shown$/); // its label, not its id
  assert.match(await view.locator('li[data-exercise-id="window3"]').innerText(), /^Exercise\b.*: Not tried$/); // its label, not its id

  // Reset asks first; Cancel keeps everything
  await view.getByRole('button', { name: 'Reset my progress…' }).click();
  assert.equal(
    await view.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement),
    true,
  );
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => localStorage.getItem('attnbook:exercise:retrieval/blend')), 'solved');
  assert.equal(
    await view.getByRole('button', { name: 'Reset my progress…' }).evaluate((el) => el === document.activeElement),
    true,
  );
  await view.getByRole('button', { name: 'Reset my progress…' }).click();
  await view.getByRole('button', { name: 'Yes, reset' }).click();
  assert.equal(await view.getByRole('status').innerText(), 'Your progress has been reset.');
  assert.match(await progress.textContent(), /^\d+ lessons · 0 of \d+ exercises solved$/);
  assert.match(await view.locator('li[data-exercise-id="blend"]').innerText(), /^Exercise\b.*: Not tried$/);
  assert.equal(await page.locator('li.lesson-card.visited').count(), 0);
  assert.deepEqual(
    await page.evaluate(() =>
      Object.keys(localStorage).filter((k) => k.startsWith('attnbook:') && k !== 'attnbook:reading-positions'),
    ),
    ['attnbook:theme'],
    'the theme stays',
  );
  await page.evaluate(() => localStorage.clear());
  assert.deepEqual(problems, []);
  await page.close();
});

test('maths between $…$ in options, verdicts and a written variant is typeset; names stay plain text', async () => {
  const { page, problems } = await openGallery();
  await page.evaluate(() =>
    document.body.insertAdjacentHTML(
      'beforeend',
      String.raw`<attn-exercise id="maths-choice" mode="choice" label="Exercise: maths in options">
<p>Which?</p>
<option value="a" data-correct data-feedback="so $y_i = \sum_j A_{ij} v_j$ stays convex.">$S$ is square</option>
<option value="b">$4T^2E$ steps</option>
<option value="c">plain words</option>
</attn-exercise>
<attn-exercise id="maths-number" mode="number" answer="1" label="Exercise: maths in a variant">
<p>One?</p>
<attn-mistake value="3">$c = 3$ is the scale, not the answer.</attn-mistake>
<attn-variant answer="2"><p>What is $c$ when $c^2 = 4$?</p><p slot="hint">Take $\sqrt{4}$.</p></attn-variant>
</attn-exercise>`,
    ),
  );
  // the text as read (innerText breaks lines around a formula's inline-flex scripts)
  const text = (locator) => locator.evaluate((el) => el.textContent.replace(/\s+/g, ' ').trim());
  const choice = page.locator('#maths-choice');
  await settled(choice);
  // the options: typeset, named as plain text; text without $ exactly as written
  assert.equal(await choice.locator('fieldset .math').count(), 2);
  assert.equal(await choice.getByRole('radio', { name: 'S is square' }).count(), 1);
  assert.equal(await choice.getByRole('radio', { name: '4T2E steps' }).count(), 1);
  assert.equal(await choice.getByRole('radio', { name: 'plain words' }).count(), 1);
  const verdict = choice.locator('.verdict');
  await choice.getByRole('radio', { name: '4T2E steps' }).check();
  await choice.getByRole('button', { name: 'Check' }).click();
  await settled(choice);
  assert.equal(await text(verdict), 'Not yet — “4T2E steps” is not it.');
  assert.equal(await verdict.locator('.math sup, .math .sup').count(), 1, 'T² has its superscript');
  await choice.getByRole('radio', { name: 'S is square' }).check();
  await choice.getByRole('button', { name: 'Check' }).click();
  await settled(choice);
  assert.equal(await verdict.locator('.math').count(), 1);
  assert.equal(await verdict.locator('.math .sub').count(), 4, 'y_i, the sum over j, A_ij and v_j have subscripts');
  assert.doesNotMatch(await text(verdict), /[$\\]/);

  const number = page.locator('#maths-number');
  await settled(number);
  await number.getByRole('textbox', { name: 'Your answer' }).fill('3');
  await number.getByRole('button', { name: 'Check' }).click();
  await settled(number);
  assert.equal(await number.locator('.verdict .math').count(), 1, "a mistake's feedback is typeset");
  assert.match(await text(number.locator('.verdict')), /^Not yet — c = 3 is the scale, not the answer\.$/);
  await number.getByRole('button', { name: 'Try another' }).click();
  await settled(number);
  assert.equal(await number.locator('#prompt .math').count(), 2, "the variant's prompt is typeset");
  assert.match(await text(number.locator('#prompt')), /^What is c when c2 = 4\?$/);
  await number.getByRole('textbox', { name: 'Your answer' }).fill('5');
  await number.getByRole('button', { name: 'Check' }).click();
  await settled(number);
  await number.getByRole('button', { name: 'Show hint' }).click();
  assert.equal(await number.locator('#panel-hint .math .msqrt').count(), 1, "the variant's hint is typeset");
  assert.doesNotMatch(await text(number.locator('#panel-hint')), /[$\\]/);
  assert.deepEqual(problems, []);
  await page.close();
});
