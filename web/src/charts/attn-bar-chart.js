/**
 * <attn-bar-chart .values=${[0.3, 0.7]} .labels=${['Pos 0', 'Pos 1']} min="0" max="1" label="Weights">
 *
 * A chart part (ChartElement): bars of a vector, laid out for the width it is given
 * (bar-layout.js). With `.series` (names) it draws grouped bars and `.values` is one row per
 * series, told apart by fill (class `series-<k>`, coloured by CSS) and a legend.
 *
 * Editable (`editable`, single series only): each bar is a focusable role="slider": drag it with
 * a pointer (mouse, pen or touch, with pointer capture; the whole band is its hit area) or use
 * ArrowUp/ArrowDown (`step`), PageUp/PageDown (10 steps), Home/End (min/max). It fires
 * `bar-input` on every change and `bar-change` when an edit is complete (pointer released, or
 * each key press), detail { values, index }; the values it draws stay the ones it is given, so
 * the owner decides (set .values from the event).
 *
 * Properties: values, labels, series, min (0), max (1), step (a round step of 1/100 of the
 * range), format (v → text, 3 decimals), editable, barClass ('bar'), height (px; by default from
 * the width, 200 to 260), label (accessible name).
 * Drawn: <svg class="bar-chart"> with rect.<barClass>[data-index][data-value] (grouped:
 * rect.bar.series-<k>[data-series][data-index]), text.value (only when every value fits its
 * bar's width; the data table of the Export menu has them all), text.label and text.tick.
 */
import { nothing, svg } from 'lit';
import { layoutBars } from './bar-layout.js';
import { ChartElement } from './chart-element.js';
import { niceStep } from './scale.js';
import { styleProps } from './style-props.js';

const decimals = (v) => (Number.isFinite(v) ? Number(v.toFixed(3)).toString() : String(v));
// an editable bar's style (styleProps: a strict CSP refuses style attributes): dragged up and down, no touch scrolling
const DRAG = { cursor: 'ns-resize', 'touch-action': 'none' };

export class AttnBarChart extends ChartElement {
  static properties = {
    ...super.properties,
    values: { attribute: false },
    labels: { attribute: false },
    series: { attribute: false },
    min: { type: Number },
    max: { type: Number },
    step: { type: Number },
    format: { attribute: false },
    editable: { type: Boolean },
    barClass: { attribute: 'bar-class' },
    height: { type: Number },
  };

  constructor() {
    super();
    this.values = [];
    this.labels = null;
    this.series = null;
    this.min = 0;
    this.max = 1;
    this.step = null;
    this.format = decimals;
    this.editable = false;
    this.barClass = 'bar';
    this.height = null;
    this._drag = null;
  }

  get #step() {
    return this.step ?? niceStep(this.max - this.min, 100);
  }

  get #labels() {
    const n = this.series ? (this.values[0]?.length ?? 0) : this.values.length;
    return Array.from({ length: n }, (_, i) => this.labels?.[i] ?? String(i));
  }

  renderChart(width, measure) {
    const labels = this.#labels;
    const { series, format } = this;
    const { min, max, height } = this;
    const l = layoutBars({ width, labels, min, max, series, format, measure, height: height ?? undefined });
    this._layout = l;
    const name = this.label || 'Bar chart';
    const editable = this.editable && !series;
    return svg`<svg class="bar-chart${series ? ' grouped' : ''}${editable ? ' editable' : ''}"
      viewBox="0 0 ${l.width} ${l.height}" width=${l.width} height=${l.height}
      role=${editable ? 'group' : 'img'} aria-label=${name}>
      <title>${name}</title>
      ${l.legend.map(
        (e) => svg`<rect x=${e.x} y=${e.y} width="12" height="12" class="bar series-${e.k}"></rect>
          <text x=${e.x + 16} y=${e.y + 10} class="legend">${e.text}</text>`,
      )}
      ${l.ticks.map(
        (t) => svg`<line x1=${l.plot.left} x2=${l.plot.right} y1=${t.y} y2=${t.y} class="grid"></line>
          <text x=${l.plot.left - 6} y=${t.y + 4} class="tick" text-anchor="end">${t.text}</text>`,
      )}
      ${this.min < 0 ? svg`<line x1=${l.plot.left} x2=${l.plot.right} y1=${l.zero} y2=${l.zero} class="axis"></line>` : ''}
      ${series ? this.#groupedBars(l) : this.#bars(l, labels, editable)}
      ${l.labels.map(
        (t) =>
          svg`<text x=${t.x} y=${l.labelY} class="label" text-anchor="middle">${t.text}${
            t.text !== t.full ? svg`<title>${t.full}</title>` : ''
          }</text>`,
      )}
    </svg>`;
  }

  #bar(l, v) {
    const top = l.y(Math.min(Math.max(v, this.min), this.max));
    return { y: Math.min(top, l.zero), height: Math.abs(l.zero - top) };
  }

  #bars(l, labels, editable) {
    return this.values.map((raw, i) => {
      const v = Number(raw);
      const { y, height } = this.#bar(l, v);
      const x = l.barX(i);
      const text = this.format(v);
      const hit = editable
        ? svg`<rect x=${l.bands[i]} width=${l.band} y=${l.plot.top} height=${l.plot.bottom - l.plot.top}
            class="hit" fill="transparent" data-export="skip" style=${styleProps(DRAG)}
            @pointerdown=${(e) => this.#down(e, i)}></rect>`
        : '';
      const a = (value) => (editable ? value : nothing);
      return svg`${hit}<rect x=${x} width=${l.barWidth} y=${y} height=${height} class=${this.barClass}
          data-index=${i} data-value=${String(v)} tabindex=${a(0)} role=${a('slider')}
          aria-label=${a(`Bar ${labels[i]}`)} aria-valuemin=${a(this.min)} aria-valuemax=${a(this.max)}
          aria-valuenow=${a(v)} aria-valuetext=${a(`${labels[i]}: ${text}`)} aria-orientation=${a('vertical')}
          style=${styleProps(editable ? DRAG : {})}
          @pointerdown=${editable ? (e) => this.#down(e, i) : null}
          @keydown=${editable ? (e) => this.#key(e, i) : null}></rect>
        ${
          l.showValues
            ? svg`<text x=${x + l.barWidth / 2} y=${l.valueY(v)} class="value" text-anchor="middle" aria-hidden="true">${text}</text>`
            : ''
        }`;
    });
  }

  #groupedBars(l) {
    return this.series.map((_, k) =>
      (this.values[k] ?? []).map((raw, i) => {
        const v = Number(raw ?? 0);
        const { y, height } = this.#bar(l, v);
        const x = l.barX(i, k);
        return svg`<rect x=${x} width=${l.barWidth} y=${y} height=${height} class="bar series-${k}"
            data-series=${k} data-index=${i} data-value=${String(v)}></rect>
          ${
            l.showValues
              ? svg`<text x=${x + l.barWidth / 2} y=${l.valueY(v)} class="value" text-anchor="middle" aria-hidden="true">${this.format(v)}</text>`
              : ''
          }`;
      }),
    );
  }

  /** Moves keyboard focus to bar i. */
  focusBar(i) {
    this.querySelectorAll(`rect.${this.barClass}`)[i]?.focus();
  }

  #set(i, v, done) {
    const step = this.#step;
    const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    const clamped = Math.min(Math.max(Math.round(v / step) * step, this.min), this.max);
    const next = Number(clamped.toFixed(digits));
    const values = this.values.map(Number);
    if (next !== values[i]) {
      values[i] = next;
      this.#emit('bar-input', values, i);
    }
    if (done) this.#emit('bar-change', values, i);
  }

  #emit(type, values, index) {
    this.dispatchEvent(new CustomEvent(type, { detail: { values, index } }));
  }

  #valueAt(event) {
    const box = this._drag.box;
    const l = this._drag.layout;
    return l.y.invert(((event.clientY - box.top) * l.height) / box.height);
  }

  #down(event, i) {
    if (event.button !== 0) return;
    event.preventDefault();
    const target = event.currentTarget;
    this._drag = { i, box: this.svg.getBoundingClientRect(), layout: this._layout, last: null, raw: false };
    target.setPointerCapture(event.pointerId);
    const move = (e) => {
      const drag = this._drag;
      if (!drag || (drag.last && e.clientX === drag.last.x && e.clientY === drag.last.y)) return;
      drag.last = { x: e.clientX, y: e.clientY };
      this.#set(i, this.#valueAt(e), false);
    };
    // pointerrawupdate (Chromium, secure contexts) comes as soon as the pointer moves, where
    // pointermove waits for the next frame: the first one in a frame redraws at once.
    const raw = (e) => {
      const drag = this._drag;
      if (!drag || drag.raw) return;
      drag.raw = true;
      requestAnimationFrame(() => drag && (drag.raw = false));
      move(e);
    };
    const end = (e, done) => {
      if (!this._drag) return;
      if (done) this.#set(i, this.#valueAt(e), true);
      this._drag = null;
      for (const [type, fn] of listeners) target.removeEventListener(type, fn);
    };
    const listeners = [
      ['pointermove', move],
      ['pointerrawupdate', raw],
      ['pointerup', (e) => end(e, true)],
      ['pointercancel', (e) => end(e, false)],
    ];
    for (const [type, fn] of listeners) target.addEventListener(type, fn);
    this.querySelectorAll(`rect.${this.barClass}`)[i]?.focus({ preventScroll: true });
    this.#set(i, this.#valueAt(event), false);
  }

  #key(event, i) {
    const v = Number(this.values[i]);
    const step = this.#step;
    const moves = {
      ArrowUp: v + step,
      ArrowRight: v + step,
      ArrowDown: v - step,
      ArrowLeft: v - step,
      PageUp: v + 10 * step,
      PageDown: v - 10 * step,
      Home: this.min,
      End: this.max,
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    this.#set(i, moves[event.key], true);
  }
}

customElements.define('attn-bar-chart', AttnBarChart);
