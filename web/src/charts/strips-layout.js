/**
 * Where everything of the value strips goes (one number line per coordinate, attn-value-strips),
 * in CSS pixels, for the width it is given: the row names in a left margin as wide as the longest
 * one, one shared scale, as many ticks as the width holds without their labels touching, and the
 * labels of each line's value groups above it on as few levels as keep them apart (a label goes
 * on the lowest level where it clears the label before it by GAP px; a row is as tall as its
 * levels; a label with no room on MAX_LEVELS levels is left out of the drawing, not drawn over
 * another). The ring's label sits below the line, on its own. Pure: no DOM (measure is passed
 * in), so the rules are tested in Node (tests/js/charts-plane.test.js).
 *
 *   const l = layoutStrips({ width: 358, rows, domain: [-0.5, 3.5], markLabel: 'y', measure });
 *   l.rows[0].groups[1].label; // { text, x, y, level } or null
 */
import { fittingTicks, linearScale } from './scale.js';
import { FONT_PX, shorten } from './text-width.js';
import { BOLD } from './scatter-layout.js';

/** Levels of value labels above a line, at most. */
export const MAX_LEVELS = 3;
const ASCENT = 0.8 * FONT_PX;
const DESCENT = 0.2 * FONT_PX;
const LEVEL = 15; // px from one level of labels to the next
const TOP = 4;
const RIGHT = 14; // px right of the scale: room for a dot, the ring, the span's round end
const LABEL_ABOVE = 11; // px from the line up to a level-0 label's baseline (clear of the ring)
const MARK_BELOW = 20; // px from the line down to the ring's label's baseline
const ROW_GAP = 6;
const GAP = 6; // px between two labels on a level, or two tick labels
/** Drawn sizes (px): a value's dot, the ring, the cross. */
export const DOT_R = 5;
export const RING_R = 7;
export const CROSS = 6;

/**
 * @param {{ width: number, rows: { label: string, groups: { x: number, label: string }[],
 *   span: number[], mark: number | null, stray?: number | null }[], domain: number[],
 *   markLabel?: string, stale?: boolean, measure: (text: string, px: number) => number }} options
 */
export function layoutStrips({ width, rows, domain, markLabel = 'y', stale = false, measure }) {
  const w = Math.max(160, Math.round(width));
  const regular = (text) => measure(text, FONT_PX);
  const bold = (text) => measure(text, FONT_PX) * BOLD;
  // the row names: the margin fits the longest, up to a third of the width (longer ones shortened)
  const nameRoom = Math.floor(w / 3) - 12;
  const names = rows.map((row) => shorten(row.label, nameRoom, regular, FONT_PX));
  const nameEnd = Math.ceil(Math.max(0, ...names.map(regular))) + 2;
  const left = nameEnd + 14;
  const right = w - RIGHT;
  const x = linearScale(domain, [left, right]);
  const markText = stale ? `${markLabel} (last valid)` : markLabel;

  let top = TOP;
  const laid = rows.map((row, r) => {
    const groups = placeLevels(row.groups, x, w, bold);
    const levels = Math.max(1, ...groups.map((g) => (g.label ? g.label.level + 1 : 0)));
    const lineY = top + (levels - 1) * LEVEL + LABEL_ABOVE + ASCENT;
    groups.forEach((g) => g.label && (g.label.y = lineY - LABEL_ABOVE - g.label.level * LEVEL));
    const hasMark = row.mark !== null && row.mark !== undefined && Number.isFinite(row.mark);
    const hasStray = row.stray !== null && row.stray !== undefined && Number.isFinite(row.stray);
    const mark = hasMark ? { value: row.mark, x: x(row.mark), label: centred(markText, x(row.mark), w, bold) } : null;
    if (mark?.label) mark.label.y = lineY + MARK_BELOW;
    const laidRow = {
      index: r,
      top,
      lineY,
      name: { text: names[r], full: row.label, x: nameEnd, y: lineY + 4 },
      span: { x: x(row.span[0]) - DOT_R, width: x(row.span[1]) - x(row.span[0]) + 2 * DOT_R },
      groups,
      mark,
      stray: hasStray ? { value: row.stray, x: x(row.stray) } : null,
      bottom: lineY + MARK_BELOW + DESCENT,
    };
    top = laidRow.bottom + ROW_GAP;
    return laidRow;
  });

  const gridBottom = top;
  const tickY = gridBottom + 4 + ASCENT;
  const ticks = fittingTicks(domain, x, { width: w, textWidth: regular, gap: GAP }).map((t) => ({ ...t, y: tickY }));
  return {
    width: w,
    height: Math.round(tickY + DESCENT + 4),
    plot: { left, right },
    x,
    rows: laid,
    ticks,
    gridTop: TOP,
    gridBottom,
  };
}

/** A label of `text` centred on cx, moved inside [0, width]; shortened to fit the width. */
function centred(text, cx, width, textWidth) {
  const fitted = shorten(text, width - 2, textWidth, FONT_PX);
  if (!fitted) return null;
  const half = textWidth(fitted) / 2;
  return { text: fitted, full: text, x: Math.min(Math.max(cx, half + 1), width - half - 1), y: 0, width: 2 * half };
}

/**
 * Each group's dot, and its label on the lowest level where it clears the labels already on that
 * level (labels taken left to right) by GAP; → [{ value, x, label: { text, x, level, width } | null }].
 */
function placeLevels(groups, x, width, textWidth) {
  const laid = groups.map((g) => ({ value: g.x, x: x(g.x), label: centred(g.label, x(g.x), width, textWidth) }));
  const ends = Array(MAX_LEVELS).fill(-Infinity); // the right edge of the last label on each level
  const order = laid
    .filter((g) => g.label)
    .sort((a, b) => a.label.x - a.label.width / 2 - (b.label.x - b.label.width / 2));
  for (const g of order) {
    const start = g.label.x - g.label.width / 2;
    const level = ends.findIndex((end) => start >= end + GAP);
    if (level < 0) {
      g.label = null; // no room on any level: in the data, not drawn over another label
      continue;
    }
    g.label.level = level;
    ends[level] = start + g.label.width;
  }
  return laid;
}
