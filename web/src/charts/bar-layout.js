/**
 * Where everything of a bar chart goes, in CSS pixels, for the width it is given: margins from the
 * measured tick labels, as many ticks as the height holds, category labels that fit their band
 * (shortened, or every k-th shown when even a short form cannot fit), value labels only when every
 * value fits its bar's width, a row below the plot for the values of negative bars so that they
 * never sit on the category labels, and a legend that wraps. Pure: no DOM (measure is passed in),
 * so the rules are tested in Node (tests/js/charts.test.js).
 *
 *   const l = layoutBars({ width: 360, labels: ['k0', 'k1'], min: -2, max: 2, format, measure });
 *   l.y(1.5); l.bands[1]; l.labels[1].text; l.showValues; l.height
 */
import { linearScale, niceTicks, tickCount } from './scale.js';
import { FONT_PX, shorten } from './text-width.js';

const LINE = 16; // px a row of text takes
const GAP = 6; // px between a tick label and the plot, or between labels
const SWATCH = 12;

/**
 * @param {{ width: number, labels: string[], min: number, max: number, series?: string[] | null,
 *   format: (v: number) => string, measure: (text: string, px: number) => number,
 *   height?: number }} options
 */
export function layoutBars({ width, labels, min, max, series = null, format, measure, height }) {
  const w = Math.max(160, Math.round(width));
  const groups = series?.length ?? 1;
  // the legend: entries left to right, wrapping within the width
  const legend = [];
  let legendRows = 0;
  if (series) {
    let x = 0;
    legendRows = 1;
    series.forEach((name, k) => {
      const text = shorten(name, w - SWATCH - 4, measure, FONT_PX);
      const size = SWATCH + 4 + measure(text, FONT_PX) + 14;
      if (x > 0 && x + size > w) {
        x = 0;
        legendRows += 1;
      }
      legend.push({ k, x, y: (legendRows - 1) * LINE + 2, text });
      x += size;
    });
  }
  const h = Math.round(height ?? Math.min(260, Math.max(200, w * 0.5)) + legendRows * LINE);
  const valueRowBelow = min < 0;
  const top = legendRows * LINE + LINE + 4;
  const labelY = h - 6;
  const bottom = labelY - LINE - 2 - (valueRowBelow ? LINE : 0);
  const ticks = min === 0 && max === 1 ? [0, 0.5, 1] : niceTicks(min, max, tickCount(bottom - top, 40, 6));
  const tickText = ticks.map((t) => formatTick(t));
  const left = Math.ceil(Math.max(0, ...tickText.map((t) => measure(t, FONT_PX)))) + GAP + 2;
  const right = w - 4;
  const y = linearScale([min, max], [bottom, top]);
  const band = (right - left) / Math.max(labels.length, 1);
  const bands = labels.map((_, i) => left + band * i);
  const bar = series ? (band * 0.84) / groups : band * 0.7;

  // value labels: all of them when the widest possible one fits a bar (stable while dragging)
  const widest = Math.max(
    ...[min, max, min + (max - min) / 3, max - (max - min) / 7].map((v) => measure(format(v), FONT_PX)),
  );
  const showValues = widest <= (series ? bar : band) - 2;

  return {
    width: w,
    height: h,
    plot: { left, right, top, bottom },
    y,
    zero: y(Math.min(Math.max(0, min), max)),
    ticks: ticks.map((value, i) => ({ value, y: y(value), text: tickText[i] })),
    band,
    bands,
    bar,
    barX: (i, k = 0) => (series ? bands[i] + band * 0.08 + bar * k : bands[i] + band * 0.15),
    barWidth: series ? bar * 0.92 : bar,
    labels: placeLabels(fitLabels(labels, band, measure), left, w, measure),
    labelY,
    showValues,
    valueY: (v) => (v >= 0 ? Math.min(y(clampTo(v, min, max)), y(Math.max(min, 0))) - 5 : bottom + LINE - 4),
    legend,
  };
}

/** Labels moved inside [0, width]; one that would then touch the label before it is not drawn. */
function placeLabels(fitted, left, width, measure) {
  let end = -Infinity;
  return fitted.map((l) => {
    const half = measure(l.text, FONT_PX) / 2;
    const x = Math.min(Math.max(left + l.x, half + 1), width - half - 1);
    if (!l.text) return { ...l, x };
    if (x - half < end + GAP) return { ...l, x, text: '' };
    end = x + half;
    return { ...l, x };
  });
}

const clampTo = (v, lo, hi) => Math.min(Math.max(v, lo), hi);

/** Tick text: up to 4 significant figures, no "-0". */
function formatTick(t) {
  const s = String(Number(t.toPrecision(4)));
  return s === '-0' ? '0' : s;
}

/**
 * Category labels that fit their band: all in full when they fit; else each shortened with "…"
 * when that keeps a few characters; else every k-th label in full (a sequence of positions).
 * → [{ text, x, full }], text '' for a label not drawn.
 */
export function fitLabels(labels, band, measure) {
  const room = band - GAP;
  const widths = labels.map((l) => measure(l, FONT_PX));
  const centre = (i) => band * (i + 0.5);
  if (widths.every((w) => w <= room)) return labels.map((full, i) => ({ text: full, x: centre(i), full }));
  const short = labels.map((l) => shorten(l, room, measure, FONT_PX));
  if (short.every((s, i) => s.replace('…', '').length >= Math.min(3, labels[i].length)))
    return labels.map((full, i) => ({ text: short[i], x: centre(i), full }));
  const k = Math.ceil((Math.max(...widths) + GAP) / band);
  return labels.map((full, i) => ({ text: i % k === 0 ? full : '', x: centre(i), full }));
}
