/**
 * The causal-attention lab's model (the causal-masking example of "Lesson 44: The Attention
 * Mechanism"): the notebook's two checks and one more, derived from the core's results, the
 * notebook's printout and the text alternative. No DOM; unit-tested in Node.
 */
import { maskFor } from '../../cells/figures/mask-presets.js';
import { B, T, drawQKV, maxAbsDiff, sci } from '../common/qkv-lab.js';

/** The notebook's torch.tril(torch.ones(T, T)): 1 where query i may attend to key j ≤ i. */
export const TRIL = maskFor('causal', T);

/**
 * Causal attention on the lesson's Q, K, V for `seed`, from the core:
 * - weights (B, T, T) from the built-in causal mask (is_causal=True), weights kept;
 * - future: Σ over both batches of the weight from position 0 onto positions 1 … T − 1
 *   (the notebook's w_causal[:, 0, 1:].abs().sum(), exactly 0);
 * - above: the largest weight above the diagonal in any row (exactly 0);
 * - diffFused, diffWeights: max |output − reference| of the fused causal path and of the path
 *   that keeps the weights, against the core's float64 reference with the explicit tril mask;
 *   diff is the larger of the two (the check's value).
 * @param {import('../../engine/index.js').Attention} engine
 */
export function computeCausal(engine, seed) {
  const { q, k, v } = drawQKV(engine, seed);
  const fused = engine.attention(q, k, v, { mask: 'causal' });
  const full = engine.attention(q, k, v, { mask: 'causal', returnWeights: true });
  const ref = engine.attentionReference(q, k, v, { mask: TRIL });
  const w = full.weights.data;
  let future = 0;
  let above = 0;
  for (let b = 0; b < B; b++) {
    for (let j = 1; j < T; j++) future += Math.abs(w[b * T * T + j]);
    for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) above = Math.max(above, w[(b * T + i) * T + j]);
  }
  const diffFused = maxAbsDiff(fused.output.data, ref.output.data);
  const diffWeights = maxAbsDiff(full.output.data, ref.output.data);
  return {
    seed,
    q,
    k,
    v,
    weights: full.weights,
    future,
    above,
    diffFused,
    diffWeights,
    diff: Math.max(diffFused, diffWeights),
  };
}

// The outputs and the weights against the same formula in float64, in the names of the code cell.
const CAUSAL_REFERENCE_PYTHON =
  'max((a - b.double()).abs().max() for a, b in zip(attention(Q.double(), K.double(), V.double(), mask=causal_mask), ' +
  '(out_causal, w_causal)))';

/**
 * The lab's checks (attn-check class `name`: the result's `value` field against `threshold`);
 * `python`: each in the names of the lab's code cell, for the lesson's notebook.
 */
export const CAUSAL_CHECKS = [
  {
    name: 'future',
    value: 'future',
    label: 'total weight from position 0 onto positions 1…4, both batches',
    comparison: 'eq',
    threshold: 0,
    python: 'w_causal[:, 0, 1:].abs().sum()',
  },
  {
    name: 'above',
    value: 'above',
    label: 'largest weight above the diagonal, any row',
    comparison: 'eq',
    threshold: 0,
    python: 'torch.triu(w_causal, diagonal=1).abs().max()',
  },
  {
    name: 'reference',
    value: 'diff',
    label: 'max |causal mask built in − float64 reference with the tril mask|',
    threshold: 1e-6,
    python: CAUSAL_REFERENCE_PYTHON,
  },
];

/** The notebook's printout, with this page's numbers. */
export const causalPrintout = (r) =>
  [
    `total attention weight from position 0 onto FUTURE positions: ${r.future.toFixed(6)}  (should be exactly 0)`,
    `max abs diff vs the float64 reference with the tril mask: ${sci(r.diff)}`,
  ].join('\n');

/** The text alternative. */
export function describeCausal(r, batch) {
  if (!r) return 'Causal attention weights: not computed yet.';
  return (
    `Causal attention weights of batch ${batch} (seed ${r.seed}), ${T} × ${T}: row i is query position i, ` +
    `column j key position j, counted from 0. Every weight above the diagonal is 0; row 0 puts all its weight ` +
    `on itself and row i spreads it over the i + 1 keys 0 to i. Weight from position 0 onto the future: ${r.future}.`
  );
}
