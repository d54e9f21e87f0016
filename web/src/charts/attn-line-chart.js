/**
 * <attn-line-chart .series=${[{ name: 'loss', className: 'series-0' }]} .data=${[[[0, 2.3], [100, 0.4]]]}
 *   .xDomain=${[0, 400]} .yDomain=${[0, 3]} x-label="step" y-label="loss" label="Loss by step">
 *
 * A chart part (ChartElement): one or more series against a shared x, laid out for the width it
 * is given (line-layout.js), with a legend, axis titles, optional log axes (x-log: base 2, y-log:
 * base 10), an optional vertical marker (.marker: the current x of a slider) and event lines
 * (.events: [{ x, name }], e.g. the step at which a score crossed its line). Series are told
 * apart by dash pattern (`dashed`) and point shape (circles, squares) as well as colour
 * (className, coloured by the cell's CSS: lineChartStyles).
 * Properties: series ([{ name, className?, dashed?, points? }]; points: false draws the line only,
 * for a dense curve), data (a list of [x, y] pairs per series; non-finite points, and y ≤ 0 on a
 * log axis, are left out), xDomain, yDomain ([0, 1]), xLog, yLog, xTicks, format (y tick and point
 * text: 3 decimals), marker, events, xLabel, yLabel, height, label (accessible name).
 * Drawn: <svg class="line-chart"> with g.series[data-series] > path.line and .point
 * [data-series][data-x][data-y] (each with a <title>), g.legend > text.legend-text, text.tick,
 * text.axis-title, line.grid, line.axis, line.marker, line.event[data-x] (with a <title>: its name).
 */
import { svg } from 'lit';
import { ChartElement } from './chart-element.js';
import { layoutLines } from './line-layout.js';
import { formatDecimals } from './scale.js';

const three = (v) => formatDecimals(v, 3);
const finite = (points, yLog) =>
  (points ?? []).filter(([px, py]) => Number.isFinite(px) && Number.isFinite(py) && (!yLog || py > 0));

export class AttnLineChart extends ChartElement {
  static properties = {
    ...super.properties,
    series: { attribute: false },
    data: { attribute: false },
    xDomain: { attribute: false },
    yDomain: { attribute: false },
    xLog: { type: Boolean, attribute: 'x-log' },
    yLog: { type: Boolean, attribute: 'y-log' },
    xTicks: { attribute: false },
    format: { attribute: false },
    marker: { attribute: false },
    events: { attribute: false },
    xLabel: { attribute: 'x-label' },
    yLabel: { attribute: 'y-label' },
    height: { type: Number },
  };

  constructor() {
    super();
    this.series = [];
    this.data = [];
    this.xDomain = [0, 1];
    this.yDomain = [0, 1];
    this.xLog = false;
    this.yLog = false;
    this.xTicks = null;
    this.format = three;
    this.marker = null;
    this.events = [];
    this.xLabel = 'x';
    this.yLabel = 'y';
    this.height = null;
  }

  renderChart(width, measure) {
    const { series, xLog, yLog, format } = this;
    const l = layoutLines({
      width,
      series,
      xDomain: this.xDomain,
      yDomain: this.yDomain,
      xLog,
      yLog,
      xTicks: this.xTicks,
      xLabel: this.xLabel,
      yLabel: this.yLabel,
      format,
      measure,
      height: this.height ?? undefined,
    });
    const { left, right, top, bottom } = l.plot;
    const name = this.label || 'Line chart';
    const markerOn = Number.isFinite(this.marker);
    return svg`<svg class="line-chart" viewBox="0 0 ${l.width} ${l.height}" width=${l.width} height=${l.height}
      role="img" aria-label=${name}>
      <title>${name}</title>
      ${l.yTicks.map(
        (t) => svg`<line x1=${left} x2=${right} y1=${t.y} y2=${t.y} class="grid"></line>
          <text x=${left - 6} y=${t.y + 4} class="tick" text-anchor="end">${t.text}</text>`,
      )}
      ${l.xTicks.map(
        (t) => svg`<line x1=${t.x} x2=${t.x} y1=${top} y2=${bottom} class="grid"></line>
          <text x=${t.labelX} y=${l.tickY} class="tick" text-anchor="middle">${t.text}</text>`,
      )}
      <line x1=${left} x2=${right} y1=${bottom} y2=${bottom} class="axis"></line>
      <line x1=${left} x2=${left} y1=${top} y2=${bottom} class="axis"></line>
      <text x=${l.xLabel.x} y=${l.xLabel.y} class="axis-title" text-anchor="middle">${l.xLabel.text}</text>
      <text x=${l.yLabel.x} y=${l.yLabel.y} class="axis-title" text-anchor="middle"
        transform="rotate(-90 ${l.yLabel.x} ${l.yLabel.y})">${l.yLabel.text}</text>
      <line x1=${markerOn ? l.x(this.marker) : 0} x2=${markerOn ? l.x(this.marker) : 0} y1=${top} y2=${bottom}
        class="marker" visibility=${markerOn ? 'visible' : 'hidden'}></line>
      ${(this.events ?? [])
        .filter((e) => Number.isFinite(e.x) && e.x >= this.xDomain[0] && e.x <= this.xDomain[1])
        .map(
          (e) => svg`<line x1=${l.x(e.x)} x2=${l.x(e.x)} y1=${top} y2=${bottom} class="event" data-x=${e.x}
            stroke-dasharray="2 3"><title>${e.name}</title></line>`,
        )}
      ${series.map((s, i) => this.#series(l, s, i))}
      ${l.legend.map((e) => {
        const s = series[e.i];
        return svg`<g class="legend ${s.className ?? `series-${e.i}`}">
          <line x1=${e.x} x2=${e.x + 22} y1=${e.y} y2=${e.y} class="line" stroke-dasharray=${s.dashed ? '6 4' : 'none'}></line>
          <text x=${e.x + 28} y=${e.y + 4} class="legend-text">${e.text}</text>
        </g>`;
      })}
    </svg>`;
  }

  #series(l, s, i) {
    const points = finite(this.data?.[i], this.yLog);
    const d = points.map(([px, py], j) => `${j ? 'L' : 'M'}${l.x(px).toFixed(1)},${l.y(py).toFixed(1)}`).join('');
    const shape = (px, py) =>
      i % 2
        ? svg`<rect x=${l.x(px) - 3.5} y=${l.y(py) - 3.5} width="7" height="7" class="point"
            data-series=${s.name} data-x=${px} data-y=${py}><title>${this.#tip(s, px, py)}</title></rect>`
        : svg`<circle cx=${l.x(px)} cy=${l.y(py)} r="3.5" class="point"
            data-series=${s.name} data-x=${px} data-y=${py}><title>${this.#tip(s, px, py)}</title></circle>`;
    return svg`<g class="series ${s.className ?? `series-${i}`}" data-series=${s.name}>
      <path class="line" fill="none" stroke-dasharray=${s.dashed ? '6 4' : 'none'} d=${d}></path>
      ${s.points === false ? '' : points.map(([px, py]) => shape(px, py))}
    </g>`;
  }

  #tip(s, px, py) {
    return `${s.name}: ${this.xLabel} = ${px}, ${this.yLabel} = ${this.format(py)}`;
  }
}

customElements.define('attn-line-chart', AttnLineChart);
