/**
 * Where everything of a shape diagram goes (attn-shape-chart.js), in CSS pixels, for the width it
 * is given: the two formulas (labels and sizes), each broken before "→" (and "×") when it does not fit;
 * the operand names in a margin as wide as the longest; one column per batch axis, then rows,
 * summed and columns, as wide as the width allows (at most 72 px); column heads and the "Σ over"
 * note shortened when a column is narrow. Pure: no DOM (measure is passed in), tested in Node.
 */
import { shapeText } from './shape-diagram.js';
import { FONT_PX, shorten } from './text-width.js';

const FORMULA_PX = 13; // the first line, bold monospace
const LINE = 18;
const BOX_H = 36;
const ROW = 48;
const GAP = 6;
const MAX_COLUMN = 72;

/** Monospace text is 0.6 em a character wide. */
const mono = (text, px) => String(text).length * px * 0.6;

/** `a × b → c` as one line, or broken before → (and before ×) when it is wider than `room`. */
function lines(a, b, c, room, px) {
  const fits = (parts) => parts.every((p) => mono(p, px) <= room);
  const candidates = [[`${a} × ${b} → ${c}`], [`${a} × ${b}`, ` → ${c}`], [a, ` × ${b}`, ` → ${c}`]];
  return candidates.find(fits) ?? candidates.at(-1);
}

/**
 * @param {{ width: number, shapes: ReturnType<import('./shape-diagram.js').matmulShapes>, names: string[],
 *   measure: (text: string, px: number) => number }} options
 */
export function layoutShapes({ width, shapes: s, names, measure }) {
  const w = Math.max(200, Math.round(width));
  const room = w - 8;
  const formula = lines(shapeText(s.aLabels), shapeText(s.bLabels), shapeText(s.outLabels), room, FORMULA_PX);
  const sizes = lines(shapeText(s.a), shapeText(s.b), shapeText(s.out), room, FONT_PX);
  const columns = [
    ...s.batch.map((d) => ({ head: 'batch', cells: [d.a, d.b, d.out], broadcast: d.a?.[1] !== d.b?.[1] })),
    { head: 'rows', cells: [s.rows, null, s.rows] },
    { head: 'summed', cells: [s.inner.a, s.inner.b, null], inner: true },
    { head: 'columns', cells: [null, s.cols, s.cols] },
  ];
  const left = Math.ceil(Math.max(...names.map((n) => measure(n, FONT_PX) * 1.1))) + 10;
  const column = Math.min(MAX_COLUMN, (w - left - 4) / columns.length);
  const box = column - GAP;
  const top = 4 + (formula.length + sizes.length) * LINE + LINE;
  const fit = (text) => shorten(text, column - 2, measure, FONT_PX) || text.slice(0, 1);
  return {
    width: w,
    height: top + 3 * ROW,
    formula: formula.map((text, i) => ({ text, y: 4 + LINE * (i + 0.75) })),
    sizes: sizes.map((text, i) => ({ text, y: 4 + LINE * (formula.length + i + 0.75) })),
    names: names.map((text, r) => ({ text, y: top + r * ROW + BOX_H / 2 + 4 })),
    columns: columns.map((col, c) => {
      const x = left + c * column;
      return {
        ...col,
        x,
        centre: x + box / 2,
        head: fit(col.head),
        headY: top - 6,
        summed: col.inner ? fitSummed(col.cells[0][0], column, measure) : '',
        cells: col.cells.map((cell, r) => cell && { name: cell[0], size: cell[1], y: top + r * ROW, out: r === 2 }),
      };
    }),
    box: { width: box, height: BOX_H },
    summedY: top + 2 * ROW + BOX_H / 2 + 4,
    sharedHeight: 2 * ROW - (ROW - BOX_H) + 4,
  };
}

/** "Σ over T", or "Σ T" in a narrow column. */
function fitSummed(axis, column, measure) {
  const long = `Σ over ${axis}`;
  return measure(long, FONT_PX) <= column - 2 ? long : `Σ ${axis}`;
}
