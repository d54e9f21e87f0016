/**
 * The retrieval labs' model: the source's toy vocabulary, the retrieval computed in the core, and
 * what the labs derive from it for display, export and checking. No DOM; unit-tested in Node
 * (tests/js/labs-retrieval.test.js).
 *
 * Six tokens whose embeddings are the rows of 5·I₆; a sequence of tokens 0 … 4 whose embeddings
 * are both the keys and the values; a query that is one token's embedding (attn-retrieval) or a
 * mix of them, q = Σ_t c_t · vocab[t] = 5c (attn-query-builder). The core computes
 * softmax(q Kᵀ / √d_k) V with d_k = 6 (the source's scaling), and the unscaled scores q Kᵀ.
 */
export const VOCAB_SIZE = 6;
export const SEQUENCE = [0, 1, 2, 3, 4];
export const SCALE = 5;

/** Row t of vocab = 5·I₆: the embedding of token t. */
export const embedding = (t) => Array.from({ length: VOCAB_SIZE }, (_, j) => (j === t ? SCALE : 0));

/** The keys and values: the embeddings of the sequence's tokens, (5, 6). */
export const sequenceTensor = () => ({
  data: Float32Array.from(SEQUENCE.flatMap((t) => embedding(t))),
  shape: [SEQUENCE.length, VOCAB_SIZE],
});

/** The keys (= values) as rows, for the matrix figure. */
export const keyRows = () => SEQUENCE.map((t) => embedding(t));

/** Position labels, counted from 0 as the code counts. */
export const positionLabels = () => SEQUENCE.map((j) => `pos ${j}`);

/** Index of the largest entry, the first one on ties (as torch.argmax). */
export function argmax(xs) {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i] > xs[best]) best = i;
  return best;
}

/** A list as Python prints round(3).tolist(): 0.0, 1.0, 0.5. */
export function pythonFloats(xs, decimals = 3) {
  return `[${Array.from(xs, (x) => {
    const r = Number(x.toFixed(decimals)) + 0; // + 0 turns −0 into 0
    return Number.isInteger(r) ? r.toFixed(1) : String(r);
  }).join(', ')}]`;
}

/** The query q = Σ_t c_t · vocab[t] = 5c (vocab is 5·I₆). */
export const queryVector = (mix) => mix.map((c) => SCALE * c);

/**
 * The query mixed from tokens against the sequence, in the core: per position j the dot product
 * q·k_j (scale 1), the scaled score q·k_j/√6 and the weight α_j; the output y = Σ α_j v_j and
 * the retrieved id argmax(y).
 * @param {import('../../engine/index.js').Attention} engine
 */
export function computeQuery(engine, mix) {
  const q = { data: Float32Array.from(queryVector(mix)), shape: [1, VOCAB_SIZE] };
  const seq = sequenceTensor();
  const dots = engine.scores(q, seq, { scale: 1 }); // q·k_j, unscaled
  const scaled = engine.attention(q, seq, seq, { returnWeights: true, returnLogits: true }); // 1/√d_k, d_k = 6
  const output = Array.from(scaled.output.data);
  return {
    mix: [...mix],
    query: queryVector(mix),
    dots: Array.from(dots.data),
    scores: Array.from(scaled.logits.data),
    weights: Array.from(scaled.weights.data),
    output,
    retrieved: argmax(output),
  };
}

/**
 * The source's example: the query is token `token`'s embedding. Adds the weights to 3 decimals
 * and their largest difference from the one-hot of the queried position (the first check).
 */
export function computeRetrieval(engine, token) {
  const r = computeQuery(
    engine,
    embedding(token).map((x) => x / SCALE),
  );
  const rounded = r.weights.map((x) => Number(x.toFixed(3)));
  const oneHotGap = rounded.reduce((m, x, j) => Math.max(m, Math.abs(x - (j === token ? 1 : 0))), 0);
  return { ...r, token, rounded, oneHotGap };
}

/**
 * The lab's checks (data for AttnLab checkCells): the one-hot weights and the retrieved token;
 * `python`: each in the names of the lab's PyTorch cell.
 */
export function retrievalChecks(r) {
  return [
    {
      name: 'weights',
      label: `weights to 3 decimals = ${pythonFloats(r.rounded)}; max |· − one-hot at position ${r.token}|`,
      threshold: 0,
      value: r.oneHotGap,
      python: `(w_retrieve[0, 0].round(decimals=3) - F.one_hot(torch.tensor(${r.token}), 5)).abs().max()`,
    },
    {
      name: 'retrieved',
      label: 'retrieved token id (argmax of the output)',
      comparison: 'eq',
      threshold: r.token,
      value: r.retrieved,
      python: 'retrieved_token',
    },
  ];
}

/** The source's printout. */
export const retrievalPrintout = (r) =>
  `attention weights over the 5 sequence positions: ${pythonFloats(r.weights)}\n` +
  `retrieved token id: ${r.retrieved}  (queried for token ${r.token})`;

/** The builder's presets: name and amounts c₀ … c₅. */
export const PRESETS = [
  { name: 'token 2', mix: [0, 0, 1, 0, 0, 0] },
  { name: 'vocab[2] + vocab[4]', mix: [0, 0, 1, 0, 1, 0] },
  { name: 'token 5 (not in the sequence)', mix: [0, 0, 0, 0, 0, 1] },
  { name: 'vocab[1] + 0.5·vocab[3]', mix: [0, 1, 0, 0.5, 0, 0] },
];

/** CSV rows, one per position: token, dot product, scaled score, weight. */
export const positionRows = (r) => [
  ['position j', 'token', 'q·k_j', 'q·k_j/√6', 'weight'],
  ...SEQUENCE.map((t, j) => [j, t, r.dots[j], r.scores[j], r.weights[j]]),
];

/** JSON of a result (either lab). */
export const resultObject = (r) => ({
  query: r.query,
  mix: r.mix,
  dotProducts: r.dots,
  scaledScores: r.scores,
  weights: r.weights,
  output: r.output,
  retrieved: r.retrieved,
});

const list = (xs, digits) => xs.map((x) => x.toFixed(digits)).join(', ');

/** The text alternative of either lab. */
export function describeResult(r) {
  if (!r) return 'Retrieval: not computed yet.';
  return (
    `Query [${r.query.join(', ')}] against tokens 0 to 4: weights [${list(r.weights, 5)}] over positions 0 to 4; ` +
    `output y = [${list(r.output, 4)}]; retrieved token id ${r.retrieved}.`
  );
}
