/**
 * "Try another" questions of the multi-head lesson's number exercises (exercise-variants.js):
 * exercise id -> (seed, engine) => { answer, tolerance, prompt, hint, explanation, mistakes }.
 * The shape of A comes from the core (softmax over the last axis of a (B, h, T, T) draw); the
 * likely wrong answers count the wrong things in that same shape. Every size set has more heads
 * than the lab offers (at most 6), so the lab above cannot be set to the question.
 */

/** (B, h, T) for Try another; the lesson's own question is (4, 8, 10). */
const SIZES = [
  [2, 12, 6],
  [3, 8, 7],
  [2, 16, 9],
  [5, 8, 4],
  [2, 10, 12],
];

const product = (xs) => xs.reduce((a, b) => a * b, 1);

export default {
  'mh-rows': (seed, engine) => {
    const [B, h, T] = SIZES[(seed - 1) % SIZES.length];
    const shape = engine.softmax(engine.randn([B, h, T, T], seed)).shape; // (B, h, T, T)
    const answer = product(shape.slice(0, -1));
    const candidates = [
      {
        value: product(shape.slice(0, 2)),
        feedback: `${B}·${h} counts the maps. It is not the whole map that sums to 1: each of its rows does, on its own.`,
      },
      {
        value: product(shape),
        feedback: `${B}·${h}·${T}·${T} counts every weight; the softmax normalises rows, and each row holds ${T} weights.`,
      },
      {
        value: B * T,
        feedback: `${B}·${T} leaves out the heads: every head has its own attention matrix, with rows of its own.`,
      },
      {
        value: h * T,
        feedback: `${h}·${T} leaves out the batch: every sequence has its own maps, with rows of their own.`,
      },
    ];
    const mistakes = candidates
      .filter((m, n) => m.value !== answer && candidates.findIndex((o) => o.value === m.value) === n)
      .map((m) => ({ ...m, tolerance: 0.5 }));
    return {
      answer,
      tolerance: 0.5,
      prompt: `B = ${B} sequences, h = ${h} heads, T = ${T} positions. How many rows of A must each sum to 1?`,
      hint: 'The softmax runs over the last axis only. Every other axis (batch, head, position) indexes a separate row.',
      explanation: `A has the shape (${shape.join(', ')}). Each row is indexed by a sequence b, a head k and a position i, so there are ${B}·${h}·${T} = ${answer} rows, each of ${T} weights summing to 1.`,
      mistakes,
    };
  },
};
