/**
 * "Try another" questions of the scaled-dot-product lesson's number exercises
 * (exercise-variants.js): exercise id -> (seed, engine) => { answer, tolerance, prompt, hint,
 * explanation, mistakes }. The query and key are small whole numbers from the core's seeded normal
 * generator; the scores come from the core (engine.scores with the default scale 1/√d_k, with
 * scale 1 for "forgot to scale", and with 1/d_k for "divided by d_k").
 */

const round = (x) => Number(x.toFixed(4));
const vec = (xs) => `(${xs.join(', ')})`;
const DIMS = [4, 9, 4, 9, 4];

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
};
