/**
 * <attn-vector-plane radius="5" label="Queries and keys" .points=${…} .arrows=${…} .links=${…} .handle=${…}
 *   @plane-drag=${(e) => e.detail.at} @plane-key=${(e) => …}>
 *
 * A chart part (ChartElement): a square plane of 2-D vectors, domain [−radius, radius] on both
 * axes, laid out for the width it is given (plane-layout.js, at most 420 px): points (circles,
 * squares or diamonds, each with a short label, optionally ringed), arrows from the origin (or
 * `from`), dashed links between two points, and at most one draggable handle. Labels are placed
 * where they touch no other label, mark or tick label; all text 12 px.
 * - points: [{ at: [x, y], label?, className?, shape?: 'circle' | 'square' | 'diamond', size?, ring?,
 *   id?, labelOffset? }]; arrows: [{ to, from?, label?, className?, labelOffset? }];
 *   links: [{ from, to, className? }]; handle: { at, label, valueText, value, min, max } or null.
 * - The handle is a focusable role="slider" with a 48 px hit circle: dragging it fires `plane-drag`
 *   (detail { at: [x, y], done }) on every move and when released; a key on it fires `plane-key`
 *   (detail { key }, cancelable): a listener that handles the key calls preventDefault(), and the
 *   key's default action is then prevented too.
 * - toSvg([x, y]) gives a point's position in the drawing (its viewBox units; `size` across).
 * Drawn: <svg class="vector-plane"> with g.axes (line.grid, line.axis, text.tick), g.links > line.link,
 * g.arrows > g.arrow[data-x][data-y][data-label] (line, text.arrow-label), g.points > g.point[data-x]
 * [data-y][data-label][data-id] (the mark, circle.ring, text.point-label), circle.handle-hit, circle.handle.
 */
import { nothing, svg } from 'lit';
import { ChartElement } from './chart-element.js';
import { layoutPlane } from './plane-layout.js';
import { styleProps } from './style-props.js';

export const HIT_RADIUS_PX = 24; // a 48 px drag target
// the handle's styles (styleProps: a strict CSP refuses style attributes); no touch scrolling while dragging
const GRAB = { cursor: 'grab', 'touch-action': 'none' };
const NO_TOUCH_SCROLL = { 'touch-action': 'none' };

export class AttnVectorPlane extends ChartElement {
  static properties = {
    ...super.properties,
    radius: { type: Number },
    points: { attribute: false },
    arrows: { attribute: false },
    links: { attribute: false },
    handle: { attribute: false },
  };

  constructor() {
    super();
    this.radius = 5;
    this.points = [];
    this.arrows = [];
    this.links = [];
    this.handle = null;
    this._layout = null;
  }

  /** The size of the drawing (its viewBox is size × size). */
  get size() {
    return this._layout?.size ?? 0;
  }

  /** Plane coordinates → the drawing's units. */
  toSvg(at) {
    return this._layout.px(at);
  }

  renderChart(width, measure) {
    const l = layoutPlane({ width, radius: this.radius, points: this.points, arrows: this.arrows, measure });
    this._layout = l;
    const { size, margin, px } = l;
    const name = this.label || 'Vector plane';
    return svg`<svg class="vector-plane" viewBox="0 0 ${size} ${size}" width=${size} height=${size}
      role="group" aria-label=${name}>
      <g class="axes" aria-hidden="true">
        ${l.ticks.map(
          (t) => svg`<line x1=${l.x(t)} x2=${l.x(t)} y1=${margin.top} y2=${size - margin.bottom} class="grid"></line>
            <line x1=${margin.left} x2=${size - margin.right} y1=${l.y(t)} y2=${l.y(t)} class="grid"></line>`,
        )}
        ${l.xTicks.map((t) => svg`<text x=${t.x} y=${t.y} text-anchor="middle" class="tick">${t.text}</text>`)}
        ${l.yTicks.map((t) => svg`<text x=${t.x} y=${t.y + 4} text-anchor="end" class="tick">${t.text}</text>`)}
        <line x1=${l.x(0)} x2=${l.x(0)} y1=${margin.top} y2=${size - margin.bottom} class="axis"></line>
        <line x1=${margin.left} x2=${size - margin.right} y1=${l.y(0)} y2=${l.y(0)} class="axis"></line>
      </g>
      <defs>
        <marker id="arrow-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7"
          orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrow-head"></path></marker>
      </defs>
      <g class="links" aria-hidden="true">
        ${this.links.map((k) => {
          const [x1, y1] = px(k.from);
          const [x2, y2] = px(k.to);
          return svg`<line x1=${x1} y1=${y1} x2=${x2} y2=${y2} class="link ${k.className ?? ''}"></line>`;
        })}
      </g>
      <g class="arrows" aria-hidden="true">
        ${this.arrows.map((a, i) => {
          const [x0, y0] = px(a.from ?? [0, 0]);
          const [x1, y1] = px(a.to);
          const at = l.arrowLabels[i];
          return svg`<g class="arrow ${a.className ?? ''}" data-x=${a.to[0]} data-y=${a.to[1]} data-label=${a.label ?? ''}>
            <line x1=${x0} y1=${y0} x2=${x1} y2=${y1} marker-end="url(#arrow-head)"></line>
            ${at ? svg`<text x=${at.x} y=${at.y} class="arrow-label">${a.label}</text>` : ''}
          </g>`;
        })}
      </g>
      <g class="points" aria-hidden="true">
        ${this.points.map((p, i) => this.#point(p, px(p.at), l.pointLabels[i]))}
      </g>
      ${this.#handle(px)}
    </svg>`;
  }

  #point(p, [cx, cy], at) {
    const r = p.size ?? 5.5;
    const mark =
      p.shape === 'square'
        ? svg`<rect x=${cx - r} y=${cy - r} width=${2 * r} height=${2 * r}></rect>`
        : p.shape === 'diamond'
          ? svg`<polygon points=${`${cx},${cy - r * 1.3} ${cx + r * 1.3},${cy} ${cx},${cy + r * 1.3} ${cx - r * 1.3},${cy}`}></polygon>`
          : svg`<circle cx=${cx} cy=${cy} r=${r}></circle>`;
    return svg`<g class="point ${p.className ?? ''}" data-x=${p.at[0]} data-y=${p.at[1]} data-label=${p.label ?? ''}
      data-id=${p.id ?? nothing}>
      ${mark}${p.ring ? svg`<circle cx=${cx} cy=${cy} r=${r + 5} class="ring"></circle>` : ''}
      ${at ? svg`<text x=${at.x} y=${at.y} class="point-label">${p.label}</text>` : ''}
    </g>`;
  }

  #handle(px) {
    const h = this.handle;
    if (!h) return '';
    const [cx, cy] = px(h.at);
    const down = (event) => this.#down(event);
    return svg`<g class="handle-layer">
      <circle cx=${cx} cy=${cy} r=${HIT_RADIUS_PX} class="handle-hit" fill="transparent"
        style=${styleProps(GRAB)} @pointerdown=${down}></circle>
      <circle cx=${cx} cy=${cy} r="9" class="handle" tabindex="0" role="slider" aria-label=${h.label}
        aria-valuetext=${h.valueText} aria-valuenow=${h.value} aria-valuemin=${h.min} aria-valuemax=${h.max}
        data-x=${h.at[0]} data-y=${h.at[1]} style=${styleProps(NO_TOUCH_SCROLL)}
        @pointerdown=${down} @keydown=${(e) => this.#key(e)}></circle>
    </g>`;
  }

  #at(event, box) {
    const l = this._layout;
    const ux = ((event.clientX - box.left) * l.size) / box.width;
    const uy = ((event.clientY - box.top) * l.size) / box.height;
    return [l.x.invert(ux), l.y.invert(uy)];
  }

  #down(event) {
    if (event.button !== 0 || !this.handle) return;
    event.preventDefault();
    const target = event.currentTarget;
    const box = this.svg.getBoundingClientRect();
    target.setPointerCapture(event.pointerId);
    this.querySelector('.handle')?.focus({ preventScroll: true });
    const fire = (e, done) =>
      this.dispatchEvent(new CustomEvent('plane-drag', { detail: { at: this.#at(e, box), done } }));
    const move = (e) => fire(e, false);
    const up = (e) => {
      fire(e, true);
      stop();
    };
    const stop = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
      target.removeEventListener('pointercancel', stop);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
    target.addEventListener('pointercancel', stop);
  }

  #key(event) {
    const handled = !this.dispatchEvent(new CustomEvent('plane-key', { detail: { key: event.key }, cancelable: true }));
    if (handled) event.preventDefault();
  }
}

customElements.define('attn-vector-plane', AttnVectorPlane);
