/**
 * "Try another" for the retrieval lesson's number exercise (see
 * cells/notebook/exercise-variants.js): Exercise 1 with another strength c and token t,
 * q = c · vocab[t]. Every number comes from the core's float64 attention: the answer, and the
 * typical slips computed the slipped way (no 1/√d_k; a sum over the matching key and one other;
 * six keys, the whole vocabulary, instead of the five of the sequence).
 */

const STRENGTHS = [0.1, 0.3, 0.2, 0.4];
const D = 6; // vocabulary size = embedding length d_k
const POSITIONS = 5; // the sequence holds tokens 0 to 4

/** vocab[t] = 5 e_t, t = 0..5. */
const vocab = Array.from({ length: D }, (_, t) => Array.from({ length: D }, (_, i) => (i === t ? 5 : 0)));

const round4 = (x) => Number(x.toFixed(4));

/** The weight on key `t` when q = c · vocab[t] attends over `keys` (options as attention() takes them). */
function weightOn(engine, c, t, keys, options) {
  const q = [vocab[t].map((x) => c * x)];
  return engine.attentionReference(q, keys, keys, options).weights.data[keys.findIndex((k) => k[t] !== 0)];
}

/** Question, answer and slips for q = c · vocab[t]. */
export function faintQuestion(engine, c, t) {
  const keys = vocab.slice(0, POSITIONS);
  const answer = round4(weightOn(engine, c, t, keys));
  const score = (c * 25) / Math.sqrt(D);
  const other = (t + 1) % POSITIONS;
  const mistakes = [
    {
      value: round4(weightOn(engine, c, t, keys, { scale: 1 })),
      feedback: `That is the weight without the 1/√d_k: the score of key ${t} is ${c} · 25 = ${round4(c * 25)}, and it must still be divided by √6 before the softmax.`,
    },
    {
      value: round4(weightOn(engine, c, t, [vocab[t], vocab[other]])),
      feedback:
        'That is e^s / (e^s + 1): the softmax sums over all five positions, and each of the four other keys adds e^0 = 1.',
    },
    {
      value: round4(weightOn(engine, c, t, vocab)),
      feedback:
        'That sums over six keys: the vocabulary has six tokens, but the sequence holds only five (tokens 0 to 4).',
    },
    {
      value: 1,
      feedback:
        'The matching key is the only one with a non-zero score, but a small score does not beat four scores of 0 by much: the softmax leaves them some weight.',
    },
    {
      value: 0.2,
      feedback:
        'The weights would be uniform only if every score were equal. The matching key still scores higher than the others.',
    },
  ]
    .filter((m) => Math.abs(m.value - answer) > 0.005)
    .map((m) => ({ ...m, tolerance: 0.002 }));
  return {
    answer,
    tolerance: 0.002,
    prompt: `Keep the sequence (tokens 0 to 4, keys = values = their embeddings, d_k = 6) and query with q = ${c} · vocab[${t}]. What weight does position ${t} get? (Three decimals.)`,
    hint: `q · k_${t} = ${c} · 5 · 5 = ${round4(c * 25)} and q · k_j = 0 for the four other keys. Scale by 1/√6, then α = e^s / (e^s + 4).`,
    explanation: `The scaled score of key ${t} is ${round4(c * 25)}/√6 ≈ ${score.toFixed(3)} and the other four are 0, so α = e^${score.toFixed(3)} / (e^${score.toFixed(3)} + 4) ≈ ${answer.toFixed(3)}. A shorter query in the same direction gives smaller dot products, and the lookup gets softer.`,
    mistakes,
  };
}

export default {
  faint: (seed, engine) =>
    faintQuestion(engine, STRENGTHS[(Math.max(1, seed) - 1) % STRENGTHS.length], (Math.max(1, seed) * 2) % POSITIONS),
};
