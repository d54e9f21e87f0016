/**
 * "Try another" questions of the multi-head lesson's exercises (exercise-variants.js): exercise
 * id -> (seed, engine) => a number question { answer, tolerance, prompt, hint, explanation,
 * mistakes } or a choice question { prompt, options, hint, explanation }.
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
  'mh-entry': (seed, engine) => {
    const [B, h, T] = SIZES[(seed - 1) % SIZES.length];
    // a real A from the core, and its largest weight off the diagonal that is under 0.9
    const A = engine.softmax(engine.randn([B, h, T, T], 500 + seed), { temperature: 0.5 });
    let at = -1;
    A.data.forEach((w, n) => {
      const [i, j] = [Math.floor(n / T) % T, n % T];
      if (i !== j && w < 0.9 && (at < 0 || w > A.data[at])) at = n;
    });
    const [b, k, i, j] = [Math.floor(at / (h * T * T)), Math.floor(at / (T * T)) % h, Math.floor(at / T) % T, at % T];
    const weight = A.data[at].toFixed(2);
    const pct = `${Math.round(100 * A.data[at])}%`;
    const options = [
      {
        value: 'mix',
        correct: true,
        text: `In head ${k} of sequence ${b}, the output of position ${i} is ${pct} the value of position ${j}.`,
        feedback: `the indices are (sequence ${b}, head ${k}, row ${i}, column ${j}): in that head, the output of position ${i} takes ${pct} of its mixture from the value of position ${j}.`,
      },
      {
        value: 'swap',
        text: `In head ${k} of sequence ${b}, position ${j} takes ${pct} of its mixture from position ${i}.`,
        feedback: 'the last two indices are (row i, column j). Which of them is the position whose weights sum to 1?',
      },
      {
        value: 'all-heads',
        text: `In every head of sequence ${b}, position ${i} mixes mostly position ${j}.`,
        feedback: `each head has its own map, computed from its own scores: head ${k}'s weight says nothing about the others.`,
      },
      {
        value: 'cause',
        text: `Position ${j} is the reason for the model's output at position ${i}.`,
        feedback:
          'a weight shows how much one layer leaned on a position numerically; why the model behaves as it does needs an analysis across layers, not one weight.',
      },
    ];
    const turn = (seed * 3) % options.length; // the right option is not always first
    return {
      prompt: `In a tensor A of shape (B, h, T, T) = (${A.shape.join(', ')}), the entry A[${b}, ${k}, ${i}, ${j}] is ${weight}. What does it tell you?`,
      options: [...options.slice(turn), ...options.slice(0, turn)],
      hint: 'Read the four indices in the order of the shape, (b, k, i, j), and remember which of i and j is the row that sums to 1.',
      explanation: `The axes of A are (sequence b, head k, row i, column j). A[${b}, ${k}, ${i}, ${j}] = ${weight} is the weight with which position ${i} mixes the value of position ${j} in head ${k} of sequence ${b}. Heads are independent, and a weight measures a mixture in one layer, not a cause.`,
    };
  },
};
