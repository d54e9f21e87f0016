// The PyTorch cell of lesson heads-that-copy (web/src/labs/heads-that-copy/copy-torch.js): its
// parameters and its template agree, so the page fills every placeholder and nothing else. The
// cell itself runs in Python with the lesson (tests/python).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COPY_TORCH, COPY_TORCH_STEPS, copyTorchParams } from '../../web/src/labs/heads-that-copy/copy-torch.js';

/** The template with each {{name}} replaced by the JSON of params[name] (as a Python literal). */
const fill = (template, params) => template.replace(/\{\{(\w+)\}\}/g, (_, name) => JSON.stringify(params[name]));

test('the parameters are whole numbers: the seed given and the default steps', () => {
  for (const seed of [0, 1, 7, 12345]) {
    const params = copyTorchParams({ seed });
    assert.deepEqual(params, { seed, steps: COPY_TORCH_STEPS });
    for (const [name, value] of Object.entries(params)) {
      assert.ok(Number.isInteger(value), `${name} is ${value}`);
    }
  }
  assert.ok(COPY_TORCH_STEPS >= 100 && COPY_TORCH_STEPS % 100 === 0, `${COPY_TORCH_STEPS} steps`);
});

test("the template's placeholders are exactly the parameters' names", () => {
  const placeholders = new Set([...COPY_TORCH.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]));
  assert.deepEqual([...placeholders].sort(), Object.keys(copyTorchParams({ seed: 1 })).sort());
});

test('the filled template has no placeholder left and carries the values', () => {
  const code = fill(COPY_TORCH, copyTorchParams({ seed: 3 }));
  assert.ok(!code.includes('{{'), 'a {{ is left');
  assert.ok(!code.includes('}}'), 'a }} is left');
  assert.match(code, /^torch\.manual_seed\(3\)$/m);
  assert.match(code, new RegExp(`^steps = ${COPY_TORCH_STEPS}\\b`, 'm'));
});
