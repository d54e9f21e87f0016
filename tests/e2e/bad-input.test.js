// The editor rows of the bad-input matrix (tests/bad-input/matrix.js) in headless
// Chromium, on the lessons served over http: every bad text shows its error
// beside the field (aria-invalid, an error the field's aria-describedby names),
// the lab keeps its last valid state, a valid entry is then accepted, and the
// console stays quiet. One page per lesson, all its fields' rows on it.
import assert from 'node:assert/strict';
import { EDITORS } from '../bad-input/matrix.js';
import { after, before, test } from 'node:test';
import { launch, openGates, serveSite, settled, showFigure, watch } from './browser.js';

let server;
let browser;
before(async () => {
  server = await serveSite();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** What the field shows: aria-invalid, its described error (text, visible, box) and its own box. */
function fieldReport(input) {
  const root = input.getRootNode();
  const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  const error = ids.map((id) => root.getElementById(id)).find((el) => el?.classList.contains('field-error'));
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };
  return {
    invalid: input.getAttribute('aria-invalid'),
    error: error ? { text: error.textContent.trim(), visible: error.checkVisibility(), box: box(error) } : null,
    field: box(input),
  };
}

/**
 * Puts `text` in the field, as a learner's typing or pasting would: selects
 * what is there and inserts the new text in one edit (Chromium filters what a
 * number field accepts the same way for typed and inserted text). A number
 * field that commits on change then gets Enter.
 */
async function enter(input, editor, text) {
  if (editor.type === 'text') {
    await input.fill(text);
    return;
  }
  await input.focus();
  await input.press('ControlOrMeta+A');
  if (text) await input.page().keyboard.insertText(text);
  else await input.press('Backspace');
  if (editor.commit === 'change') await input.press('Enter');
}

const readState = (page, [selector, property]) =>
  page
    .locator(selector)
    .first()
    .evaluate((el, p) => JSON.parse(JSON.stringify(el[p])), property);

const lessons = [...new Set(EDITORS.map((e) => e.lesson))];

for (const lesson of lessons) {
  const editors = EDITORS.filter((e) => e.lesson === lesson);
  const count = editors.reduce((n, e) => n + e.rows.length, 0);
  test(`${lesson}: ${count} bad entries in ${editors.length} fields show a field error and keep the last valid state`, async () => {
    // A fresh page per lesson, its storage cleared first: nothing an earlier lesson's edits left behind.
    const page = await browser.context.newPage();
    await page.addInitScript(() => localStorage.clear());
    const { problems } = watch(page);
    await page.goto(`${server.url}#/${lesson}`);
    for (const editor of editors) {
      await page.locator(editor.host).first().waitFor({ state: 'attached' });
      await openGates(page.locator(editor.host)); // a figure held back for an exercise: attempt it first
      await showFigure(page, editor.host);
      const host = page.locator(editor.host).first();
      const input = page.locator(editor.input).first();
      await input.scrollIntoViewIfNeeded();
      const initial = await readState(page, editor.state);
      for (const [cls, text, message] of editor.rows) {
        const what = `${editor.name}: ${cls} ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)}`;
        await enter(input, editor, text);
        await settled(host); // the edit un-settled the field's cell and the lab: the error is drawn once it is back
        const report = await input.evaluate(fieldReport);
        assert.equal(report.invalid, 'true', `${what}: aria-invalid`);
        assert.ok(report.error, `${what}: no field error named by aria-describedby`);
        assert.ok(report.error.visible, `${what}: the field error is hidden`);
        assert.match(report.error.text, message, what);
        // beside the field: starting at most a few lines below it, not elsewhere on the page
        const [f, e] = [report.field, report.error.box];
        assert.ok(e.y > f.y - 40 && e.y < f.y + f.height + 160, `${what}: error at y = ${e.y}, field at y = ${f.y}`);
        // every entry before was bad too: the last valid state is still the initial one
        assert.deepEqual(await readState(page, editor.state), initial, `${what}: the last valid state is kept`);
      }
      await enter(input, editor, editor.valid.text);
      await settled(host);
      const report = await input.evaluate(fieldReport);
      assert.equal(report.invalid, 'false', `${editor.name}: valid ${editor.valid.text} accepted`);
      assert.ok(!report.error?.visible, `${editor.name}: no error once valid`);
      const after = await readState(page, editor.state);
      if (editor.valid.cell) {
        const [r, c] = editor.valid.cell;
        const expected = initial.map((row) => [...row]);
        expected[r][c] = Number(editor.valid.text);
        assert.deepEqual(after, expected, `${editor.name}: state after the valid entry`);
      } else {
        assert.deepEqual(after, editor.valid.state, `${editor.name}: state after the valid entry`);
      }
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
}
