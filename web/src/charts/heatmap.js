/**
 * An annotated heatmap of a rows × cols matrix, drawn into `container`.
 *
 * Small matrices (up to SVG_LIMIT cells) are SVG: one focusable gridcell per
 * cell (role="grid", arrow keys move between cells, one tab stop) with its
 * value printed in black or white, whichever contrasts more with the cell
 * colour. Larger ones are one <canvas> pixel per cell (heatmap-canvas.js), with
 * a keyboard cursor and a magnifier instead of focusable cells and annotations.
 * Both have a colour legend, linear or log (color-scale.js).
 *
 * The chart is laid out in CSS pixels for the width its container gives it (and again
 * when that width changes), one SVG unit to a pixel, so its text is the size it says:
 * axis and legend labels and numbers in cells 12 px. A cell under MIN_ANNOTATED_CELL
 * pixels is too small for its number: the numbers are hidden and a note says so (hover,
 * focus or the data table still read every value). Elements are created once; update()
 * recolours in place.
 *
 *   const map = createHeatmap(el, { rows: 2, cols: 2, onCell: (r, c, how) => … });
 *   map.update({ data: [0, 1, 1, 0], min: 0, max: 1, palette: 'viridis', colorScale: 'log' });
 *   map.update({ highlightRow: 1 }); // outlines row 1 (-1 or null: none)
 */
import { colorScale } from './color-scale.js';
import { cssVariable, svgDocument } from './export.js';
import { createCanvasLayer } from './heatmap-canvas.js';
import { PALETTES, paletteRgb, rgbHex, textColorOn } from './palettes.js';
import { formatDecimals, niceTicks } from './scale.js';
import { setAttributes, svgElement } from './svg.js';

/** Matrices with more cells than this are drawn on a canvas, without annotations. */
export const SVG_LIMIT = 32 * 32;
/** Cells narrower than this (CSS pixels) do not print their numbers. */
export const MIN_ANNOTATED_CELL = 32;
/** Axis and legend text, in CSS pixels. */
export const FONT_PX = 12;

const LEGEND = { gap: 14, width: 12, text: 48 };
const MAX_CELL = 56;
const MAX_PLOT = { svg: 420, canvas: 480 };

/**
 * Where everything goes for a container `width` px wide: the plot's box, the cell size, which
 * rows and columns get a label. Pure (no DOM), so it can be tested in Node.
 * @param {{ rows: number, cols: number, rowLabels?: string[] | null, colLabels?: string[] | null,
 *   legend?: boolean, width?: number }} options  width: the container's width (0 or missing: the natural size)
 */
export function heatmapLayout({ rows, cols, rowLabels = null, colLabels = null, legend = true, width = 0 }) {
  const mode = rows * cols > SVG_LIMIT ? 'canvas' : 'svg';
  const charW = FONT_PX * 0.62;
  const longest = Math.max(1, ...(rowLabels ?? [String(rows - 1)]).map((s) => s.length));
  const left = Math.round(Math.min(120, 10 + longest * charW));
  const top = FONT_PX + 12;
  const right = legend ? LEGEND.gap + LEGEND.width + LEGEND.text : 8;
  const natural = mode === 'svg' ? Math.min(MAX_PLOT.svg, MAX_CELL * Math.max(rows, cols)) : MAX_PLOT.canvas;
  const room = width > 0 ? width - left - right : natural;
  let side = Math.max(40, Math.min(natural, room));
  let cell = side / Math.max(rows, cols);
  if (mode === 'svg' && cell >= 8) cell = Math.floor(cell);
  if (mode === 'svg') side = cell * Math.max(rows, cols);
  const plotW = (side * cols) / Math.max(rows, cols);
  const plotH = (side * rows) / Math.max(rows, cols);
  const [cellW, cellH] = [plotW / cols, plotH / rows];
  // Labels: every row whose text fits its height, every column whose widest label fits its width;
  // else round indices far enough apart.
  const colChars = Math.max(1, ...(colLabels ?? [String(cols - 1)]).map((s) => s.length));
  const colLabelW = colChars * charW + 6;
  const someTicks = (n, space, each) =>
    niceTicks(0, n - 1, Math.max(2, Math.min(8, Math.floor(space / each)))).filter(Number.isInteger);
  const rowTicks = cellH >= FONT_PX + 2 ? [...Array(rows).keys()] : someTicks(rows, plotH, FONT_PX * 2.5);
  const colTicks = cellW >= colLabelW ? [...Array(cols).keys()] : someTicks(cols, plotW, colLabelW + 16);
  return {
    mode,
    left,
    top,
    plotW,
    plotH,
    cellW,
    cellH,
    width: Math.ceil(left + plotW + right),
    height: Math.ceil(top + plotH + 8),
    rowTicks,
    colTicks,
    annotated: mode === 'svg' && Math.min(cellW, cellH) >= MIN_ANNOTATED_CELL,
    annotationPx: FONT_PX,
  };
}

/**
 * @param {Element} container
 * @param {{ rows: number, cols: number, rowLabels?: string[], colLabels?: string[], title?: string,
 *   format?: (v: number) => string, onCell?: (row: number, col: number, how: 'hover' | 'focus' | 'touch') => void,
 *   legend?: boolean, note?: boolean }} options  legend: false leaves out the colour legend (small multiples
 *   sharing one scale); note: false never shows the "Numbers hidden" note (a grid whose host says it once)
 */
export function createHeatmap(container, options) {
  const { rows, cols, title = 'Heatmap', format = (v) => formatDecimals(v, 2) } = options;
  const mode = rows * cols > SVG_LIMIT ? 'canvas' : 'svg';
  const rowLabels = options.rowLabels ?? null;
  const colLabels = options.colLabels ?? null;
  const onCell = options.onCell ?? (() => {});
  const showLegend = options.legend !== false;
  const showNote = options.note !== false; // false: a grid of maps whose host says it once
  const layoutFor = (width) => heatmapLayout({ rows, cols, rowLabels, colLabels, legend: showLegend, width });

  const wrap = document.createElement('div');
  wrap.className = `heatmap heatmap-${mode}`;
  wrap.style.position = 'relative';
  const svg = svgElement('svg', { class: 'heatmap-svg', 'font-size': FONT_PX });
  svg.setAttribute('role', mode === 'svg' ? 'group' : 'img');
  svg.setAttribute('aria-label', title);
  const note = document.createElement('p');
  note.className = 'hint heatmap-note';
  note.hidden = true;
  note.textContent = `Numbers hidden: the cells are under ${MIN_ANNOTATED_CELL} px here.`;
  wrap.append(svg);

  const axes = svgElement('g', { class: 'axes', 'aria-hidden': 'true' }, svg);
  const gradient = svgElement(
    'linearGradient',
    { id: 'heatmap-legend', x1: 0, y1: 1, x2: 0, y2: 0 },
    svgElement('defs', {}, svg),
  );
  const legend = svgElement('g', { class: 'legend', 'aria-hidden': 'true' }, svg);
  if (!showLegend) legend.setAttribute('display', 'none');
  const legendBar = svgElement('rect', { fill: 'url(#heatmap-legend)', class: 'legend-bar' }, legend);
  const legendTicks = svgElement('g', { class: 'legend-ticks' }, legend);

  const labelOf = (r, c) => `row ${rowLabels?.[r] ?? r}, column ${colLabels?.[c] ?? c}`;
  let current = [0, 0];
  let state = { data: new Float32Array(rows * cols), min: 0, max: 1, palette: 'viridis', colorScale: 'linear' };
  let scale = colorScale({ min: 0, max: 1 });
  let g = layoutFor(0);

  function move(event, [r, c], by = 1) {
    const keys = {
      ArrowUp: [r - by, c],
      ArrowDown: [r + by, c],
      ArrowLeft: [r, c - by],
      ArrowRight: [r, c + by],
      Home: event.ctrlKey ? [0, 0] : [r, 0],
      End: event.ctrlKey ? [rows - 1, cols - 1] : [r, cols - 1],
      PageUp: [r - 10, c],
      PageDown: [r + 10, c],
    };
    const next = keys[event.key];
    return next && [Math.min(rows - 1, Math.max(0, next[0])), Math.min(cols - 1, Math.max(0, next[1]))];
  }

  // --- SVG mode: focusable cells with annotations -------------------------
  const cells = [];
  const texts = [];
  let notes = null;
  if (mode === 'svg') {
    const grid = svgElement(
      'g',
      { role: 'grid', 'aria-label': title, 'aria-rowcount': rows, 'aria-colcount': cols },
      svg,
    );
    notes = svgElement('g', { class: 'annotations', 'aria-hidden': 'true', 'pointer-events': 'none' }, svg);
    for (let r = 0; r < rows; r++) {
      const row = svgElement('g', { role: 'row' }, grid);
      for (let c = 0; c < cols; c++) {
        cells.push(
          svgElement(
            'rect',
            { role: 'gridcell', tabindex: r === 0 && c === 0 ? 0 : -1, class: 'cell', 'data-row': r, 'data-col': c },
            row,
          ),
        );
        texts.push(svgElement('text', { 'text-anchor': 'middle', class: 'annotation' }, notes));
      }
    }
    const cellOf = (target) =>
      target?.dataset?.row === undefined ? null : [Number(target.dataset.row), Number(target.dataset.col)];
    grid.addEventListener('pointerover', (event) => {
      const rc = cellOf(event.target);
      if (rc) onCell(rc[0], rc[1], 'hover');
    });
    grid.addEventListener('focusin', (event) => {
      const rc = cellOf(event.target);
      if (!rc) return;
      cells[current[0] * cols + current[1]].setAttribute('tabindex', '-1');
      current = rc;
      event.target.setAttribute('tabindex', '0');
      onCell(rc[0], rc[1], 'focus');
    });
    grid.addEventListener('keydown', (event) => {
      const next = move(event, current);
      if (!next) return;
      event.preventDefault();
      cells[next[0] * cols + next[1]].focus();
    });
  }

  // --- canvas mode: one pixel per cell, a keyboard cursor, a magnifier ------
  const frame = mode === 'canvas' ? svgElement('rect', { class: 'plot-frame', fill: 'none' }, svg) : null;
  const layer = mode === 'canvas' ? createCanvasLayer(wrap, { rows, cols, title, onCell, move }) : null;
  wrap.append(note);

  // An outline around one row (e.g. the query whose weights are being read); hidden until asked for.
  const rowMark = svgElement(
    'rect',
    { class: 'row-highlight', fill: 'none', stroke: '#3b5bdb', 'stroke-width': 3, 'pointer-events': 'none' },
    svg,
  );
  rowMark.setAttribute('visibility', 'hidden');
  function markRow(r) {
    const shown = Number.isInteger(r) && r >= 0 && r < rows;
    rowMark.setAttribute('visibility', shown ? 'visible' : 'hidden');
    if (shown)
      setAttributes(rowMark, { x: g.left, y: g.top + r * g.cellH, width: g.plotW, height: g.cellH, 'data-row': r });
    else rowMark.removeAttribute('data-row');
  }

  /** Places every element for the layout `g` (on creation and when the container's width changes). */
  function place() {
    const { left, top, plotW, plotH, cellW, cellH } = g;
    setAttributes(svg, { viewBox: `0 0 ${g.width} ${g.height}`, width: g.width, height: g.height });
    wrap.style.maxWidth = `${g.width}px`;
    axes.replaceChildren();
    for (const r of g.rowTicks) {
      svgElement(
        'text',
        { x: left - 6, y: top + (r + 0.5) * cellH + FONT_PX * 0.35, 'text-anchor': 'end', class: 'tick' },
        axes,
      ).textContent = rowLabels?.[r] ?? String(r);
    }
    for (const c of g.colTicks) {
      svgElement(
        'text',
        { x: left + (c + 0.5) * cellW, y: top - 8, 'text-anchor': 'middle', class: 'tick' },
        axes,
      ).textContent = colLabels?.[c] ?? String(c);
    }
    setAttributes(legendBar, { x: left + plotW + LEGEND.gap, y: top, width: LEGEND.width, height: plotH });
    if (mode === 'svg') {
      const fontSize = g.annotationPx;
      for (let i = 0; i < cells.length; i++) {
        const [r, c] = [Math.floor(i / cols), i % cols];
        setAttributes(cells[i], { x: left + c * cellW, y: top + r * cellH, width: cellW, height: cellH });
        setAttributes(texts[i], {
          x: left + (c + 0.5) * cellW,
          y: top + (r + 0.5) * cellH + fontSize * 0.35,
          'font-size': fontSize,
        });
      }
      notes.setAttribute('display', g.annotated ? 'inline' : 'none');
      note.hidden = g.annotated || !showNote;
    } else {
      setAttributes(frame, { x: left, y: top, width: plotW, height: plotH });
      layer.place(g);
    }
    if (rowMark.hasAttribute('data-row')) markRow(Number(rowMark.getAttribute('data-row')));
    drawLegendTicks();
  }

  function drawLegendTicks() {
    legendTicks.replaceChildren();
    const x = g.left + g.plotW + LEGEND.gap + LEGEND.width;
    for (const { label, at } of scale.ticks) {
      const y = g.top + g.plotH * (1 - at);
      svgElement('line', { x1: x, x2: x + 4, y1: y, y2: y, class: 'axis' }, legendTicks);
      svgElement('text', { x: x + 7, y: y + 4, class: 'tick' }, legendTicks).textContent = label;
    }
  }

  let width = 0;
  const resize = () => {
    const next = Math.floor(container.clientWidth);
    if (next === width) return;
    width = next;
    g = layoutFor(width);
    place();
  };
  place();
  container.append(wrap);
  resize();
  const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(resize) : null;
  observer?.observe(container);

  return {
    mode,
    svg,
    canvas: layer?.canvas ?? null,
    rows,
    cols,
    /** The current layout (see heatmapLayout). */
    get layout() {
      return g;
    },
    update(next) {
      const paletteChanged = next.palette !== undefined && next.palette !== state.palette;
      state = { ...state, ...next };
      if ('highlightRow' in next) markRow(next.highlightRow);
      if (!('data' in next) && !('colorScale' in next)) return;
      const { data, palette } = state;
      scale = colorScale({ kind: state.colorScale, min: state.min, max: state.max, data });
      wrap.dataset.colorScale = scale.kind;
      // Legend: gradient stops from the palette's control points, ticks at round values.
      if (paletteChanged || !gradient.firstChild) {
        gradient.replaceChildren();
        const stops = PALETTES[palette] ?? PALETTES.viridis;
        stops.forEach((rgb, i) =>
          svgElement('stop', { offset: i / (stops.length - 1), 'stop-color': rgbHex(rgb) }, gradient),
        );
      }
      drawLegendTicks();
      if (mode === 'svg') {
        for (let i = 0; i < cells.length; i++) {
          const v = data[i];
          const rgb = paletteRgb(palette, scale.t(v));
          const [r, c] = [Math.floor(i / cols), i % cols];
          setAttributes(cells[i], {
            fill: rgbHex(rgb),
            'data-value': v,
            'aria-label': `${labelOf(r, c)}: ${format(v)}`,
          });
          texts[i].textContent = format(v);
          const ink = textColorOn(rgb);
          texts[i].setAttribute('fill', ink);
          texts[i].style.fill = ink; // beats any stylesheet rule for text
        }
      } else {
        layer.draw(data, scale, palette);
      }
    },
    /** The colour scale in use: { kind, lo, hi, fallback, ticks }. */
    get scale() {
      return scale;
    },
    /** A self-contained SVG document of the heatmap (the canvas embedded as a PNG image). */
    exportSvg() {
      return svgDocument(svg, {
        background: cssVariable(container, '--surface', '#ffffff'),
        edit(copy) {
          if (mode === 'svg') return; // annotations are separate from cells in the live chart; keep them
          const img = copy.ownerDocument.createElementNS(svg.namespaceURI, 'image'); // not loaded: see svgDocument
          setAttributes(img, {
            x: g.left,
            y: g.top,
            width: g.plotW,
            height: g.plotH,
            preserveAspectRatio: 'none',
            href: layer.canvas.toDataURL('image/png'),
            'image-rendering': 'pixelated',
          });
          copy.append(img);
        },
      });
    },
    /** Focuses the current cell (or the canvas). */
    focus() {
      if (mode === 'svg') cells[current[0] * cols + current[1]].focus();
      else layer.focus();
    },
    /** Stops following the container's size. */
    disconnect() {
      observer?.disconnect();
    },
  };
}
