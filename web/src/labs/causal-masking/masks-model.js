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
 * The row of a hovered or focused heatmap cell of a (T, T) weights view: what query `row` takes
 * from each key, and their sum; null when no cell is chosen. (The heatmap reads out the cell.)
 */
export function rowReadout(view, cell) {
  if (!view || !cell) return null;
  const weights = rowOf(view, cell.row);
  const sum = weights.reduce((a, b) => a + b, 0);
  return `query ${cell.row} takes ${vector(weights, 2)} from keys 0 to ${T - 1}, sum ${sum.toFixed(4)}`;
}

/** CSV rows of a (T, T) weights view: a header of keys, then one row per query. */
export function weightsCsv(view) {
  const header = ['query \\ key', ...POSITIONS.split(',')];
  return view ? [header, ...rowsOf(view).map((row, i) => [i, ...row])] : [header];
}

/**
 * Check specs ({ name, value: the name of the result's field, label, comparison, threshold }) as
 * the framework's checkCells takes them, each valued from the result `r` (undefined: pending).
 */
export const checksFrom = (specs, r) => specs.map(({ value, ...check }) => ({ ...check, value: r?.[value] }));
