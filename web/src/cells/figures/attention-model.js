/**
 * The attention cell's model (attn-attention.js): its settings table, the checks of its attribute
 * inputs in plain words, what it derives from the core's results, its text alternative and its
 * PyTorch code. No DOM; the maths (attention, its float64 reference, the row sums) is the core's.
 * Unit-tested in Node (tests/js/cells-attention.test.js).
 */
import { FieldError, formatField, parseField } from '../base/state-fields.js';
import { formatNumber } from '../base/cell-support.js';

/** At most this many queries or keys, and numbers per row (the figure stays readable). */
export const MAX_ROWS = 16;
export const MAX_WIDTH = 16;
const ENTRY = { min: -1000, max: 1000 };

/** A mask attribute: "none", "causal" or rows of 0/1 (1 = may attend), e.g. "1,0;1,1". */
export function parseMask(text, field) {
  const t = text.trim();
  if (t === 'none' || t === 'causal') return t;
  if (!/^[\d\s.,;+-]+$/.test(t)) {
    throw new FieldError(field, `"${t.slice(0, 40)}" is not none, causal or rows of 0 and 1 such as 1,0;1,1`);
  }
  const rows = parseField(t, field, { type: 'matrix', min: 0, max: 1, maxRows: MAX_ROWS });
  rows.forEach((row, r) =>
    row.forEach((x, c) => {
      if (x !== 0 && x !== 1) throw new FieldError(`${field}[${r}][${c}]`, `${x} is not 0 (blocked) or 1 (may attend)`);
    }),
  );
  return rows;
}

export const formatMask = (mask) => (typeof mask === 'string' ? mask : formatField(mask, { type: 'matrix' }));

const matrix = (rows) => ({ type: 'matrix', default: rows, maxRows: MAX_ROWS, ...ENTRY });

/** attn-attention's settings: its attributes and permalink fields. */
export const ATTENTION_FIELDS = {
  q: matrix([
    [1, 0],
    [0, 1],
    [1, 1],
  ]),
  k: matrix([
    [1, 0],
    [0, 1],
    [1, 1],
  ]),
  v: matrix([
    [1, 2],
    [3, 4],
    [5, 6],
  ]),
  mask: { type: 'mask', default: 'none', parse: parseMask, format: formatMask },
  temperature: { type: 'number', default: 1, min: 0, max: Infinity },
  scale: { type: 'number', default: null, min: 0, max: 1000 },
};

/** The results another cell can read (value-of) from an attention cell. */
export const ATTENTION_OUTPUTS = [
  'weights',
  'output',
  'logits',
  'maxRowSumError',
  'fullyMaskedRows',
  'weightsError',
  'outputError',
];

/** A problem with the cell's inputs, in the author's and learner's words. */
export class AttentionInputError extends Error {
  constructor(message) {
    super(message);
    this.name = 'AttentionInputError';
  }
}

/** Why q, k, v and mask do not fit together, naming the attribute; '' when they do. */
export function shapeProblem({ q, k, v, mask }) {
  const [L, E, S] = [q.length, q[0].length, k.length];
  const wide = [
    ['q', q],
    ['k', k],
    ['v', v],
  ].find(([, m]) => m[0].length > MAX_WIDTH);
  if (wide) return `Attribute ${wide[0]}: rows of ${wide[1][0].length} numbers; at most ${MAX_WIDTH} here.`;
  if (k[0].length !== E) {
    return `Attribute k: each key has ${k[0].length} numbers but each query in q has ${E}; a query and a key are compared number by number, so they need the same length.`;
  }
  if (v.length !== S) return `Attribute v: ${v.length} rows but k has ${S} keys; each key needs exactly one value row.`;
  if (Array.isArray(mask) && (mask.length !== L || mask[0].length !== S)) {
    return `Attribute mask: ${mask.length} × ${mask[0].length}, but ${L} queries and ${S} keys need a ${L} × ${S} mask (a row per query, a column per key).`;
  }
  return '';
}

/** Rows of plain numbers from a (rows, cols) tensor. */
const rowsOf = ({ data, shape: [rows, cols] }) =>
  Array.from({ length: rows }, (_, r) => Array.from(data.subarray(r * cols, (r + 1) * cols)));

/** max |a_i − b_i|, NaN if any difference is NaN. */
const gap = (a, b) =>
  Array.from(a, (x, i) => Math.abs(x - b[i])).reduce((m, d) => (d > m || Number.isNaN(d) ? d : m), 0);

/** The largest |x| among the finite entries of `data` (at least 1): how far float32 rounding can reach. */
function magnitude(data) {
  let m = 1;
  for (const x of data) if (Number.isFinite(x) && Math.abs(x) > m) m = Math.abs(x);
  return m;
}

/**
 * Everything the cell shows and exposes, from the engine: softmax(q kᵀ·scale/τ + mask) v with its
 * weights and scores (rows of numbers), the rows that may attend to no key, the largest row-sum
 * error of the weights, and the gaps to the core's float64 reference with their tolerances
 * (1e-5, times the size of the scores for the weights and of the values for the output).
 * @param {import('../../engine/index.js').Attention} engine
 */
export function computeAttention(engine, { q, k, v, mask, temperature, scale }) {
  const problem = shapeProblem({ q, k, v, mask });
  if (problem) throw new AttentionInputError(problem);
  const options = { mask: mask === 'none' ? null : mask, temperature, ...(scale === null ? {} : { scale }) };
  const result = engine.attention(q, k, v, { ...options, returnWeights: true, returnLogits: true });
  const reference = engine.attentionReference(q, k, v, options);
  const weightsTolerance = 1e-5 * magnitude(reference.logits.data);
  return {
    weights: rowsOf(result.weights),
    output: rowsOf(result.output),
    logits: rowsOf(result.logits),
    fullyMaskedRows: result.fullyMaskedRows,
    maxRowSumError: engine.rowStochasticReport(result.weights).maxRowSumError,
    weightsError: gap(result.weights.data, reference.weights.data),
    outputError: gap(result.output.data, reference.output.data),
    weightsTolerance,
    outputTolerance: weightsTolerance * magnitude(v.flat()),
  };
}

/** An error from computeAttention in plain words (never the engine's own message). */
export function explainAttention(error) {
  if (error instanceof AttentionInputError) return error.message;
  return 'The attention core could not compute these inputs; the figure still shows the last ones it could.';
}

/** Axis labels counted from 0, as the code counts: q0, q1, … */
export const labels = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(',');

/** The mask in words. */
export function maskWords(mask) {
  if (mask === 'causal') return 'causal (query i sees keys 0 to i)';
  if (mask === 'none') return 'none (every query sees every key)';
  return 'the 0/1 rows given (1 = may attend)';
}

/** The scale in use: the one given, or 1/√E. */
export const scaleText = (scale, E) => (scale === null ? `1/√${E}` : formatNumber(scale, 4));

/** The temperature as written: ∞ for Infinity. */
export const tauText = (tau) => (tau === Infinity ? '∞' : formatNumber(tau, 4));

/** The text alternative. */
export function describeAttention({ q, k, mask, temperature, scale }, result) {
  const head = `Attention of ${q.length} queries over ${k.length} keys, mask ${maskWords(mask)}, scale ${scaleText(scale, q[0].length)}, temperature ${tauText(temperature)}`;
  if (!result) return `${head}: not computed yet.`;
  const rows = (m) => m.map((row, i) => `row ${i}: ${row.map((x) => x.toFixed(3)).join(', ')}`).join('; ');
  return `${head}. Weights, ${rows(result.weights)}. Output, ${rows(result.output)}.`;
}

/** The PyTorch code (attn-code with for="<the cell's id>" fills in the placeholders). */
export const ATTENTION_CODE = `import math
import torch

q = torch.tensor({{q}}, dtype=torch.float32)  # (L, E): a row per query
k = torch.tensor({{k}}, dtype=torch.float32)  # (S, E): a row per key
v = torch.tensor({{v}}, dtype=torch.float32)  # (S, Ev): a value row per key
mask = {{mask}}  # 'none', 'causal' or rows of 0/1 (1 = may attend)
tau = {{temperature}}  # temperature: 0 is the argmax limit, inf gives equal weights
scale = {{scale}}  # None: 1/sqrt(E)

L, E = q.shape
S = k.shape[0]
if scale is None:
    scale = 1 / math.sqrt(E)
if mask == 'causal':
    allowed = torch.ones(L, S).tril().bool()
elif mask == 'none':
    allowed = torch.ones(L, S).bool()
else:
    allowed = torch.tensor(mask).bool()

scores = (q @ k.T) * scale
if tau == 0:  # the limit tau -> 0: the highest allowed scores share the weight
    top = scores.masked_fill(~allowed, float('-inf'))
    top = (top == top.max(dim=-1, keepdim=True).values) & allowed
    weights = top.float() / top.sum(dim=-1, keepdim=True)
else:
    weights = torch.softmax((scores / tau).masked_fill(~allowed, float('-inf')), dim=-1)
weights = weights.nan_to_num()  # a row with no allowed key: all zeros
output = weights @ v
print(weights)
print(output)`;
