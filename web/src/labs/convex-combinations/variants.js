/**
 * "Try another" for this lesson's number exercise (exercise-variants.js): exercise id ->
 * (seed, engine) => question. The weights and the entry asked for are picked by the seed from
 * fixed lists; y comes from the core (engine.convexCombination), the likely wrong answers from
 * the same sums taken the wrong way.
 */
const V = [
  [1, 0, 0],
  [0, 2, 0],
  [0, 0, 3],
  [1, 1, 1],
];
const WEIGHTS = [
  [0.1, 0.2, 0.3, 0.4],
  [0.5, 0.2, 0.1, 0.2],
  [0.05, 0.6, 0.15, 0.2],
  [0.3, 0.3, 0.3, 0.1],
  [0.7, 0.1, 0.1, 0.1],
  [0.2, 0.5, 0.1, 0.2],
  [0.15, 0.25, 0.45, 0.15],
];
const TOLERANCE = 0.0005;
const ORDINAL = ['first', 'second', 'third'];
const round = (x) => Math.round(x * 1e4) / 1e4;
const show = (x) => String(round(x));

/** The mistakes that are not the answer (nor each other): their feedback would mislead. */
function distinct(answer, mistakes) {
  const kept = [];
  for (const m of mistakes) {
    if (Math.abs(m.value - answer) <= 2 * TOLERANCE) continue;
    if (kept.some((k) => Math.abs(k.value - m.value) <= 2 * TOLERANCE)) continue;
    kept.push({ ...m, value: round(m.value), tolerance: TOLERANCE });
  }
  return kept;
}

export default {
  'mix-entry': (seed, engine) => {
    const alpha = WEIGHTS[(seed * 3) % WEIGHTS.length];
    const i = seed % 3;
    const y = Array.from(engine.convexCombination([alpha], V).data);
    const column = V.map((row) => row[i]);
    const answer = round(y[i]);
    const next = (i + 1) % 3;
    const mistakes = distinct(answer, [
      {
        value: column.reduce((a, b) => a + b, 0) / column.length,
        feedback: `That is the plain average of column ${i} of V, (${column.join(' + ')}) / 4: it gives every value the weight 1/4. Each entry counts with its own weight.`,
      },
      {
        value: alpha[i] * V[i][i],
        feedback: `That is α${i} · ${V[i][i]} alone: it counts only v${i}. Another value has an entry in this column that is not 0; weight it and add it.`,
      },
      {
        value: y[next],
        feedback: `That is y${next}, the entry with index ${next}. Entries are counted from 0 here: y${i} is the ${ORDINAL[i]} entry.`,
      },
    ]);
    return {
      answer,
      tolerance: TOLERANCE,
      prompt: `With the weights α = (${alpha.map((a) => a.toFixed(2)).join(', ')}) and the matrix V above (its rows: ${V.map((row) => `(${row.join(', ')})`).join(', ')}), what is y${i}, the entry of y with index ${i} (the ${ORDINAL[i]} entry, counting from 0)? Give it to 3 decimals.`,
      hint: `Read down column ${i} of V, (${column.join(', ')}), and weight each entry: y${i} = Σj αj · V[j][${i}].`,
      explanation: `y${i} = ${alpha.map((a, j) => `${a}·${column[j]}`).join(' + ')} = ${show(y[i])}. The whole mixture is y = (${y.map(show).join(', ')}).`,
      mistakes,
    };
  },
};
