/**
 * How wide a piece of chart text is drawn, in CSS pixels, so that charts lay out their labels
 * for the width they are given instead of guessing. In a browser: a canvas's measureText with
 * the chart's own font; in Node (the layout tests): 0.6 em a character, a little wider than any
 * sans-serif digit, so a layout that fits there fits in the page too.
 *
 *   const measure = textMeasure('system-ui, sans-serif');
 *   measure('0.874', 12);   // about 29
 */

/** The size of every chart's text, in CSS pixels: the least a learner reads at any width. */
export const FONT_PX = 12;

const cache = new Map();
let context;

/** A function (text, fontPx) => width in px for `family`. Results are cached. */
export function textMeasure(family = 'system-ui, sans-serif') {
  context ??= typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  return (text, fontPx = 12) => {
    const key = `${fontPx}|${family}|${text}`;
    let width = cache.get(key);
    if (width === undefined) {
      if (context) {
        context.font = `${fontPx}px ${family}`;
        width = context.measureText(String(text)).width;
      } else {
        width = roughMeasure(text, fontPx);
      }
      if (cache.size > 5000) cache.clear();
      cache.set(key, width);
    }
    return width;
  };
}

/** The measure used where no font is known (Node, tests): 0.6 em a character. */
export const roughMeasure = (text, fontPx = 12) => String(text).length * fontPx * 0.6;

/**
 * `text` cut to fit `width` px with an ellipsis, or '' when not even two characters and the
 * ellipsis fit.
 */
export function shorten(text, width, measure, fontPx = 12) {
  const s = String(text);
  if (measure(s, fontPx) <= width) return s;
  for (let n = s.length - 1; n >= 2; n--) {
    const cut = `${s.slice(0, n).trimEnd()}…`;
    if (measure(cut, fontPx) <= width) return cut;
  }
  return '';
}
