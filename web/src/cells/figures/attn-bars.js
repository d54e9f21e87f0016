/**
 * <attn-bars values="0.1,0.6,0.3" labels="the,cat,sat" max="1" editable>
 *
 * A bar chart of a vector. With `editable`, each bar is a slider: drag it
 * (mouse, pen, touch) or focus it and use ArrowUp/ArrowDown, PageUp/PageDown,
 * Home/End. Edits fire `input` (while dragging), `change` (detail { values },
 * when an edit is complete) and `attn-state-change`.
 *
 * State fields: values (numbers), max (number, optional: otherwise a round
 * number above the largest value), editable (boolean).
 * Attributes: labels (comma-separated text), label (accessible name), caption; for and value-of:
 * show a list of numbers from another cell instead, e.g. <attn-bars for="att" value-of="weights[2]">
 * (row 2 of its weights; cells/base/wiring.js). Wired, it draws no bars until that cell has
 * computed the list, and none while that cell is in its error state (a notice says which cell
 * failed): it never shows numbers that were not computed, such as its own default values.
 * data-settled (AttnCell) once the bars show the current values.
 */
import { css, html } from 'lit';
import '../../charts/attn-bar-chart.js';
import { svgDocument } from '../../charts/export.js';
import { formatDecimals, niceDomain } from '../../charts/scale.js';
import { AttnFigure, listConverter } from '../base/figure-base.js';
import { CellLink, readList, readerProperties, sourceFailure } from '../base/wiring.js';

const format3 = (v) => formatDecimals(v, 3);

export class AttnBars extends AttnFigure {
  static stateFields = {
    values: { type: 'numbers', default: [0.2, 0.5, 0.3], minLength: 1, maxLength: 256, min: -1e9, max: 1e9 },
    max: { type: 'number', default: null, min: -1e9, max: 1e9 },
    editable: { type: 'boolean', default: false },
  };

  static properties = { ...super.properties, labels: { converter: listConverter }, ...readerProperties };

  static styles = [
    AttnFigure.baseStyles,
    AttnFigure.figureStyles,
    css`
      .chart {
        max-width: 36rem;
      }
      .bar {
        fill: var(--accent, #3b5bdb);
      }
      .editable .bar,
      .editable .hit {
        cursor: ns-resize;
        touch-action: none;
      }
      .hit {
        fill: transparent;
      }
      .waiting {
        color: var(--muted, #555d6b);
        margin: 0.5rem 0;
      }
    `,
  ];

  defaultLabel = 'Bar chart';

  constructor() {
    super();
    this.labels = null;
    this._domain = [0, 1];
    this._fromEdit = false;
    this._computed = false; // wired: the bars show a list the linked cell computed
    this._link = new CellLink(
      this,
      (source) => this.#read(source),
      () => (this._computed = false),
      ['valueOfPath'],
    );
  }

  #read(source) {
    const { value, error } = readList(source, this.valueOfPath);
    const failed = sourceFailure(source, this.valueOfPath);
    this._link.report(error ?? failed);
    this._computed = Boolean(value) && !error && !failed;
    if (this._computed) this.values = value;
    this.requestUpdate();
  }

  /** Wired to a cell that has not computed (or could not compute) the list: no bars yet. */
  get #waiting() {
    return Boolean(this.for) && !this._computed;
  }

  get barLabels() {
    return this.values.map((_, i) => this.labels?.[i] ?? String(i));
  }

  willUpdate(changed) {
    if ((changed.has('values') || changed.has('max')) && !this._fromEdit) {
      const values = this.values;
      const [lo, hi] = niceDomain(Math.min(0, ...values), Math.max(0, ...values));
      this._domain = [lo, this.max ?? (hi > lo ? hi : lo + 1)];
    }
    this._fromEdit = false;
  }

  _edit(values, done) {
    this.beginEdit();
    if (values.some((v, i) => v !== this.values[i])) {
      this._fromEdit = true;
      this.values = values;
      this.dispatchEvent(new CustomEvent('input', { detail: { values }, bubbles: true, composed: true }));
    }
    if (done) {
      this.dispatchEvent(new CustomEvent('change', { detail: { values }, bubbles: true, composed: true }));
      this.stateChanged();
    }
  }

  describe() {
    if (this.#waiting) return `${this.accessibleName}: no bars yet, waiting for #${this.for}.`;
    const items = this.barLabels.map((label, i) => `${label}: ${formatDecimals(this.values[i], 3)}`);
    return `${this.accessibleName}, ${items.length} bars from ${this._domain[0]} to ${this._domain[1]}. ${items.join('; ')}.${
      this.editable ? ' Each bar is a slider you can drag or adjust with the arrow keys.' : ''
    }`;
  }

  renderFigure() {
    if (this.#waiting) return html`<p class="waiting">No bars yet: they show what #${this.for} computes.</p>`;
    return html`<attn-bar-chart
      class="chart"
      .values=${this.values}
      .labels=${this.barLabels}
      min=${this._domain[0]}
      max=${this._domain[1]}
      ?editable=${this.editable}
      label=${this.accessibleName}
      .format=${format3}
      @bar-input=${(e) => this._edit(e.detail.values, false)}
      @bar-change=${(e) => this._edit(e.detail.values, true)}
    ></attn-bar-chart>`;
  }

  exportSvgText() {
    return svgDocument(this.renderRoot.querySelector('attn-bar-chart').svg);
  }

  exportRows() {
    return [['label', 'value'], ...this.barLabels.map((label, i) => [label, this.values[i]])];
  }

  exportObject() {
    return { labels: this.barLabels, values: this.values, min: this._domain[0], max: this._domain[1] };
  }
}

customElements.define('attn-bars', AttnBars);
