/**
 * Where everything of a vector plane goes (attn-vector-plane.js), in CSS pixels, for the width it
 * is given: a square plot (at most MAX_SIZE), ticks whose labels keep a gap, and every point's and
 * arrow's label placed where it touches no other label, no mark and no tick label: its preferred
 * spot if free, else the first free one of the 8 spots around it, nearer first. A label that
 * finds no free spot is left out of the drawing (the point keeps its data-label and the figure's
 * text alternative names it). Pure: no DOM (measure is passed in), tested in Node.
 */
import { linearScale, niceTicks } from './scale.js';
import { FONT_PX } from './text-width.js';

export const MAX_SIZE = 420;
const GAP = 3;

/** The box of a label whose baseline starts at (x, y). */
const box = (x, y, w) => ({ left: x, right: x + w, top: y - FONT_PX * 0.8, bottom: y + FONT_PX * 0.25 });
const hits = (a, b) =>
  a.left < b.right + GAP && b.left < a.right + GAP && a.top < b.bottom + GAP && b.top < a.bottom + GAP;

/**
 * @param {{ width: number, radius: number, points: { at: [number, number], label?: string, size?: number,
 *   labelOffset?: [number, number] }[], arrows: { to: [number, number], from?: [number, number], label?: string,
 *   labelOffset?: [number, number] }[], measure: (text: string, px: number) => number }} o
 */
export function layoutPlane({ width, radius, points = [], arrows = [], measure }) {
  const size = Math.max(200, Math.min(MAX_SIZE, Math.round(width)));
  const ticks = niceTicks(-radius, radius, size < 320 ? 4 : 6).filter((t) => t !== 0);
  const tickText = ticks.map(String);
  const left = Math.ceil(Math.max(0, ...tickText.map((t) => measure(t, FONT_PX)))) + 8;
  const margin = { left, right: 10, top: 10, bottom: 22 };
  const x = linearScale([-radius, radius], [margin.left, size - margin.right]);
  const y = linearScale([-radius, radius], [size - margin.bottom, margin.top]);
  const clamp = (v) => Math.max(-radius, Math.min(radius, v));
  const px = ([a, b]) => [x(clamp(a)), y(clamp(b))];

  // what labels must keep clear of: tick labels and every mark
  const taken = [];
  const xTicks = ticks.map((t, i) => {
    const w = measure(tickText[i], FONT_PX);
    const b = box(x(t) - w / 2, size - margin.bottom + 16, w);
    taken.push(b);
    return { v: t, x: x(t), y: size - margin.bottom + 16, text: tickText[i] };
  });
  const yTicks = ticks.map((t, i) => {
    const w = measure(tickText[i], FONT_PX);
    taken.push(box(margin.left - 5 - w, y(t) + 4, w));
    return { v: t, y: y(t), x: margin.left - 5, text: tickText[i] };
  });
  const marks = points.map((p) => {
    const [cx, cy] = px(p.at);
    const r = (p.size ?? 5.5) + 2;
    const b = { left: cx - r, right: cx + r, top: cy - r, bottom: cy + r };
    taken.push(b);
    return [cx, cy];
  });
  const tips = arrows.map((a) => px(a.to));

  /** The first free spot for a label `text` near (cx, cy): the preferred offset, then 8 around. */
  const place = (text, [cx, cy], preferred) => {
    const w = measure(text, FONT_PX);
    const h = FONT_PX;
    const spots = [preferred];
    for (const d of [8, 16]) {
      spots.push(
        [d, -d],
        [-d - w, -d],
        [d, d + h * 0.6],
        [-d - w, d + h * 0.6],
        [-w / 2, -d - 2],
        [-w / 2, d + h],
        [d + 2, h * 0.35],
        [-d - 2 - w, h * 0.35],
      );
    }
    for (const [dx, dy] of spots) {
      const b = box(cx + dx, cy + dy, w);
      const inside = b.left >= 0 && b.right <= size && b.top >= 0 && b.bottom <= size;
      if (inside && !taken.some((t) => hits(t, b))) {
        taken.push(b);
        return { x: cx + dx, y: cy + dy };
      }
    }
    return null;
  };

  const arrowLabels = arrows.map((a, i) => (a.label ? place(a.label, tips[i], a.labelOffset ?? [6, -8]) : null));
  const pointLabels = points.map((p, i) => (p.label ? place(p.label, marks[i], p.labelOffset ?? [8, -8]) : null));
  return { size, margin, x, y, px, xTicks, yTicks, ticks, arrowLabels, pointLabels };
}
