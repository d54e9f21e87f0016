/**
 * The canvas layer of a large heatmap (charts/heatmap.js): one pixel per cell, filled through
 * ImageData from a palette table (4096 × 4096 stays interactive), a keyboard cursor, and a
 * magnifier: a 25 × 25-cell lens that shows the cells around the pointer, the finger (a tap on a
 * touch screen) or the keyboard cursor, one cell a block of pixels, where the whole plot squeezes
 * many cells into each pixel. No text is drawn into a canvas: labels stay SVG.
 *
 *   const layer = createCanvasLayer(wrap, { rows, cols, title, onCell });
 *   layer.place(geometry);                 // where the plot is, in the wrap's pixels
 *   layer.draw(data, scale, palette);      // scale: charts/color-scale.js
 */
import { float32IndexTable } from './color-scale.js';
import { paletteLut } from './palettes.js';
import { setAttributes } from './svg.js';

/** Cells across the lens (odd: the current cell in the middle). */
export const LENS_CELLS = 25;
const LENS_PX = 150;

function position(node, x, y, w, h) {
  Object.assign(node.style, { position: 'absolute', left: `${x}px`, top: `${y}px`, width: `${w}px`, height: `${h}px` });
}

/** The first row and column of the lens window around (r, c), kept inside the matrix. */
export function lensWindow(r, c, rows, cols, n = LENS_CELLS) {
  const clamp = (i, size) => Math.max(0, Math.min(size - Math.min(n, size), i - (n >> 1)));
  return [clamp(r, rows), clamp(c, cols)];
}

export function createCanvasLayer(wrap, { rows, cols, title, onCell, move }) {
  const canvas = document.createElement('canvas');
  canvas.width = cols;
  canvas.height = rows;
  canvas.className = 'heatmap-canvas';
  setAttributes(canvas, {
    tabindex: 0,
    role: 'img',
    'aria-label': `${title}: ${rows} × ${cols} cells. Arrow keys read one cell at a time (Shift moves 10).`,
  });
  const cursor = document.createElement('div');
  cursor.className = 'heatmap-cursor';
  cursor.hidden = true;
  const lens = document.createElement('div');
  lens.className = 'heatmap-lens';
  lens.hidden = true;
  lens.setAttribute('aria-hidden', 'true');
  const lensCanvas = document.createElement('canvas');
  const [nr, nc] = [Math.min(LENS_CELLS, rows), Math.min(LENS_CELLS, cols)];
  lensCanvas.width = nc;
  lensCanvas.height = nr;
  const lensMark = document.createElement('div');
  lensMark.className = 'heatmap-lens-mark';
  lens.append(lensCanvas, lensMark);
  wrap.append(canvas, cursor, lens);

  let g = null; // { left, top, plotW, plotH }
  let current = [0, 0];
  let image = null;
  const cellPx = () => (g ? Math.min(g.plotW / cols, g.plotH / rows) : 1);
  const magnifies = () => cellPx() < 8;

  function drawLens() {
    const [r, c] = current;
    const [r0, c0] = lensWindow(r, c, rows, cols);
    const context = lensCanvas.getContext('2d');
    context.clearRect(0, 0, nc, nr);
    context.drawImage(canvas, c0, r0, nc, nr, 0, 0, nc, nr);
    const side = Math.min(LENS_PX, 0.45 * Math.min(g.plotW, g.plotH));
    const block = side / Math.max(nr, nc);
    position(lensMark, (c - c0) * block, (r - r0) * block, block, block);
    // The lens sits in the plot's corner away from the current cell, so a finger does not hide it.
    const right = c < cols / 2;
    const below = r < rows / 2;
    const x = right ? g.left + g.plotW - side - 6 : g.left + 6;
    const y = below ? g.top + g.plotH - side - 6 : g.top + 6;
    position(lens, x, y, nc * block, nr * block);
    lens.dataset.row = String(r);
    lens.dataset.col = String(c);
  }

  function moveCursor(r, c, how) {
    current = [r, c];
    if (g)
      position(cursor, g.left + (c * g.plotW) / cols, g.top + (r * g.plotH) / rows, g.plotW / cols, g.plotH / rows);
    cursor.hidden = false;
    lens.hidden = !magnifies() || !g;
    if (!lens.hidden) drawLens();
    onCell(r, c, how);
  }

  const cellAt = (event) => {
    const box = canvas.getBoundingClientRect();
    const c = Math.min(cols - 1, Math.max(0, Math.floor(((event.clientX - box.left) / box.width) * cols)));
    const r = Math.min(rows - 1, Math.max(0, Math.floor(((event.clientY - box.top) / box.height) * rows)));
    return [r, c];
  };
  // A mouse reads the cell under it; a finger or pen reads the cell it taps (dragging scrolls the page).
  canvas.addEventListener('pointermove', (event) => {
    if (event.pointerType === 'mouse') moveCursor(...cellAt(event), 'hover');
  });
  canvas.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'mouse') moveCursor(...cellAt(event), 'touch');
  });
  let focused = false;
  canvas.addEventListener('pointerleave', (event) => {
    if (event.pointerType === 'mouse' && !focused) lens.hidden = true;
  });
  canvas.addEventListener('focus', () => {
    focused = true;
    moveCursor(current[0], current[1], 'focus');
  });
  canvas.addEventListener('blur', () => {
    focused = false;
    cursor.hidden = true;
    lens.hidden = true;
  });
  canvas.addEventListener('keydown', (event) => {
    const next = move(event, current, event.shiftKey ? 10 : 1);
    if (!next) return;
    event.preventDefault();
    moveCursor(next[0], next[1], 'focus');
  });

  return {
    canvas,
    lens,
    get current() {
      return current;
    },
    /** Puts the canvas over the plot: geometry in the wrap's pixels. */
    place(geometry) {
      g = geometry;
      position(canvas, g.left, g.top, g.plotW, g.plotH);
      if (!cursor.hidden) moveCursor(current[0], current[1], 'focus');
    },
    /** Colours every pixel. @param {ArrayLike<number>} data @param {{ kind: string, lo: number, hi: number, t: Function }} scale */
    draw(data, scale, palette) {
      image ??= canvas.getContext('2d').createImageData(cols, rows);
      fillPixels(image, data, scale, palette);
      canvas.getContext('2d').putImageData(image, 0, 0);
      if (!lens.hidden) drawLens();
    },
    focus() {
      canvas.focus();
    },
  };
}

/**
 * Colours one RGBA pixel per value through a 256-entry palette table packed as 32-bit words (one
 * store per pixel; NaN gets the low end). Linear scales index by (v − lo)·255/(hi − lo); log scales
 * read float32 data through a table of its top bits (color-scale.js) and other data through log10.
 */
function fillPixels(image, data, scale, palette) {
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
  const n = pixels.length;
  if (scale.kind === 'log' && data instanceof Float32Array) {
    const table = float32IndexTable(scale.t);
    const bits = new Uint32Array(data.buffer, data.byteOffset, n);
    for (let i = 0; i < n; i++) pixels[i] = words[table[bits[i] >>> 15]];
    return;
  }
  if (scale.kind === 'log') {
    for (let i = 0; i < n; i++) pixels[i] = words[Math.round(255 * scale.t(data[i])) || 0];
    return;
  }
  const { lo: min, hi: max } = scale;
  const k = max > min ? 255 / (max - min) : 0;
  const mid = max > min ? 0 : 128;
  for (let i = 0; i < n; i++) {
    let j = (((data[i] - min) * k + 0.5) | 0) + mid; // NaN -> 0
    j = j < 0 ? 0 : j > 255 ? 255 : j;
    pixels[i] = words[j];
  }
}
