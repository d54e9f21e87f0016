/**
 * The dot-variance lab's model: random pairs (q, k) of dimension D from the core, their dot
 * products (the core's scores at scale 1), and what the lab shows of them: mean and variance
 * (display arithmetic), the two histograms, the check's tolerance, the text alternative.
 * No DOM; unit-tested in Node (tests/js/labs-scaling-by-sqrt-dk.test.js).
 */
import { formatNumber } from '../../cells/base/cell-support.js';

/** Four standard errors of the sample variance over D, for `samples` Gaussian dot products. */
export const varianceTolerance = (d, samples) => 4 * Math.sqrt((2 + 6 / d) / samples);

/** The histograms' range and bin width (in units of q·k). */
export const HISTOGRAM = { lo: -64, hi: 64, width: 0.5 };

/**
 * The dot products q·k of `samples` random pairs of dimension d, from the engine (main-thread or
 * worker: every call is awaited). One query against one key, at scale 1, has score exactly q·k.
 * @returns {Promise<Float32Array>}
 */
export async function dotProducts(engine, { d, samples, seed }) {
  const [q, k] = await Promise.all([engine.randn([samples, 1, d], seed), engine.randn([samples, 1, d], seed + 1)]);
  const scores = await engine.scores(q, k, { scale: 1 }); // (samples, 1, 1)
  return scores.data;
}

/** Mean, variance and the derived numbers of the dot products of dimension d. */
export function summarise(values, d) {
  const n = values.length;
  let sum = 0;
  let squares = 0;
  for (const x of values) {
    sum += x;
    squares += x * x;
  }
  const mean = sum / n;
  const variance = squares / n - mean * mean;
  return {
    d,
    n,
    mean,
    variance,
    ratio: variance / d,
    std: Math.sqrt(variance),
    stdScaled: Math.sqrt(variance / d),
    first: Array.from(values.slice(0, 5)),
  };
}

/**
 * A density histogram of values·factor: [[bin centre, count / (n·width)], …] over HISTOGRAM's range
 * (values outside it are counted in n but drawn nowhere).
 */
export function histogram(values, factor = 1, { lo, hi, width } = HISTOGRAM) {
  const bins = Math.round((hi - lo) / width);
  const counts = new Float64Array(bins);
  for (const x of values) {
    const i = Math.floor((x * factor - lo) / width);
    if (i >= 0 && i < bins) counts[i] += 1;
  }
  const scale = 1 / (values.length * width);
  return Array.from(counts, (c, i) => [lo + (i + 0.5) * width, c * scale]);
}

/** Everything the lab shows for one state. */
export async function computeDotVariance(engine, state) {
  const values = await dotProducts(engine, state);
  return {
    ...summarise(values, state.d),
    raw: histogram(values),
    scaled: histogram(values, 1 / Math.sqrt(state.d)),
  };
}

/** The error line, in the learner's words. */
export const explainVariance = () =>
  'The random pairs could not be drawn and multiplied this time. Retry, or choose fewer pairs or a smaller D.';

/** The text alternative. */
export function describeVariance(r) {
  if (!r) return 'Not computed yet.';
  return (
    `Over ${r.n} random pairs with D = ${r.d}: q·k has mean ${r.mean.toFixed(3)} and variance ${r.variance.toFixed(2)}, ` +
    `${r.ratio.toFixed(3)} times D; its spread (standard deviation ${r.std.toFixed(2)}) grows like √D. ` +
    `Divided by √D it has variance ${r.ratio.toFixed(3)}: the histogram of q·k/√D keeps one narrow shape at every D.`
  );
}

export const varianceRows = (r) => [
  ['d', 'samples', 'mean of q·k', 'variance of q·k', 'variance / d'],
  r ? [r.d, r.n, r.mean, r.variance, r.ratio] : [],
];

/** The readout under the slider: the measured variance against D. */
export const varianceSentence = (r) =>
  `variance of q·k = ${formatNumber(r.variance, 4)} ≈ D = ${r.d}; of q·k/√D: ${r.ratio.toFixed(3)} ≈ 1`;
