/**
 * The model of the band-versus-convolution comparison (Exercise 3's explanation): the local
 * attention weights of the width-3 window, a width-3 convolution laid out as a T × T mixing
 * matrix, and both row by row. No DOM; unit-tested in Node.
 */
import { T, batchOf, drawQKV, rowOf } from '../common/qkv-lab.js';

/**
 * Local attention, |i − j| ≤ 1, on the lesson's Q, K, V (seed 0, batch 0): (T, T) weights.
 * @param {import('../../engine/index.js').Attention} engine
 */
export function bandWeights(engine) {
  const { q, k, v } = drawQKV(engine, 0);
  return batchOf(engine.attention(q, k, v, { mask: { window: 1 }, returnWeights: true }).weights, 0);
}

/**
 * The convolution with taps `kernel` (for offsets −1, 0, +1) slid along T positions, zero-padded
 * at the ends, as a T × T matrix: row i has kernel[o + 1] at column i + o.
 */
export const convMatrix = (kernel) =>
  Array.from({ length: T }, (_, i) =>
    Array.from({ length: T }, (_, j) => (Math.abs(i - j) <= 1 ? kernel[j - i + 1] : 0)),
  );

/**
 * The convolution matrix's colour range: the weights' own, 0 to 1, when the taps fit in it (so
 * both matrices read alike), else from the smallest to the largest entry (zeros included).
 */
export function convRange(kernel) {
  if (kernel.every((x) => x >= 0 && x <= 1)) return [0, 1];
  const lo = Math.min(0, ...kernel);
  const hi = Math.max(0, ...kernel);
  return hi > lo ? [lo, hi] : [lo, lo + 1];
}

/** Row i of both: { i, attention, conv } (plain arrays). */
export const rowsSideBySide = (band, conv) => conv.map((row, i) => ({ i, attention: rowOf(band, i), conv: row }));

/** The text alternative. */
export function describeBandConv(kernel) {
  return (
    `Two ${T} × ${T} mixing matrices, row i for output i, counted from 0. Left: local attention with ` +
    `|i − j| ≤ 1, different weights in every row, each row summing to 1. Right: the convolution kernel ` +
    `[${kernel.join(', ')}] slid along the sequence, the same three numbers on every row (constant diagonals); ` +
    `rows 0 and ${T - 1} lose a tap at the ends.`
  );
}
