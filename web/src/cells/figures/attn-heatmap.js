/**
 * <attn-heatmap values="0.1,0.9;0.5,0.5" row-labels="q0,q1" col-labels="k0,k1" palette="viridis">
 *
 * An annotated heatmap of a matrix (attention weights, scores, …). Up to 32 × 32
 * cells each value is printed in its cell (while the cells are at least 32 px; below,
 * a note says the numbers are hidden), in black or white for contrast, and
 * the cells form a keyboard grid (arrow keys); larger matrices are drawn on a
 * canvas (4096 × 4096 stays responsive) with a keyboard cursor and a magnifier
 * (hover, tap on a touch screen, or the keyboard). Hovering or
 * focusing a cell shows its row, column and value and fires `cell-focus`
 * (detail { row, col }). "Data table" shows the numbers as an HTML table.
 * Text is SVG, laid out for the width the heatmap is given (12 px labels).
 *
 * State fields: values (matrix, rows separated by ";"), palette (viridis |
 * cividis), min and max (optional; default: the data's range), scale (linear |
 * log: colours along log10 of the value, for weights that span decades; zeros and
 * values below 10⁻⁶ of the largest get the darkest colour; default linear).
 * Attributes: row-labels, col-labels (comma-separated), label, caption;
 * highlight-row (a row index to outline, -1 for none: view state, not saved;
 * SVG mode only); compact (boolean: no Reset/export toolbar and no colour
 * legend, for small multiples that share one scale, such as a grid of heads;
 * the readout, data table and text alternative stay); bare (boolean: no Reset/export
 * toolbar, the legend kept, for a heatmap inside a lab that has its own toolbar); no-note (boolean: no
 * "Numbers hidden" note when the cells are too small for numbers, for a grid of maps whose host
 * says it once).
 * The `values` property also takes a { data, shape: [rows, cols] } tensor or
 * rows of typed arrays, for matrices too large for an attribute.
 * data-mode="svg" or "canvas"; data-settled (AttnCell) once drawn.
 */
import { html } from 'lit';
import { COLOR_SCALES } from '../../charts/color-scale.js';
import { createHeatmap } from '../../charts/heatmap.js';
import { PALETTE_NAMES } from '../../charts/palettes.js';
import { formatDecimals } from '../../charts/scale.js';
import { formatNumber } from '../base/cell-support.js';
import { AttnFigure, listConverter } from '../base/figure-base.js';
import { heatmapStyles } from './heatmap-styles.js';

/** The data table shows at most this many rows and columns (CSV has them all). */
const TABLE_LIMIT = 64;
const MAX_CELLS = 4096 * 4096;

/** { data (row-major), rows, cols } from rows of numbers or a { data, shape } tensor. */
function matrixView(values) {
  if (values && ArrayBuffer.isView(values.data) && Array.isArray(values.shape) && values.shape.length === 2) {
    const [rows, cols] = values.shape;
    if (values.data.length !== rows * cols)
      throw new Error(`values: ${values.data.length} numbers for shape ${rows} × ${cols}`);
    return { data: values.data, rows, cols };
  }
  if (!Array.isArray(values) || values.length === 0) throw new Error('values must be a non-empty matrix');
  const rows = values.length;
  const cols = values[0]?.length ?? 0;
  if (!cols) throw new Error('values: row 0 is empty');
  if (rows * cols > MAX_CELLS) throw new Error(`values: ${rows} × ${cols} is more than 4096 × 4096 cells`);
  const data = new Float64Array(rows * cols);
  values.forEach((row, r) => {
    if (row.length !== cols) throw new Error(`values: row ${r} has ${row.length} entries, row 0 has ${cols}`);
    data.set(row, r * cols);
  });
  return { data, rows, cols };
}

function range(data) {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return Number.isFinite(lo) ? [lo, hi] : [0, 1];
}

export class AttnHeatmap extends AttnFigure {
  static stateFields = {
    values: {
      type: 'matrix',
      default: [
        [1, 0],
        [0, 1],
      ],
      min: -1e9,
      max: 1e9,
    },
    palette: { type: 'enum', default: 'viridis', values: PALETTE_NAMES },
    min: { type: 'number', default: null, min: -1e9, max: 1e9 },
    max: { type: 'number', default: null, min: -1e9, max: 1e9 },
    scale: { type: 'enum', default: 'linear', values: COLOR_SCALES },
  };

  static properties = {
    ...super.properties,
    rowLabels: { attribute: 'row-labels', converter: listConverter },
    colLabels: { attribute: 'col-labels', converter: listConverter },
    highlightRow: { attribute: 'highlight-row', type: Number },
    compact: { type: Boolean, reflect: true },
    bare: { type: Boolean, reflect: true },
    noNote: { attribute: 'no-note', type: Boolean },
    _table: { state: true },
    _cell: { state: true },
    _error: { state: true },
  };

  static styles = [AttnFigure.baseStyles, AttnFigure.figureStyles, heatmapStyles];

  defaultLabel = 'Heatmap';

  constructor() {
    super();
    this.rowLabels = null;
    this.colLabels = null;
    this.highlightRow = -1;
    this.compact = false;
    this.bare = false;
    this.noNote = false;
    this._table = false;
    this._cell = null;
    this._error = '';
    this._chart = null;
    this._chartKey = '';
    this._view = null;
  }

  willUpdate(changed) {
    if (changed.has('values') || !this._view) {
      try {
        this._view = matrixView(this.values);
        this._error = '';
      } catch (error) {
        this._error = error.message;
        this._view ??= matrixView(AttnHeatmap.stateFields.values.default);
      }
      this._range = range(this._view.data);
    }
  }

  get domain() {
    const [lo, hi] = this._range;
    return [this.min ?? lo, this.max ?? hi];
  }

  axisLabel(axis, i) {
    const labels = axis === 'row' ? this.rowLabels : this.colLabels;
    return labels?.[i] ?? String(i);
  }

  updated() {
    const { rows, cols, data } = this._view;
    const rowLabels = this.rowLabels?.length === rows ? this.rowLabels : null;
    const colLabels = this.colLabels?.length === cols ? this.colLabels : null;
    const key = JSON.stringify([rows, cols, rowLabels, colLabels, this.accessibleName, this.compact, this.noNote]);
    if (!this._chart || key !== this._chartKey) {
      const container = this.renderRoot.querySelector('.chart');
      this._chart?.disconnect();
      container.replaceChildren();
      this._chart = createHeatmap(container, {
        rows,
        cols,
        rowLabels,
        colLabels,
        title: this.accessibleName,
        legend: !this.compact,
        note: !this.noNote,
        onCell: (row, col) => {
          this._cell = [row, col];
          this.dispatchEvent(new CustomEvent('cell-focus', { detail: { row, col }, bubbles: true, composed: true }));
        },
      });
      this._chartKey = key;
      this._drawn = null;
      this._drawnMark = false;
    }
    const [min, max] = this.domain;
    const drawn = [data, min, max, this.palette, this.scale];
    if (!this._drawn || drawn.some((v, i) => v !== this._drawn[i])) {
      this._chart.update({ data, min, max, palette: this.palette, colorScale: this.scale });
      this._drawn = drawn;
    }
    if (this._markedRow !== this.highlightRow || !this._drawnMark) {
      this._chart.update({ highlightRow: this.highlightRow });
      this._markedRow = this.highlightRow;
      this._drawnMark = true;
    }
    this.dataset.mode = this._chart.mode;
    this.dataset.scale = this._chart.scale.kind;
  }

  connectedCallback() {
    super.connectedCallback();
    if (this._chart) {
      this._chartKey = ''; // back in a page: drawn afresh, following its new container
      this.requestUpdate();
    }
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._chart?.disconnect();
  }

  resetView() {
    this._table = false;
    this._cell = null;
  }

  _value(r, c) {
    return this._view.data[r * this._view.cols + c];
  }

  describe() {
    const { rows, cols } = this._view;
    const [min, max] = this.domain;
    const scale = this._chart?.scale;
    const colours =
      scale?.kind === 'log'
        ? `on a log scale from ${formatNumber(scale.lo, 2)} or less, zeros included (dark), to ${formatNumber(scale.hi, 3)} (light)`
        : `from ${formatDecimals(min, 3)} (dark) to ${formatDecimals(max, 3)} (light)${scale?.fallback ? ` (${scale.fallback})` : ''}`;
    return `${this.accessibleName}: a ${rows} × ${cols} matrix coloured by value with the ${this.palette} palette, ${colours}. The data table button shows the numbers.`;
  }

  renderCell() {
    if (!this.compact && !this.bare) return super.renderCell();
    return html`<figure aria-label=${this.accessibleName} aria-describedby="alt">
      ${this.renderFigure()} ${this.renderCaption()}
      <p class="sr-only alt" id="alt">${this.describe()}</p>
    </figure>`;
  }

  renderFigure() {
    const { rows, cols } = this._view;
    const cell = this._cell;
    return html`
      ${this._error ? html`<p class="error" role="alert">${this._error}; showing the last valid matrix.</p>` : ''}
      <div class="chart"></div>
      <p class="readout" aria-live="polite">
        ${
          cell && cell[0] < rows && cell[1] < cols
            ? `Row ${this.axisLabel('row', cell[0])}, column ${this.axisLabel('col', cell[1])}: ${formatDecimals(this._value(cell[0], cell[1]), 4)}`
            : html`<span class="hint">Hover or focus a cell to read its value.</span>`
        }
      </p>
      <button type="button" aria-expanded=${String(this._table)} @click=${() => (this._table = !this._table)}>
        ${this._table ? 'Hide data table' : 'Data table'}
      </button>
      ${this._table ? this._renderTable() : ''}
    `;
  }

  _renderTable() {
    const { rows, cols } = this._view;
    const shownRows = Math.min(rows, TABLE_LIMIT);
    const shownCols = Math.min(cols, TABLE_LIMIT);
    const rowIndex = [...Array(shownRows).keys()];
    const colIndex = [...Array(shownCols).keys()];
    return html`<div class="table-wrap" tabindex="0" role="region" aria-label=${`${this.accessibleName}: data table`}>
        <table class="data-table">
          <caption class="sr-only">
            ${this.accessibleName}: rows × columns
          </caption>
          <thead>
            <tr>
              <td></td>
              ${colIndex.map((c) => html`<th scope="col">${this.axisLabel('col', c)}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${rowIndex.map(
              (r) =>
                html`<tr>
                  <th scope="row">${this.axisLabel('row', r)}</th>
                  ${colIndex.map((c) => html`<td>${formatDecimals(this._value(r, c), 4)}</td>`)}
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${
        rows > shownRows || cols > shownCols
          ? html`<p class="readout">
              Showing the first ${shownRows} × ${shownCols} of ${rows} × ${cols}; CSV has every value.
            </p>`
          : ''
      }`;
  }

  exportSvgText() {
    return this._chart.exportSvg();
  }

  exportRows() {
    const { rows, cols } = this._view;
    const header = ['', ...Array.from({ length: cols }, (_, c) => this.axisLabel('col', c))];
    const body = Array.from({ length: rows }, (_, r) => [
      this.axisLabel('row', r),
      ...Array.from({ length: cols }, (_, c) => this._value(r, c)),
    ]);
    return [header, ...body];
  }

  exportObject() {
    const { rows, cols } = this._view;
    const values = Array.from({ length: rows }, (_, r) =>
      Array.from(this._view.data.subarray(r * cols, (r + 1) * cols)),
    );
    const [min, max] = this.domain;
    return {
      rowLabels: Array.from({ length: rows }, (_, r) => this.axisLabel('row', r)),
      colLabels: Array.from({ length: cols }, (_, c) => this.axisLabel('col', c)),
      palette: this.palette,
      scale: this.scale,
      min,
      max,
      values,
    };
  }
}

customElements.define('attn-heatmap', AttnHeatmap);
