// What the pool tests share (pool.test.js, pool-shared.test.js): tensors from a fixed generator,
// and a check that a pool's result is the single-thread call's bit for bit.
import assert from 'node:assert/strict';

/** A tensor of `shape` with values from a fixed generator (seed), in [−1, 1). */
export function tensor(shape, seed) {
  const data = new Float32Array(shape.reduce((a, b) => a * b, 1));
  let x = seed >>> 0;
  for (let i = 0; i < data.length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    data[i] = x / 2 ** 31 - 1;
  }
  return { data, shape };
}

export const bitwise = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

/** Asserts that `got` is `want` bit for bit: output, fullyMaskedRows, weights and logits. */
export function assertSame(got, want, what) {
  assert.deepEqual(got.output.shape, want.output.shape, `${what}: output shape`);
  assert.ok(bitwise(got.output.data, want.output.data), `${what}: output bit for bit`);
  assert.equal(got.fullyMaskedRows, want.fullyMaskedRows, `${what}: fully masked rows`);
  for (const name of ['weights', 'logits']) {
    assert.equal(Boolean(got[name]), Boolean(want[name]), `${what}: ${name} given`);
    if (want[name]) {
      assert.deepEqual(got[name].shape, want[name].shape, `${what}: ${name} shape`);
      assert.ok(bitwise(got[name].data, want[name].data), `${what}: ${name} bit for bit`);
    }
  }
}
