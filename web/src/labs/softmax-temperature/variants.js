/**
 * "Try another" for this lesson's number exercise (exercise-variants.js): exercise id ->
 * (seed, engine) => question. The logits, the temperature and the position asked for are picked
 * by the seed from fixed lists; every weight comes from the core's float64 softmax
 * (engine.softmaxReference), the likely wrong answers from the usual slips.
 */
const LOGITS = [
  [1.2, 4.5, 2.0, 0.8],
  [2.0, 1.0, 0.5, 3.0],
  [0.5, -1.0, 2.5, 1.5],
  [3.0, 3.5, 1.0, 0.0],
  [-0.5, 1.5, 0.5, 2.0],
];
const TEMPERATURES = [2, 3, 4, 5, 10, 2.5];
const TOLERANCE = 0.0006;
const round = (x) => Math.round(x * 1e4) / 1e4;

function distinct(answer, mistakes) {
  const kept = [];
  for (const m of mistakes) {
    if (!Number.isFinite(m.value) || Math.abs(m.value - answer) <= 2 * TOLERANCE) continue;
    if (kept.some((k) => Math.abs(k.value - m.value) <= 2 * TOLERANCE)) continue;
    kept.push({ ...m, value: round(m.value), tolerance: TOLERANCE });
  }
  return kept;
}

export default {
  'alpha-hot': (seed, engine) => {
    const s = LOGITS[seed % LOGITS.length];
    const tau = TEMPERATURES[(seed * 7) % TEMPERATURES.length];
    const j = (seed * 3) % s.length;
    const weights = (temperature) => Array.from(engine.softmaxReference(s, { temperature }).data);
    const alpha = weights(tau);
    const answer = round(alpha[j]);
    const total = s.reduce((a, b) => a + b, 0);
    const mistakes = distinct(answer, [
      {
        value: weights(1)[j],
        feedback: `That is α${j} at τ = 1: the logits were not divided by τ = ${tau}. Divide each one by τ before the exponentials.`,
      },
      {
        value: weights(1 / tau)[j],
        feedback: `That is what multiplying the logits by ${tau} gives (the softmax at τ = 1/${tau}). The temperature divides the logits.`,
      },
      {
        value: 1 / s.length,
        feedback: `1/4 is the limit τ → ∞ only. At τ = ${tau} the scaled logits still differ, so the weights differ too.`,
      },
      ...(s.every((x) => x > 0)
        ? [
            {
              value: s[j] / total,
              feedback: `That is s${j} divided by the sum of the logits. The softmax exponentiates first: α${j} = exp(s${j}/τ) / Σk exp(sk/τ).`,
            },
          ]
        : []),
    ]);
    return {
      answer,
      tolerance: TOLERANCE,
      prompt: `Take the logits s = (${s.join(', ')}) and the temperature τ = ${tau}. What is α${j}, the weight of position ${j}? Give it to 3 decimals.`,
      hint: `Divide every logit by ${tau}: (${s.map((x) => round(x / tau)).join(', ')}). Exponentiate each, then divide the one of position ${j} by the sum of the four.`,
      explanation: `softmax(s / ${tau}) = (${alpha.map((a) => a.toFixed(4)).join(', ')}), so α${j} ≈ ${alpha[j].toFixed(4)}. At τ = 1 the same position gets ${weights(1)[j].toFixed(4)}.`,
      mistakes,
    };
  },
};
