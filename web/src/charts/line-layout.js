/**
 * Where everything of a line chart goes (attn-line-chart.js), in CSS pixels, for the width it is
 * given: a legend that wraps by the measured width of its entries; the y axis title turned along
 * the axis, left of tick labels as wide as the widest; as many y ticks as the height holds and x
 * ticks thinned until their labels keep a gap (log axes: whole powers, base 2 for x and 10 for y);
 * the x axis title under the ticks. Pure: no DOM (measure is passed in), tested in Node.
 */
import { linearScale, niceTicks, powersOf, tickCount } from './scale.js';
import { FONT_PX, shorten } from './text-width.js';

const LINE = 16;
const GAP = 6;
const SWATCH = 22;

/** Every k-th tick, the smallest k for which neighbouring labels keep GAP between them. */
function thin(ticks, x, widths) {
  for (let k = 1; k <= ticks.length; k++) {
    const kept = ticks.filter((_, i) => i % k === 0);
    const ok = kept.every((t, i) => {
      if (i === 0) return true;
      const a = ticks.indexOf(kept[i - 1]);
      const b = ticks.indexOf(t);
      return x(t) - x(kept[i - 1]) >= (widths[a] + widths[b]) / 2 + GAP;
    });
    if (ok) return kept;
  }
  return ticks.slice(0, 1);
}

/**
 * @param {{ width: number, series: { name: string }[], xDomain: [number, number], yDomain: [number, number],
 *   xLog?: boolean, yLog?: boolean, xTicks?: number[] | null, xLabel: string, yLabel: string,
 *   format: (v: number) => string, measure: (text: string, px: number) => number, height?: number }} o
 */
export function layoutLines(o) {
  const { series, xDomain, yDomain, xLog = false, yLog = false, format, measure } = o;
  const w = Math.max(200, Math.round(o.width));
  // the legend, top left, wrapping
  const legend = [];
  let lx = 0;
  let rows = series.length ? 1 : 0;
  series.forEach((s, i) => {
    const text = shorten(s.name, w - SWATCH - 8, measure, FONT_PX);
    const size = SWATCH + 6 + measure(text, FONT_PX) + 14;
    if (lx > 0 && lx + size > w) {
      lx = 0;
      rows += 1;
    }
    legend.push({ i, x: lx, y: (rows - 1) * LINE + 12, text });
    lx += size;
  });
  const h = Math.round(o.height ?? Math.min(280, Math.max(220, w * 0.55))) + rows * LINE;
  const top = rows * LINE + 12;
  const bottom = h - (LINE + 4) - LINE; // x tick labels, then the x axis title
  const yTicks = yLog ? powersOf(10, ...yDomain) : niceTicks(...yDomain, tickCount(bottom - top, 36, 8));
  const yText = yTicks.map(format);
  const titleBand = LINE + 2; // the turned y axis title
  const left = titleBand + Math.ceil(Math.max(0, ...yText.map((t) => measure(t, FONT_PX)))) + GAP + 2;
  const right = w - 10;
  const fx = xLog ? Math.log2 : (v) => v;
  const fy = yLog ? Math.log10 : (v) => v;
  const sx = linearScale(xDomain.map(fx), [left, right]);
  const sy = linearScale(yDomain.map(fy), [bottom, top]);
  const x = (v) => sx(fx(v));
  const y = (v) => sy(fy(v));
  const xAll = o.xTicks ?? (xLog ? powersOf(2, ...xDomain) : niceTicks(...xDomain, tickCount(right - left, 48, 10)));
  const xWidths = xAll.map((t) => measure(String(t), FONT_PX));
  const xTicks = thin(xAll, x, xWidths);
  const yLabel = shorten(o.yLabel, bottom - top, measure, FONT_PX) || o.yLabel.slice(0, 1);
  return {
    width: w,
    height: h,
    plot: { left, right, top, bottom },
    x,
    y,
    legend,
    yTicks: yTicks.map((v, i) => ({ v, y: y(v), text: yText[i] })),
    // the first and last labels are kept inside the chart
    xTicks: xTicks.map((v) => {
      const half = measure(String(v), FONT_PX) / 2;
      return { v, x: x(v), labelX: Math.min(Math.max(x(v), half + 1), w - half - 1), text: String(v) };
    }),
    xLabel: { text: shorten(o.xLabel, right - left, measure, FONT_PX), x: (left + right) / 2, y: h - 4 },
    yLabel: { text: yLabel, x: 12, y: (top + bottom) / 2 },
    tickY: bottom + LINE,
  };
}
