/**
 * The attention-matrix lab's model ("Attention as a Weighted Mixture" §4–§5): the seeded draws of
 * V (T × d_v) and S (T × T), A = softmax(S) and Y = AV from the core, and what the lab derives
 * from them for display and checking: one row of Y taken apart term by term, the notebook's
 * printout, the text alternative. No DOM; the maths is the core's (randn, softmax,
 * rowStochasticReport, convexCombination): JS only rounds the draws, formats, and forms the
 * products A_ij · v_j the breakdown shows. Unit-tested in Node (tests/js/labs-attention-matrix.test.js).
 */

export const T = 5;
export const DV = 4;
/** Axis labels, counted from 0 as the code counts. */
export const TOKENS = Array.from({ length: T }, (_, i) => `Token ${i}`);
export const DIMS = Array.from({ length: DV }, (_, d) => `d${d}`);

const round2 = (x) => Math.round(x * 100) / 100 + 0; // + 0 turns −0 into 0
export const rowsOf = (data, rows, cols) =>
  Array.from({ length: rows }, (_, r) => Array.from(data.subarray(r * cols, (r + 1) * cols)));

/** x with `digits` decimals and a real minus sign; −0.00 is written 0.00. */
export function fixed(x, digits) {
  const text = x.toFixed(digits);
  return (/^-0\.?0*$/.test(text) ? text.slice(1) : text).replace(/^-/, '−');
}

export const vector = (xs, digits = 2) => `[${Array.from(xs, (x) => fixed(x, digits)).join(', ')}]`;

export const sameMatrix = (a, b) =>
  a.length === b.length && a.every((row, r) => row.length === b[r]?.length && row.every((x, c) => x === b[r][c]));

/**
 * V (T × d_v) and S (T × T) from one seeded stream of the core's standard normal generator,
 * V first and then S, as the notebook draws them; rounded to 2 decimals so they can be read and typed.
 * @param {import('../../engine/index.js').Attention} engine
 */
export function drawInputs(engine, seed) {
  const x = Array.from(engine.randn([T * DV + T * T], seed).data, round2);
  return {
    seed,
    V: rowsOf(Float64Array.from(x.slice(0, T * DV)), T, DV),
    S: rowsOf(Float64Array.from(x.slice(T * DV)), T, T),
  };
}

/**
 * A = softmax(S) row by row, the row-stochastic report and Y = AV, all from the core.
 * @param {import('../../engine/index.js').Attention} engine
 */
export function computeAttentionMatrix(engine, V, S) {
  if (S.length !== T || S.some((row) => row.length !== T)) {
    throw new Error(`S must be ${T} × ${T}, got ${S.length} × ${S[0]?.length ?? 0}`);
  }
  const A = engine.softmax(S); // (T, T), softmax over the last axis
  const report = engine.rowStochasticReport(A);
  const Y = engine.convexCombination(A, V); // (T, d_v)
  const sums = rowsOf(A.data, T, T).map((row) => row.reduce((a, b) => a + b, 0));
  const shapeOk = Y.shape.length === 2 && Y.shape[0] === T && Y.shape[1] === DV;
  return { S, V, A, Y, report, sums, shapeOk };
}

/** Row i of Y taken apart: the weights A_ij, the terms A_ij · v_j, their sums (Σ_j A_ij and y_i, the core's). */
export function rowTerms(r, i) {
  const weights = Array.from(r.A.data.subarray(i * T, (i + 1) * T));
  return {
    i,
    weights,
    products: weights.map((a, j) => r.V[j].map((x) => a * x)),
    total: weights.reduce((a, b) => a + b, 0),
    y: Array.from(r.Y.data.subarray(i * DV, (i + 1) * DV)),
  };
}

/**
 * The lab's three checks (data for AttnLab checkCells): A row-stochastic, A ≥ 0, Y of shape (T, d_v);
 * `python`: each in the names of the lab's code cells (NumPy's A and Y, the last ones defined).
 */
export function matrixChecks(r) {
  return [
    {
      name: 'row-sums',
      label: 'max over rows of $|\\sum_j A_{ij} - 1|$',
      threshold: 1e-6,
      value: r.report.maxRowSumError,
      python: 'abs(A.sum(-1) - 1).max()',
    },
    {
      name: 'non-negative',
      label: 'smallest entry of $A$',
      comparison: 'ge',
      threshold: 0,
      value: r.report.minEntry,
      python: 'A.min()',
    },
    {
      name: 'shape',
      label: `Y.shape = (${r.Y.shape.join(', ')}), expected (T, d_v) = (${T}, ${DV})`,
      pass: r.shapeOk,
      python: 'tuple(Y.shape) == (T, d_v)',
    },
  ];
}

/** The notebook's printout. */
export function printout(r) {
  const sums = r.sums.map((s) => s.toFixed(7)).join(', ');
  return [
    `Attention Matrix A shape: (${r.A.shape.join(', ')})`,
    `Row sums of A: [${sums}]`,
    `Output Matrix Y shape: (${r.Y.shape.join(', ')}) [Preserves (T, dv)]`,
  ].join('\n');
}

/** The text alternative. */
export function describeAttentionMatrix(r, i, seed, edited) {
  if (!r) return 'The attention matrix: not computed yet.';
  const t = rowTerms(r, i);
  return (
    `A = softmax(S) for ${edited ? 'logits S typed by hand' : `logits S drawn with seed ${seed}`}, a ${T} × ${T} ` +
    `heatmap whose rows each sum to 1. Row ${i}: weights ${t.weights.map((a) => a.toFixed(3)).join(', ')}; ` +
    `y${i} = ${vector(t.y, 3)}.`
  );
}

/** A failed run, in the learner's words. */
export const MATRIX_ERROR = 'A and Y could not be computed from these logits; showing the last ones that could.';
