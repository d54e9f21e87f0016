/**
 * The mask-painter lab's model: attention with a painted boolean mask, what the mask did to the
 * weights, the fully masked rows and the text alternative. No DOM; unit-tested in Node.
 */
import { emptyRows } from '../../cells/figures/mask-presets.js';
import { B, T, batchOf, drawQKV, maxAbsDiff, rowOf } from '../common/qkv-lab.js';
import { maskStats } from './masks-model.js';

/**
 * Attention on the lesson's Q, K, V for `seed` with the mask `allowed` (rows of 0/1, the same
 * for both batches), from the core, against its float64 reference with the same mask.
 * Returns the tensors, fullyMaskedRows (counted by the core over every batch), blocked and
 * rowError (maskStats) and diff (max |difference| of output and weights from the reference).
 * @param {import('../../engine/index.js').Attention} engine
 */
export function computeMaskLab(engine, seed, allowed) {
  const { q, k, v } = drawQKV(engine, seed);
  const r = engine.attention(q, k, v, { mask: allowed, returnWeights: true });
  const ref = engine.attentionReference(q, k, v, { mask: allowed });
  return {
    seed,
    allowed,
    q,
    k,
    v,
    weights: r.weights,
    output: r.output,
    fullyMaskedRows: r.fullyMaskedRows,
    ...maskStats(r.weights.data, allowed),
    diff: Math.max(maxAbsDiff(r.output.data, ref.output.data), maxAbsDiff(r.weights.data, ref.weights.data)),
  };
}

/**
 * The lab's checks (attn-check class `name`: the result's `value` field against `threshold`);
 * `python`: each in the names of the lab's code cell, for the lesson's notebook.
 */
export const MASK_CHECKS = [
  {
    name: 'blocked',
    value: 'blocked',
    label: 'largest weight on a blocked cell',
    comparison: 'eq',
    threshold: 0,
    python: 'weights.masked_fill(mask, 0).nan_to_num().abs().max()',
  },
  {
    name: 'row-sums',
    value: 'rowError',
    label: 'max |row sum − 1| over rows with an allowed key',
    threshold: 1e-6,
    python: '(weights.sum(-1) - 1)[:, mask.any(-1)].abs().max() if mask.any() else 0',
  },
  {
    name: 'reference',
    value: 'diff',
    label: 'max |ours − float64 reference| for this mask',
    threshold: 1e-6,
    python:
      "(weights.double() - torch.softmax((Q.double() @ K.double().transpose(-2, -1) / math.sqrt(Q.shape[-1])).masked_fill(~mask, float('-inf')), dim=-1)).nan_to_num().abs().max()",
  },
];

/**
 * The fully masked rows and, for the first of them in batch `b`, its weights and output
 * (all zeros), or null when every row allows a key.
 */
export function fullyMasked(r, b) {
  const rows = emptyRows(r.allowed);
  if (!rows.length) return null;
  const row = rows[0];
  return {
    rows,
    row,
    count: r.fullyMaskedRows,
    batches: B,
    weights: rowOf(batchOf(r.weights, b), row),
    output: rowOf(batchOf(r.output, b), row),
  };
}

/** The text alternative. */
export function describeMaskLab(r, batch) {
  if (!r) return 'Attention with a painted mask: not computed yet.';
  const allowed = r.allowed.flat().filter(Boolean).length;
  const empty = emptyRows(r.allowed);
  return (
    `A ${T} × ${T} mask with ${allowed} of ${T * T} cells allowed, and the attention weights it gives ` +
    `(batch ${batch}, seed ${r.seed}): blocked cells get weight 0` +
    (empty.length
      ? `; ${empty.length > 1 ? 'rows' : 'row'} ${empty.join(', ')} ${empty.length > 1 ? 'allow' : 'allows'} no key ` +
        'and get all-zero weights.'
      : '.')
  );
}
