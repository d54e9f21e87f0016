// Lesson 11, queries-keys-values, in headless Chromium (the site over http with the strict CSP,
// and the single file from file://):
// - the predict-first exercises: Exercise 1 (whom token 2 picks with identity projections) holds
//   back the hand-set world, Exercise 3 (what training makes of W_Q, W_K) the training lab; each
//   declared mistake gets its own feedback, the right answer solves it, the figure then shows;
// - the hand-set world: identity picks, the sliders by keyboard, the query to follow by mouse,
//   the query's tip dragged by mouse and turned by the arrow keys;
// - the challenge (Exercise 2, the world in its attempt slot): each dead end's feedback, solved by
//   the keyboard alone;
// - training: Train animates frame by frame (the page keeps drawing), reaches the solution (every
//   input retrieves the right item), Pause stops it, Reset goes back to step 0;
// - a permalink restores the world's turns and the trained model;
// - the layout at 1280×900 and 390×844 (controls in view with their figure, text ≥ 11 px, one toolbar).
// Waits for signals (attributes, verdicts), never for a fixed time.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { axeLightAndDark, settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';
import { commitTo, freshLesson, predictFirst, verdictText } from './exercise-steps.js';

const site = useBrowserAndSite();
const LESSON = 'queries-keys-values';
const ANSWERS = { 'identity-pick': /The key of token 1\./, 'trained-query': /scores the keys of tokens 0 and 1/ };

const targets = [
  ['the static site over http', () => `${site.server.url}#/${LESSON}`],
  ['dist/attnbook.html from file://', () => `${singleFileUrl}#/${LESSON}`],
];

/** Shows `tag` (scrolled to, settled) and returns its locator. */
async function shown(page, tag) {
  const lab = page.locator(tag);
  await lab.scrollIntoViewIfNeeded();
  await lab.locator(':scope[data-shown]').waitFor();
  await settled(lab);
  return lab;
}

/** Sets the world's state as a permalink would, and waits for it to be drawn. */
async function setWorld(world, texts) {
  await world.evaluate((el, t) => el.setStateFromText(t), texts);
  await settled(world);
}

for (const [name, url] of targets) {
  describe(name, () => {
    let page;
    let problems;
    before(async () => {
      page = await site.browser.context.newPage();
      ({ problems } = watch(page));
      await page.goto(url());
      await freshLesson(page, LESSON);
    });
    after(() => page?.close());

    test('Exercise 1 holds back the world; each wrong pick has its own feedback; then identity picks show', async () => {
      await predictFirst(page, {
        id: 'identity-pick',
        figures: ['attn-qkv-world'],
        mistakes: [
          [/Its own key, token 2/, /rewards length as well as direction/],
          [/token 3, its neighbour/, /second coordinates disagree/],
          [/furthest to the right/, /points away from x2/ /* x₂, typeset */],
        ],
        right: /The key of token 1\./,
      });
      const world = await shown(page, 'attn-qkv-world');
      assert.equal(await world.getAttribute('data-picks'), '0,1,1,3,4');
      assert.equal(await world.getAttribute('data-pick'), '1');
      assert.match(await world.locator('.challenge').innerText(), /Token 2's query picks token 1\./);
      assert.equal(await world.locator('td.top').count(), 5);
      assert.deepEqual(problems, []);
    });

    test('the world by mouse and keyboard: follow another query, sliders, drag the tip, arrow keys', async () => {
      const world = await shown(page, 'attn-qkv-world');
      // mouse: follow the query of token 0, then back to token 2
      await world.getByRole('button', { name: 'Follow the query of token 0' }).click();
      await page.locator('attn-qkv-world[data-pick="0"]').waitFor();
      await world.getByRole('button', { name: 'Follow the query of token 2' }).click();
      await page.locator('attn-qkv-world[data-pick="1"]').waitFor();
      // keyboard on a slider: W_K turns by 5° per key press
      const turnK = world.getByRole('slider', { name: 'W_K turns by' });
      await turnK.focus();
      await turnK.press('ArrowRight');
      await settled(world);
      assert.equal(await world.evaluate((el) => el['angle-k']), 5);
      await turnK.press('ArrowLeft');
      await settled(world);
      assert.equal(await world.evaluate((el) => el['angle-k']), 0);
      // mouse: drag the tip of q2 to (0.5, −1) = −x2: a half turn of W_Q, and token 2 picks token 4
      const knob = world.getByRole('slider', { name: /^Query q2/ });
      const from = await knob.boundingBox();
      const svg = await world.locator('.plane svg').boundingBox();
      const to = await world.evaluate((el) => el._plane.toSvg([0.5, -1]).map((u) => u / el._plane.size)); // drawing units → share
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(svg.x + to[0] * svg.width, svg.y + to[1] * svg.height, { steps: 8 });
      await page.mouse.up();
      await page.locator('attn-qkv-world[data-pick="4"]').waitFor();
      await settled(world);
      const state = await world.evaluate((el) => el.getState());
      assert.ok(Math.abs(Math.abs(state['angle-q']) - 180) <= 3, `angle-q ${state['angle-q']}`);
      assert.ok(Math.abs(state['scale-q'] - 1) <= 0.06, `scale-q ${state['scale-q']}`);
      assert.match(await world.locator('.challenge').innerText(), /picks token 4 ✓/);
      // keyboard on the tip: ← turns W_Q 5° further, ↑ lengthens it
      await knob.focus();
      await knob.press('ArrowUp');
      await settled(world);
      assert.ok(Math.abs((await world.evaluate((el) => el['scale-q'])) - state['scale-q'] - 0.05) < 1e-9);
      await knob.press('ArrowLeft');
      await settled(world);
      const turned = ((((state['angle-q'] + 5) % 360) + 540) % 360) - 180;
      assert.equal(await world.evaluate((el) => el['angle-q']), turned === -180 ? 180 : turned);
      // the permalink follows
      await page.waitForFunction((a) => location.hash.includes(`hand.angle-q=${a}`), turned === -180 ? 180 : turned);
      // the toolbar's Reset: back to the identity
      await world.getByRole('button', { name: 'Reset', exact: true }).last().click();
      await page.locator('attn-qkv-world[data-pick="1"]').waitFor();
      assert.deepEqual(problems, []);
    });

    test('Exercise 2: each dead end has its own feedback; the arrow keys alone solve it', async () => {
      const world = await shown(page, 'attn-qkv-world');
      await setWorld(world, { 'angle-q': '0', 'scale-q': '1', 'angle-k': '0', 'scale-k': '1' });
      const exercise = page.locator('attn-exercise#pick-four');
      const check = async () => {
        await exercise.locator('.check-button').click();
        await settled(exercise);
        return await verdictText(exercise);
      };
      const seen = new Set();
      for (const [texts, feedback] of [
        [{}, /W_Q = W_K = I/],
        [{ 'angle-q': '120', 'angle-k': '120' }, /turn by the same angle/],
        [{ 'angle-q': '0', 'angle-k': '0', 'scale-q': '2', 'scale-k': '0.5' }, /lengths alone/],
        [{ 'angle-q': '60', 'scale-q': '1', 'scale-k': '1' }, /picks token 3, not token 4/],
      ]) {
        await setWorld(world, texts);
        const verdict = await check();
        assert.match(verdict, /^Not yet — /);
        assert.match(verdict, feedback);
        assert.ok(!seen.has(verdict));
        seen.add(verdict);
      }
      await exercise.getByRole('button', { name: 'Show hint' }).waitFor();
      await setWorld(world, { 'angle-q': '0' });
      const knob = world.getByRole('slider', { name: /^Query q2/ });
      await knob.focus();
      for (let i = 0; i < 30; i++) await knob.press('ArrowLeft'); // +150°: inside the window that works
      await page.locator('attn-qkv-world[data-pick="4"]').waitFor();
      assert.equal(await world.evaluate((el) => el['angle-q']), 150);
      assert.match(await check(), /^Correct — token 2's query now points where key 4 reaches furthest/);
      assert.equal(await exercise.getAttribute('data-progress'), 'solved');
      await exercise.getByRole('button', { name: 'Show explanation' }).click();
      assert.match(await exercise.locator('[slot="explanation"]').innerText(), /half turn/);
      assert.deepEqual(problems, []);
    });

    test('Exercise 3 holds back training; Train animates to the solution; Pause and Reset', async () => {
      await predictFirst(page, {
        id: 'trained-query',
        figures: ['attn-qkv-training'],
        mistakes: [
          [/points at the key of A\? itself/, /holds no item/],
          [/key of position 0/, /only half of the time/],
          [/stay much as they started/, /50:50 blend/],
        ],
        right: /scores the keys of tokens 0 and 1/,
      });
      const lab = await shown(page, 'attn-qkv-training');
      assert.equal(await lab.getAttribute('data-step'), '0');
      assert.equal(await lab.getAttribute('data-solved'), 'false');
      // count the frames drawn while it trains: the page keeps drawing, a few steps per frame
      await page.evaluate(() => {
        const lab = document.querySelector('attn-qkv-training');
        window.__frames = { steps: new Set(), gaps: [], last: performance.now(), on: true };
        const tick = (now) => {
          const f = window.__frames;
          f.gaps.push(now - f.last);
          f.last = now;
          f.steps.add(lab.dataset.step);
          if (f.on) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      await lab.getByRole('button', { name: 'Train' }).click();
      await page.locator('attn-qkv-training[data-training="true"]').waitFor();
      await page.locator('attn-qkv-training[data-step="400"][data-training="false"]').waitFor({ timeout: 60000 });
      await settled(lab);
      const frames = await page.evaluate(() => {
        window.__frames.on = false;
        return { distinct: window.__frames.steps.size, longest: Math.max(...window.__frames.gaps.slice(1)) };
      });
      assert.ok(frames.distinct >= 40, `the plane was drawn at ${frames.distinct} different steps`);
      assert.ok(frames.longest < 1000, `the longest frame took ${frames.longest} ms`);
      assert.equal(await lab.getAttribute('data-solved'), 'true');
      assert.equal(await lab.getAttribute('data-correct'), '16');
      assert.equal(await lab.getAttribute('data-retrieved'), '16');
      assert.ok(Number(await lab.getAttribute('data-mean-right')) > 0.8);
      assert.match(await lab.locator('.retrieval').innerText(), /^16 of 16 inputs answered right/);
      assert.ok((await lab.locator('.line-chart path.line').first().getAttribute('d')).length > 100);
      await page.waitForFunction(() => /train\.steps=400/.test(location.hash));
      for (const status of await lab.locator('attn-check').evaluateAll((cs) => cs.map((c) => c.dataset.status)))
        assert.equal(status, 'pass');
      // Train again, then Pause: it stops between 400 and 800, and stays there
      await lab.getByRole('button', { name: 'Train' }).click();
      await page.waitForFunction(() => Number(document.querySelector('attn-qkv-training').dataset.step) > 410);
      await lab.getByRole('button', { name: 'Pause' }).click();
      await page.locator('attn-qkv-training[data-training="false"]').waitFor();
      await settled(lab);
      const paused = Number(await lab.getAttribute('data-step'));
      assert.ok(paused > 400 && paused < 800, `paused at ${paused}`);
      // Reset (beside Train and Pause): back to the untrained model
      await lab.locator('.seed-row').getByRole('button', { name: 'Reset' }).click();
      await page.locator('attn-qkv-training[data-step="0"]').waitFor();
      await settled(lab);
      assert.equal(await lab.getAttribute('data-solved'), 'false');
      assert.deepEqual(problems, []);
    });

    test('a permalink restores the turns of the world and the trained model', async () => {
      await page.goto(`${url()}?hand.angle-q=180&hand.scale-k=2&train.seed=16&train.steps=400`);
      await commitTo(page, ANSWERS);
      const world = await shown(page, 'attn-qkv-world');
      assert.equal(await world.getAttribute('data-pick'), '4');
      assert.equal(await world.evaluate((el) => el['scale-k']), 2);
      const lab = await shown(page, 'attn-qkv-training');
      assert.equal(await lab.getAttribute('data-step'), '400');
      assert.equal(await lab.getAttribute('data-solved'), 'true');
      assert.match(await lab.locator('attn-code').evaluate((el) => el.code), /^steps = 400 /m);
      assert.deepEqual(problems, []);
    });
  });
}

test('axe finds nothing in the opened labs, trained, in the light and the dark theme', async () => {
  const page = await site.browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(`${site.server.url}#/${LESSON}?train.steps=400`);
  await commitTo(page, ANSWERS);
  await shown(page, 'attn-qkv-world');
  const lab = await shown(page, 'attn-qkv-training');
  assert.equal(await lab.getAttribute('data-solved'), 'true');
  await settled(page.locator('attn-app'));
  assert.deepEqual(await axeLightAndDark(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});

/** In the page: the smallest SVG text inside `host` as rendered (px) and its visible toolbars. */
const measure = (host) =>
  host.evaluate((el) => {
    let text = Infinity;
    let toolbars = 0;
    const visit = (root) => {
      for (const node of root.querySelectorAll('*')) {
        if (node instanceof SVGTextElement && node.textContent.trim() && node.getClientRects().length) {
          const m = node.getScreenCTM();
          text = Math.min(text, parseFloat(getComputedStyle(node).fontSize) * Math.hypot(m.a, m.b));
        }
        if (node.matches('.toolbar') && node.checkVisibility()) toolbars += 1;
        if (node.shadowRoot) visit(node.shadowRoot);
      }
    };
    visit(el.shadowRoot);
    return { text, toolbars };
  });

const inView = (box, viewport) => box.y >= 0 && box.y + box.height <= viewport.height;

for (const [width, height] of [
  [1280, 900],
  [390, 844],
]) {
  test(`at ${width}×${height}: each lab's controls in view with its figure, text ≥ 11 px, one toolbar`, async () => {
    const page = await site.browser.context.newPage();
    const { problems } = watch(page);
    await page.setViewportSize({ width, height });
    await page.goto(`${site.server.url}#/${LESSON}`);
    await commitTo(page, ANSWERS);
    for (const [tag, figure, control] of [
      ['attn-qkv-world', '.plane svg', 'attn-slider'],
      ['attn-qkv-training', '.plane svg', 'button.train'],
    ]) {
      const lab = await shown(page, tag);
      const m = await measure(lab);
      assert.ok(m.text >= 11, `${tag}: text of ${m.text} px`);
      assert.equal(m.toolbars, 1, `${tag}: one toolbar`);
      assert.equal(
        await lab
          .locator('attn-check')
          .first()
          .isVisible()
          .catch(() => false),
        false,
        `${tag}: checks closed`,
      );
      await lab.evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
      const viewport = page.viewportSize();
      const box = await lab.locator(figure).first().boundingBox();
      assert.ok(Math.max(box.width, box.height) >= 240, `${tag}: figure ${box.width} × ${box.height}`);
      if (width >= 1280) {
        assert.ok(inView(box, viewport), `${tag}: the figure in view`);
        assert.ok(inView(await lab.locator(control).first().boundingBox(), viewport), `${tag}: ${control} in view`);
      } else assert.ok(box.y < viewport.height, `${tag}: the figure starts in view`);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(scrollWidth <= width, `${tag}: the page scrolls sideways (${scrollWidth} px)`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
}
