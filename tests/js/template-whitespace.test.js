// The build's folding of Lit templates' indentation (scripts/vite-template-whitespace.mjs), in Node:
// line breaks and indentation inside html`…`, svg`…` and css`…` become one space; values, other
// template literals and templates holding a <pre> keep every character.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { foldTemplateWhitespace } from '../../scripts/vite-template-whitespace.mjs';

test('folds the line breaks and indentation of html, svg and css templates to one space', () => {
  const code =
    'const a = html`<p>\n    one\n    <b>${x}</b>\n  </p>`;\nconst s = css`\n  .a {\n    color: red;\n  }\n`;';
  assert.equal(
    foldTemplateWhitespace(code),
    'const a = html`<p> one <b>${x}</b> </p>`;\nconst s = css` .a { color: red; } `;',
  );
});

test('leaves values, untagged and other tagged templates, and <pre> templates alone', () => {
  const code = [
    'const py = `import torch\n\nx = 1\n    y = 2`;',
    'const t = tex`a\n  b`;',
    'const v = html`<i>${`a\n  b`}</i>`;',
    'const p = html`<pre>\n  keep\n</pre>`;',
  ].join('\n');
  const out = foldTemplateWhitespace(code);
  assert.ok(out.includes('`import torch\n\nx = 1\n    y = 2`'), 'Python code keeps its lines');
  assert.ok(out.includes('tex`a\n  b`'), 'another tag is not folded');
  assert.ok(out.includes('${`a\n  b`}'), 'a template inside a value is not folded');
  assert.ok(out.includes('html`<pre>\n  keep\n</pre>`'), 'a <pre> keeps its text');
});

test('the code cells and a lab fold to code that still parses, with their Python intact', async () => {
  for (const file of ['web/src/cells/notebook/attn-code.js', 'web/src/labs/softmax-temperature/softmax-lab-model.js']) {
    const code = await readFile(new URL(`../../${file}`, import.meta.url), 'utf8');
    const out = foldTemplateWhitespace(code);
    assert.ok(out.length <= code.length, file);
    if (file.endsWith('model.js'))
      assert.ok(out.includes('def softmax_t(s, tau):\n    if tau == 0:'), 'the Python template');
  }
});
