/**
 * The softmax lab's model: what it derives from the core's results for display and checking.
 * No DOM, no maths of its own; unit-tested in Node
 * (tests/js/labs-softmax-temperature.test.js).
 */
import { niceDomain } from '../../charts/scale.js';
import { comparisonCheck } from './temperature-compare-model.js';

/** State fields the softmax labs share: the logits (up to `maxLength`) and the comparison's temperatures. */
export const logitsField = (maxLength) => ({
  type: 'numbers',
  default: [1.2, 4.5, 2.0, 0.8],
  minLength: 1,
  maxLength,
  min: -1e4,
  max: 1e4,
});
export const TEMPERATURES_FIELD = {
  type: 'numbers',
  default: [0.25, 1, 5],
  minLength: 1,
  maxLength: 4,
  min: 1e-3,
  max: 1e3,
};

/**
 * τ as the lab writes it, three significant digits so the readout keeps its width as τ moves:
 * 0.0100, 0.250, 1.00, 2.51, 25.1, 100.0; the limits as 0 and ∞.
 */
export function formatTau(tau) {
  if (tau === Infinity) return '∞';
  if (tau === 0) return '0';
  return tau >= 10 ? tau.toFixed(1) : tau.toPrecision(3);
}

export const maxAbsDiff = (a, b) => Array.from(a).reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

/** The editable range of the logit bars: at least [−2, 6], wider when the logits need it. */
export function logitDomain(logits) {
  const lo = Math.min(-2, Math.floor(Math.min(...logits)));
  const hi = Math.max(6, Math.ceil(Math.max(...logits)));
  return niceDomain(lo, hi);
}

/** Bar labels, counted from 0 as the code counts. */
export const positionLabels = (n) => Array.from({ length: n }, (_, j) => `Pos ${j}`);

/**
 * What the lab shows at τ, from the engine: the weights, entropy and effective positions, and the
 * first check's measured gap, the core's float32 softmax against its float64 reference
 * (softmaxReference: the formula in double precision on the same float32 logits).
 * @param {import('../../engine/index.js').Attention} engine
 */
export function computeAtTemperature(engine, logits, tau) {
  const weights = engine.softmax(logits, { temperature: tau }).data;
  return {
    weights,
    entropy: engine.entropy(weights).data[0],
    effective: engine.effectivePositions(weights).data[0],
    sum: weights.reduce((a, b) => a + b, 0),
    referenceGap: maxAbsDiff(weights, engine.softmaxReference(logits, { temperature: tau }).data),
  };
}

/**
 * The checks at the two limits, which depend on the logits only: at τ = 0 and τ = ∞ the reference
 * is the exact limit, the argmax one-hot with ties sharing and 1/T.
 */
export function computeLimits(engine, logits) {
  const gap = (temperature) =>
    maxAbsDiff(engine.softmax(logits, { temperature }).data, engine.softmaxReference(logits, { temperature }).data);
  return { coldGap: gap(0), hotGap: gap(Infinity) };
}

/** Everything the lab shows (computeAtTemperature and computeLimits together). */
export function computeSoftmaxLab(engine, logits, tau) {
  return { ...computeAtTemperature(engine, logits, tau), ...computeLimits(engine, logits) };
}

/** τ as a Python literal (∞ as float("inf")). */
const pythonTau = (tau) => (tau === Infinity ? 'float("inf")' : String(tau));

/**
 * The lab's four checks (data for AttnLab checkCells): the core against the float64 oracle at τ, at the
 * two limits, and the rows of the comparison at `temperatures`. `r` is undefined until computed.
 * `python`: each for the lesson's notebook, in the names of the lab's code cells (softmax_t and the
 * logits of the first; the comparison's own names), with τ written in, as the second cell reuses `tau`.
 */
export function softmaxChecks(r, T, temperatures, tau = 1) {
  const reference =
    tau === 0
      ? 'softmax_t(logits, 0).double() - softmax_t(logits.double(), 0)' // the limit is the formula at τ = 0
      : `softmax_t(logits, ${pythonTau(tau)}).double() - torch.softmax(logits.double() / ${pythonTau(tau)}, dim=-1)`;
  return [
    {
      id: 'check-reference',
      label: 'max |$\\alpha$ (computed here, float32) − $\\alpha$ (float64 formula)|',
      threshold: 1e-6,
      value: r?.referenceGap,
      python: `(${reference}).abs().max()`,
    },
    {
      id: 'check-cold',
      label: '$\\tau \\to 0$: max |$\\alpha$ − one-hot of the argmax|',
      threshold: 1e-7,
      value: r?.coldGap,
      python: '(softmax_t(logits, 0) - (logits == logits.max()).float() / (logits == logits.max()).sum()).abs().max()',
    },
    {
      id: 'check-hot',
      label: `τ → ∞: max |α − 1/${T}|`,
      threshold: 1e-7,
      value: r?.hotGap,
      python: '(softmax_t(logits, float("inf")) - 1 / len(logits)).abs().max()',
    },
    { id: 'check-rows', ...comparisonCheck(r?.comparison, temperatures) },
  ];
}

/** The text alternative. */
export function describeSoftmaxLab(logits, tau, result) {
  if (!result) return `Softmax of the logits ${logits.join(', ')}: not computed yet.`;
  const weights = Array.from(result.weights, (w) => w.toFixed(3)).join(', ');
  return (
    `Softmax of the logits ${logits.join(', ')} at temperature ${formatTau(tau)}: ` +
    `weights ${weights}; entropy ${result.entropy.toFixed(3)} nats, ${result.effective.toFixed(2)} effective positions.`
  );
}

/** A failed run, in the learner's words (the engine's own message is for the console). */
export const SOFTMAX_ERROR =
  'The weights could not be computed for these settings; the charts keep the last ones that could.';

/** The PyTorch code cell, with {{logits}} and {{tau}} filled in by attn-code. */
export const SOFTMAX_LAB_CODE = `import torch

logits = torch.tensor({{logits}})
tau = {{tau}}

def softmax_t(s, tau):
    if tau == 0:  # the limit tau -> 0: argmax, ties share
        top = (s == s.max()).float()
        return top / top.sum()
    return torch.softmax(s / tau, dim=-1)  # tau = inf: uniform

alpha = softmax_t(logits, tau)
H = -(alpha * torch.log(alpha)).nan_to_num().sum()  # nats
print("alpha =", alpha)
print("entropy H =", H.item())
print("effective positions exp(H) =", torch.exp(H).item())`;
