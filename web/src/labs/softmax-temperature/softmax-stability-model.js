/**
 * The stability lab's model: why softmax subtracts the maximum. The same logits go through the
 * textbook formula exp(s) / Σ exp(s), written out here in plain JavaScript as a demonstration
 * (double precision, Math.exp: exp(1000) is Infinity and Infinity / Infinity is NaN), and through
 * the core's softmax, which subtracts the maximum first. No DOM; unit-tested in Node
 * (tests/js/labs-softmax-temperature.test.js).
 */
import { formatNumber } from '../../cells/base/cell-support.js';

/** exp of anything larger is Infinity in double precision: ln(Number.MAX_VALUE) ≈ 709.78. */
export const OVERFLOW = Math.log(Number.MAX_VALUE);
/** exp of anything smaller rounds to 0 in double precision. */
export const UNDERFLOW = -745.1332191019412;

/** Logits to try, with what each one shows. */
export const STABILITY_PRESETS = [
  { logits: [0, 1, 2], what: 'small: both work' },
  { logits: [1000, 1001, 1002], what: 'large: exp overflows' },
  { logits: [-1000, -999, -998], what: 'very negative: every exp is 0' },
];

/** The textbook formula with no max subtraction, in plain JS: the demonstration of what goes wrong. */
export function naiveSoftmax(logits) {
  const exps = logits.map((s) => Math.exp(s));
  const total = exps.reduce((a, b) => a + b, 0);
  return { exps, total, weights: exps.map((e) => e / total) };
}

/**
 * Both softmaxes and what the four checks measure: whether the naive one is NaN exactly when the
 * limits predict it (an exp overflows, or every exp underflows), the core's non-finite entries,
 * |Σ α − 1|, and max |softmax(s) − softmax(s − max s)| (softmax ignores a shift).
 * @param {import('../../engine/index.js').Attention} engine
 */
export function computeStability(engine, logits) {
  const naive = naiveSoftmax(logits);
  const max = Math.max(...logits);
  const shifted = logits.map((x) => x - max);
  const overflows = logits.some((x) => x > OVERFLOW);
  const underflows = logits.every((x) => x < UNDERFLOW);
  const stable = Array.from(engine.softmax(logits).data);
  const stableShifted = Array.from(engine.softmax(shifted).data);
  return {
    logits: [...logits],
    naive,
    naiveNaN: naive.weights.some((w) => Number.isNaN(w)),
    predictedNaN: overflows || underflows,
    overflows,
    shifted,
    stable,
    nonFinite: stable.filter((w) => !Number.isFinite(w)).length,
    sumGap: Math.abs(stable.reduce((a, b) => a + b, 0) - 1),
    shiftGap: stable.reduce((m, w, i) => Math.max(m, Math.abs(w - stableShifted[i])), 0),
  };
}

/** A number as the table shows it: Infinity and NaN spelled out, as NumPy prints inf and nan. */
export const cellText = (x, digits = 0) => {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '−Infinity';
  return digits ? x.toFixed(digits) : formatNumber(x, 6);
};

/** The table (one row per position) with its sum row: [j, s, exp s, naive α, s − max s, stable α]. */
export function stabilityTable(r) {
  const rows = r.logits.map((s, j) => [
    String(j),
    cellText(s),
    cellText(r.naive.exps[j]),
    cellText(r.naive.weights[j], 4),
    cellText(r.shifted[j]),
    cellText(r.stable[j], 4),
  ]);
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  rows.push(['Σ', '', cellText(r.naive.total), cellText(sum(r.naive.weights), 4), '', cellText(sum(r.stable), 4)]);
  return rows;
}

export const STABILITY_COLUMNS = ['j', 's_j', 'exp(s_j)', 'naive α_j', 's_j − max s', 'stable α_j'];

/** What happened to the naive formula, in a sentence (also the label of its check). */
export function naiveVerdict(r) {
  if (!r) return 'Computing…';
  if (!r.predictedNaN) return 'naive softmax is finite here: no exp(s) overflows or all underflow';
  return r.overflows
    ? 'naive softmax is NaN, because exp(s) overflows float64 (s > 709.78)'
    : 'naive softmax is NaN, because every exp(s) underflows to 0 (s < −745.13)';
}

/**
 * The lab's four checks (data for AttnLab checkCells); `r` is undefined until computed. `python`:
 * each in the names of STABILITY_CODE (s, naive, stable), for the lesson's notebook; softmax(s) there
 * is SciPy's.
 */
export function stabilityChecks(r) {
  return [
    {
      id: 'check-naive',
      label: naiveVerdict(r),
      pass: r ? r.naiveNaN === r.predictedNaN : undefined,
      python: 'bool(np.isnan(naive).any()) == bool(np.isinf(np.exp(s)).any() or not np.exp(s).any())',
    },
    {
      id: 'check-finite',
      label: 'stable softmax: entries that are not finite',
      threshold: 0,
      value: r?.nonFinite,
      python: '(~np.isfinite(stable)).sum()',
    },
    {
      id: 'check-sum',
      label: 'stable softmax: $|\\sum \\alpha - 1|$',
      threshold: 1e-6,
      value: r?.sumGap,
      python: 'abs(stable.sum() - 1)',
    },
    {
      id: 'check-shift',
      label: '$\\max |\\operatorname{softmax}(s) - \\operatorname{softmax}(s - \\max s)|$',
      threshold: 1e-6,
      value: r?.shiftGap,
      python: 'np.abs(__import__("scipy.special", fromlist=["softmax"]).softmax(s) - stable).max()',
    },
  ];
}

/** The same, for the learner. */
export function naiveSummary(r) {
  if (!r) return '';
  if (!r.predictedNaN) return 'Here the naive formula works too: every exp(s) fits in a number.';
  return r.overflows
    ? 'The naive formula breaks: exp(s) of a logit above 709.78 is too large for a number, so it becomes Infinity, and Infinity / Infinity is NaN (not a number).'
    : 'The naive formula breaks: every exp(s) is too small and rounds to 0, and 0 / 0 is NaN (not a number).';
}

/** The text alternative. */
export function describeStability(logits, r) {
  if (!r) return `Naive and stable softmax of the logits ${logits.join(', ')}: not computed yet.`;
  return (
    `Logits ${logits.join(', ')}. Naive softmax: ${r.naive.weights.map((w) => cellText(w, 4)).join(', ')}. ` +
    `Stable softmax (maximum subtracted): ${r.stable.map((w) => cellText(w, 4)).join(', ')}.`
  );
}

/** The NumPy code cell, with {{logits}} filled in. */
export const STABILITY_CODE = `import numpy as np

s = np.array({{logits}}, dtype=np.float64)

# naive: exp(1000) overflows to inf, and inf / inf is nan
with np.errstate(over="ignore", invalid="ignore"):
    naive = np.exp(s) / np.exp(s).sum()

# stable: subtract the max first; the largest exponent is exp(0) = 1
z = s - s.max()
stable = np.exp(z) / np.exp(z).sum()

print("naive: ", naive)
print("stable:", stable, "sum =", stable.sum())`;
