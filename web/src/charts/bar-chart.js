/**
 * A bar chart of values in [0, max], drawn as SVG into `container`.
 * Elements are created once; update() only moves them, so it is cheap enough
 * to call on every input event.
 *
 *   const chart = createBarChart(container, { labels: ['Pos 0', 'Pos 1'], max: 1 });
 *   chart.update([0.3, 0.7]);
 */
const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 480;
const HEIGHT = 240;
const MARGIN = { top: 22, right: 12, bottom: 30, left: 40 };

function element(name, attributes = {}, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  parent?.append(node);
  return node;
}

/**
 * @param {Element} container where the chart's <svg> is placed
 * @param {{ labels: string[], max?: number, title?: string, format?: (v: number) => string }} options
 * @returns {{ update(values: ArrayLike<number>): void, svg: SVGSVGElement }}
 */
export function createBarChart(container, { labels, max = 1, title = 'Bar chart', format = (v) => v.toFixed(3) }) {
  const svg = element('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', class: 'bar-chart' });
  element('title', {}, svg).textContent = title;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const y = (v) => MARGIN.top + plotHeight * (1 - Math.min(Math.max(v / max, 0), 1));

  for (const tick of [0, 0.5, 1]) {
    const ty = y(tick * max);
    element('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: ty, y2: ty, class: 'grid' }, svg);
    element('text', { x: MARGIN.left - 6, y: ty + 4, class: 'tick', 'text-anchor': 'end' }, svg).textContent = String(
      tick * max,
    );
  }

  const band = plotWidth / labels.length;
  const bars = labels.map((label, i) => {
    const x = MARGIN.left + band * i + band * 0.15;
    const width = band * 0.7;
    const rect = element('rect', { x, width, y: y(0), height: 0, class: 'bar', 'data-index': i }, svg);
    const value = element('text', { x: x + width / 2, y: y(0) - 6, class: 'value', 'text-anchor': 'middle' }, svg);
    element('text', { x: x + width / 2, y: HEIGHT - 10, class: 'label', 'text-anchor': 'middle' }, svg).textContent =
      label;
    return { rect, value };
  });
  container.append(svg);

  return {
    svg,
    update(values) {
      bars.forEach(({ rect, value }, i) => {
        const v = values[i];
        const top = y(v);
        rect.setAttribute('y', String(top));
        rect.setAttribute('height', String(y(0) - top));
        rect.setAttribute('data-value', String(v));
        value.setAttribute('y', String(top - 6));
        value.textContent = format(v);
      });
    },
  };
}
