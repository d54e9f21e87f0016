/**
 * Linear scales and "nice" axis ticks (1, 2, 5 × 10^k steps).
 *
 *   niceTicks(0, 4.7, 5)   // [0, 1, 2, 3, 4]
 *   niceDomain(0.2, 4.7)   // [0, 5]
 */

/** A round step (1, 2 or 5 × 10^k) close to span / count. */
export function niceStep(span, count = 5) {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(count, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const m = raw / power;
  return (m >= 7.5 ? 10 : m >= 3.5 ? 5 : m >= 1.5 ? 2 : 1) * power;
}

/** Ticks at multiples of a nice step inside [lo, hi], rounded to the step's precision. */
export function niceTicks(lo, hi, count = 5) {
  const step = niceStep(hi - lo, count);
  const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const ticks = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
    ticks.push(Number(v.toFixed(digits)));
  }
  return ticks;
}

/** [lo, hi] widened outward to multiples of a nice step; a zero span gets a unit around it. */
export function niceDomain(lo, hi, count = 5) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (hi - lo < 1e-12) [lo, hi] = [lo - 0.5, hi + 0.5];
  const step = niceStep(hi - lo, count);
  return [Math.floor(lo / step + 1e-9) * step, Math.ceil(hi / step - 1e-9) * step];
}

/** A function mapping [d0, d1] linearly onto [r0, r1], with .invert. */
export function linearScale([d0, d1], [r0, r1]) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const scale = (v) => r0 + (v - d0) * k;
  scale.invert = (r) => (k === 0 ? d0 : d0 + (r - r0) / k);
  return scale;
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
