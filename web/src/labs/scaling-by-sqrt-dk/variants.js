/**
 * "Try another" for the scaling-by-sqrt-dk lesson's number exercise (see
 * cells/notebook/exercise-variants.js): Exercise 1 at another dimension D. The answer is the
 * definition of a standard deviation, √Var(q · k) = √D (Var(q · k) = D is derived in the
 * lesson); the declared slips are the variance itself, the scaled score's 1 and 1/√D.
 */

const DIMS = [16, 32, 64, 256, 512, 48, 200];

const round = (x, digits) => Number(x.toFixed(digits));

export default {
  'score-spread': (seed) => {
    const D = DIMS[(Math.max(1, seed) - 1) % DIMS.length];
    const answer = round(Math.sqrt(D), 4);
    return {
      answer,
      tolerance: 0.02,
      prompt: `The query and the key have D = ${D} independent entries, each with mean 0 and variance 1. What is the standard deviation of the unscaled score q · k? (Two decimals are enough.)`,
      hint: 'First the variance: each product q_i k_i has variance 1, and the variances of independent terms add. Then turn the variance into a standard deviation.',
      explanation: `Var(q · k) = ${D}, so the standard deviation is √${D} ≈ ${answer.toFixed(2)}. The scaled score q · k / √${D} has standard deviation 1, as at every D.`,
      mistakes: [
        {
          value: D,
          tolerance: 0.5,
          feedback: `${D} is the variance of q · k, its spread squared; the question asks for the standard deviation, in the units of the score itself.`,
        },
        {
          value: 1,
          tolerance: 0.02,
          feedback: '1 is the standard deviation of the scaled score q · k / √D. Without the scaling it grows with D.',
        },
        {
          value: round(1 / Math.sqrt(D), 4),
          tolerance: 0.002,
          feedback: `That is 1/√${D}: the variance is D, not 1/D. Adding D independent terms makes the sum wider, not narrower.`,
        },
      ],
    };
  },
};
