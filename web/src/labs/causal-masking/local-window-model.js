/**
 * Exercise 3's model (the local window of width 3): the answer's band, the check of a painted
 * mask against it, and the weights a mask gives. No DOM; unit-tested in Node.
 */
import { maskFor } from '../../cells/figures/mask-presets.js';
import { T, drawQKV } from '../common/qkv-lab.js';

/** The width-3 band, |i − j| ≤ 1, as rows of 0/1. */
export const BAND = maskFor('window', T, 1);

const cells = (n) => `${n} ${n === 1 ? 'cell' : 'cells'}`;

/**
 * { correct, message } for a painted mask (rows of 0/1) against the width-3 band. A wrong mask is
 * told how many cells are wrong and in which region (inside the band, above it, below it), never
 * which cells: finding them is the exercise.
 */
export function checkWindow3(allowed) {
  if (!Array.isArray(allowed) || allowed.length !== T) {
    return { correct: false, message: `the mask must be ${T} × ${T}.` };
  }
  const missing = [];
  const extra = [];
  for (let i = 0; i < T; i++) {
    for (let j = 0; j < T; j++) {
      const want = BAND[i][j];
      const got = allowed[i]?.[j] ? 1 : 0;
      if (want && !got) missing.push([i, j]);
      if (!want && got) extra.push([i, j]);
    }
  }
  if (!missing.length && !extra.length) {
    return {
      correct: true,
      message:
        'each position sees itself and its immediate neighbours, |i − j| ≤ 1: three keys per row, two at the ends.',
    };
  }
  const above = extra.filter(([i, j]) => j > i).length;
  const below = extra.length - above;
  const parts = [];
  if (missing.length) parts.push(`${cells(missing.length)} inside the band, |i − j| ≤ 1, blocked`);
  if (above) parts.push(`${cells(above)} above it (keys more than one step ahead) allowed`);
  if (below) parts.push(`${cells(below)} below it (keys more than one step back) allowed`);
  const total = missing.length + extra.length;
  return { correct: false, message: `${cells(total)} ${total === 1 ? 'is' : 'are'} wrong: ${parts.join('; ')}.` };
}

/**
 * The weights the mask `allowed` gives on the lesson's Q, K, V (seed 0): { weights } of shape
 * (B, T, T); the lab shows batch 0.
 * @param {import('../../engine/index.js').Attention} engine
 */
export function windowWeights(engine, allowed) {
  const { q, k, v } = drawQKV(engine, 0);
  return { weights: engine.attention(q, k, v, { mask: allowed, returnWeights: true }).weights };
}

/** The text alternative. */
export function describeWindow(allowed, verdict) {
  const count = allowed.flat().filter(Boolean).length;
  return (
    `Your ${T} × ${T} mask allows ${count} of ${T * T} cells; beside it, the weights it gives ` +
    `(seed 0, batch 0).${verdict ? ` ${verdict.correct ? 'Correct' : 'Not yet'}: ${verdict.message}` : ''}`
  );
}
