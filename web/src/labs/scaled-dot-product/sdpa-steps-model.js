/**
 * The step-through's model (<attn-sdpa-steps>): the four passes of attention for one query row,
 * that row's numbers at every pass (from the example computed by sdpa-model.js computeSdpa), the
 * keys that move between passes and the table as text for its picture. No DOM; unit-tested in
 * Node (tests/js/labs-scaled-dot-product.test.js).
 */
import { mathPlain } from '../../cells/base/math.js';
import { T, batchOf, fixed, rowOf, vector } from '../common/qkv-lab.js';

/**
 * The four passes of attention for one query row, in order, named as the core names them
 * (core/src/attention.cpp): scores, scale (and mask), softmax (three steps: row max, exp and
 * sum, normalise), weighted sum.
 */
export const PASSES = [
  { id: 'scores', name: 'Scores' },
  { id: 'scale', name: 'Scale' },
  { id: 'softmax', name: 'Softmax' },
  { id: 'sum', name: 'Weighted sum' },
];

/** The numbers of query row `i` of batch `b` at every pass. */
export function queryRow(r, b, i) {
  const at = (t) => rowOf(batchOf(t, b), i);
  const weights = at(r.weights);
  const values = Array.from({ length: T }, (_, j) => rowOf(batchOf(r.v, b), j));
  return {
    q: at(r.q),
    scores: at(r.raw),
    scaled: at(r.scaled),
    weights,
    terms: values.map((vj, j) => vj.map((x) => weights[j] * x)),
    y: at(r.stepOut),
    weightSum: weights.reduce((a, c) => a + c, 0),
    max: Math.max(...at(r.scaled)),
    best: weights.indexOf(Math.max(...weights)),
  };
}

/** The pass a key on the list of passes moves to, or null for other keys. */
export function stepAfterKey(step, key) {
  const moves = {
    ArrowRight: step + 1,
    ArrowDown: step + 1,
    ArrowLeft: step - 1,
    ArrowUp: step - 1,
    Home: 0,
    End: PASSES.length - 1,
  };
  return key in moves ? clampStep(moves[key]) : null;
}

export const clampStep = (step) => Math.max(0, Math.min(PASSES.length - 1, step));

/** The heads of the step-through's columns, one per pass (maths between $…$). */
export const STEP_HEADS = ['$q_i \\cdot k_j$', '$\\div \\sqrt{d_k}$', '$w_j$', '$w_j v_j$'];

/** The step-through's table as text (as shown at `step`: later passes are "·"), for its picture. */
export function stepsTable(x, step) {
  const shown = (pass, text) => (pass <= step ? text : '·');
  return {
    colLabels: STEP_HEADS.map(mathPlain),
    rowLabels: x.scores.map((_, j) => `key ${j}`),
    cells: x.scores.map((s, j) => [
      shown(0, fixed(s, 4)),
      shown(1, fixed(x.scaled[j], 4)),
      shown(2, fixed(x.weights[j], 4)),
      shown(3, vector(x.terms[j], 2)),
    ]),
  };
}
