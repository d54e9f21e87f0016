/**
 * A line chart of one or more series against a shared x, drawn as SVG into
 * `container`, with a legend, axis titles, optional log axes (base 2 for x, base 10
 * for y) and an optional vertical marker (the current x of a slider).
 * The axes are fixed at creation; update() redraws lines and points only.
 *
 *   const chart = createLineChart(container, {
 *     title: 'Mean max weight against d', xLabel: 'd', yLabel: 'mean max weight',
 *     xLog: true, yDomain: [0, 1], xDomain: [1, 512],
 *     series: [{ name: 'unscaled', className: 'series-0' }, { name: 'scaled', className: 'series-1', dashed: true }],
 *   });
 *   chart.update([[[1, 0.4], [2, 0.5]], [[1, 0.4], [2, 0.41]]], { marker: 128 });
 *
 * Each point is a <circle> with data-series, data-x and data-y (for tests and the
 * exports), unless its series says points: false; series are told apart by dash pattern
 * and marker shape as well as colour.
 */
import { formatDecimals, linearScale, niceDomain, niceTicks } from './scale.js';
import { setAttributes, svgElement } from './svg.js';

const WIDTH = 480;
const HEIGHT = 260;
const MARGIN = { top: 30, right: 14, bottom: 42, left: 52 };
const LEGEND_PER_ROW = 3; // entries 150 units apart fit three to the plot's width

/**
 * @param {Element} container
 * @param {{ title: string, xLabel: string, yLabel: string, series: Array<{ name: string, className?: string, dashed?: boolean, points?: boolean }>,
 *   xDomain: [number, number], yDomain?: [number, number], xLog?: boolean, yLog?: boolean,
 *   xTicks?: number[], format?: (v: number) => string }} options
 * @returns {{ update(data: Array<Array<[number, number]>>, view?: { marker?: number }): void, svg: SVGSVGElement }}
 */
export function createLineChart(container, options) {
  const { title, xLabel, yLabel, series, xLog = false, yLog = false } = options;
  const format = options.format ?? ((v) => formatDecimals(v, 3));
  const svg = svgElement('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', class: 'line-chart' });
  svg.setAttribute('aria-label', title);
  svgElement('title', {}, svg).textContent = title;
  const yDomain = options.yDomain ?? [0, 1];
  const yTicks = yLog ? powersOf(10, ...yDomain) : niceTicks(...yDomain, 5);
  // room for the y tick labels beside the axis title: about 9 units a character beyond three, so
  // that labels like "100%" clear the title also when a narrow screen scales the text up
  const longest = Math.max(0, ...yTicks.map((t) => format(t).length));
  const left = MARGIN.left + 9 * Math.max(0, longest - 3);
  // the legend: LEGEND_PER_ROW entries a row, each further row pushing the plot down
  const legendRows = Math.max(1, Math.ceil(series.length / LEGEND_PER_ROW));
  const [right, top, bottom] = [WIDTH - MARGIN.right, MARGIN.top + 18 * (legendRows - 1), HEIGHT - MARGIN.bottom];
  const fx = xLog ? Math.log2 : (v) => v;
  const fy = yLog ? Math.log10 : (v) => v;
  const x = (
    (s) => (v) =>
      s(fx(v))
  )(linearScale(options.xDomain.map(fx), [left, right]));
  const y = (
    (s) => (v) =>
      s(fy(v))
  )(linearScale(yDomain.map(fy), [bottom, top]));

  const xTicks = options.xTicks ?? (xLog ? powersOf(2, ...options.xDomain) : niceTicks(...options.xDomain, 6));
  for (const t of yTicks) {
    svgElement('line', { x1: left, x2: right, y1: y(t), y2: y(t), class: 'grid' }, svg);
    svgElement('text', { x: left - 6, y: y(t) + 4, class: 'tick', 'text-anchor': 'end' }, svg).textContent = format(t);
  }
  for (const t of xTicks) {
    svgElement('line', { x1: x(t), x2: x(t), y1: top, y2: bottom, class: 'grid' }, svg);
    svgElement('text', { x: x(t), y: bottom + 16, class: 'tick', 'text-anchor': 'middle' }, svg).textContent =
      String(t);
  }
  svgElement('line', { x1: left, x2: right, y1: bottom, y2: bottom, class: 'axis' }, svg);
  svgElement('line', { x1: left, x2: left, y1: top, y2: bottom, class: 'axis' }, svg);
  svgElement(
    'text',
    { x: (left + right) / 2, y: HEIGHT - 6, class: 'axis-title', 'text-anchor': 'middle' },
    svg,
  ).textContent = xLabel;
  svgElement(
    'text',
    {
      x: 12,
      y: (top + bottom) / 2,
      class: 'axis-title',
      'text-anchor': 'middle',
      transform: `rotate(-90 12 ${(top + bottom) / 2})`,
    },
    svg,
  ).textContent = yLabel;

  const marker = svgElement('line', { y1: top, y2: bottom, class: 'marker', visibility: 'hidden' }, svg);
  const lines = series.map((s, i) => {
    const group = svgElement('g', { class: `series ${s.className ?? `series-${i}`}`, 'data-series': s.name }, svg);
    const path = svgElement(
      'path',
      { class: 'line', fill: 'none', 'stroke-dasharray': s.dashed ? '6 4' : 'none' },
      group,
    );
    return { group, path };
  });
  // legend, top left, one entry per series
  series.forEach((s, i) => {
    const lx = left + 8 + (i % LEGEND_PER_ROW) * 150;
    const ly = 14 + 18 * Math.floor(i / LEGEND_PER_ROW);
    const g = svgElement('g', { class: `legend ${s.className ?? `series-${i}`}` }, svg);
    svgElement(
      'line',
      { x1: lx, x2: lx + 22, y1: ly, y2: ly, class: 'line', 'stroke-dasharray': s.dashed ? '6 4' : 'none' },
      g,
    );
    svgElement('text', { x: lx + 28, y: ly + 4, class: 'legend-text' }, g).textContent = s.name;
  });
  container.append(svg);

  return {
    svg,
    update(data, view = {}) {
      data.forEach((points, i) => {
        const { group, path } = lines[i];
        const finite = points.filter(([px, py]) => Number.isFinite(px) && Number.isFinite(py) && (!yLog || py > 0));
        path.setAttribute(
          'd',
          finite.map(([px, py], j) => `${j ? 'L' : 'M'}${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(''),
        );
        group.querySelectorAll('.point').forEach((p) => p.remove());
        if (series[i].points === false) return; // a dense curve (a histogram): the line alone
        for (const [px, py] of finite) {
          const shape = i % 2 ? 'rect' : 'circle';
          const attrs =
            shape === 'circle'
              ? { cx: x(px), cy: y(py), r: 3.5 }
              : { x: x(px) - 3.5, y: y(py) - 3.5, width: 7, height: 7 };
          const point = svgElement(
            shape,
            { ...attrs, class: 'point', 'data-series': series[i].name, 'data-x': px, 'data-y': py },
            group,
          );
          svgElement('title', {}, point).textContent =
            `${series[i].name}: ${xLabel} = ${px}, ${yLabel} = ${format(py)}`;
        }
      });
      if (Number.isFinite(view.marker))
        setAttributes(marker, { x1: x(view.marker), x2: x(view.marker), visibility: 'visible' });
      else marker.setAttribute('visibility', 'hidden');
    },
  };
}

/** Powers of `base` covering [lo, hi] (whole exponents). */
function powersOf(base, lo, hi) {
  const out = [];
  for (let e = Math.floor(Math.log(lo) / Math.log(base) + 1e-9); base ** e <= hi * (1 + 1e-9); e++) {
    if (base ** e >= lo * (1 - 1e-9)) out.push(base ** e);
  }
  return out;
}

/** A y domain for a log axis: whole decades around [lo, hi]. */
export function logDomain(lo, hi) {
  if (!(lo > 0) || !(hi > 0)) return [1, 10];
  return [10 ** Math.floor(Math.log10(lo)), 10 ** Math.ceil(Math.log10(hi))];
}

export { niceDomain };
