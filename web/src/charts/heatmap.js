/**
 * An annotated heatmap of a rows × cols matrix, drawn into `container`.
 *
 * Small matrices (up to SVG_LIMIT cells) are SVG: one focusable gridcell per
 * cell (role="grid", arrow keys move between cells, one tab stop) with its
 * value printed in black or white, whichever contrasts more with the cell
 * colour. Larger ones are one <canvas> pixel per cell, filled through
 * ImageData from a palette lookup table (4096 × 4096 stays interactive), with
 * a keyboard cursor instead of focusable cells and no annotations. Both have a
 * colour legend. Elements are created once; update() recolours in place.
 *
 *   const map = createHeatmap(el, { rows: 2, cols: 2, onCell: (r, c, how) => … });
 *   map.update({ data: [0, 1, 1, 0], min: 0, max: 1, palette: 'viridis' });
 *   map.update({ highlightRow: 1 }); // outlines row 1 (-1 or null: none)
 */
import { cssVariable, svgDocument } from './export.js';
import { PALETTES, paletteLut, paletteRgb, rgbHex, textColorOn } from './palettes.js';
import { formatDecimals, niceTicks } from './scale.js';
import { setAttributes, svgElement } from './svg.js';

/** Matrices with more cells than this are drawn on a canvas, without annotations. */
export const SVG_LIMIT = 32 * 32;

const LEGEND = { gap: 18, width: 14, text: 46 };

/**
 * @param {Element} container
 * @param {{ rows: number, cols: number, rowLabels?: string[], colLabels?: string[], title?: string,
 *   format?: (v: number) => string, onCell?: (row: number, col: number, how: 'hover' | 'focus') => void,
 *   legend?: boolean }} options  legend: false leaves out the colour legend (small multiples sharing one scale)
 */
export function createHeatmap(container, options) {
  const { rows, cols, title = 'Heatmap', format = (v) => formatDecimals(v, 2) } = options;
  const mode = rows * cols > SVG_LIMIT ? 'canvas' : 'svg';
  const rowLabels = options.rowLabels ?? null;
  const colLabels = options.colLabels ?? null;
  const onCell = options.onCell ?? (() => {});
  const showLegend = options.legend !== false;

  // Layout: square cells; a plot of at most ~420 units on its long side.
  const cell = mode === 'svg' ? Math.max(14, Math.min(56, Math.floor(420 / Math.max(rows, cols)))) : 0;
  const plotW = mode === 'svg' ? cell * cols : 420 * Math.min(1, cols / rows);
  const plotH = mode === 'svg' ? cell * rows : 420 * Math.min(1, rows / cols);
  const longest = Math.max(1, ...(rowLabels ?? [String(rows - 1)]).map((s) => s.length));
  const left = Math.min(100, 12 + longest * 7);
  const top = 24;
  const width = left + plotW + (showLegend ? LEGEND.gap + LEGEND.width + LEGEND.text : 12);
  const height = top + plotH + 12;
  const px = (r) => top + (r * plotH) / rows;
  const pxc = (c) => left + (c * plotW) / cols;

  const wrap = document.createElement('div');
  wrap.className = `heatmap heatmap-${mode}`;
  wrap.style.position = 'relative';
  wrap.style.maxWidth = `${Math.max(width, 320)}px`;
  const svg = svgElement('svg', { viewBox: `0 0 ${width} ${height}`, class: 'heatmap-svg' });
  svg.setAttribute('role', mode === 'svg' ? 'group' : 'img');
  svg.setAttribute('aria-label', title);
  wrap.append(svg);

  // Axis labels: every label (or index) when they fit, else ticks at round whole indices.
  const axisFont = mode === 'svg' ? Math.min(12, Math.max(8, cell * 0.45)) : 11;
  const indices = (n) => [...Array(n).keys()];
  const someTicks = (n) => niceTicks(0, n - 1, 6).filter(Number.isInteger);
  const rowTicks = rows * 12 <= plotH ? indices(rows) : someTicks(rows);
  const colTicks =
    cols * 7 * longestOf(colLabels ?? [String(cols - 1)]) <= plotW * 1.1 ? indices(cols) : someTicks(cols);
  const axes = svgElement('g', { class: 'axes', 'aria-hidden': 'true', 'font-size': axisFont }, svg);
  for (const r of rowTicks) {
    svgElement(
      'text',
      { x: left - 6, y: px(r + 0.5) + axisFont * 0.35, 'text-anchor': 'end', class: 'tick' },
      axes,
    ).textContent = rowLabels?.[r] ?? String(r);
  }
  for (const c of colTicks) {
    svgElement('text', { x: pxc(c + 0.5), y: top - 8, 'text-anchor': 'middle', class: 'tick' }, axes).textContent =
      colLabels?.[c] ?? String(c);
  }

  // Legend: a vertical gradient from max (top) to min (bottom).
  const gradient = svgElement(
    'linearGradient',
    { id: 'heatmap-legend', x1: 0, y1: 1, x2: 0, y2: 0 },
    svgElement('defs', {}, svg),
  );
  const legendX = left + plotW + LEGEND.gap;
  const legend = svgElement('g', { class: 'legend', 'aria-hidden': 'true' }, svg);
  if (!showLegend) legend.setAttribute('display', 'none');
  svgElement(
    'rect',
    { x: legendX, y: top, width: LEGEND.width, height: plotH, fill: 'url(#heatmap-legend)', class: 'legend-bar' },
    legend,
  );
  const legendTicks = svgElement('g', { class: 'legend-ticks' }, legend);

  const labelOf = (r, c) => `row ${rowLabels?.[r] ?? r}, column ${colLabels?.[c] ?? c}`;
  let current = [0, 0];
  let state = { data: new Float32Array(rows * cols), min: 0, max: 1, palette: 'viridis' };
  const t = (v) => (state.max > state.min ? (v - state.min) / (state.max - state.min) : 0.5);

  // --- SVG mode: focusable cells with annotations -------------------------
  const cells = [];
  const texts = [];
  if (mode === 'svg') {
    const grid = svgElement(
      'g',
      { role: 'grid', 'aria-label': title, 'aria-rowcount': rows, 'aria-colcount': cols },
      svg,
    );
    const notes = svgElement('g', { class: 'annotations', 'aria-hidden': 'true', 'pointer-events': 'none' }, svg);
    const fontSize = Math.min(12, Math.max(6, cell * 0.3));
    for (let r = 0; r < rows; r++) {
      const row = svgElement('g', { role: 'row' }, grid);
      for (let c = 0; c < cols; c++) {
        cells.push(
          svgElement(
            'rect',
            {
              x: pxc(c),
              y: px(r),
              width: cell,
              height: cell,
              role: 'gridcell',
              tabindex: r === 0 && c === 0 ? 0 : -1,
              class: 'cell',
              'data-row': r,
              'data-col': c,
            },
            row,
          ),
        );
        texts.push(
          svgElement(
            'text',
            {
              x: pxc(c + 0.5),
              y: px(r + 0.5) + fontSize * 0.35,
              'text-anchor': 'middle',
              'font-size': fontSize,
              class: 'annotation',
            },
            notes,
          ),
        );
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

  // --- canvas mode: one pixel per cell, a keyboard cursor ------------------
  let canvas = null;
  let cursor = null;
  let image = null;
  if (mode === 'canvas') {
    svgElement('rect', { x: left, y: top, width: plotW, height: plotH, class: 'plot-frame', fill: 'none' }, svg);
    canvas = document.createElement('canvas');
    canvas.width = cols;
    canvas.height = rows;
    const place = (node, x, y, w, h) =>
      Object.assign(node.style, {
        position: 'absolute',
        left: `${(100 * x) / width}%`,
        top: `${(100 * y) / height}%`,
        width: `${(100 * w) / width}%`,
        height: `${(100 * h) / height}%`,
      });
    place(canvas, left, top, plotW, plotH);
    canvas.className = 'heatmap-canvas';
    setAttributes(canvas, {
      tabindex: 0,
      role: 'img',
      'aria-label': `${title}: ${rows} × ${cols} cells. Arrow keys read one cell at a time (Shift moves 10).`,
    });
    cursor = document.createElement('div');
    cursor.className = 'heatmap-cursor';
    cursor.hidden = true;
    wrap.append(canvas, cursor);
    const moveCursor = (r, c, how) => {
      current = [r, c];
      place(cursor, pxc(c), px(r), plotW / cols, plotH / rows);
      cursor.hidden = false;
      onCell(r, c, how);
    };
    canvas.addEventListener('pointermove', (event) => {
      const box = canvas.getBoundingClientRect();
      const c = Math.min(cols - 1, Math.max(0, Math.floor(((event.clientX - box.left) / box.width) * cols)));
      const r = Math.min(rows - 1, Math.max(0, Math.floor(((event.clientY - box.top) / box.height) * rows)));
      moveCursor(r, c, 'hover');
    });
    canvas.addEventListener('focus', () => moveCursor(current[0], current[1], 'focus'));
    canvas.addEventListener('blur', () => (cursor.hidden = true));
    canvas.addEventListener('keydown', (event) => {
      const next = move(event, current, event.shiftKey ? 10 : 1);
      if (!next) return;
      event.preventDefault();
      moveCursor(next[0], next[1], 'focus');
    });
  }

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
    if (shown) setAttributes(rowMark, { x: left, y: px(r), width: plotW, height: plotH / rows, 'data-row': r });
    else rowMark.removeAttribute('data-row');
  }

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

  container.append(wrap);

  return {
    mode,
    svg,
    canvas,
    rows,
    cols,
    update(next) {
      const paletteChanged = next.palette !== state.palette;
      state = { ...state, ...next };
      if ('highlightRow' in next) markRow(next.highlightRow);
      if (!('data' in next)) return;
      const { data, palette } = state;
      // Legend: gradient stops from the palette's control points, ticks at round values.
      if (paletteChanged || !gradient.firstChild) {
        gradient.replaceChildren();
        const stops = PALETTES[palette] ?? PALETTES.viridis;
        stops.forEach((rgb, i) =>
          svgElement('stop', { offset: i / (stops.length - 1), 'stop-color': rgbHex(rgb) }, gradient),
        );
      }
      legendTicks.replaceChildren();
      const span = state.max - state.min;
      for (const v of span > 0 ? niceTicks(state.min, state.max, 4) : [state.min]) {
        const y = top + plotH * (span > 0 ? 1 - (v - state.min) / span : 0.5);
        svgElement(
          'line',
          { x1: legendX + LEGEND.width, x2: legendX + LEGEND.width + 4, y1: y, y2: y, class: 'axis' },
          legendTicks,
        );
        svgElement('text', { x: legendX + LEGEND.width + 7, y: y + 4, class: 'tick' }, legendTicks).textContent =
          formatDecimals(v, 3);
      }
      if (mode === 'svg') {
        for (let i = 0; i < cells.length; i++) {
          const v = data[i];
          const rgb = paletteRgb(palette, t(v));
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
        fillPixels(
          (image ??= canvas.getContext('2d').createImageData(cols, rows)),
          data,
          state.min,
          state.max,
          palette,
        );
        const context = canvas.getContext('2d');
        context.putImageData(image, 0, 0);
      }
    },
    /** A self-contained SVG document of the heatmap (the canvas embedded as a PNG image). */
    exportSvg() {
      return svgDocument(svg, {
        background: cssVariable(container, '--surface', '#ffffff'),
        edit(copy) {
          if (mode === 'svg') {
            // Annotations are separate from cells in the live chart; keep them.
            return;
          }
          const img = document.createElementNS(svg.namespaceURI, 'image');
          setAttributes(img, {
            x: left,
            y: top,
            width: plotW,
            height: plotH,
            preserveAspectRatio: 'none',
            href: canvas.toDataURL('image/png'),
            style: 'image-rendering: pixelated',
          });
          copy.append(img);
        },
      });
    },
    /** Focuses the current cell (or the canvas). */
    focus() {
      (mode === 'svg' ? cells[current[0] * cols + current[1]] : canvas).focus();
    },
  };
}

/**
 * Colours one RGBA pixel per value through a 256-entry palette table packed as
 * 32-bit words (one store per pixel; NaN gets the low end).
 */
function fillPixels(image, data, min, max, palette) {
  const lut = paletteLut(palette, 256);
  const words = new Uint32Array(256);
  const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  for (let i = 0; i < 256; i++) {
    const [r, g, b] = [lut[i * 3], lut[i * 3 + 1], lut[i * 3 + 2]];
    words[i] = littleEndian
      ? ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0
      : ((r << 24) | (g << 16) | (b << 8) | 255) >>> 0;
  }
  const pixels = new Uint32Array(image.data.buffer);
  const k = max > min ? 255 / (max - min) : 0;
  const n = pixels.length;
  for (let i = 0; i < n; i++) {
    let j = ((data[i] - min) * k + 0.5) | 0; // NaN -> 0
    j = j < 0 ? 0 : j > 255 ? 255 : j;
    pixels[i] = words[j];
  }
}

function longestOf(labels) {
  return Math.max(1, ...labels.map((s) => s.length));
}
