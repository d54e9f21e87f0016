/**
 * "Try another" questions of the attention-matrix lesson's number exercises (exercise-variants.js):
 * exercise id -> (seed, engine) => { answer, tolerance, prompt, hint, explanation, mistakes }.
 * The weights and outputs come from the core (softmaxReference, convexCombination); the likely
 * wrong answers are the results of the usual slips, computed from the same numbers.
 */

const round = (x, digits = 4) => Number(x.toFixed(digits));
const list = (xs) => xs.map((x) => String(round(x))).join(', ');
const near = (a, b) => Math.abs(a - b) < 0.002;

/** The lesson's A (3 × 3, rows sum to one) and V (3 × 2) of "Exercise 2: one row of Y = AV". */
export const OUTPUT_A = [
  [0.7, 0.2, 0.1],
  [0.5, 0.25, 0.25],
  [0.1, 0.1, 0.8],
];
export const OUTPUT_V = [
  [6, 0],
  [0, 2],
  [2, 7],
];

/** The entries (row, entry) of Y that Try another asks for: all but the lesson's own, y_1[0]. */
const OTHER_ENTRIES = [
  [0, 1],
  [2, 0],
  [1, 1],
  [0, 0],
  [2, 1],
];

/** Keeps only the declared mistakes that differ from the answer and from each other. */
function distinct(answer, mistakes) {
  const kept = [];
  for (const m of mistakes) {
    if (!Number.isFinite(m.value) || near(m.value, answer) || kept.some((k) => near(k.value, m.value))) continue;
    kept.push(m);
  }
  return kept;
}

export default {
  /** A_ij from a row of logits: a row of 5 whole-number logits drawn from the seed. */
  'am-weight': (seed, engine) => {
    const row = Array.from(engine.randn([5], 1000 + seed).data, (x) => Math.max(-2, Math.min(3, Math.round(1.5 * x))));
    const weights = Array.from(engine.softmaxReference([row]).data);
    const top = weights.indexOf(Math.max(...weights));
    const j = (top + 1 + (seed % 4)) % 5; // never the largest score, so no slip lands on 1
    const i = seed % 5;
    const answer = round(weights[j]);
    const sum = row.reduce((a, b) => a + b, 0);
    return {
      answer,
      tolerance: 0.0006,
      prompt: `Row ${i} of S is (${row.join(', ')}). What weight A[${i}, ${j}] does query ${i} give to key ${j}? Three decimals are enough.`,
      hint: 'Exponentiate every logit of the row, then divide the one for key j by the sum of all five.',
      explanation: `The row's weights are (${list(weights)}): e^${row[j]} divided by the sum of the five exponentials gives A[${i}, ${j}] ≈ ${answer}. Only row ${i} matters; the other rows of S have their own softmax.`,
      mistakes: distinct(answer, [
        {
          value: round(row[j] / sum),
          tolerance: 0.0006,
          feedback: `${row[j]} / ${sum} divides the logit by the sum of the logits; the softmax exponentiates first, so negative logits still get positive weight.`,
        },
        {
          value: round(weights[j] / weights[top]),
          tolerance: 0.0006,
          feedback:
            'that divides by the largest exponential instead of the sum of all of them; that ratio is not a weight, and the row would not sum to 1.',
        },
        {
          value: 0.2,
          tolerance: 0.0006,
          feedback:
            'summing to 1 does not make the weights equal: 1/5 each happens only when the five logits are the same.',
        },
      ]),
    };
  },

  /** One entry of Y = AV: row i and entry c of the lesson's A and V, picked by the seed. */
  'am-output': (seed, engine) => {
    const [i, c] = OTHER_ENTRIES[(seed - 1) % OTHER_ENTRIES.length];
    const y = Array.from(engine.convexCombination([OUTPUT_A[i]], OUTPUT_V).data);
    const answer = round(y[c]);
    const column = OUTPUT_V.map((v) => v[c]);
    const dot = (w) => w.reduce((a, x, j) => a + x * column[j], 0);
    const other = (i + 1) % 3;
    return {
      answer,
      tolerance: 0.005,
      prompt: `With the same A and V, what is entry ${c} of y_${i}, the output of position ${i} (entries and positions counted from 0)?`,
      hint: `y_${i} mixes the rows of V with the weights in row ${i} of A; entry ${c} of y_${i} uses entry ${c} of each value.`,
      explanation: `Row ${i} of A is (${OUTPUT_A[i].join(', ')}) and entry ${c} of the values is (${column.join(', ')}), so y_${i}[${c}] = ${OUTPUT_A[i].map((a, j) => `${a}·${column[j]}`).join(' + ')} = ${answer}.`,
      mistakes: distinct(answer, [
        {
          value: round(dot(OUTPUT_A.map((r) => r[i]))),
          tolerance: 0.005,
          feedback: `that uses column ${i} of A; the weights of query ${i} are its row, and a column need not even sum to 1.`,
        },
        {
          value: round(column.reduce((a, b) => a + b, 0) / 3),
          tolerance: 0.005,
          feedback:
            'that is the plain mean of the values: it would need equal weights, 1/3 each. Use the weights in the row.',
        },
        {
          value: round(dot(OUTPUT_A[other])),
          tolerance: 0.005,
          feedback: `that uses row ${other} of A: rows are counted from 0 here, so position ${i} is row ${i}.`,
        },
      ]),
    };
  },
};
