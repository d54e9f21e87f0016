/**
 * <attn-scatter-hull-chart .points=${[[1, 1], [1.5, 4]]} .hull=${[0, 1]} .domain=${{ x: [0, 6], y: [0, 5] }}
 *                          label="Values and their hull" @point-input=… @point-change=…>
 *
 * A chart part (ChartElement): 2-D points with their convex hull, laid out for the width it is
 * given (scatter-layout.js: a square-ish plot, 12 px text, each point's label in a free spot
 * beside it or left out), and an optional cloud of small "mixture" dots behind them (SVG circles
 * up to CANVAS_LIMIT dots, a canvas behind the plot beyond).
 *
 * Each point is a focusable role="button": arrow keys move it by a tenth of the axis's round
 * step, Shift+arrow by half a step; a pointer (mouse, pen, touch) drags it from anywhere in an
 * invisible circle around it 48 px across (HIT_RADIUS_PX), keeping the offset it was grabbed at.
 * It fires `point-input` on every change and `point-change` when an edit is complete (pointer
 * released, or each key press), detail { points, index }; the points it draws stay the ones it is
 * given, so the owner decides (set .points from the event).
 *
 * Properties: points ([x, y] rows), hull (indices of the hull's vertices, in order), domain
 * ({ x: [lo, hi], y: [lo, hi] }; default scatterDomain(points)), mixtures ([x, y] rows), inside
 * (1/0 per mixture: inside the hull or not), path ([x, y] rows: a dashed polyline), highlight
 * ([x, y] or null: a ring) with highlightLabel (`highlight-label`), pointLabels (names; default
 * v0, v1, …), label (accessible name).
 * Drawn: <svg class="scatter-svg"> with g.axes (.grid, .tick, .axis), g.mixtures
 * (circle.mixture[.outside]), polygon.hull, polyline.path, g.highlight (circle, circle.highlight-dot,
 * text.highlight-label[data-x][data-y]), g.point-hits (circle.point-hit[data-index]) and g.points
 * (circle.point[data-index][data-x][data-y], text.point-label[data-index]); the element has
 * data-mixtures="svg" or "canvas". exportSvg() gives a standalone SVG document (mixtures as
 * circles even when a canvas shows them).
 */
import { html, nothing, svg } from 'lit';
import { ChartElement } from './chart-element.js';
import { cssVariable, svgDocument } from './export.js';
import { formatDecimals } from './scale.js';
import { HIT_RADIUS_PX, layoutScatter, POINT_R, RING_R, scatterDomain } from './scatter-layout.js';
import { svgElement } from './svg.js';
import { styleProps } from './style-props.js';

export const CANVAS_LIMIT = 500;

const clampTo = ([lo, hi], v) => Math.min(Math.max(v, lo), hi);
const round = (v, step) => Number((Math.round(v / (step / 10)) * (step / 10)).toFixed(6));
const KEYS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
// styles set through styleProps (a strict CSP refuses style attributes)
const GRAB = { cursor: 'grab', 'touch-action': 'none' };
const RELATIVE = { position: 'relative' };

export class AttnScatterHullChart extends ChartElement {
  static properties = {
    ...super.properties,
    points: { attribute: false },
    hull: { attribute: false },
    domain: { attribute: false },
    mixtures: { attribute: false },
    inside: { attribute: false },
    path: { attribute: false },
    highlight: { attribute: false },
    highlightLabel: { attribute: 'highlight-label' },
    pointLabels: { attribute: false },
  };

  constructor() {
    super();
    this.points = [];
    this.hull = null;
    this.domain = null;
    this.mixtures = null;
    this.inside = null;
    this.path = null;
    this.highlight = null;
    this.highlightLabel = '';
    this.pointLabels = null;
    this._drag = null;
  }

  connectedCallback() {
    super.connectedCallback();
    this.style.position = 'relative';
  }

  pointLabel(i) {
    return this.pointLabels?.[i] ?? `v${i}`;
  }

  get #points() {
    return this.points.map((p) => [Number(p[0]), Number(p[1])]);
  }

  get #useCanvas() {
    return (this.mixtures?.length ?? 0) > CANVAS_LIMIT;
  }

  renderChart(width, measure) {
    const points = this.#points;
    const domain = this.domain ?? scatterDomain(points.length ? points : [[0, 0]]);
    const labels = points.map((_, i) => this.pointLabel(i));
    const l = layoutScatter({
      width,
      domain,
      points,
      labels,
      highlight: this.highlight,
      highlightLabel: this.highlightLabel,
      measure,
    });
    this._layout = { ...l, domain };
    const { x, y, plot } = l;
    const name = this.label || 'Scatter plot with convex hull';
    const useCanvas = this.#useCanvas;
    this.dataset.mixtures = useCanvas ? 'canvas' : 'svg';
    const pct = (v, of) => `${(100 * v) / of}%`;
    const canvasStyle = {
      position: 'absolute',
      'pointer-events': 'none',
      left: pct(plot.left, l.width),
      top: pct(plot.top, l.height),
      width: pct(plot.right - plot.left, l.width),
      height: pct(plot.bottom - plot.top, l.height),
    };
    const h = this.highlight;
    const hl = l.highlightLabel;
    return html`<canvas
        class="mixtures-canvas"
        aria-hidden="true"
        ?hidden=${!useCanvas}
        style=${styleProps(canvasStyle)}
      ></canvas>
      ${svg`<svg class="scatter-svg" viewBox="0 0 ${l.width} ${l.height}" width=${l.width} height=${l.height}
        role="group" aria-label=${name} style=${styleProps(RELATIVE)}>
        <g class="axes" aria-hidden="true">
          ${l.xTicks.map(
            (t) => svg`<line x1=${t.grid} x2=${t.grid} y1=${plot.top} y2=${plot.bottom} class="grid"></line>
              <text x=${t.x} y=${t.y} text-anchor="middle" class="tick">${t.text}</text>`,
          )}
          ${l.yTicks.map(
            (t) => svg`<line x1=${plot.left} x2=${plot.right} y1=${t.y} y2=${t.y} class="grid"></line>
              <text x=${t.x} y=${t.y + 4} text-anchor="end" class="tick">${t.text}</text>`,
          )}
          <rect x=${plot.left} y=${plot.top} width=${plot.right - plot.left} height=${plot.bottom - plot.top}
            fill="none" class="axis"></rect>
        </g>
        <g class="mixtures" aria-hidden="true" data-layer="mixtures">
          ${useCanvas ? nothing : this.#mixtureDots(x, y)}
        </g>
        <polygon class="hull" points=${(this.hull ?? []).map((i) => `${x(points[i][0])},${y(points[i][1])}`).join(' ')}></polygon>
        <polyline class="path" fill="none" aria-hidden="true"
          points=${(this.path ?? []).map((p) => `${x(p[0])},${y(p[1])}`).join(' ')}></polyline>
        <g class="highlight" aria-hidden="true" style=${styleProps({ display: h ? null : 'none' })}>
          ${
            h
              ? svg`<circle r=${RING_R} cx=${x(h[0])} cy=${y(h[1])}></circle>
                <circle r="2.5" class="highlight-dot" cx=${x(h[0])} cy=${y(h[1])}></circle>
                ${hl ? svg`<text class="highlight-label" x=${hl.x} y=${hl.y} data-x=${h[0]} data-y=${h[1]}>${hl.text}</text>` : nothing}`
              : nothing
          }
        </g>
        <g class="point-hits" aria-hidden="true" data-export="skip">
          ${points.map(
            (p, i) => svg`<circle r=${HIT_RADIUS_PX} class="point-hit" fill="transparent" data-index=${i}
              cx=${x(p[0])} cy=${y(p[1])} style=${styleProps(GRAB)}
              @pointerdown=${(e) => this.#down(e, i)}></circle>`,
          )}
        </g>
        <g class="points">
          ${points.map((p, i) => {
            const t = l.labels[i];
            return svg`<circle r=${POINT_R} class="point" tabindex="0" role="button"
                aria-roledescription="draggable point" data-index=${i} data-x=${p[0]} data-y=${p[1]}
                aria-label=${`Point ${labels[i]} at (${formatDecimals(p[0], 3)}, ${formatDecimals(p[1], 3)})`}
                cx=${x(p[0])} cy=${y(p[1])}
                @pointerdown=${(e) => this.#down(e, i)} @keydown=${(e) => this.#key(e, i)}></circle>
              ${t ? svg`<text class="point-label" aria-hidden="true" data-index=${i} x=${t.x} y=${t.y}>${t.text}</text>` : nothing}`;
          })}
        </g>
      </svg>`}`;
  }

  #mixtureDots(x, y) {
    const { mixtures, inside } = this;
    return (mixtures ?? []).map(
      (m, j) =>
        svg`<circle r="2.2" class=${inside && !inside[j] ? 'mixture outside' : 'mixture'} cx=${x(m[0])} cy=${y(m[1])}></circle>`,
    );
  }

  updated() {
    if (this.#useCanvas) this.#paintCanvas();
  }

  /** The mixtures on the canvas behind the plot (more than CANVAS_LIMIT of them): inside ones first. */
  #paintCanvas() {
    const canvas = this.querySelector(':scope > canvas');
    const { x, y, plot } = this._layout;
    const scale = Math.min(Math.max(globalThis.devicePixelRatio || 1, 1), 3);
    const [w, h] = [Math.round((plot.right - plot.left) * scale), Math.round((plot.bottom - plot.top) * scale)];
    if (canvas.width !== w || canvas.height !== h) [canvas.width, canvas.height] = [w, h];
    const context = canvas.getContext('2d');
    context.clearRect(0, 0, w, h);
    const { mixtures, inside } = this;
    const colours = [cssVariable(this, '--danger', '#b3261e'), cssVariable(this, '--muted', '#555d6b')];
    for (const pass of [1, 0]) {
      context.fillStyle = colours[pass];
      context.beginPath();
      for (let j = 0; j < mixtures.length; j++) {
        if ((inside ? inside[j] : 1) !== pass) continue;
        const cx = (x(mixtures[j][0]) - plot.left) * scale;
        const cy = (y(mixtures[j][1]) - plot.top) * scale;
        context.moveTo(cx + 2.2 * scale, cy);
        context.arc(cx, cy, 2.2 * scale, 0, 2 * Math.PI);
      }
      context.fill();
    }
  }

  /** A self-contained SVG document of the chart (mixtures drawn as SVG circles even when a canvas shows them). */
  exportSvg() {
    const { mixtures, inside } = this;
    const layout = this._layout;
    const host = this;
    return svgDocument(this.svg, {
      edit(copy) {
        if (!host.#useCanvas || !layout) return;
        const g = copy.querySelector('[data-layer="mixtures"]') ?? copy;
        const colours = [cssVariable(host, '--danger', '#b3261e'), cssVariable(host, '--muted', '#555d6b')];
        for (let j = 0; j < mixtures.length; j++) {
          const c = svgElement('circle', {
            cx: layout.x(mixtures[j][0]),
            cy: layout.y(mixtures[j][1]),
            r: 2.2,
            fill: colours[inside?.[j] ?? 1],
          });
          g.append(c);
        }
      },
    });
  }

  /** Moves keyboard focus to point i. */
  focusPoint(i, options) {
    this.querySelectorAll('circle.point')[i]?.focus(options);
  }

  #set(i, px, py, done) {
    const { domain, steps } = this._layout;
    const points = this.#points;
    const next = [round(clampTo(domain.x, px), steps.x), round(clampTo(domain.y, py), steps.y)];
    if (next[0] !== points[i][0] || next[1] !== points[i][1]) {
      points[i] = next;
      this.#emit('point-input', points, i);
    }
    if (done) this.#emit('point-change', points, i);
  }

  #emit(type, points, index) {
    this.dispatchEvent(new CustomEvent(type, { detail: { points: points.map((p) => p.slice()), index } }));
  }

  /** The domain coordinates under a pointer event, plus the offset the point was grabbed at. */
  #at(event) {
    const { x, y } = this._drag.layout;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(this.svg.getScreenCTM().inverse());
    return [x.invert(p.x) + this._drag.offset[0], y.invert(p.y) + this._drag.offset[1]];
  }

  #down(event, i) {
    if (event.button !== 0) return;
    event.preventDefault();
    const target = event.currentTarget;
    this._drag = { layout: this._layout, offset: [0, 0] };
    const [px, py] = this.#at(event);
    const point = this.#points[i];
    this._drag.offset = [point[0] - px, point[1] - py]; // grabbing beside the point does not make it jump
    target.setPointerCapture(event.pointerId);
    this.focusPoint(i, { preventScroll: true });
    const move = (e) => this._drag && this.#set(i, ...this.#at(e), false);
    const end = (e, done) => {
      if (!this._drag) return;
      if (done) this.#set(i, ...this.#at(e), true);
      this._drag = null;
      for (const [type, fn] of listeners) target.removeEventListener(type, fn);
    };
    const listeners = [
      ['pointermove', move],
      ['pointerup', (e) => end(e, true)],
      ['pointercancel', (e) => end(e, false)],
    ];
    for (const [type, fn] of listeners) target.addEventListener(type, fn);
  }

  #key(event, i) {
    const [dx, dy] = KEYS[event.key] ?? [0, 0];
    if (!dx && !dy) return;
    event.preventDefault();
    const k = event.shiftKey ? 5 : 1;
    const { steps } = this._layout;
    const [px, py] = this.#points[i];
    this.#set(i, px + (dx * k * steps.x) / 10, py + (dy * k * steps.y) / 10, true);
  }
}

customElements.define('attn-scatter-hull-chart', AttnScatterHullChart);
