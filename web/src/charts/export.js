/**
 * Exporting figures: a live chart's SVG as a self-contained SVG document (its
 * CSS, including var(--…) colours, inlined as presentation attributes), that
 * SVG rasterised to PNG, data as CSV or JSON, and the download itself (a Blob,
 * an object URL and an <a download>). The PNG is drawn from the SVG loaded as a blob: image, which
 * the page's Content-Security-Policy must allow (img-src blob:): under a policy that does not (the
 * strict one of README.md, "Embedding") svgToPng says so instead, and the policy is not tripped.
 *
 *   download(svgDocument(chart.svg), 'bars.svg', 'image/svg+xml');
 *   download(await svgToPng(text), 'bars.png');
 *   download(toCsv([['label', 'value'], ['a', 1]]), 'bars.csv', 'text/csv');
 */
import { pageAllows } from '../page-policy.js';
import { SVG_NS } from './svg.js';

const STYLE_PROPERTIES = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'visibility',
  'image-rendering',
];

/**
 * A standalone copy of a live <svg>: computed styles inlined as presentation attributes, style and
 * interaction attributes dropped, a background of `background` (default: --surface). The copy is
 * made in a document of its own, which loads nothing and applies no policy: `edit` adds to it with
 * copy.ownerDocument.createElementNS (an <image> with a data: URL made in the page's own document
 * would be loaded there, and refused by a strict CSP).
 * @param {SVGSVGElement} live
 * @param {{ background?: string, edit?: (copy: SVGSVGElement) => void }} [options]
 * @returns {string} the SVG document text
 */
export function svgDocument(live, { background, edit } = {}) {
  const doc = document.implementation.createDocument(SVG_NS, null, null);
  const copy = doc.importNode(live, true);
  const sources = [live, ...live.querySelectorAll('*')];
  const targets = [copy, ...copy.querySelectorAll('*')];
  sources.forEach((source, i) => {
    const target = targets[i];
    const style = getComputedStyle(source);
    if (source !== live) {
      if (style.display === 'none' || source.getAttribute('data-export') === 'skip') {
        target.remove();
        return;
      }
      for (const name of STYLE_PROPERTIES) {
        const value = style.getPropertyValue(name);
        if (value && value !== 'normal' && value !== 'auto') target.setAttribute(name, value);
      }
    }
    for (const name of ['tabindex', 'class', 'style', 'data-index', 'focusable']) target.removeAttribute(name);
  });
  const [, , width, height] = (live.getAttribute('viewBox') ?? '0 0 300 150').split(/\s+/).map(Number);
  copy.setAttribute('xmlns', SVG_NS);
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  copy.setAttribute('font-family', getComputedStyle(live).fontFamily || 'sans-serif');
  const fill = background ?? cssVariable(live, '--surface', '#ffffff');
  const rect = doc.createElementNS(SVG_NS, 'rect');
  for (const [k, v] of Object.entries({ x: 0, y: 0, width, height, fill })) rect.setAttribute(k, String(v));
  copy.insertBefore(rect, copy.firstChild);
  edit?.(copy);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}

/** The value of a CSS custom property as seen from `node`, or `fallback`. */
export function cssVariable(node, name, fallback) {
  return getComputedStyle(node).getPropertyValue(name).trim() || fallback;
}

/** Size of an SVG document's text from its width/height attributes. */
function svgSize(text) {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const root = doc.documentElement;
  return [Number(root.getAttribute('width')) || 480, Number(root.getAttribute('height')) || 240];
}

/**
 * Rasterises an SVG document to a PNG Blob at `scale` × its size.
 * @param {string} text @param {number} [scale] @returns {Promise<Blob>}
 */
export async function svgToPng(text, scale = 2) {
  if (!(await pageAllows(['img-src', 'default-src'], 'blob:'))) {
    throw new Error(
      "this page's Content-Security-Policy does not allow blob: images (img-src blob:), which drawing it needs; export the SVG image instead",
    );
  }
  const [width, height] = svgSize(text);
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const [w, h] = [Math.round(width * scale), Math.round(height * scale)];
    // An OffscreenCanvas encodes at once; a <canvas>'s toBlob waits for an idle moment, about 1 s
    // in Chromium after the click that asked for it.
    const canvas = new OffscreenCanvas(w, h);
    canvas.getContext('2d').drawImage(image, 0, 0, w, h);
    return await canvas.convertToBlob({ type: 'image/png' });
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** RFC 4180 CSV text: cells with commas, quotes or line breaks are quoted. */
export function toCsv(rows) {
  const cell = (value) => {
    const text = value === null || value === undefined ? '' : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return rows.map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** Pretty JSON text with typed arrays written as plain arrays. */
export function toJson(value) {
  return `${JSON.stringify(value, (_key, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v), 2)}\n`;
}

/**
 * Saves `data` (text or Blob) as a file named `filename` via an <a download>.
 * @param {string | Blob} data @param {string} filename @param {string} [type]
 */
export function download(data, filename, type = 'application/octet-stream') {
  const blob = data instanceof Blob ? data : new Blob([data], { type: `${type};charset=utf-8` });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** A file-name-safe version of `name` (letters, digits, dashes). */
export function fileStem(name) {
  return (
    String(name)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'figure'
  );
}
