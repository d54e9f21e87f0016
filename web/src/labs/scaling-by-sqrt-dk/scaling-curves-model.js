/**
 * The scaling curves' model: which dimensions to ask the core for (engine.scalingStatistics, the
 * mean largest weight and mean entropy of softmax(q·k) and softmax(q·k/√d) over random draws),
 * how new results join the ones kept, the checks' values, the text alternative, the exports and
 * the NumPy code. No DOM; unit-tested in Node (tests/js/labs-scaling-by-sqrt-dk.test.js).
 */

/** The dimensions of the curves: powers of two from 1 to 512. */
export const DIMS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

export const SERIES = [
  { name: 'unscaled: q·k', className: 'series-0' },
  { name: 'scaled: q·k / √d', className: 'series-1', dashed: true },
];

/** Thresholds of the checks (the lesson says where they come from). */
export const THRESHOLDS = { unscaledMax: 0.85, gap: 0.3, scaledDrift: 0.05, unscaledEntropy: 0.3 };

/**
 * The checks, in the order of checkValues(). `python`: each for the lesson's notebook, from fresh
 * draws of CURVES_CODE's weight_stats(d, scaled) → (mean largest weight, mean entropy).
 */
export const CHECKS = [
  {
    label: 'unscaled mean largest weight at $D = 128$',
    threshold: THRESHOLDS.unscaledMax,
    comparison: 'ge',
    python: 'weight_stats(128, scaled=False)[0]',
  },
  {
    label: 'unscaled − scaled mean largest weight at $D = 128$',
    threshold: THRESHOLDS.gap,
    comparison: 'ge',
    python: 'weight_stats(128, scaled=False)[0] - weight_stats(128, scaled=True)[0]',
  },
  {
    label: '|scaled mean largest weight at $D = 128$ − at $D = 8$|',
    threshold: THRESHOLDS.scaledDrift,
    comparison: 'le',
    python: 'abs(weight_stats(128, scaled=True)[0] - weight_stats(8, scaled=True)[0])',
  },
  {
    label: 'unscaled mean entropy at $D = 128$ (nats)',
    threshold: THRESHOLDS.unscaledEntropy,
    comparison: 'le',
    python: 'weight_stats(128, scaled=False)[1]',
  },
];

/** What the curves depend on besides D: a change of any of them starts them afresh. */
export const curvesKey = ({ draws, tokens, seed }) => `${draws}/${tokens}/${seed}`;

/**
 * The dimensions to compute: every d of DIMS and D when draws, tokens or the seed changed (or
 * nothing is kept yet), else only a D not computed yet (each d has its own random stream, so its
 * numbers do not depend on the other dims asked for).
 */
export function dimsToCompute(kept, state) {
  if (!kept || kept.key !== curvesKey(state)) return [...new Set([...DIMS, state.d])];
  return kept.byDim.has(state.d) ? [] : [state.d];
}

/** The kept statistics with the new ones, { key, tokens, byDim: Map d -> { maxU, maxS, entU, entS } }. */
export function mergeStatistics(kept, state, dims, unscaled, scaled) {
  const key = curvesKey(state);
  const byDim = kept?.key === key ? new Map(kept.byDim) : new Map();
  dims.forEach((d, i) =>
    byDim.set(d, {
      maxU: unscaled.meanMaxWeight[i],
      maxS: scaled.meanMaxWeight[i],
      entU: unscaled.meanEntropy[i],
      entS: scaled.meanEntropy[i],
    }),
  );
  return { key, tokens: state.tokens, byDim };
}

/**
 * The statistics for `state`, from `kept` and the engine: the kept ones at once when they hold D
 * (no engine call), else a promise of them with the missing dims computed.
 */
export function computeCurves(engine, kept, state) {
  const dims = dimsToCompute(kept, state);
  if (dims.length === 0) return kept;
  const options = { dims, draws: state.draws, seed: state.seed, tokens: state.tokens };
  return Promise.all([
    engine.scalingStatistics({ ...options, scaled: false }),
    engine.scalingStatistics({ ...options, scaled: true }),
  ]).then(([unscaled, scaled]) => mergeStatistics(kept, state, dims, unscaled, scaled));
}

/** The dims drawn, in order: the powers of two, and D when it is not one. */
export const drawnDims = (stats, d) =>
  stats ? [...stats.byDim.keys()].filter((x) => DIMS.includes(x) || x === d).sort((a, b) => a - b) : [];

/** The four checks' measured values (at D = 128 and 8), or undefined before the curves exist. */
export function checkValues(stats) {
  const at128 = stats?.byDim.get(128);
  const at8 = stats?.byDim.get(8);
  if (!at128 || !at8) return [];
  return [at128.maxU, at128.maxU - at128.maxS, Math.abs(at128.maxS - at8.maxS), at128.entU];
}

export const explainCurves = () => 'The curves could not be computed this time. Retry, or ask for fewer random draws.';

export function describeCurves(stats, { d, draws, tokens }) {
  const a = stats?.byDim.get(d);
  if (!a) return 'Curves not computed yet.';
  return (
    `Over ${draws} random draws of ${tokens} keys: at d = ${d} the unscaled weights have mean max ` +
    `${a.maxU.toFixed(3)} and mean entropy ${a.entU.toFixed(3)} nats; the scaled ones ${a.maxS.toFixed(3)} and ` +
    `${a.entS.toFixed(3)} nats. Unscaled, the max weight rises toward 1 as d grows; scaled, it stays flat.`
  );
}

export function curvesRows(stats, d) {
  return [
    ['d', 'unscaled mean max weight', 'scaled mean max weight', 'unscaled mean entropy', 'scaled mean entropy'],
    ...drawnDims(stats, d).map((x) => {
      const a = stats.byDim.get(x);
      return [x, a.maxU, a.maxS, a.entU, a.entS];
    }),
  ];
}

export function curvesObject(stats, { d, draws, tokens, seed }) {
  const dims = drawnDims(stats, d);
  const column = (field) => dims.map((x) => stats.byDim.get(x)[field]);
  return {
    draws,
    tokens,
    seed,
    dims,
    unscaled: { meanMaxWeight: column('maxU'), meanEntropy: column('entU') },
    scaled: { meanMaxWeight: column('maxS'), meanEntropy: column('entS') },
  };
}

/** The NumPy code cell, {{seed}}, {{draws}} and {{tokens}} filled in by attn-code. */
export const CURVES_CODE = `import numpy as np

rng = np.random.default_rng({{seed}})
draws, tokens = {{draws}}, {{tokens}}

def weight_stats(d, scaled):
    q = rng.standard_normal((draws, d))           # one query per draw
    # its keys, one at a time (all at once is draws * tokens * d numbers: GBs)
    logits = np.stack([(q * rng.standard_normal((draws, d))).sum(-1) for _ in range(tokens)], axis=-1)
    # logits[n, j] = q·k_j, variance d
    if scaled:
        logits /= np.sqrt(d)                      # variance 1 again
    w = np.exp(logits - logits.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    entropy = -(w * np.log(np.where(w > 0, w, 1))).sum(-1)
    return w.max(-1).mean(), entropy.mean()

for d in [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]:
    print(d, weight_stats(d, scaled=False), weight_stats(d, scaled=True))`;
