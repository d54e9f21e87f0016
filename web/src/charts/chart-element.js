/**
 * ChartElement: the base of the chart parts (attn-bar-chart, attn-line-chart, …), not registered
 * itself. A chart part is declarative: a template gives it data as properties and it draws, as
 * Observable Plot's marks do; no lab creates, replaces or removes chart DOM.
 *
 *   html`<attn-bar-chart .values=${weights} .labels=${labels} label="Weights"></attn-bar-chart>`
 *
 * It sizes itself to the box it is given: it measures its own width (a ResizeObserver on a
 * zero-height sizer, so its own height never feeds back), lays out ticks, labels and margins in
 * CSS pixels for that width (viewBox = its size in px), so chart text is drawn at FONT_PX (12 px)
 * at every width instead of shrinking with a scaled drawing. Text is measured in the chart's own
 * font (text-width.js).
 *
 * It renders into the light DOM: its <svg> sits in the shadow root of the cell that uses it, so
 * that cell's styles (bar colours, series classes) apply and `renderRoot.querySelector('svg')`
 * finds it. A subclass implements renderChart(width, measure) → a Lit template of one <svg>.
 */
import { html, LitElement } from 'lit';
import { textMeasure } from './text-width.js';
import { styleProps } from './style-props.js';

const FALLBACK_WIDTH = 480; // px, until the chart is laid out (a hidden panel, a detached node)
const NO_HEIGHT = { height: '0' }; // the sizer's style (styleProps: a strict CSP refuses style attributes)

export class ChartElement extends LitElement {
  static properties = {
    label: { type: String },
    _width: { state: true },
  };

  constructor() {
    super();
    this.label = '';
    this._width = 0;
    this._observer = null;
  }

  createRenderRoot() {
    return this;
  }

  connectedCallback() {
    super.connectedCallback();
    this.style.display = 'block';
    this.style.minWidth = '0';
    if (this.hasUpdated) this.#observe();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._observer?.disconnect();
    this._observer = null;
  }

  /** The chart's <svg> (for export). */
  get svg() {
    return this.querySelector(':scope > svg');
  }

  willUpdate() {
    if (!this._width) this._width = Math.round(this.clientWidth) || FALLBACK_WIDTH;
    this._measure ??= textMeasure(getComputedStyle(this).fontFamily || undefined);
  }

  firstUpdated() {
    this.#observe();
  }

  #observe() {
    if (this._observer || typeof ResizeObserver === 'undefined') return;
    const sizer = this.querySelector(':scope > .chart-sizer');
    this._observer = new ResizeObserver(([entry]) => {
      const width = Math.round(entry.contentRect.width);
      if (width > 0 && width !== this._width) this._width = width;
    });
    this._observer.observe(sizer);
  }

  render() {
    return html`<div class="chart-sizer" style=${styleProps(NO_HEIGHT)}></div>
      ${this.renderChart(this._width, this._measure)}`;
  }

  /** @abstract @returns {import('lit').TemplateResult} */
  renderChart() {
    return html``;
  }
}
