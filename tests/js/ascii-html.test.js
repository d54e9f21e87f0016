// The single file is written in ASCII only (scripts/ascii-html.mjs), each
// character escaped as its context reads it.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { asciiHtml } from '../../scripts/ascii-html.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('text and attributes get character references, scripts JS escapes, styles CSS escapes', () => {
  const html =
    '<title>τ → 0</title><p title="α">Σ 𝔼</p>' +
    '<script type="module">const s = `τ=${1}`, r = /[−–]/u;</script>' +
    '<style>.x::after { content: "—"; }</style>ü';
  const out = asciiHtml(html);
  assert.equal(
    out,
    '<title>&#x3c4; &#x2192; 0</title><p title="&#x3b1;">&#x3a3; &#x1d53c;</p>' +
      '<script type="module">const s = `\\u03c4=${1}`, r = /[\\u2212\\u2013]/u;</script>' +
      '<style>.x::after { content: "\\2014 "; }</style>&#xfc;',
  );
  assert.match(out, /^[\0-\x7f]*$/);
});

test('escaped script text evaluates to the same strings, regular expressions and astral characters', () => {
  const source = 'const t = `τ ${"α"} 𝔼`; const r = /^[α−]+$/; [t, r.test("α−α"), "𝔼".length]';
  const escaped = asciiHtml(`<script>${source}</script>`).slice('<script>'.length, -'</script>'.length);
  assert.match(escaped, /^[\0-\x7f]*$/);
  assert.deepEqual([...vm.runInNewContext(escaped)], [...vm.runInNewContext(source)]);
});

test('a closing tag in another case still ends the raw text', () => {
  assert.equal(asciiHtml('<SCRIPT>"é"</Script>é'), '<SCRIPT>"\\u00e9"</Script>&#xe9;');
});

test('the built single file is pure ASCII', async () => {
  const html = await readFile(path.join(root, 'dist', 'attnbook.html'), 'latin1');
  const at = html.search(/[^\0-\x7f]/);
  assert.equal(at, -1, `non-ASCII byte at ${at}: ${JSON.stringify(html.slice(at - 40, at + 10))}`);
});
