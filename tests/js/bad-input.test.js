// The API rows of the bad-input matrix (tests/bad-input/matrix.js) against both
// wasm builds: each bad call throws an AttentionError of the expected kind with a
// message naming what was wrong, never a wasm trap or abort, and afterwards a
// valid call of the same function still returns the right answer.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { AttentionError, loadAttention } from 'attnbook';
import { API_ROWS, CLASSES, VALID_CALLS } from '../bad-input/matrix.js';

const TRAP = /RuntimeError|unreachable|Aborted|abort\(|memory access out of bounds|table index/i;

function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    const tol = 1e-6 * Math.max(1, Math.abs(expected[i]));
    assert.ok(Math.abs(actual[i] - expected[i]) <= tol, `${what}: [${i}] is ${actual[i]}, expected ${expected[i]}`);
  }
}

/** The error a row must raise: an AttentionError, its kind, its message; never a trap. */
function expectError(row, error) {
  assert.ok(!TRAP.test(`${error?.name} ${error?.message}`), `a wasm trap or abort: ${error?.stack ?? error}`);
  assert.ok(error instanceof AttentionError, `expected an AttentionError, got ${error?.stack ?? error}`);
  assert.equal(error.name, 'AttentionError');
  assert.equal(error.kind, row.kind, `kind of "${error.message}"`);
  assert.match(error.message, row.message);
  return true;
}

test('the matrix: every row has a known class, every function a valid call, every method is covered', async () => {
  const attn = await loadAttention();
  for (const row of API_ROWS) {
    assert.ok(CLASSES.includes(row.cls), `${row.fn}: unknown class ${row.cls}`);
    assert.ok(VALID_CALLS[row.fn], `${row.fn}: no valid call`);
    assert.ok(row.message instanceof RegExp && typeof row.args === 'function');
  }
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(attn)).filter(
    (name) => !['constructor', 'memory', 'trainingTasks'].includes(name), // these take no input
  );
  const covered = new Set(API_ROWS.map((row) => row.fn));
  assert.deepEqual(
    methods.filter((name) => !covered.has(name)),
    [],
    'methods of the engine with no rows',
  );
  assert.ok(covered.has('loadAttention'));
});

for (const simd of [true, false]) {
  describe(`bad input, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    let inUse; // bytes malloc'd after the first valid calls (the core's task table is made on first use)
    before(async () => {
      attn = await loadAttention({ simd });
    });

    const validCall = (fn) => {
      const valid = VALID_CALLS[fn];
      const method = valid.via ?? fn;
      assertClose(
        Array.from(valid.result(attn[method](...valid.args(attn)))),
        valid.expected,
        `${method} after the error`,
      );
    };

    test('every valid call gives its right answer before any bad input', () => {
      for (const fn of Object.keys(VALID_CALLS)) validCall(fn);
      inUse = attn.memory().inUseBytes;
    });

    for (const row of API_ROWS) {
      test(`${row.fn}: ${row.cls} (${row.what})`, async () => {
        if (row.fn === 'loadAttention') {
          await assert.rejects(loadAttention(...row.args()), (error) => expectError(row, error));
        } else if (row.fn === 'createPool') {
          await assert.rejects(attn.createPool(...row.args(attn)), (error) => expectError(row, error));
        } else {
          assert.throws(
            () => attn[row.fn](...row.args(attn)),
            (error) => expectError(row, error),
          );
        }
        validCall(row.fn);
      });
    }

    test('the module is still whole after every row: valid calls right, heap back to where it was', () => {
      for (const fn of Object.keys(VALID_CALLS)) validCall(fn);
      assert.equal(attn.memory().inUseBytes, inUse, 'bytes left allocated after the calls');
    });
  });
}

describe('fixed by the matrix: numbers beyond a 32-bit size_t no longer wrap', () => {
  test('a mask window of 2^32 allows every key, as a window of 2 does for 3 keys (it wrapped to 0)', async () => {
    const attn = await loadAttention();
    const q = [
      [1, 0],
      [0, 1],
      [1, 1],
    ];
    const wide = attn.attention(q, q, q, { mask: { window: 2 ** 32 }, returnWeights: true });
    const none = attn.attention(q, q, q, { returnWeights: true });
    assert.deepEqual(wide.weights, none.weights);
    assert.ok(wide.weights.data[1] > 0, 'an off-diagonal weight');
  });
});
