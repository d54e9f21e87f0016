/**
 * The convex-combinations lab's model: what it derives for display and checking, with no DOM.
 * y itself comes from the core (engine.convexCombination, which refuses weights that are not a
 * convex combination) and the two rules from engine.rowStochasticReport; what is here is the
 * display arithmetic around them: the notebook's loop, term by term, in float32 (so every term can
 * be shown), Normalise, the "keep Σα = 1" rescaling of a drag, the learner's words for a refusal,
 * the picture's rows, the printed output and the text alternative.
 * Unit-tested in Node (tests/js/labs-convex-combinations.test.js).
 */
import { formatNumber } from '../../cells/base/cell-support.js';
import { niceDomain } from '../../charts/scale.js';

export const ROW_SUM_TOLERANCE = 1e-5; // the core's kRowSumTolerance (and ≈ torch.isclose's rtol)
export const AGREEMENT = 1e-6; // max |loop − matrix| accepted (float32 rounding is ~1e-7 here)
export const DECIMALS = 4; // Normalise and the rescaling round to this many decimals

export const fmt = (x) => formatNumber(x, 4);
export const vec = (xs) => `[${Array.from(xs, fmt).join(', ')}]`;
const sig = (x) => String(Number(x.toPrecision(6)));
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** Coordinates counted from 0, as the code counts: dim 0, dim 1, … */
export const dimLabels = (d) => Array.from({ length: d }, (_, c) => `dim ${c}`);

/** Shares (summing to 1) rounded to DECIMALS, the rounding remainder put on entry `onto`. */
function roundShares(shares, onto) {
  const scale = 10 ** DECIMALS;
  const rounded = shares.map((w) => Math.round(w * scale));
  rounded[onto] += scale - sum(rounded);
  return rounded.map((k) => k / scale);
}

/**
 * Normalise: clip negatives to 0, divide by the sum (1/T each if it is 0), round to DECIMALS and
 * put the rounding remainder on the largest weight.
 */
export function normaliseWeights(weights) {
  const clipped = weights.map((w) => (w > 0 ? w : 0));
  const total = sum(clipped);
  const shares = total > 0 ? clipped.map((w) => w / total) : clipped.map(() => 1 / clipped.length);
  return roundShares(shares, shares.indexOf(Math.max(...shares)));
}

/**
 * "Keep Σα = 1": weight `i` is set to `value` (kept in [0, 1]) and the others share what is left,
 * 1 − value, in the proportions they had in `base` (the weights when the drag began; negative ones
 * count as 0, and equal shares if none is left). Rounded to DECIMALS with the remainder on the
 * largest other weight, so the sum is exactly 1 in decimals and the dragged weight stays put.
 */
export function keepSumEdit(base, i, value) {
  const n = base.length;
  if (n === 1) return [1];
  const own = Math.min(Math.max(Number(value.toFixed(DECIMALS)), 0), 1);
  const others = base.map((w, j) => (j === i ? 0 : Math.max(w, 0)));
  const rest = sum(others);
  const shares = others.map((w, j) => (j === i ? own : (1 - own) * (rest > 0 ? w / rest : 1 / (n - 1))));
  let onto = i === 0 ? 1 : 0;
  shares.forEach((w, j) => j !== i && w > shares[onto] && (onto = j));
  return roundShares(shares, onto);
}

/**
 * The notebook's loop, y += α_j v_j one position at a time, in float32 like its tensors: every
 * term and the running sum (any weights: a weighted sum even when it is not a mixture).
 */
export function loopTerms(alpha, V) {
  const acc = new Float32Array(V[0].length);
  const terms = alpha.map((a32, j) => {
    const a = Math.fround(a32);
    const term = V[j].map((v) => Math.fround(a * Math.fround(v)));
    term.forEach((t, c) => (acc[c] = Math.fround(acc[c] + t)));
    return { j, a: alpha[j], v: V[j], term, running: Array.from(acc) };
  });
  return { terms, loop: Array.from(acc) };
}

/**
 * The current weights against the two rules (the core's report), and the loop: what the rules
 * panel, the table and the printout show, whatever the weights. null when α and V do not match.
 */
export function weightsReport(engine, alpha, V) {
  if (alpha.length !== V.length) return null;
  const report = engine.rowStochasticReport(alpha);
  const negatives = alpha.map((a, j) => [j, a]).filter(([, a]) => a < 0);
  return {
    report,
    negatives,
    sum: sum(alpha),
    okNonNegative: negatives.length === 0,
    okSum: report.maxRowSumError <= ROW_SUM_TOLERANCE,
    ...loopTerms(alpha, V),
  };
}

/**
 * y = α V from the core, with the loop it is compared against. Throws (the core's error) when the
 * core refuses the weights; the lab then keeps the last y it had and explainMixError says why.
 */
export function computeMix(engine, alpha, V) {
  const y = Array.from(engine.convexCombination(alpha, V).data);
  const { loop } = loopTerms(alpha, V);
  return { weights: alpha.slice(), y, loop, diff: Math.max(...y.map((v, c) => Math.abs(v - loop[c]))) };
}

/**
 * The notebook's three asserts as checks (attn-check as data): every weight ≥ 0, the weights sum
 * to 1, and the loop agrees with α @ V (pending while the core refuses the weights). None while
 * α and V do not match. `python`: each in the names of the code cells (NumPy's or PyTorch's alike).
 */
export function mixChecks(rules, mix) {
  if (!rules) return [];
  return [
    {
      name: 'check-nonnegative',
      label: 'min $\\alpha_j$ (all weights $\\ge 0$)',
      comparison: 'ge',
      threshold: 0,
      value: rules.report.minEntry,
      python: 'alpha.min()',
    },
    {
      name: 'check-sum',
      label: '$|\\sum_j \\alpha_j - 1|$',
      threshold: ROW_SUM_TOLERANCE,
      value: rules.report.maxRowSumError,
      python: 'abs(alpha.sum() - 1)',
    },
    {
      name: 'check-agree',
      label: mix ? 'max |loop sum − α @ V|' : 'max |loop sum − α @ V| (there is no α @ V while a rule is broken)',
      threshold: AGREEMENT,
      value: mix ? mix.diff : undefined,
      python: 'abs(y_sum - y_matrix.reshape(-1)).max()',
    },
  ];
}

/** Why y cannot be computed, in the learner's words (never the engine's message). */
export function explainMixError(error, alpha, V) {
  const keep = 'The picture keeps the last y that was a mixture.';
  if (alpha.length !== V.length) {
    return `There are ${alpha.length} weights but ${V.length} values: give one weight per value.`;
  }
  const negative = alpha.findIndex((a) => a < 0);
  if (negative >= 0) {
    return (
      `α${negative} = ${fmt(alpha[negative])} is negative, so y is not a mixture of the values. ${keep} ` +
      'Press Normalise α, or turn on “Keep Σα = 1” and drag a bar.'
    );
  }
  const total = sum(alpha);
  if (Math.abs(total - 1) > ROW_SUM_TOLERANCE) {
    return (
      `The weights add up to ${fmt(total)}, not 1, so y is not a mixture of the values. ${keep} ` +
      'Press Normalise α, or turn on “Keep Σα = 1” and drag a bar.'
    );
  }
  return `y could not be worked out from these weights (${error?.kind ?? 'an error'}). ${keep}`;
}

/**
 * The picture's rows, one per coordinate c: the values' c-th entries (identical ones share a dot
 * and a label), the stretch they span, y's entry, and the weighted sum's entry when it is not y
 * (weights that break a rule). The shared domain holds them all.
 */
export function stripRows(V, y, stray) {
  const d = V[0].length;
  const labels = dimLabels(d);
  const rows = labels.map((label, c) => {
    const byValue = new Map();
    V.forEach((row, j) => byValue.set(row[c], [...(byValue.get(row[c]) ?? []), `v${j}`]));
    const groups = [...byValue].sort((a, b) => a[0] - b[0]).map(([x, names]) => ({ x, label: names.join(', ') }));
    return {
      label,
      groups,
      span: [groups[0].x, groups.at(-1).x],
      mark: y ? y[c] : null,
      stray: stray ? stray[c] : null,
    };
  });
  const all = [...V.flat(), ...(y ?? []), ...(stray ?? [])].filter(Number.isFinite);
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const pad = Math.max((hi - lo) * 0.06, 0.25);
  return { rows, domain: niceDomain(lo - pad, hi + pad, 6) };
}

/**
 * The bars' range: [0, 1] while "keep Σα = 1" is on and every weight is a share; otherwise room
 * below 0 (to try a negative weight) and above 1, wider when typed weights need it.
 */
export function barDomain(alpha, keepSum) {
  if (keepSum && alpha.every((a) => a >= 0 && a <= 1)) return [0, 1];
  return niceDomain(Math.min(-0.5, ...alpha), Math.max(1, ...alpha), 3).slice(0, 2);
}

/** The notebook's printed output, for the current weights. */
export function printout(alpha, V, rules, mix) {
  const lines = [`Value matrix V shape: (${V.length}, ${V[0].length})`];
  if (!rules.okNonNegative) return [...lines, 'AssertionError: Weights must be non-negative!'].join('\n');
  if (!rules.okSum) return [...lines, 'AssertionError: Weights must sum to 1.0!'].join('\n');
  lines.push(`Weights alpha: ${vec(alpha)} (Sum = ${rules.sum.toFixed(2)})`);
  if (!mix) return lines.join('\n');
  lines.push(`Output mixture vector: ${vec(mix.y)}`);
  lines.push(
    mix.diff <= AGREEMENT
      ? '[OK] Loop sum and matrix multiplication verified.'
      : 'AssertionError: Loop sum and matrix product must be mathematically identical!',
  );
  return lines.join('\n');
}

/** The text alternative. */
export function describeMix(alpha, V, rules, mix) {
  if (!rules) return `${alpha.length} weights but ${V.length} values: they must match.`;
  const rows = V.map((row, j) => `v${j} = (${row.join(', ')})`).join('; ');
  const y = mix ? `y = α V = (${mix.y.map(fmt).join(', ')})` : 'not a convex combination, so there is no y';
  return `Values ${rows}. Weights α = (${alpha.join(', ')}), sum ${fmt(rules.sum)}. ${y}.`;
}

/** y as the lab reflects it in data-y: 6 significant digits, comma-separated. */
export const yAttribute = (y) => (y ? y.map(sig).join(',') : '');

/** CSV rows: one per position (its weight and value), then y. */
export function exportRows(alpha, V, y) {
  const d = V[0]?.length ?? 0;
  const head = ['position', 'alpha', ...Array.from({ length: d }, (_, c) => `v_${c}`)];
  return [head, ...V.map((row, j) => [j, alpha[j] ?? '', ...row]), ['y (alpha @ V)', '', ...(y ?? Array(d).fill(''))]];
}
