/**
 * Scales and axis ticks for every chart. Ticks, round steps and nice domains are d3-array's
 * (tree-shaken, about 3 KB). The linear map itself is the one line below: d3-scale's scaleLinear
 * would bring d3-interpolate, d3-color and d3-format along (29.6 KB minified, measured with this
 * project's Vite), for the same arithmetic.
 *
 *   niceTicks(0, 4.7, 5)   // [0, 1, 2, 3, 4]
 *   niceDomain(0.2, 4.7)   // [0, 5]
 *   linearScale([0, 1], [200, 20])(0.5)   // 110
 */
import { nice, ticks, tickStep } from 'd3-array';

/** A round step (1, 2 or 5 × 10^k) close to span / count. */
export function niceStep(span, count = 5) {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  return tickStep(0, span, Math.max(count, 1));
}

/** Ticks at multiples of a round step inside [lo, hi] (d3-array's ticks). */
export function niceTicks(lo, hi, count = 5) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  return ticks(lo, hi, count);
}

/** [lo, hi] widened outward to multiples of a round step; a zero span gets a unit around it. */
export function niceDomain(lo, hi, count = 5) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (hi - lo < 1e-12) [lo, hi] = [lo - 0.5, hi + 0.5];
  const [a, b] = nice(lo, hi, count);
  return [a + 0, b + 0]; // no -0
}

/** A function mapping [d0, d1] linearly onto [r0, r1], with .invert. */
export function linearScale([d0, d1], [r0, r1]) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const scale = (v) => r0 + (v - d0) * k;
  scale.invert = (r) => (k === 0 ? d0 : d0 + (r - r0) / k);
  return scale;
}

/**
 * How many ticks of about `count` fit an axis of `pixels` when each needs `spacing` pixels: the
 * count d3's ticks() is asked for, so that a narrow chart gets fewer, never crowded, ticks.
 */
export function tickCount(pixels, spacing, most = 10) {
  return Math.max(2, Math.min(most, Math.floor(pixels / spacing)));
}

/**
 * Ticks along a horizontal axis whose labels do not touch: about one per `spacing` px (at least
 * 3 asked for, at most `most`), fewer when needed, at round numbers whose labels, centred on
 * their ticks and kept inside [0, width], stay `gap` px apart.
 * → [{ value, text, half (half the label's width), grid (the tick's x), x (the label's centre) }]
 *
 *   fittingTicks([0, 6], linearScale([0, 6], [30, 330]), { width: 360, textWidth })
 */
export function fittingTicks(
  [lo, hi],
  scale,
  { width, textWidth, gap = 8, spacing = 50, most = 10, format = formatDecimals },
) {
  const pixels = Math.abs(scale(hi) - scale(lo));
  let best = [];
  for (let count = Math.max(3, tickCount(pixels, spacing, most)); count >= 1; count--) {
    const marks = niceTicks(lo, hi, count).map((value) => {
      const text = format(value, 6);
      const half = textWidth(text) / 2;
      return { value, text, half, grid: scale(value), x: Math.min(Math.max(scale(value), half + 1), width - half - 1) };
    });
    const clear = marks.every((m, i) => i === 0 || m.x - m.half >= marks[i - 1].x + marks[i - 1].half + gap);
    if (clear && marks.length >= 2) return marks;
    if (clear && marks.length > best.length) best = marks;
  }
  return best;
}

/** The powers of `base` inside [lo, hi] (whole exponents), for log axes. */
export function powersOf(base, lo, hi) {
  const out = [];
  if (!(lo > 0) || !(hi >= lo)) return out;
  for (let e = Math.floor(Math.log(lo) / Math.log(base) + 1e-9); base ** e <= hi * (1 + 1e-9); e++) {
    if (base ** e >= lo * (1 - 1e-9)) out.push(base ** e);
  }
  return out;
}

/**
 * Shortest text for a number rounded to `places` decimal places (no trailing
 * zeros, no "-0"): 0.8744 -> "0.874", 2 -> "2". For significant digits (1.2e-7)
 * see formatNumber in cells/base/cell-support.js.
 */
export function formatDecimals(v, places = 3) {
  if (!Number.isFinite(v)) return String(v);
  const s = Number(v.toFixed(places)).toString();
  return s === '-0' ? '0' : s;
}

/** A domain for a log axis: whole decades around [lo, hi]. */
export function logDomain(lo, hi) {
  if (!(lo > 0) || !(hi > 0)) return [1, 10];
  return [10 ** Math.floor(Math.log10(lo)), 10 ** Math.ceil(Math.log10(hi))];
}
