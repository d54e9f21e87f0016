/**
 * Colour scales for heatmaps: a value -> a position t in [0, 1] along a palette, and the legend's
 * ticks. No DOM.
 *
 *   const scale = colorScale({ kind: 'log', min: 0, max: 0.4, data });
 *   scale.t(0.01);   // 0.73: log10 from scale.lo to scale.hi
 *   scale.ticks;     // [{ value: 1e-6, label: '10⁻⁶' }, …]
 *
 * - linear: t = (v − min) / (max − min), the values outside clamped.
 * - log: t = (log v − log lo) / (log hi − log lo) from lo to hi = max (> 0). lo is `min` when it is
 *   positive, else the smallest positive value of the data, but never below hi·1e-6 (LOG_DECADES
 *   decades), so a few tiny values do not wash the rest out. Every value at or below lo, zeros
 *   (masked weights) included, gets the bottom colour. With no positive value (max ≤ 0) a log
 *   scale cannot be drawn: it falls back to linear and says so (`fallback`).
 */
import { formatDecimals, niceTicks } from './scale.js';

export const COLOR_SCALES = ['linear', 'log'];
export const LOG_DECADES = 6;

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** 10^k written as 10⁻³, 1, 10, 100 … */
export function powerOfTenLabel(k) {
  if (k >= 0 && k <= 3) return String(10 ** k);
  return `10${[...String(k)].map((ch) => SUPERSCRIPT[ch]).join('')}`;
}

/** The smallest positive entry of `data` (Infinity if there is none). */
export function smallestPositive(data) {
  let lo = Infinity;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (v > 0 && v < lo) lo = v;
  }
  return lo;
}

/**
 * @param {{ kind?: 'linear' | 'log', min: number, max: number, data?: ArrayLike<number> }} options
 * @returns {{ kind: 'linear' | 'log', lo: number, hi: number, fallback: string,
 *   t: (v: number) => number, ticks: Array<{ value: number, label: string, at: number }> }}
 *   ticks' `at` is their position t along the legend.
 */
export function colorScale({ kind = 'linear', min, max, data = [] }) {
  if (kind === 'log') {
    if (max > 0) return logScale(min, max, data);
    return { ...linearScale(min, max), fallback: 'no value above 0: colours are linear' };
  }
  return linearScale(min, max);
}

function linearScale(min, max) {
  const span = max - min;
  const t = (v) => (span > 0 ? Math.min(1, Math.max(0, (v - min) / span)) : 0.5);
  const values = span > 0 ? niceTicks(min, max, 4) : [min];
  return {
    kind: 'linear',
    lo: min,
    hi: max,
    fallback: '',
    t,
    ticks: values.map((value) => ({ value, label: formatDecimals(value, 3), at: t(value) })),
  };
}

function logScale(min, max, data) {
  const floor = max * 10 ** -LOG_DECADES;
  let lo = min > 0 ? min : Math.max(smallestPositive(data), floor);
  if (!(lo < max)) lo = max / 10;
  const [a, b] = [Math.log10(lo), Math.log10(max)];
  const t = (v) => (v > lo ? Math.min(1, (Math.log10(v) - a) / (b - a)) : 0);
  const first = Math.ceil(a - 1e-9);
  const last = Math.floor(b + 1e-9);
  const every = Math.max(1, Math.ceil((last - first + 1) / 5));
  const ticks = [];
  for (let k = last; k >= first; k -= every) ticks.push({ value: 10 ** k, label: powerOfTenLabel(k) });
  if (ticks.length < 2) {
    ticks.length = 0;
    for (const value of [max, lo]) ticks.push({ value, label: formatDecimals(value, 3) });
  }
  return { kind: 'log', lo, hi: max, fallback: '', t, ticks: ticks.reverse().map((x) => ({ ...x, at: t(x.value) })) };
}

/**
 * A 256-entry palette index for every float32 value, read from its top 17 bits (sign, exponent and
 * 8 bits of mantissa: within 0.4 % of the value, finer than 256 colours over a log scale), so a
 * 4096 × 4096 canvas is coloured with two table reads per pixel instead of a logarithm.
 * @param {(v: number) => number} t the scale
 * @returns {Uint8Array} index by (float32 bits) >>> 15
 */
export function float32IndexTable(t) {
  const table = new Uint8Array(1 << 17);
  const bits = new Uint32Array(1);
  const value = new Float32Array(bits.buffer);
  for (let i = 0; i < table.length; i++) {
    bits[0] = (i << 15) | 0x4000; // the middle of the bucket
    const v = value[0];
    table[i] = v === v ? Math.round(255 * t(v)) : 0; // NaN -> the bottom colour
  }
  return table;
}
