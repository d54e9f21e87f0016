/**
 * A numeric table drawn as a self-contained SVG document (for exporting
 * tables such as attn-matrix as a picture). Colours are passed in, so the
 * document needs no stylesheet.
 *
 *   tableSvgDocument({ cells: [['1.00', '0.00']], rowLabels: ['q'], colLabels: ['a', 'b'],
 *                      colours: { text, muted, border, background, highlight } })
 */
import { cssVariable } from './export.js';
import { SVG_NS, setAttributes } from './svg.js';

const CHAR = 7.6; // width of a monospace character at 13px
const ROW = 26;

/** The colours for tableSvgDocument from the theme (CSS variables) that applies to `element`. */
export function themeColours(element) {
  return {
    text: cssVariable(element, '--text', '#1b1e24'),
    muted: cssVariable(element, '--muted', '#555d6b'),
    border: cssVariable(element, '--border', '#d0d4dc'),
    background: cssVariable(element, '--surface', '#ffffff'),
    highlight: 'rgba(59, 91, 219, 0.16)',
  };
}

/** @returns {string} the SVG document text */
export function tableSvgDocument({ cells, rowLabels, colLabels, highlightRow = -1, title = 'Table', colours }) {
  const doc = document.implementation.createDocument(SVG_NS, 'svg', null);
  const svg = doc.documentElement;
  const el = (name, attributes, parent = svg) => {
    const node = doc.createElementNS(SVG_NS, name);
    setAttributes(node, attributes);
    parent.append(node);
    return node;
  };
  const labelWidth = 16 + CHAR * Math.max(1, ...rowLabels.map((s) => s.length));
  const colWidths = colLabels.map(
    (label, c) => 16 + CHAR * Math.max(label.length, ...cells.map((row) => row[c].length)),
  );
  const width = labelWidth + colWidths.reduce((a, b) => a + b, 0);
  const height = ROW * (cells.length + 1);
  setAttributes(svg, {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    'font-family': 'ui-monospace, DejaVu Sans Mono, monospace',
    'font-size': 13,
  });
  el('title', {}).textContent = title;
  el('rect', { x: 0, y: 0, width, height, fill: colours.background });
  if (highlightRow >= 0 && highlightRow < cells.length) {
    el('rect', { x: 0, y: ROW * (highlightRow + 1), width, height: ROW, fill: colours.highlight });
  }
  let x = labelWidth;
  colLabels.forEach((label, c) => {
    const right = x + colWidths[c] - 8;
    el('text', { x: right, y: ROW - 8, 'text-anchor': 'end', fill: colours.muted, 'font-weight': 600 }).textContent =
      label;
    cells.forEach((row, r) => {
      el('text', { x: right, y: ROW * (r + 2) - 8, 'text-anchor': 'end', fill: colours.text }).textContent = row[c];
    });
    x += colWidths[c];
  });
  rowLabels.forEach((label, r) => {
    el('text', { x: 8, y: ROW * (r + 2) - 8, fill: colours.muted, 'font-weight': 600 }).textContent = label;
  });
  el('line', { x1: 0, x2: width, y1: ROW, y2: ROW, stroke: colours.border });
  el('line', { x1: labelWidth, x2: labelWidth, y1: 0, y2: height, stroke: colours.border });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}\n`;
}
