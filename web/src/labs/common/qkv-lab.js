/**
 * What the scaled-dot-product and causal-masking labs share (not an element: the
 * registration globs take only attn-*.js files).
 *
 * - The lesson's example: Q, K, V of shape (B, T, D) = (2, 5, 8), one stream
 *   of standard normal draws from the core's seeded generator (Q first, then K,
 *   then V, as the notebook draws them), rounded to 4 decimals so the code
 *   cells can carry the exact same inputs into Python.
 * - Small display helpers (one batch of a tensor as rows, max |a − b|, numbers
 *   with a real minus sign) and the batch <select>. Seeds are cells/base/seeds.js's.
 *
 * No maths: the draws, the attention and its float64 reference all come from
 * the wasm core; JS rounds, slices, compares and formats.
 */
import { html } from 'lit';
import { tex } from '../../cells/base/math.js';

export const B = 2;
export const T = 5;
export const D = 8;

const round4 = (x) => Math.round(x * 1e4) / 1e4 + 0; // + 0 turns −0 into 0

/**
 * Q, K, V (each { data: Float32Array, shape: [B, T, D] }) for `seed`.
 * @param {import('../../engine/index.js').Attention} engine
 */
export function drawQKV(engine, seed) {
  const n = B * T * D;
  const stream = engine.randn([3 * n], seed).data;
  const tensor = (part) => ({
    data: Float32Array.from(stream.subarray(part * n, (part + 1) * n), round4),
    shape: [B, T, D],
  });
  return { seed, q: tensor(0), k: tensor(1), v: tensor(2) };
}

/** Batch `b` of a (B, rows, cols) tensor as a { data, shape: [rows, cols] } view. */
export function batchOf(tensor, b) {
  const [, rows, cols] = tensor.shape;
  return { data: tensor.data.subarray(b * rows * cols, (b + 1) * rows * cols), shape: [rows, cols] };
}

/** Rows of numbers (for attn-matrix) from a (rows, cols) view. */
export function rowsOf({ data, shape: [rows, cols] }) {
  return Array.from({ length: rows }, (_, r) => Array.from(data.subarray(r * cols, (r + 1) * cols)));
}

/** Nested arrays (for code cells) of a (B, T, D) tensor. */
export function nested(tensor) {
  const [b] = tensor.shape;
  return Array.from({ length: b }, (_, i) => rowsOf(batchOf(tensor, i)));
}

/** Largest |a_i − b_i|; NaN anywhere gives NaN. */
export function maxAbsDiff(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (Number.isNaN(d)) return NaN;
    if (d > worst) worst = d;
  }
  return worst;
}

/** Row i of a (rows, cols) view as a plain array. */
export function rowOf({ data, shape: [, cols] }, i) {
  return Array.from(data.subarray(i * cols, (i + 1) * cols));
}

/** A number with `digits` decimals and a real minus sign; −0.000 prints as 0.000. */
export function fixed(x, digits = 3) {
  if (x === -Infinity) return '−∞';
  if (x === Infinity) return '∞';
  const text = x.toFixed(digits);
  return (/^-0\.?0*$/.test(text) ? text.slice(1) : text).replace(/^-/, '−');
}

/** "[0.123, −0.456]" */
export const vector = (xs, digits = 3) => `[${Array.from(xs, (x) => fixed(x, digits)).join(', ')}]`;

/** "1.19e-07": the notebook's {:.2e} format. */
export const sci = (x) => (Number.isFinite(x) ? x.toExponential(2).replace(/e([+-])(\d)$/, 'e$10$2') : String(x));

/** A <select> of the batch index b (0 … B − 1). */
export function batchSelect(lab, id = 'batch') {
  return html`<label for=${id}>Batch ${tex`b`}</label>
    <select
      id=${id}
      @change=${(e) => {
        lab.batch = Number(e.target.value);
        lab.stateChanged();
      }}
    >
      ${Array.from({ length: B }, (_, b) => html`<option value=${b} ?selected=${b === lab.batch}>${b}</option>`)}
    </select>`;
}
