// The engine's attention and mixing functions through both wasm builds,
// against float64 references computed in JS.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { AttentionError, loadAttention } from 'attnbook';
import { attentionReference, maxAbsDiff } from './reference.js';

for (const simd of [true, false]) {
  describe(`attention, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn, q, k, v;
    before(async () => {
      attn = await loadAttention({ simd });
      [q, k, v] = [0, 1, 2].map((seed) => attn.randn([2, 5, 8], seed)); // B = 2, T = 5, D = 8
    });

    test('matches the float64 reference within 1e-6 on the seed shapes, fused and with weights', () => {
      const ref = attentionReference(q, k, v);
      const fused = attn.attention(q, k, v);
      assert.deepEqual(fused.output.shape, [2, 5, 8]);
      assert.equal(fused.weights, undefined);
      assert.ok(maxAbsDiff(fused.output.data, ref.output) <= 1e-6);
      const full = attn.attention(q, k, v, { returnWeights: true, returnLogits: true });
      assert.deepEqual(full.weights.shape, [2, 5, 5]);
      assert.deepEqual(full.logits.shape, [2, 5, 5]);
      assert.ok(maxAbsDiff(full.weights.data, ref.weights) <= 1e-6);
      assert.ok(maxAbsDiff(full.output.data, ref.output) <= 1e-6);
    });

    test('causal: zero weight on future keys and agreement with the reference', () => {
      const r = attn.attention(q, k, v, { mask: 'causal', returnWeights: true });
      const ref = attentionReference(q, k, v, { allowed: (i, j) => j <= i });
      const future = [1, 2, 3, 4].reduce((sum, j) => sum + r.weights.data[j] + r.weights.data[25 + j], 0);
      assert.equal(future, 0);
      assert.ok(maxAbsDiff(r.output.data, ref.output) <= 1e-6);
    });

    test('local window, boolean and additive masks match the reference', () => {
      const window = attn.attention(q, k, v, { mask: { window: 1 } });
      assert.ok(
        maxAbsDiff(
          window.output.data,
          attentionReference(q, k, v, { allowed: (i, j) => Math.abs(i - j) <= 1 }).output,
        ) <= 1e-6,
      );
      const allowed = [0, 1, 2, 3, 4].map((i) => [0, 1, 2, 3, 4].map((j) => (i + j) % 2 === 0));
      const bool = attn.attention(q, k, v, { mask: allowed });
      const boolRef = attentionReference(q, k, v, { allowed: (i, j) => allowed[i][j] });
      assert.ok(maxAbsDiff(bool.output.data, boolRef.output) <= 1e-6);
      const additive = allowed.map((row) => row.map((ok) => (ok ? 0 : -Infinity)));
      const add = attn.attention(q, k, v, { mask: { additive } });
      assert.ok(maxAbsDiff(add.output.data, boolRef.output) <= 1e-6);
    });

    test('a fully masked row gives zeros and is counted', () => {
      const allowed = [1, 1, 1, 1, 1].map((_, i) => [1, 1, 1, 1, 1].map(() => (i === 2 ? 0 : 1)));
      const r = attn.attention(q, k, v, { mask: allowed, returnWeights: true });
      assert.equal(r.fullyMaskedRows, 2);
      assert.deepEqual(Array.from(r.output.data.slice(2 * 8, 3 * 8)), new Array(8).fill(0));
      assert.deepEqual(Array.from(r.weights.data.slice(2 * 5, 3 * 5)), new Array(5).fill(0));
    });

    test('attentionReference: the core float64 reference agrees with the float32 path and the JS oracle', () => {
      const ref = attn.attentionReference(q, k, v);
      assert.ok(ref.output.data instanceof Float64Array);
      assert.ok(ref.weights.data instanceof Float64Array);
      assert.deepEqual(ref.output.shape, [2, 5, 8]);
      assert.deepEqual(ref.weights.shape, [2, 5, 5]);
      assert.deepEqual(ref.logits.shape, [2, 5, 5]);
      assert.equal(ref.fullyMaskedRows, 0);
      const js = attentionReference(q, k, v);
      assert.ok(maxAbsDiff(ref.output.data, js.output) <= 1e-12);
      assert.ok(maxAbsDiff(ref.weights.data, js.weights) <= 1e-12);
      const fast = attn.attention(q, k, v, { returnWeights: true, returnLogits: true });
      const outDiff = maxAbsDiff(fast.output.data, ref.output.data);
      assert.ok(outDiff <= 1e-6, `max |out - ref| = ${outDiff}`);
      assert.ok(maxAbsDiff(fast.weights.data, ref.weights.data) <= 1e-6);
      assert.ok(maxAbsDiff(fast.logits.data, ref.logits.data) <= 1e-5);
      // logits are the scaled scores: q·k / sqrt(8)
      let dot = 0;
      for (let e = 0; e < 8; e++) dot += q.data[e] * k.data[8 + e];
      assert.ok(Math.abs(ref.logits.data[1] - dot / Math.sqrt(8)) <= 1e-6);
    });

    test('attentionReference with masks, scale and temperature matches attention()', () => {
      const options = [
        { mask: 'causal' },
        { mask: { window: 1 } },
        { mask: { window: 1, causal: true }, scale: 0.5 },
        { temperature: 0.5 },
        { temperature: 0 },
        { mask: [0, 1, 2, 3, 4].map((i) => [0, 1, 2, 3, 4].map((j) => i !== 3 && (i + j) % 2 === 0)) },
      ];
      for (const o of options) {
        const ref = attn.attentionReference(q, k, v, o);
        const fast = attn.attention(q, k, v, { ...o, returnWeights: true });
        assert.ok(maxAbsDiff(fast.output.data, ref.output.data) <= 1e-6, JSON.stringify(o));
        assert.ok(maxAbsDiff(fast.weights.data, ref.weights.data) <= 1e-6, JSON.stringify(o));
        assert.equal(fast.fullyMaskedRows, ref.fullyMaskedRows);
      }
      const causal = attn.attentionReference(q, k, v, { mask: 'causal' });
      assert.equal(causal.logits.data[1], -Infinity);
      assert.equal(causal.weights.data[1], 0);
      const blocked = attn.attentionReference(q, k, v, { mask: options[5].mask });
      assert.equal(blocked.fullyMaskedRows, 2);
      assert.deepEqual(Array.from(blocked.output.data.slice(3 * 8, 4 * 8)), new Array(8).fill(0));
    });

    test('scores: scale·q kᵀ + mask, equal to the logits attention() returns and to q·k by hand', () => {
      const unscaled = attn.scores(q, k, { scale: 1 });
      assert.ok(unscaled.data instanceof Float32Array);
      assert.deepEqual(unscaled.shape, [2, 5, 5]);
      const dots = new Float64Array(2 * 5 * 5);
      for (let b = 0; b < 2; b++) {
        for (let i = 0; i < 5; i++) {
          for (let j = 0; j < 5; j++) {
            let dot = 0;
            for (let e = 0; e < 8; e++) dot += q.data[(b * 5 + i) * 8 + e] * k.data[(b * 5 + j) * 8 + e];
            dots[(b * 5 + i) * 5 + j] = dot;
          }
        }
      }
      assert.ok(maxAbsDiff(unscaled.data, dots) <= 1e-5, `max |scores − q·k| = ${maxAbsDiff(unscaled.data, dots)}`);
      const options = [{}, { scale: 1 }, { scale: -0.5, mask: 'causal' }, { mask: { window: 1 } }];
      for (const o of options) {
        const { logits } = attn.attention(q, k, v, { ...o, returnLogits: true });
        assert.deepEqual(attn.scores(q, k, o), logits, JSON.stringify(o));
      }
      const scaled = attn.scores(q, k);
      assert.ok(
        maxAbsDiff(
          scaled.data,
          dots.map((x) => x / Math.sqrt(8)),
        ) <= 1e-5,
        'default scale 1/√8',
      );
      const causal = attn.scores(q, k, { mask: 'causal' });
      assert.equal(causal.data[1], -Infinity);
      assert.equal(causal.data[5], scaled.data[5]);
      const additive = [0, 1, 2, 3, 4].map((i) => [0, 1, 2, 3, 4].map((j) => (j === i ? 2 : 0)));
      const added = attn.scores(q, k, { mask: { additive } });
      assert.ok(Math.abs(added.data[0] - scaled.data[0] - 2) <= 1e-6 && added.data[1] === scaled.data[1]);
    });

    test('scores: batch axes broadcast and L may differ from S', () => {
      const one = attn.randn([1, 3, 8], 9); // (1, L = 3, E) against k (2, S = 5, E)
      const r = attn.scores(one, k, { scale: 1 });
      assert.deepEqual(r.shape, [2, 3, 5]);
      let dot = 0;
      for (let e = 0; e < 8; e++) dot += one.data[2 * 8 + e] * k.data[(5 + 4) * 8 + e];
      assert.ok(Math.abs(r.data[(3 + 2) * 5 + 4] - dot) <= 1e-5);
    });

    test('retrieval: a one-hot query finds its token', () => {
      const vocab = (t) => Array.from({ length: 6 }, (_, c) => (c === t ? 5 : 0));
      const seq = [0, 1, 2, 3, 4].map(vocab);
      const r = attn.attention([vocab(2)], seq, seq, { returnWeights: true });
      assert.deepEqual(
        Array.from(r.weights.data, (w) => Math.round(w * 1000) / 1000),
        [0, 0, 1, 0, 0],
      );
      const out = Array.from(r.output.data);
      assert.equal(out.indexOf(Math.max(...out)), 2);
    });

    test('convexCombination gives the notebook mixture [0.7, 0.5, 0.9]', () => {
      const y = attn.convexCombination(
        [0.4, 0.1, 0.2, 0.3],
        [
          [1, 0, 0],
          [0, 2, 0],
          [0, 0, 3],
          [1, 1, 1],
        ],
      );
      assert.deepEqual(y.shape, [3]);
      assert.ok(maxAbsDiff(y.data, [0.7, 0.5, 0.9]) <= 1e-6);
    });

    test('nested arrays of any depth are tensors of their shape, ragged ones are named', () => {
      const x = [
        [
          [1, 2, 3, 4],
          [5, 6, 7, 8],
        ],
      ]; // (B, T, h·d) = (1, 2, 4)
      const split = attn.splitHeads(x, 2);
      assert.deepEqual(split.shape, [1, 2, 2, 2]);
      assert.deepEqual(Array.from(split.data), [1, 2, 5, 6, 3, 4, 7, 8]);
      const weights = attn.softmax([[[0, 0]], [[0, Math.log(3)]]]);
      assert.deepEqual(weights.shape, [2, 1, 2]);
      assert.ok(maxAbsDiff(weights.data, [0.5, 0.5, 0.25, 0.75]) <= 1e-6);
      assert.throws(
        () =>
          attn.splitHeads(
            [
              [[1, 2]],
              [
                [3, 4],
                [5, 6],
              ],
            ],
            2,
          ),
        (error) =>
          error.kind === 'ShapeError' && /^splitHeads: x\[1\] has 2 values but x\[0\] has 1$/.test(error.message),
      );
      assert.throws(
        () => attn.softmax([[[1, 2]], [3]]),
        (error) =>
          error.kind === 'TypeError' &&
          /logits\[1\]\[0\] is number 3, but logits\[0\]\[0\] is an array/.test(error.message),
      );
    });

    test('rowStochasticReport, heads, entropy and the lesson generators', () => {
      const report = attn.rowStochasticReport(attn.softmax(attn.randn([5, 5], 3)));
      assert.equal(report.isRowStochastic, true);
      assert.ok(report.maxRowSumError < 1e-6);
      const x = attn.randn([2, 5, 12], 4);
      const split = attn.splitHeads(x, 3);
      assert.deepEqual(split.shape, [2, 3, 5, 4]);
      assert.deepEqual(attn.mergeHeads(split), x);
      const h = attn.entropy([0.25, 0.25, 0.25, 0.25]);
      assert.ok(Math.abs(h.data[0] - Math.log(4)) < 1e-6);
      assert.ok(Math.abs(attn.effectivePositions([0.5, 0.5, 0, 0]).data[0] - 2) < 1e-5);
      const mixtures = attn.dirichlet([1, 1, 1, 1], 1000, 7);
      assert.deepEqual(mixtures.shape, [1000, 4]);
      const values = [
        [1, 1],
        [1.5, 4],
        [5, 4.5],
        [4, 0.5],
      ];
      const hull = attn.convexHull(values);
      assert.equal(hull.length, 4);
      const points = attn.convexCombination(mixtures, values);
      const inside = attn.pointsInHull(points, values);
      assert.equal(
        inside.reduce((a, b) => a + b, 0),
        1000,
      );
      assert.deepEqual(attn.randn([3], 99), attn.randn([3], 99));
    });

    test('without 1/sqrt(d) scaling the weights collapse toward one-hot as d grows', () => {
      const unscaled = attn.scalingStatistics({ dims: [8, 128], scaled: false, draws: 300, seed: 1 });
      const scaled = attn.scalingStatistics({ dims: [8, 128], scaled: true, draws: 300, seed: 1 });
      assert.ok(unscaled.meanMaxWeight[1] > unscaled.meanMaxWeight[0]);
      assert.ok(unscaled.meanMaxWeight[1] > scaled.meanMaxWeight[1] + 0.2);
      assert.ok(Math.abs(scaled.meanMaxWeight[1] - scaled.meanMaxWeight[0]) < 0.1);
    });
  });
}

describe('attention and friends, bad input', () => {
  let attn, m;
  before(async () => {
    attn = await loadAttention();
    m = attn.randn([5, 8], 1);
  });

  const cases = [
    ['q of rank 1', () => attn.attention([1, 2, 3], m, m), /q must have shape \(\.\.\., L, E\)/],
    ['mismatched E', () => attn.attention(m, attn.randn([5, 4], 2), m), /q has E = 8 but k has E = 4/],
    ['mismatched S', () => attn.attention(m, m, attn.randn([4, 8], 2)), /k has S = 5 keys but v has 4 values/],
    [
      'batch axes that do not broadcast',
      () => attn.attention(attn.randn([2, 5, 8], 1), attn.randn([3, 5, 8], 1), m),
      /do not broadcast/,
    ],
    [
      'a NaN in k',
      () => attn.attention(m, { data: Float32Array.from(m.data, (x, i) => (i === 9 ? NaN : x)), shape: [5, 8] }, m),
      /k\[1, 1\] is NaN/,
    ],
    [
      'an infinite value',
      () =>
        attn.attention(m, m, { data: Float32Array.from(m.data, (x, i) => (i === 0 ? -Infinity : x)), shape: [5, 8] }),
      /v\[0, 0\] is -Infinity/,
    ],
    ['a negative temperature', () => attn.attention(m, m, m, { temperature: -1 }), /temperature must be >= 0/],
    ['a NaN temperature', () => attn.attention(m, m, m, { temperature: NaN }), /temperature is NaN/],
    ['an infinite scale', () => attn.attention(m, m, m, { scale: Infinity }), /scale must be a finite number/],
    [
      'a mask of the wrong shape',
      () =>
        attn.attention(m, m, m, {
          mask: [
            [1, 0],
            [0, 1],
          ],
        }),
      /does not broadcast to \(\.\.\., L, S\)/,
    ],
    [
      'a mask with values other than 0/1',
      () => attn.attention(m, m, m, { mask: [0.5, 1, 1, 1, 1] }),
      /^attention: mask\[0\] is 0\.5; a boolean mask holds 0/,
    ],
    ['an unknown mask string', () => attn.attention(m, m, m, { mask: 'future' }), /mask must be null, 'causal'/],
    [
      'a negative window',
      () => attn.attention(m, m, m, { mask: { window: -2 } }),
      /mask\.window must be a whole number/,
    ],
    ['an empty q', () => attn.attention({ data: new Float32Array(0), shape: [0, 8] }, m, m), /q is empty/],
    [
      'weights beyond memory',
      () =>
        attn.attention(attn.randn([30000, 1], 1), attn.randn([30000, 1], 2), attn.randn([30000, 1], 3), {
          returnWeights: true,
        }),
      /leave the weights and logits out/,
    ],
    [
      'weights with a negative entry',
      () => attn.convexCombination([0.6, -0.1, 0.3, 0.2], attn.randn([4, 3], 1)),
      /weights\[1\] is -0\.1/,
    ],
    [
      'weights not summing to one',
      () => attn.convexCombination([0.5, 0.5, 0.5, 0], attn.randn([4, 3], 1)),
      /weights row 0 sums to 1\.5/,
    ],
    [
      'heads not dividing the model dimension',
      () => attn.splitHeads(attn.randn([2, 5, 12], 1), 5),
      /not divisible by heads = 5/,
    ],
    ['a fractional seed', () => attn.randn([3], 1.5), /seed must be a whole number/],
    ['a non-positive Dirichlet alpha', () => attn.dirichlet([1, 0, 1], 10, 1), /alpha/],
    ['hull points of the wrong shape', () => attn.convexHull([1, 2, 3]), /points/],
    ['a negative probability in entropy', () => attn.entropy([0.5, -0.5, 1]), /weights\[1\]/],
    ['an empty dims list', () => attn.scalingStatistics({ dims: [], scaled: true, draws: 10, seed: 1 }), /dims/],
    ['a shape argument that is not an array', () => attn.randn(5, 1), /shape must be an array/],
    ['attentionReference: q of rank 1', () => attn.attentionReference([1, 2, 3], m, m), /q must have shape/],
    [
      'attentionReference: mismatched E',
      () => attn.attentionReference(m, attn.randn([5, 4], 2), m),
      /q has E = 8 but k has E = 4/,
    ],
    [
      'attentionReference: a NaN in v',
      () =>
        attn.attentionReference(m, m, {
          data: Float32Array.from(m.data, (x, i) => (i === 3 ? NaN : x)),
          shape: [5, 8],
        }),
      /v\[0, 3\] is NaN/,
    ],
    [
      'attentionReference: a negative temperature',
      () => attn.attentionReference(m, m, m, { temperature: -1 }),
      /temperature must be >= 0/,
    ],
    [
      'attentionReference: a mask of the wrong shape',
      () => attn.attentionReference(m, m, m, { mask: [[1, 0]] }),
      /does not broadcast to \(\.\.\., L, S\)/,
    ],
    [
      'attentionReference: a string scale',
      () => attn.attentionReference(m, m, m, { scale: '1' }),
      /scale must be a number/,
    ],
  ];

  for (const [what, call, message] of cases) {
    test(`${what} gives an AttentionError and the module keeps working`, () => {
      assert.throws(call, (error) => {
        assert.ok(error instanceof AttentionError, `expected an AttentionError, got ${error}`);
        assert.match(error.message, message);
        return true;
      });
      assert.deepEqual(attn.attention(m, m, m).output.shape, [5, 8]);
    });
  }
});

test('weights for L = S = 65,536 are refused with the size asked for and the fused path suggested; the module works on', async () => {
  const attn = await loadAttention();
  const n = 65536;
  const q = { data: new Float32Array(n).fill(0.5), shape: [n, 1] };
  assert.throws(
    () => attn.attention(q, q, q, { returnWeights: true }),
    (error) =>
      error instanceof AttentionError &&
      error.kind === 'MemoryError' &&
      /weights of shape \[65536, 65536\] need 16384 MiB/.test(error.message) &&
      /fused kernel/.test(error.message),
  );
  const k = { data: new Float32Array(4).fill(0.5), shape: [4, 1] };
  const { output } = attn.attention(q, k, k); // 65,536 queries through the fused kernel
  assert.deepEqual(output.shape, [n, 1]);
  assert.equal(output.data[n - 1], 0.5);
});
