/**
 * What the causal-masking labs share, with no DOM (unit-tested in Node,
 * tests/js/labs-causal-masking.test.js): the position labels, what a mask did to the weights,
 * and the learner's words for a failed computation. The attention itself comes from the core.
 */
import { B, T, rowOf, rowsOf, vector } from '../common/qkv-lab.js';

/** The state field of a painted T × T mask: rows of 0/1 (1 = may attend); by default every key. */
export const MASK_FIELD = {
  type: 'matrix',
  default: Array.from({ length: T }, () => Array(T).fill(1)),
  minRows: T,
  maxRows: T,
  min: 0,
  max: 1,
  integer: true,
};

/** Heatmap row and column labels: positions counted from 0, as the code counts. */
export const POSITIONS = Array.from({ length: T }, (_, i) => String(i)).join(',');

/**
 * What a mask did to the weights (B, T, T): `blocked`, the largest |weight| on a blocked cell
 * (exactly 0 when the mask is obeyed), and `rowError`, the largest |row sum − 1| over the rows
 * that allow at least one key.
 * @param {ArrayLike<number>} weights @param {number[][]} allowed rows of 0/1
 */
export function maskStats(weights, allowed) {
  let blocked = 0;
  let rowError = 0;
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < T; i++) {
      let sum = 0;
      for (let j = 0; j < T; j++) {
        const x = weights[(b * T + i) * T + j];
        sum += x;
        if (!allowed[i][j]) blocked = Math.max(blocked, Math.abs(x));
      }
      if (allowed[i].some(Boolean)) rowError = Math.max(rowError, Math.abs(sum - 1));
    }
  }
  return { blocked, rowError };
}

const REASONS = {
  MemoryError: 'there was not enough memory for it',
  ShapeError: 'the sizes of Q, K, V and the mask did not fit together',
  ValueError: 'one of the numbers could not be used',
  TypeError: 'one of the inputs was not a list of numbers',
};

/** A failed computation, in the learner's words (the engine's own message is not shown). */
export function explainCoreError(error) {
  const reason = REASONS[error?.kind] ?? 'something went wrong in the calculation';
  return `The weights could not be worked out this time (${reason}); the figure still shows the last ones that were.`;
}

/**
 * The readout of a hovered or focused heatmap cell of a (T, T) weights view: that weight and
 * its whole row (what query `row` takes from each key), or null when no cell is chosen.
 */
export function cellReadout(view, cell) {
  if (!view || !cell) return null;
  const { row, col } = cell;
  const weights = rowOf(view, row);
  const sum = weights.reduce((a, b) => a + b, 0);
  return {
    cell: `query ${row}, key ${col}: ${weights[col].toFixed(4)}`,
    row: `row ${row} = ${vector(weights, 2)}, sum ${sum.toFixed(4)}`,
  };
}

/** CSV rows of a (T, T) weights view: a header of keys, then one row per query. */
export function weightsCsv(view) {
  const header = ['query \\ key', ...POSITIONS.split(',')];
  return view ? [header, ...rowsOf(view).map((row, i) => [i, ...row])] : [header];
}
