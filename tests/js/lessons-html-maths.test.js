// Maths in a lesson's raw HTML (scripts/vite-lessons-plugin.mjs): $…$ in the text of an HTML block
// (an exercise's <p> prompt, its hint) is rendered by KaTeX at build time, exactly as Markdown
// maths; a tag's attributes and the text the page reads at run time (<option>, <attn-mistake>,
// <attn-variant>, <attn-code>, <code>, …) are left as written; a formula KaTeX cannot render
// stops the build, naming its line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import katex from 'katex';
import { styleClasses } from '../../scripts/lesson-style-classes.mjs';
import { compileLesson, LessonError } from '../../scripts/vite-lessons-plugin.mjs';

const FRONT = `---
id: demo
title: Demo
order: 2
summary: A lesson for tests.
---
`;
const FRONT_LINES = FRONT.split('\n').length - 1; // the body starts on line FRONT_LINES + 1
const known = new Set(['attn-exercise', 'attn-mistake', 'attn-variant', 'attn-code']);
const compile = (body) => compileLesson(FRONT + body, 'web/lessons/demo.md', { knownTags: known }).html;
// KaTeX's markup as a lesson carries it: its style attributes made classes (lesson-style-classes.mjs)
const inline = (tex) =>
  styleClasses(katex.renderToString(tex, { throwOnError: false, displayMode: false }), 'demo.md').html;

test('$…$ in an exercise prompt and hint is rendered as Markdown maths is', () => {
  const html = compile(
    [
      '<attn-exercise id="e" mode="number" answer="1">',
      '<p>A square matrix of scores $S$, so $y_i = \\sum_j A_{ij} v_j$ and $\\tau &lt; 1$.</p>',
      '<p slot="hint">Count $4T^2E$ operations.</p>',
      '</attn-exercise>',
      '',
      'In Markdown: $y_i = \\sum_j A_{ij} v_j$.',
      '',
    ].join('\n'),
  );
  const markdownMaths = compileLesson(FRONT + 'In Markdown: $y_i = \\sum_j A_{ij} v_j$.\n', 'demo.md').html;
  assert.ok(html.includes(`<p>A square matrix of scores ${inline('S')}, so ${inline('y_i = \\sum_j A_{ij} v_j')}`));
  assert.ok(html.includes(`and ${inline('\\tau < 1')}.</p>`), 'an entity in the maths is the character');
  assert.ok(html.includes(`<p slot="hint">Count ${inline('4T^2E')} operations.</p>`));
  assert.ok(markdownMaths.includes(inline('y_i = \\sum_j A_{ij} v_j')), 'the same markup as Markdown maths');
  assert.ok(!/\$/.test(html.replace(/<annotation[^>]*>[\s\S]*?<\/annotation>/g, '')), 'no $ left in the text');
});

test('attributes and the text read at run time are left as written', () => {
  const body = [
    '<attn-exercise id="e" mode="choice" label="Exercise: $S$">',
    '<p title="$x$">Pick one; costs \\$5, not $5$.</p>',
    '<option value="a" data-correct data-feedback="so $y_i = \\sum_j A_{ij} v_j$">$S$ is square</option>',
    '<option value="b">Not $S^\\top$</option>',
    '<attn-mistake value="2">$\\alpha_0 = -1$</attn-mistake>',
    '<attn-variant answer="3"><p>Now $T \\times E$?</p><p slot="hint">$c$</p></attn-variant>',
    '<attn-code>y = $x$</attn-code>',
    '<p>In code: <code>$z$</code> and after $w$.</p>',
    '</attn-exercise>',
    '',
  ].join('\n');
  const html = compile(body);
  for (const kept of [
    'label="Exercise: $S$"',
    'title="$x$"',
    'data-feedback="so $y_i = \\sum_j A_{ij} v_j$">$S$ is square</option>',
    '<option value="b">Not $S^\\top$</option>',
    '<attn-mistake value="2">$\\alpha_0 = -1$</attn-mistake>',
    '<attn-variant answer="3"><p>Now $T \\times E$?</p><p slot="hint">$c$</p></attn-variant>',
    '<attn-code>y = $x$</attn-code>',
    '<code>$z$</code>',
  ]) {
    assert.ok(html.includes(kept), `kept: ${kept}`);
  }
  assert.ok(html.includes(`costs $5, not ${inline('5')}.</p>`), '\\$ is a dollar sign');
  assert.ok(html.includes(`</code> and after ${inline('w')}.</p>`), 'maths after a closed <code> is rendered');
});

test('a formula KaTeX cannot render in an HTML block stops the build, naming its line', () => {
  const body = [
    '<attn-exercise id="e" mode="number" answer="1">',
    '<p>Fine: $x$.</p>',
    '<p slot="hint">Broken:',
    'here $\\frac{1}{$ it is.</p>',
    '</attn-exercise>',
    '',
  ].join('\n');
  assert.throws(
    () => compile(body),
    (error) =>
      error instanceof LessonError &&
      error.message.startsWith(`web/lessons/demo.md: has maths KaTeX cannot render on line ${FRONT_LINES + 4}:`),
  );
  // the same formula in Markdown gets the same kind of error
  assert.throws(
    () => compile('Text\n\nhere $\\frac{1}{$ it is.\n'),
    (error) =>
      error instanceof LessonError &&
      error.message.startsWith(`web/lessons/demo.md: has maths KaTeX cannot render on line ${FRONT_LINES + 3}:`),
  );
});
