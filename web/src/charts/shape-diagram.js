/**
 * A tensor-shape diagram of a batched matrix product A × B → C, e.g.
 * (B, h, T, T) × (B, h, T, d_v) → (B, h, T, d_v), drawn as one labelled box per
 * axis, in columns that align the axes the operands share: the batch axes
 * (broadcast as in NumPy/PyTorch matmul), A's rows, the contracted axis (A's
 * last = B's second-to-last, summed over) and B's columns.
 *
 *   const shapes = matmulShapes([2, 4, 5, 5], [2, 4, 5, 8], ['B','h','T','T'], ['B','h','T','d_v']);
 *   createShapeDiagram(el, { title }).update(shapes);
 */
import { setAttributes, svgElement } from './svg.js';

/**
 * The shapes of a batched matmul and its output, or an Error naming the mismatch.
 * @returns {{ batch: { a: ?[string, number], b: ?[string, number], out: [string, number] }[],
 *   rows: [string, number], inner: { a: [string, number], b: [string, number] }, cols: [string, number],
 *   a: number[], b: number[], out: number[], aLabels: string[], bLabels: string[], outLabels: string[] }}
 */
export function matmulShapes(a, b, aLabels = [], bLabels = []) {
  if (a.length < 2 || b.length < 2) throw new Error('each operand needs at least two axes');
  const name = (labels, i, fallback) => labels[i] || fallback;
  const la = a.map((_, i) => name(aLabels, i, i >= a.length - 2 ? ['n', 'k'][i - a.length + 2] : `b${i}`));
  const lb = b.map((_, i) => name(bLabels, i, i >= b.length - 2 ? ['k', 'm'][i - b.length + 2] : `b${i}`));
  const [n, k] = a.slice(-2);
  const [k2, m] = b.slice(-2);
  if (k !== k2) {
    throw new Error(`A's last axis (${la.at(-1)} = ${k}) must equal B's second-to-last axis (${lb.at(-2)} = ${k2})`);
  }
  const nb = Math.max(a.length, b.length) - 2;
  const batch = [];
  for (let j = 0; j < nb; j++) {
    const ia = a.length - 2 - nb + j;
    const ib = b.length - 2 - nb + j;
    const da = ia >= 0 ? [la[ia], a[ia]] : null;
    const db = ib >= 0 ? [lb[ib], b[ib]] : null;
    const sa = da?.[1] ?? 1;
    const sb = db?.[1] ?? 1;
    if (sa !== sb && sa !== 1 && sb !== 1) {
      throw new Error(
        `batch axis ${j}: ${da[0]} = ${sa} and ${db[0]} = ${sb} cannot broadcast (sizes must match or be 1)`,
      );
    }
    const size = Math.max(sa, sb);
    batch.push({ a: da, b: db, out: [(sa >= sb ? da : db)?.[0] ?? (da ?? db)[0], size] });
  }
  const out = [...batch.map((d) => d.out[1]), n, m];
  const outLabels = [...batch.map((d) => d.out[0]), la.at(-2), lb.at(-1)];
  return {
    batch,
    rows: [la.at(-2), n],
    inner: { a: [la.at(-1), k], b: [lb.at(-2), k2] },
    cols: [lb.at(-1), m],
    a,
    b,
    out,
    aLabels: la,
    bLabels: lb,
    outLabels,
  };
}

/** "(B, h, T, T)" */
export const shapeText = (labels) => `(${labels.join(', ')})`;

const BOX = { w: 64, h: 38, gap: 8 };
const LEFT = 64;
const TOP = 58;
const ROW = 54;

/**
 * @param {Element} container
 * @param {{ title?: string, names?: string[] }} [options] names: the row names of the two
 *   operands and the product (default 'A', 'B', 'A × B'; e.g. 'A', 'V', 'Y = AV')
 */
export function createShapeDiagram(container, { title = 'Tensor shapes', names = ['A', 'B', 'A × B'] } = {}) {
  const svg = svgElement('svg', { role: 'img', 'aria-label': title, class: 'shape-diagram' });
  container.append(svg);
  return {
    svg,
    update(s) {
      svg.replaceChildren();
      const columns = [
        ...s.batch.map((d) => ({ head: 'batch', cells: [d.a, d.b, d.out], broadcast: d.a?.[1] !== d.b?.[1] })),
        { head: 'rows', cells: [s.rows, null, s.rows] },
        { head: 'summed', cells: [s.inner.a, s.inner.b, null], inner: true },
        { head: 'columns', cells: [null, s.cols, s.cols] },
      ];
      const width = LEFT + columns.length * (BOX.w + BOX.gap) + 8;
      const height = TOP + 3 * ROW + 4;
      setAttributes(svg, { viewBox: `0 0 ${width} ${height}` });
      svg.style.maxWidth = `${width * 1.25}px`;
      svgElement('title', {}, svg).textContent = title;
      const formula = svgElement('text', { x: 4, y: 18, class: 'formula' }, svg);
      formula.textContent = `${shapeText(s.aLabels)} × ${shapeText(s.bLabels)} → ${shapeText(s.outLabels)}`;
      const sizes = svgElement('text', { x: 4, y: 36, class: 'sizes' }, svg);
      sizes.textContent = `${shapeText(s.a)} × ${shapeText(s.b)} → ${shapeText(s.out)}`;
      names.forEach((name, r) => {
        svgElement('text', { x: 4, y: TOP + r * ROW + BOX.h / 2 + 4, class: 'operand' }, svg).textContent = name;
      });
      columns.forEach((col, c) => {
        const x = LEFT + c * (BOX.w + BOX.gap);
        svgElement('text', { x: x + BOX.w / 2, y: TOP - 6, 'text-anchor': 'middle', class: 'head' }, svg).textContent =
          col.head;
        if (col.inner) {
          svgElement(
            'rect',
            { x: x - 3, y: TOP - 2, width: BOX.w + 6, height: 2 * ROW - (ROW - BOX.h) + 4, rx: 6, class: 'shared' },
            svg,
          );
          svgElement(
            'text',
            { x: x + BOX.w / 2, y: TOP + 2 * ROW + BOX.h / 2 + 4, 'text-anchor': 'middle', class: 'summed' },
            svg,
          ).textContent = `Σ over ${col.cells[0][0]}`;
        }
        col.cells.forEach((cell, r) => {
          if (!cell) return;
          const y = TOP + r * ROW;
          const out = r === 2;
          const box = svgElement(
            'rect',
            { x, y, width: BOX.w, height: BOX.h, rx: 4, class: `box${out ? ' out' : ''}${col.inner ? ' inner' : ''}` },
            svg,
          );
          if (col.broadcast && cell[1] === 1 && r < 2) box.classList.add('broadcast');
          svgElement(
            'text',
            { x: x + BOX.w / 2, y: y + 16, 'text-anchor': 'middle', class: 'axis-name' },
            svg,
          ).textContent = cell[0];
          svgElement(
            'text',
            { x: x + BOX.w / 2, y: y + 31, 'text-anchor': 'middle', class: 'axis-size' },
            svg,
          ).textContent = String(cell[1]);
        });
      });
    },
  };
}
