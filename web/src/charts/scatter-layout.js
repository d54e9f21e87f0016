/**
 * Where everything of a scatter plot with a hull goes, in CSS pixels, for the width it is given:
 * a square-ish plot, margins from the measured tick labels, as many ticks as each axis holds
 * without their labels touching, and a label beside each point in the first of the 8 positions
 * around it (tried outward from the points' centre first) that is inside the chart and clear of
 * every other label, point, ring and tick label. A label with no free position is left out of
 * the drawing (the data table and the points' accessible names have it). Pure: no DOM (measure
 * is passed in), so the rules are tested in Node (tests/js/charts-plane.test.js).
 *
 *   const l = layoutScatter({ width: 358, domain: { x: [0, 6], y: [0, 5] }, points, labels, measure });
 *   l.x(1.5); l.y(4); l.labels[1]; // { text: 'v1', x, y, anchor } or null (left out)
 */
import { fittingTicks, formatDecimals, linearScale, niceDomain, niceStep, niceTicks, tickCount } from './scale.js';
import { FONT_PX } from './text-width.js';

/** A point's drawn radius (px); with its 2 px stroke it covers POINT_R + 1. */
export const POINT_R = 8;
/** The highlighted point's ring (px); with its 2.5 px stroke it covers RING_R + 1.25. */
export const RING_R = 7;
/** The drag target around a point: 48 px across (at least 44 px after rounding). */
export const HIT_RADIUS_PX = 24;
/** Bold chart text (point labels) is this much wider than the regular text measured. */
export const BOLD = 1.1;
const ASCENT = 0.8 * FONT_PX; // from the baseline up, as the layout and its tests measure text
const DESCENT = 0.2 * FONT_PX;
const TOP = 12; // px above the plot: room for a point at the top of the range
const RIGHT = 12;
const GAP = 2; // px kept between a label and anything else
const TICK_GAP = 8; // px between two tick labels
const TICK_PAD = 12; // px from the plot to a tick label: clear of a point on the axis
const X_TICK_BASELINE = TICK_PAD + ASCENT; // px below the plot

/**
 * The plot's domain for a set of points ([x, y] rows): each axis padded by 12 % (at least 0.5)
 * and widened to round numbers.
 */
export function scatterDomain(points) {
  const axis = (values) => {
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    const pad = Math.max((hi - lo) * 0.12, 0.5);
    return niceDomain(lo - pad, hi + pad, 6);
  };
  return { x: axis(points.map((p) => p[0])), y: axis(points.map((p) => p[1])) };
}

/** The box of a text drawn at (x, baseline y) with an anchor, `width` px wide. */
export function textBox(width, x, y, anchor = 'middle') {
  const left = anchor === 'middle' ? x - width / 2 : anchor === 'end' ? x - width : x;
  return { left, right: left + width, top: y - ASCENT, bottom: y + DESCENT };
}

/**
 * Whether two shapes come closer than `gap` px: boxes { left, right, top, bottom } or circles
 * { cx, cy, r } (a circle and a box by the distance from its centre to the box).
 */
export function boxesTouch(a, b, gap = 0) {
  if ('r' in a && 'r' in b) return Math.hypot(a.cx - b.cx, a.cy - b.cy) < a.r + b.r + gap;
  if ('r' in a || 'r' in b) {
    const [c, box] = 'r' in a ? [a, b] : [b, a];
    const dx = Math.max(box.left - c.cx, 0, c.cx - box.right);
    const dy = Math.max(box.top - c.cy, 0, c.cy - box.bottom);
    return Math.hypot(dx, dy) < c.r + gap;
  }
  return a.left < b.right + gap && b.left < a.right + gap && a.top < b.bottom + gap && b.top < a.bottom + gap;
}

const circle = (cx, cy, r) => ({ cx, cy, r });
const tickText = (t) => formatDecimals(t, 6);

/**
 * @param {{ width: number, domain: { x: number[], y: number[] }, points: number[][],
 *   labels?: string[], highlight?: number[] | null, highlightLabel?: string,
 *   measure: (text: string, px: number) => number }} options
 */
export function layoutScatter({ width, domain, points, labels = [], highlight = null, highlightLabel = '', measure }) {
  const w = Math.max(180, Math.round(width));
  const textWidth = (text) => measure(text, FONT_PX);
  // a square-ish plot: its height from a first guess of its width (the y tick labels set the left margin)
  const plotHeight = Math.round(Math.min(560, Math.max(150, (w - 40 - RIGHT) * 0.86)));
  const top = TOP;
  const bottom = top + plotHeight;
  const yTicks = niceTicks(domain.y[0], domain.y[1], tickCount(plotHeight, 56, 6));
  const yText = yTicks.map(tickText);
  const left = Math.ceil(Math.max(0, ...yText.map(textWidth))) + TICK_PAD + 2;
  const right = w - RIGHT;
  const x = linearScale(domain.x, [left, right]);
  const y = linearScale(domain.y, [bottom, top]);
  const height = Math.round(bottom + X_TICK_BASELINE + DESCENT + 4);
  const bounds = { left: 0, right: w, top: 0, bottom: height };

  const yTickMarks = yTicks.map((value, i) => ({ value, y: y(value), text: yText[i], x: left - TICK_PAD }));
  const xTickMarks = fittingTicks(domain.x, x, { width: w, textWidth, gap: TICK_GAP, most: 7 }).map((t) => ({
    ...t,
    y: bottom + X_TICK_BASELINE,
  }));

  // what a label must keep clear of: tick labels, points, the highlighted point's ring
  const taken = [
    ...yTickMarks.map((t) => textBox(textWidth(t.text), t.x, t.y + 4, 'end')),
    ...xTickMarks.map((t) => textBox(textWidth(t.text), t.x, t.y)),
    ...points.map((p) => circle(x(p[0]), y(p[1]), POINT_R + 1)),
  ];
  if (highlight) taken.push(circle(x(highlight[0]), y(highlight[1]), RING_R + 1.25));
  const centre = points.length
    ? [points.reduce((s, p) => s + x(p[0]), 0) / points.length, points.reduce((s, p) => s + y(p[1]), 0) / points.length]
    : [(left + right) / 2, (top + bottom) / 2];
  const place = (cx, cy, text) => {
    if (!text) return null;
    const spot = freeSpot(cx, cy, textWidth(text) * BOLD, centre, taken, bounds);
    return spot && { text, ...spot };
  };
  const pointLabels = points.map((p, i) => place(x(p[0]), y(p[1]), labels[i] ?? ''));
  const markLabel = highlight ? place(x(highlight[0]), y(highlight[1]), highlightLabel) : null;

  return {
    width: w,
    height,
    plot: { left, right, top, bottom },
    x,
    y,
    xTicks: xTickMarks,
    yTicks: yTickMarks,
    /** The keyboard's and the pointer's rounding unit is a tenth of a round step of each axis. */
    steps: { x: niceStep(domain.x[1] - domain.x[0], 6), y: niceStep(domain.y[1] - domain.y[0], 6) },
    labels: pointLabels,
    highlightLabel: markLabel,
  };
}

// The 8 positions around a point, by their direction (degrees, counter-clockwise from east, y up).
const SPOTS = [
  ['NE', 45],
  ['NW', 135],
  ['SE', 315],
  ['SW', 225],
  ['E', 0],
  ['W', 180],
  ['N', 90],
  ['S', 270],
];
const SIDE = POINT_R + 1 + GAP + 1; // px from a point's centre to a label beside, above or below it
const CORNER = Math.ceil(SIDE * 0.75); // the same for a label at a corner, along each axis

/** The box (and text position) of a label of width `tw` at `spot` around (cx, cy). */
function spotBox(spot, cx, cy, tw) {
  const h = ASCENT + DESCENT;
  const [bx, by] = {
    E: [cx + SIDE, cy - h / 2],
    W: [cx - SIDE - tw, cy - h / 2],
    N: [cx - tw / 2, cy - SIDE - h],
    S: [cx - tw / 2, cy + SIDE],
    NE: [cx + CORNER, cy - CORNER - h],
    NW: [cx - CORNER - tw, cy - CORNER - h],
    SE: [cx + CORNER, cy + CORNER],
    SW: [cx - CORNER - tw, cy + CORNER],
  }[spot];
  return { left: bx, right: bx + tw, top: by, bottom: by + h };
}

/**
 * The first of the 8 spots around (cx, cy) whose box is inside `bounds` and clear of every box in
 * `taken` (which it then joins), tried in the order of their angle from the direction pointing
 * away from `centre` (north-east first for a point at the centre). → { x, y, anchor, spot } of
 * the text (start-anchored at the box's left edge, baseline ASCENT below its top), or null.
 */
function freeSpot(cx, cy, tw, centre, taken, bounds) {
  const dx = cx - centre[0];
  const dy = centre[1] - cy;
  const away = Math.hypot(dx, dy) < 1 ? 45 : (Math.atan2(dy, dx) * 180) / Math.PI;
  const angle = (a) => {
    const d = Math.abs((((a - away) % 360) + 360) % 360);
    return Math.min(d, 360 - d);
  };
  const order = SPOTS.map(([spot, a], k) => ({ spot, k, d: angle(a) })).sort((p, q) => p.d - q.d || p.k - q.k);
  for (const { spot } of order) {
    const box = spotBox(spot, cx, cy, tw);
    const inside =
      box.left >= bounds.left && box.right <= bounds.right && box.top >= bounds.top && box.bottom <= bounds.bottom;
    if (!inside || taken.some((b) => boxesTouch(box, b, GAP))) continue;
    taken.push(box);
    return { x: box.left, y: box.top + ASCENT, anchor: 'start', spot, box };
  }
  return null;
}
