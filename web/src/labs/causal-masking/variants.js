/**
 * "Try another" for the causal-masking lesson's number exercise (see
 * cells/notebook/exercise-variants.js): Exercise 1 with another sequence length T. The counts
 * come from the core: the blocked entries are the weights the causal mask sets to exactly 0
 * (attention of T zero queries and keys, every allowed weight 1/(i + 1) > 0).
 */

const LENGTHS = [3, 4, 6, 7, 8, 9];

/** How many of the T × T weights the causal mask blocks, counted from the core's result. */
function blockedCount(engine, T) {
  if (T < 1) return 0;
  const zeros = Array.from({ length: T }, () => [0]);
  const { weights } = engine.attentionReference(zeros, zeros, zeros, { mask: 'causal' });
  return Array.from(weights.data).filter((w) => w === 0).length;
}

export default {
  'future-count': (seed, engine) => {
    const T = LENGTHS[(Math.max(1, seed) - 1) % LENGTHS.length];
    const answer = blockedCount(engine, T);
    const all = T * T;
    const mistakes = [
      {
        value: all - answer,
        feedback: `${all - answer} is the number of entries kept (j ≤ i, diagonal included); the question asks for the blocked ones, j > i.`,
      },
      {
        value: all - T,
        feedback: `${all - T} counts every entry off the diagonal, j ≠ i. The past (j < i) stays allowed; only the future, j > i, is blocked.`,
      },
      {
        value: blockedCount(engine, T - 1),
        feedback:
          'That is one short in every row that blocks anything. Row i blocks every key after key i, up to the last key: count row 0 again.',
      },
      { value: all, feedback: 'Not every entry: the diagonal and everything below it keep their scores.' },
    ].filter((m, i, list) => m.value !== answer && list.findIndex((n) => n.value === m.value) === i);
    return {
      answer,
      tolerance: 0.1,
      prompt: `A sequence of length T = ${T}: its score matrix has ${T} × ${T} = ${all} entries (rows: queries 0 to ${T - 1}; columns: keys 0 to ${T - 1}). How many of them does the causal mask replace by −∞?`,
      hint: `Count row by row: query i may not see keys i + 1 to ${T - 1}. How many is that for i = 0, 1, …, ${T - 1}?`,
      explanation: `Row i blocks the T − 1 − i keys after it: ${Array.from({ length: T }, (_, i) => T - 1 - i).join(' + ')} = ${answer}, the strict upper triangle, T(T − 1)/2. The other ${all - answer} entries, the diagonal and below, keep their scores.`,
      mistakes: mistakes.map((m) => ({ ...m, tolerance: 0.1 })),
    };
  },
};
