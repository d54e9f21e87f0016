/**
 * "Try another" questions of the scaled-dot-product lesson's exercises (exercise-variants.js):
 * exercise id -> (seed, engine) => a number question { answer, tolerance, prompt, hint,
 * explanation, mistakes } or a choice question { prompt, options, hint, explanation }. The query and key are small whole numbers from the core's seeded normal
 * generator; the scores come from the core (engine.scores with the default scale 1/√d_k, with
 * scale 1 for "forgot to scale", and with 1/d_k for "divided by d_k").
 */

const round = (x) => Number(x.toFixed(4));
const vec = (xs) => `(${xs.join(', ')})`;
const DIMS = [4, 9, 4, 9, 4];
/** (B, L, S, E, Ev) for sdpa-shape: L ≠ S, E ≠ Ev, S ≠ Ev, S ≠ E, so that the four options differ. */
const SHAPES = [
  [3, 4, 6, 16, 2],
  [1, 9, 3, 4, 5],
  [4, 2, 8, 6, 3],
  [2, 6, 10, 4, 7],
];

/** A whole-number vector of length d drawn from the seed: entries from −2 to 2. */
const draw = (engine, d, seed) =>
  Array.from(engine.randn([d], seed).data, (x) => Math.max(-2, Math.min(2, Math.round(x))));

export default {
  'sdpa-score': (seed, engine) => {
    const d = DIMS[(seed - 1) % DIMS.length];
    // the first draw whose raw score is at least 2 away from 0, so the slips land on distinct numbers
    let q = [];
    let k = [];
    for (let n = 0; n < 50; n++) {
      q = draw(engine, d, 2000 + 97 * seed + 2 * n);
      k = draw(engine, d, 2001 + 97 * seed + 2 * n);
      if (Math.abs(engine.scores([q], [k], { scale: 1 }).data[0]) >= 2) break;
    }
    const raw = round(engine.scores([q], [k], { scale: 1 }).data[0]);
    const answer = round(engine.scores([q], [k]).data[0]);
    const byD = round(engine.scores([q], [k], { scale: 1 / d }).data[0]);
    return {
      answer,
      tolerance: 0.005,
      prompt: `d_k = ${d}: q = ${vec(q)} and k = ${vec(k)}. What is the scaled score q·k / √d_k?`,
      hint: `Multiply entry by entry and add (the dot product), then divide by √${d}.`,
      explanation: `q·k = ${q.map((x, i) => `${x}·${k[i]}`).join(' + ')} = ${raw}, and √${d} = ${Math.sqrt(d)}, so the scaled score is ${raw} / ${Math.sqrt(d)} = ${answer}.`,
      mistakes: [
        {
          value: raw,
          tolerance: 0.005,
          feedback: `${raw} is the raw dot product q·k. The scores are scaled before the softmax: by how much, for keys of ${d} entries?`,
        },
        {
          value: byD,
          tolerance: 0.005,
          feedback: `that divides by d_k = ${d}; the scale is 1/√d_k, which keeps the scores' variance at 1.`,
        },
      ],
    };
  },
  'sdpa-shape': (seed, engine) => {
    const [B, L, S, E, Ev] = SHAPES[(seed - 1) % SHAPES.length];
    // the shapes as the core gives them, for inputs of these shapes
    const { output, weights } = engine.attention(
      engine.randn([B, L, E], seed),
      engine.randn([B, S, E], seed + 1),
      engine.randn([B, S, Ev], seed + 2),
      { returnWeights: true },
    );
    const shape = (xs) => `(${xs.join(', ')})`;
    const options = [
      {
        value: 'keys',
        text: shape([B, S, Ev]),
        feedback: `the output has one row per query, not one per key: the ${S} keys are summed over in the weighted sum.`,
      },
      {
        value: 'width',
        text: shape([B, L, E]),
        feedback: `each output row is a weighted sum of rows of V, so its width is not the ${E} of Q and K: that one is summed over in the dot products.`,
      },
      {
        value: 'weights',
        text: shape(weights.shape),
        feedback: `${shape(weights.shape)} is the shape of the scores and the weights, one per query and key; multiplying them by V replaces the key axis.`,
      },
      {
        value: 'out',
        correct: true,
        text: shape(output.shape),
        feedback: `one row per query (${L}) and the width of the values (${Ev}), for each of the ${B} sequences.`,
      },
    ];
    const turn = seed % options.length; // the right option is not always last
    return {
      prompt: `Q has shape ${shape([B, L, E])}, K has shape ${shape([B, S, E])} and V has shape ${shape([B, S, Ev])}. What is the shape of the output?`,
      options: [...options.slice(turn), ...options.slice(0, turn)],
      hint: 'Follow the shapes: Q Kᵀ pairs every query with every key; the weights then multiply V.',
      explanation: `Q Kᵀ has shape ${shape(weights.shape)}, one score per query and key; the softmax keeps it, and multiplying by V, ${shape([B, S, Ev])}, sums over the ${S} keys: ${shape(output.shape)}.`,
    };
  },
};
