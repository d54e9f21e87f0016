// The run-time maths formatter (web/src/cells/base/math.js), in Node: its Lit templates written
// out as HTML, so the typesetting rules can be read and checked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nothing } from 'lit';
import { tex } from '../../web/src/cells/base/math.js';

/** A Lit TemplateResult as HTML text (values in place, attributes as written). */
function toHtml(value) {
  if (value === nothing || value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(toHtml).join('');
  if (value && value.strings)
    return value.strings.reduce((out, s, i) => out + s + (i < value.values.length ? toHtml(value.values[i]) : ''), '');
  return String(value);
}
const h = (strings, ...values) => toHtml(tex(strings, ...values)).replace(/\s*\n\s*/g, '');
const text = (html) => html.replace(/<[^>]+>/g, '');

test('letters are italic, numbers and words upright, with TeX spacing around relations', () => {
  const out = h`y = 2x + \operatorname{softmax}(s)`;
  assert.match(
    out,
    /<i class="mi">y<\/i><span class="mo rel"> = <\/span><span class="mn">2<\/span><i class="mi">x<\/i>/,
  );
  assert.match(out, /<span class="mo bin"> \+ <\/span><span class="mw">softmax<\/span>/);
  assert.equal(text(out), 'y = 2x + softmax(s)', 'copied or read aloud with its spaces');
});

test('scripts take a character or a group; both at once stack', () => {
  assert.match(
    h`d_k`,
    /<span class="scripts"><i class="mi">d<\/i><span class="script"><span class="sub"><i class="mi">k<\/i><\/span><\/span><\/span>/,
  );
  assert.equal(text(h`A_{ij}^\top`), 'A⊤ij');
  assert.match(h`A_{ij}^\top`, /class="script both"/);
});

test('a square root covers its whole radicand, a fraction has a numerator and a denominator', () => {
  assert.match(
    h`\sqrt{d_k}`,
    /<span class="msqrt"><span class="radical">√<\/span><span class="radicand"><span class="scripts"><i class="mi">d<\/i>/,
  );
  const frac = h`\frac{QK^\top}{\sqrt{d_k}}`;
  assert.match(frac, /<span class="mfrac"><span class="num">.*<\/span><span class="den"><span class="msqrt">/);
});

test('Greek letters, written as commands or as characters, and symbols', () => {
  assert.equal(text(h`\alpha_j = \exp(s_j / \tau)`), 'αj = exp(sj/τ)');
  assert.match(h`τ`, /<i class="mi">τ<\/i>/);
  assert.equal(text(h`\sum_j w_j v_j \le \infty`), '∑jwjvj ≤ ∞');
  assert.match(h`\Sigma`, /<span class="mn">Σ<\/span>/, 'capital Greek is upright');
});

test('interpolated values are text, never TeX: a value cannot inject a command or markup', () => {
  const i = 3;
  assert.equal(text(h`y_{${i}} = ${-0.25}`), 'y3 = −0.25');
  const out = h`x = ${'\\frac{1}{2}<b>'}`;
  assert.doesNotMatch(out, /mfrac/);
  assert.match(out, /\\frac\{1\}\{2\}<b>/, 'kept as the literal characters (Lit escapes them when it renders)');
});

test('a minus sign is a sign at the start or after a relation, an operator between terms', () => {
  assert.match(h`-x`, /<span class="mo ord">−<\/span>/);
  assert.match(h`a - b`, /<span class="mo bin"> − <\/span>/);
  assert.match(h`a = -b`, /<span class="mo rel"> = <\/span><span class="mo ord">−<\/span>/);
});

test('a relation at either end of a formula has no space on that side (no doubled space beside the text)', () => {
  assert.equal(text(h`\ge 0`), '≥ 0');
  assert.match(h`\ge 0`, /<span class="mo rel first">≥ <\/span>/);
  assert.equal(text(h`y_{${2}} =`), 'y2 =');
  assert.match(h`y =`, /<span class="mo rel last"> =<\/span>/);
  assert.equal(text(h`x = 1`), 'x = 1', 'inside a formula, spaced on both sides');
  assert.equal(text(h`\sum_{k=0} x`), '∑k = 0x', 'also inside a script');
});

test('an unknown command is shown by its name, and unbalanced braces do not throw', () => {
  assert.equal(text(h`\foo{x}`), 'foox');
  assert.doesNotThrow(() => h`\frac{a`);
  assert.doesNotThrow(() => h`x_`);
});

test('text with $…$: the maths typeset, the rest as text; a plain form for accessible names', async () => {
  const { mathText, mathPlain, texValue } = await import('../../web/src/cells/base/math.js');
  const parts = mathText('$W_Q$ turns by');
  assert.equal(parts.length, 3);
  assert.match(toHtml(parts[1]), /<span class="math">/);
  assert.equal(parts[2], ' turns by');
  assert.equal(mathText('no maths, \\$5'), 'no maths, $5');
  assert.equal(mathPlain('$W_Q$ turns by $\\theta_Q$'), 'WQ turns by θQ');
  assert.equal(text(toHtml(texValue('\\theta_Q', '30°')).replace(/\s*\n\s*/g, '')), 'θQ = 30°');
});
