/**
 * The scaling example's model: five random queries and keys of dimension D from the core, their
 * weights without and with the 1/√D scaling (the core's attention), and what the lab derives
 * from them for display: each row's largest weight, the mean entropy, the text alternative, the
 * CSV rows and the PyTorch code. No DOM; unit-tested in Node (tests/js/labs-scaling-by-sqrt-dk.test.js).
 */

/** Queries and keys in the example. */
export const T = 5;

export const positionLabels = (prefix) => Array.from({ length: T }, (_, i) => `${prefix}${i}`);

/** Row maxima, their mean and the mean entropy (nats) of T × T weights. */
export function summariseWeights(weights, entropy) {
  const rowMax = Array.from({ length: T }, (_, i) => Math.max(...weights.data.subarray(i * T, i * T + T)));
  return {
    weights,
    rowMax,
    meanMax: rowMax.reduce((a, b) => a + b, 0) / T,
    meanEntropy: entropy.data.reduce((a, b) => a + b, 0) / T,
  };
}

/**
 * The example at dimension d (main-thread engine, synchronous).
 * @param {import('../../engine/index.js').Attention} engine
 */
export function computeScalingExample(engine, d, seed) {
  const q = engine.randn([T, d], seed);
  const k = engine.randn([T, d], seed + 1);
  const v = engine.randn([T, 1], seed + 2);
  const unscaled = engine.attention(q, k, v, { scale: 1, returnWeights: true }).weights;
  const scaled = engine.attention(q, k, v, { returnWeights: true }).weights; // default scale 1/√D
  return {
    d,
    unscaled: summariseWeights(unscaled, engine.entropy(unscaled)),
    scaled: summariseWeights(scaled, engine.entropy(scaled)),
  };
}

export const explainExample = () => 'This example could not be computed. Retry, or move D.';

/** The text alternative. */
export function describeExample(r) {
  if (!r) return 'Not computed yet.';
  return (
    `D = ${r.d}. Without scaling each row's largest weight averages ${r.unscaled.meanMax.toFixed(3)} ` +
    `(entropy ${r.unscaled.meanEntropy.toFixed(3)} nats); with 1/√D scaling ${r.scaled.meanMax.toFixed(3)} ` +
    `(entropy ${r.scaled.meanEntropy.toFixed(3)} nats).`
  );
}

/** CSV: one row per (query, key). */
export function exampleRows(r) {
  const rows = [['query', 'key', 'unscaled weight', 'scaled weight']];
  if (!r) return rows;
  for (let i = 0; i < T; i++) {
    for (let j = 0; j < T; j++) rows.push([i, j, r.unscaled.weights.data[i * T + j], r.scaled.weights.data[i * T + j]]);
  }
  return rows;
}

/** The PyTorch code cell, {{seed}} and {{d}} filled in by attn-code. */
export const EXAMPLE_CODE = `import torch
import torch.nn.functional as F

torch.manual_seed({{seed}})
T, D = 5, {{d}}
Q, K = torch.randn(T, D), torch.randn(T, D)
w_unscaled = F.softmax(Q @ K.T, dim=-1)                 # the exercise: no / sqrt(d_k)
w_scaled = F.softmax(Q @ K.T / D ** 0.5, dim=-1)        # the scaling restored
print(w_unscaled.max(-1).values.mean(), w_scaled.max(-1).values.mean())`;
