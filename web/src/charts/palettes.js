/**
 * Colour-blind-safe sequential palettes as small tables of control points,
 * linearly interpolated in sRGB, and the contrast helpers that pick a legible
 * text colour on top of a cell.
 *
 *   paletteRgb('viridis', 0.5)      // [33, 144, 140]
 *   textColorOn([253, 231, 37])     // '#000000'
 *   paletteLut('cividis')           // Uint8ClampedArray(256 * 3) for canvas drawing
 *
 * The control points are samples of the published definitions: viridis
 * (van der Walt and Smith, matplotlib 2.0) at t = 0, 1/8, ..., 1 and cividis
 * (Nuñez, Anderton and Renslow 2018, arXiv:1712.01662) at t = 0, 0.1, ..., 1.
 */

const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

export const PALETTES = {
  viridis: ['#440154', '#472d7b', '#3b528b', '#2c728e', '#21908c', '#27ad81', '#5dc863', '#aadc32', '#fde725'].map(hex),
  cividis: [
    [0, 34, 78],
    [18, 53, 112],
    [53, 69, 108],
    [79, 87, 108],
    [102, 105, 112],
    [124, 123, 120],
    [148, 142, 119],
    [173, 163, 112],
    [200, 184, 102],
    [226, 207, 82],
    [254, 232, 56],
  ],
};

export const PALETTE_NAMES = Object.keys(PALETTES);

/** [r, g, b] (0–255, rounded) at t in [0, 1] (clamped; NaN gives the low end). */
export function paletteRgb(name, t) {
  const stops = PALETTES[name] ?? PALETTES.viridis;
  const x = Number.isFinite(t) ? Math.min(Math.max(t, 0), 1) * (stops.length - 1) : 0;
  const i = Math.min(Math.floor(x), stops.length - 2);
  const f = x - i;
  const [a, b] = [stops[i], stops[i + 1]];
  return [0, 1, 2].map((k) => Math.round(a[k] + (b[k] - a[k]) * f));
}

/** '#rrggbb' for an [r, g, b] triple. */
export const rgbHex = (rgb) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** A lookup table of `size` colours, [r0, g0, b0, r1, ...], for fast canvas fills. */
export function paletteLut(name, size = 256) {
  const lut = new Uint8ClampedArray(size * 3);
  for (let i = 0; i < size; i++) lut.set(paletteRgb(name, i / (size - 1)), i * 3);
  return lut;
}

/** WCAG 2 relative luminance of an sRGB colour (0 = black, 1 = white). */
export function relativeLuminance([r, g, b]) {
  const linear = (c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG contrast ratio between two luminances (1 to 21). */
export function contrastRatio(l1, l2) {
  const [hi, lo] = l1 > l2 ? [l1, l2] : [l2, l1];
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white, whichever contrasts more with the background colour. */
export function textColorOn(rgb) {
  const l = relativeLuminance(rgb);
  return contrastRatio(l, 0) >= contrastRatio(l, 1) ? '#000000' : '#ffffff';
}
