// The engine's softmax through both wasm builds, against a float64 reference in JS.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { AttentionError, loadAttention } from 'attnbook';

const SEED_LOGITS = [1.2, 4.5, 2.0, 0.8];

/** float64 softmax of one row with temperature τ > 0 (the test oracle). */
function reference(row, tau = 1) {
  const m = Math.max(...row);
  const e = row.map((x) => Math.exp((x - m) / tau));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

function assertClose(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    assert.ok(
      Math.abs(actual[i] - expected[i]) <= tol,
      `${what}: index ${i} is ${actual[i]}, expected ${expected[i]} (tolerance ${tol})`,
    );
  }
}

for (const simd of [true, false]) {
  describe(`softmax, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention({ simd });
    });

    test('reports which build runs', () => {
      assert.equal(attn.simd, simd);
    });

    test('seed logits at τ = 0.25, 1, 5 match the float64 reference', () => {
      for (const temperature of [0.25, 1, 5]) {
        const y = attn.softmax(SEED_LOGITS, { temperature });
        assert.ok(y.data instanceof Float32Array);
        assert.deepEqual(y.shape, [4]);
        assertClose(y.data, reference(SEED_LOGITS, temperature), 1e-6, `τ = ${temperature}`);
      }
    });

    test('the default temperature is 1', () => {
      assertClose(attn.softmax(SEED_LOGITS).data, [0.0322492, 0.8743615, 0.071772, 0.0216173], 1e-6, 'τ = 1');
    });

    test('τ = 0 is the hard argmax and τ = Infinity is uniform', () => {
      assert.deepEqual(Array.from(attn.softmax(SEED_LOGITS, { temperature: 0 }).data), [0, 1, 0, 0]);
      assert.deepEqual(Array.from(attn.softmax(SEED_LOGITS, { temperature: Infinity }).data), [0.25, 0.25, 0.25, 0.25]);
    });

    test('large logits stay finite', () => {
      const y = attn.softmax([1000, 1001, 1002]).data;
      assert.ok(y.every(Number.isFinite));
      assertClose(y, reference([0, 1, 2]), 1e-6, '[1000, 1001, 1002]');
    });

    test('rows of a 2-D array and of a 3-D {data, shape} tensor each sum to one', () => {
      const rows = [
        [0.5, -1, 2],
        [3, 3, 3],
      ];
      const y = attn.softmax(rows);
      assert.deepEqual(y.shape, [2, 3]);
      assertClose(y.data.slice(0, 3), reference(rows[0]), 1e-6, 'row 0');
      assertClose(y.data.slice(3), [1 / 3, 1 / 3, 1 / 3], 1e-6, 'row 1');

      const data = Float32Array.from({ length: 2 * 3 * 5 }, (_, i) => Math.sin(i) * 4);
      const z = attn.softmax({ data, shape: [2, 3, 5] }, { temperature: 0.7 });
      assert.deepEqual(z.shape, [2, 3, 5]);
      for (let r = 0; r < 6; r++) {
        const row = Array.from(data.slice(r * 5, r * 5 + 5));
        assertClose(z.data.slice(r * 5, r * 5 + 5), reference(row, 0.7), 1e-6, `row ${r}`);
      }
    });

    test('softmaxReference: float64 weights of the float32 logits, close to the JS oracle and to softmax()', () => {
      const rows = [
        [1.2, 4.5, 2.0, 0.8],
        [0.1, -3, 1000, -Infinity],
      ];
      for (const temperature of [0.25, 1, 5]) {
        const ref = attn.softmaxReference(rows, { temperature });
        assert.ok(ref.data instanceof Float64Array);
        assert.deepEqual(ref.shape, [2, 4]);
        rows.forEach((row, r) => {
          const exact = reference(row.map(Math.fround), temperature); // what the core receives: float32
          assertClose(ref.data.slice(4 * r, 4 * r + 4), exact, 1e-15, `row ${r}, τ = ${temperature}`);
        });
        assertClose(attn.softmax(rows, { temperature }).data, ref.data, 1e-6, `softmax() at τ = ${temperature}`);
      }
      assert.equal(attn.softmaxReference(rows).data[7], 0, 'a -Infinity logit gets weight 0');
      assertClose(attn.softmaxReference(SEED_LOGITS).data, [0.0322492, 0.8743615, 0.071772, 0.0216173], 1e-6, 'τ = 1');
    });

    test('softmaxReference: the limits τ = 0 (ties share) and τ = Infinity, and a fully masked row', () => {
      assert.deepEqual(Array.from(attn.softmaxReference([1, 3, 3, 0], { temperature: 0 }).data), [0, 0.5, 0.5, 0]);
      assert.deepEqual(Array.from(attn.softmaxReference([1, 3, -Infinity, 0], { temperature: Infinity }).data), [
        1 / 3,
        1 / 3,
        0,
        1 / 3,
      ]);
      assert.deepEqual(Array.from(attn.softmaxReference([-Infinity, -Infinity]).data), [0, 0]);
    });

    test('results are copies that survive wasm memory growth', () => {
      const first = attn.softmax(SEED_LOGITS);
      const snapshot = Array.from(first.data);
      // 8 M floats (32 MB) in and out: more than the initial 16 MB heap, so memory grows.
      const big = attn.softmax({ data: new Float32Array(1 << 23), shape: [1 << 13, 1 << 10] });
      assert.equal(big.data.length, 1 << 23);
      assert.equal(big.data[0], 1 / 1024);
      assert.deepEqual(Array.from(first.data), snapshot);
    });
  });
}

describe('softmax, bad input', () => {
  let attn;
  before(async () => {
    attn = await loadAttention();
  });

  const cases = [
    ['a NaN temperature', () => attn.softmax(SEED_LOGITS, { temperature: NaN }), /temperature is NaN/],
    [
      'a negative temperature',
      () => attn.softmax(SEED_LOGITS, { temperature: -1 }),
      /temperature must be >= 0, got -1/,
    ],
    [
      'a temperature that is not a number',
      () => attn.softmax(SEED_LOGITS, { temperature: '2' }),
      /temperature must be a number/,
    ],
    ['a NaN logit', () => attn.softmax([1, NaN, 3]), /logits\[1\] is NaN/],
    [
      'a +Infinity logit',
      () =>
        attn.softmax([
          [0, 1],
          [2, Infinity],
        ]),
      /logits\[1, 1\] is Infinity; only -Infinity/,
    ],
    ['an empty array', () => attn.softmax([]), /empty/],
    ['a ragged 2-D array', () => attn.softmax([[1, 2], [3]]), /logits\[1\] has 1 value but logits\[0\] has 2/],
    ['a non-numeric entry', () => attn.softmax([1, '2', 3]), /logits\[1\] is the string "2", not a number/],
    ['a string instead of a tensor', () => attn.softmax('1,2,3'), /logits must be a tensor/],
    [
      'a shape that does not match the data',
      () => attn.softmax({ data: new Float32Array(5), shape: [2, 3] }),
      /data has 5 values but shape \[2, 3\] needs 6/,
    ],
    [
      'a negative shape entry',
      () => attn.softmax({ data: new Float32Array(0), shape: [-1] }),
      /shape\[0\] must be a whole number >= 0/,
    ],
    [
      'a shape beyond wasm memory',
      () => attn.softmax({ data: new Float32Array(4), shape: [1 << 20, 1 << 20] }),
      /needs|beyond/,
    ],
  ];

  for (const [what, call, message] of cases) {
    test(`${what} gives an AttentionError and the module keeps working`, () => {
      assert.throws(call, (error) => {
        assert.ok(error instanceof AttentionError, `expected an AttentionError, got ${error}`);
        assert.match(error.message, message);
        return true;
      });
      assertClose(attn.softmax(SEED_LOGITS).data, reference(SEED_LOGITS), 1e-6, 'after the error');
    });
  }

  test('loadAttention rejects an unknown simd option', async () => {
    await assert.rejects(
      loadAttention({ simd: 'yes' }),
      (error) => error instanceof AttentionError && /simd must be/.test(error.message),
    );
  });
});
