/**
 * <attn-matrix values="0.1,0.9;0.5,0.5" row-labels="q0,q1" col-labels="k0,k1" precision="2" highlight-row="1">
 *
 * A matrix as a labelled numeric table with a fixed number of decimals,
 * optionally highlighting one row (e.g. the query being discussed).
 *
 * State fields: values (matrix), precision (0–8 decimals), highlight-row
 * (row index, -1 for none). Attributes: row-labels, col-labels (maths between $…$ is typeset in
 * the table, plain characters in the exports: row-labels="$v_0$,$v_1$"), label, caption;
 * compact (boolean: no Reset/export toolbar, for a matrix inside a lab).
 */
import { css, html } from 'lit';
import { tableSvgDocument, themeColours } from '../../charts/table-svg.js';
import { AttnFigure, listConverter } from '../base/figure-base.js';
import { markScrollEnd, matrixBoxStyles, WIDE_MATRIX_COLUMNS } from '../base/matrix-box.js';
import { mathPlain, mathText } from '../base/math.js';

export class AttnMatrix extends AttnFigure {
  static stateFields = {
    values: {
      type: 'matrix',
      default: [
        [1, 0],
        [0, 1],
      ],
      min: -1e12,
      max: 1e12,
    },
    precision: { type: 'integer', default: 3, min: 0, max: 8 },
    'highlight-row': { type: 'integer', default: -1, min: -1, max: 4095 },
  };

  static properties = {
    ...super.properties,
    rowLabels: { attribute: 'row-labels', converter: listConverter },
    colLabels: { attribute: 'col-labels', converter: listConverter },
    compact: { type: Boolean, reflect: true },
  };

  static styles = [
    AttnFigure.baseStyles,
    AttnFigure.figureStyles,
    matrixBoxStyles,
    css`
      table {
        border-collapse: collapse;
        font-family: var(--font-mono, ui-monospace, monospace);
        font-variant-numeric: tabular-nums;
      }
      th,
      td {
        padding: 0.2rem 0.6rem;
        text-align: right;
      }
      thead th {
        border-bottom: 1px solid var(--border, #d0d4dc);
        color: var(--muted, #555d6b);
      }
      tbody th {
        border-right: 1px solid var(--border, #d0d4dc);
        color: var(--muted, #555d6b);
        text-align: left;
      }
      tr.highlight {
        background: color-mix(in srgb, var(--accent, #3b5bdb) 16%, transparent);
      }
      :host([compact]) figure {
        padding: 0.5rem 0.6rem;
      }
      tr.highlight th {
        color: var(--text, #1b1e24);
        box-shadow: inset 3px 0 0 var(--accent, #3b5bdb);
      }
    `,
  ];

  defaultLabel = 'Matrix';

  constructor() {
    super();
    this.rowLabels = null;
    this.colLabels = null;
    this.compact = false;
  }

  /** A row's label as plain characters (exports, descriptions). */
  rowLabel(r) {
    return mathPlain(this.rowLabels?.[r] ?? String(r));
  }

  colLabel(c) {
    return mathPlain(this.colLabels?.[c] ?? String(c));
  }

  /** A row's or column's label as the table shows it, its maths typeset. */
  #head(labels, i) {
    return mathText(labels?.[i] ?? String(i));
  }

  format(v) {
    const text = Number(v).toFixed(this.precision);
    return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
  }

  get cols() {
    return this.values[0]?.length ?? 0;
  }

  describe() {
    const h = this['highlight-row'];
    return `${this.accessibleName}: ${this.values.length} rows × ${this.cols} columns, ${this.precision} decimals${
      h >= 0 && h < this.values.length ? `; row ${this.rowLabel(h)} is highlighted` : ''
    }.`;
  }

  renderCell() {
    if (!this.compact) return super.renderCell();
    return html`<figure aria-label=${this.accessibleName} aria-describedby="alt">
      ${this.renderFigure()} ${this.renderCaption()}
      <p class="sr-only alt" id="alt">${this.describe()}</p>
    </figure>`;
  }

  renderFigure() {
    const h = this['highlight-row'];
    const wide = this.cols > WIDE_MATRIX_COLUMNS;
    return html`<div
      class="table-wrap matrix-box"
      ?data-wide-matrix=${wide}
      role="region"
      tabindex="0"
      aria-label=${`${this.accessibleName} (table)`}
      @scroll=${wide ? markScrollEnd : null}
    >
      <table>
        <caption class="sr-only">
          ${this.accessibleName}
        </caption>
        <thead>
          <tr>
            <td></td>
            ${this.values[0].map((_, c) => html`<th scope="col">${this.#head(this.colLabels, c)}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${this.values.map(
            (row, r) =>
              html`<tr class=${r === h ? 'highlight' : ''} ?data-highlight=${r === h}>
                <th scope="row">
                  ${this.#head(this.rowLabels, r)}${r === h ? html`<span class="sr-only"> (highlighted)</span>` : ''}
                </th>
                ${row.map((v) => html`<td>${this.format(v)}</td>`)}
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  exportSvgText() {
    return tableSvgDocument({
      cells: this.values.map((row) => row.map((v) => this.format(v))),
      rowLabels: this.values.map((_, r) => this.rowLabel(r)),
      colLabels: this.values[0].map((_, c) => this.colLabel(c)),
      highlightRow: this['highlight-row'],
      title: this.accessibleName,
      colours: themeColours(this),
    });
  }

  exportRows() {
    return [
      ['', ...this.values[0].map((_, c) => this.colLabel(c))],
      ...this.values.map((row, r) => [this.rowLabel(r), ...row]),
    ];
  }

  exportObject() {
    return {
      rowLabels: this.values.map((_, r) => this.rowLabel(r)),
      colLabels: this.values[0].map((_, c) => this.colLabel(c)),
      precision: this.precision,
      highlightRow: this['highlight-row'],
      values: this.values,
    };
  }
}

customElements.define('attn-matrix', AttnMatrix);
