// The one table of old tag names (web/src/cells/tag-aliases.js): each old name is defined as the
// lab it names, and the lessons build accepts it in a lesson.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { registeredTags } from '../../scripts/vite-lessons-plugin.mjs';
import { defineTagAliases, TAG_ALIASES } from '../../web/src/cells/tag-aliases.js';
import { root } from '../../scripts/lib.mjs';

/** A stand-in for customElements: define and get, refusing a name defined twice as the real one does. */
function registry(defined) {
  const map = new Map(Object.entries(defined));
  return {
    map,
    get: (name) => map.get(name),
    define(name, constructor) {
      if (map.has(name)) throw new Error(`${name} is already defined`);
      map.set(name, constructor);
    },
  };
}

test('every old name is defined as a subclass of the lab it names, once', () => {
  class Lab {}
  const labs = Object.fromEntries(Object.values(TAG_ALIASES).map((tag) => [tag, Lab]));
  const r = registry(labs);
  defineTagAliases(r);
  for (const [old, tag] of Object.entries(TAG_ALIASES)) {
    assert.notEqual(r.get(old), r.get(tag), `${old} is its own class (a custom element class is defined once)`);
    assert.ok(r.get(old).prototype instanceof r.get(tag), `${old} behaves as ${tag}`);
  }
  assert.doesNotThrow(() => defineTagAliases(r), 'defining them again leaves them');
});

test('an old name of a lab that no cell defines is a clear error', () => {
  assert.throws(() => defineTagAliases(registry({})), /names <attn-[a-z-]+>, which no cell defines/);
});

test('the lessons build knows every old name, and every lab the table names', async () => {
  const tags = await registeredTags(['web/src/cells', 'web/src/labs'].map((dir) => path.join(root, dir)));
  for (const [old, tag] of Object.entries(TAG_ALIASES)) {
    assert.ok(tags.has(tag), `<${tag}> is defined by a cell`);
    assert.ok(tags.has(old), `<${old}> is accepted in a lesson`);
  }
});
