// The README's element tables are the contract course sites embed against: every attn-* element
// defined under web/src/cells and web/src/labs has a row, and the row names each permalink state
// field the element declares in `static stateFields` (read from its source, so a field added to a
// lab without a line in the README fails here).
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { root } from '../fixtures/build-site.mjs';

async function sources(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sources(full)));
    else if (entry.name.endsWith('.js')) out.push(full);
  }
  return out;
}

/** The keys of a literal `static stateFields = { … };` block; `[NAME]` keys resolved through `const NAME = '…'`. */
export function stateFieldKeys(source) {
  const block = /static stateFields = \{\n([\s\S]*?)\n {2}\};/.exec(source);
  if (!block) return null; // inherited, or built elsewhere (documented by hand)
  const keys = [];
  for (const [, quoted, bare, computed] of block[1].matchAll(/^ {4}(?:'([\w-]+)'|(\w+)|\[(\w+)\]):/gm)) {
    if (computed) {
      const constant = new RegExp(`const ${computed} = '([\\w-]+)'`).exec(source);
      assert.ok(constant, `stateFields key [${computed}] is a constant defined in the same file`);
      keys.push(constant[1]);
    } else keys.push(quoted ?? bare);
  }
  return keys;
}

test('stateFieldKeys reads plain, quoted and computed keys', () => {
  const source =
    "const KEEP = 'keep-sum';\n  static stateFields = {\n    weights: f(),\n    'highlight-row': { type: 'number' },\n    [KEEP]: { type: 'boolean' },\n  };";
  assert.deepEqual(stateFieldKeys(source), ['weights', 'highlight-row', 'keep-sum']);
  assert.equal(stateFieldKeys('static stateFields = FIELDS;'), null);
});

test('every attn-* element has a README row naming each of its state fields', async () => {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const rows = new Map(
    readme
      .split('\n')
      .filter((line) => /^\| `attn-[a-z-]+`/.test(line))
      .map((line) => [/^\| `(attn-[a-z-]+)`/.exec(line)[1], line]),
  );
  const files = [
    ...(await sources(path.join(root, 'web/src/cells'))),
    ...(await sources(path.join(root, 'web/src/labs'))),
  ];
  let checked = 0;
  for (const file of files) {
    const source = await readFile(file, 'utf8');
    const defined = /customElements\.define\('(attn-[a-z-]+)'/.exec(source);
    if (!defined) continue;
    const name = defined[1];
    const where = path.relative(root, file);
    assert.ok(rows.has(name), `README.md has no row for <${name}> (${where})`);
    for (const key of stateFieldKeys(source) ?? []) {
      assert.ok(
        rows.get(name).includes(`\`${key}\``),
        `README.md's row for <${name}> names its state field \`${key}\``,
      );
    }
    checked++;
  }
  assert.ok(checked >= 30, `found ${checked} elements`);
});
