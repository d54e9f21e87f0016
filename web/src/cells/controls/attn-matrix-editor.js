/**
 * <attn-matrix-editor label="Attention weights A" values="0.2,0.8;0.5,0.5"
 *                     row-labels="q0,q1" col-labels="k0,k1" min="0" max="1">
 *
 * A grid of number fields, one per entry. Arrow keys move between cells (Left
 * and Right once the caret is at the edge of the text; Up and Down always).
 * Each cell is checked as it is typed: a valid number updates that entry of
 * `values` (change + attn-state-change); a bad one (not a number, NaN,
 * Infinity, out of [min, max]) marks the cell invalid, shows the reason beside
 * the grid (the cell's aria-describedby points at it) and that entry keeps its
 * last valid value. The shape is fixed by `values`.
 *
 * State (permalink): values. Config attributes: label (maths between $…$ is typeset; the
 * fields' accessible names read it as plain characters), min, max, row-labels,
 * col-labels (comma-separated); for and field: edit that setting of another cell, e.g.
 * <attn-matrix-editor for="att" field="q"> (cells/base/wiring.js).
 * Events: `change` (detail { values }).
 */
import { css, html } from 'lit';
import { live } from 'lit/directives/live.js';
import { AttnCell } from '../base/attn-cell.js';
import { markScrollEnd, matrixBoxStyles, WIDE_MATRIX_COLUMNS } from '../base/matrix-box.js';
import { parseNumberText } from '../base/cell-support.js';
import { mathPlain, mathText } from '../base/math.js';
import { FieldLink, fieldLinkProperties } from '../base/wiring.js';

const labelList = {
  fromAttribute: (text) =>
    text === null
      ? []
      : text
          .split(',')
          .map((s) => s.trim())
          .slice(0, 64),
};

export class AttnMatrixEditor extends AttnCell {
  static stateFields = {
    values: {
      type: 'matrix',
      default: [
        [1, 0],
        [0, 1],
      ],
      maxRows: 16,
    },
  };

  static properties = {
    ...super.properties,
    label: { type: String },
    min: { type: Number },
    max: { type: Number },
    rowLabels: { attribute: 'row-labels', converter: labelList },
    colLabels: { attribute: 'col-labels', converter: labelList },
    _drafts: { state: true },
    ...fieldLinkProperties,
  };

  static styles = [
    AttnCell.compactStyles,
    matrixBoxStyles,
    css`
      .scroll {
        margin-top: 0.35rem;
      }
      @container (max-width: 26rem) {
        .scroll:not([data-wide-matrix]) input[type='text'] {
          width: 3.6rem;
        }
      }
      table {
        border-collapse: collapse;
      }
      th {
        font-weight: 500;
        color: var(--muted, #555d6b);
        font-size: 0.85rem;
        padding: 0.15rem 0.35rem;
      }
      td {
        padding: 0.15rem;
      }
      input[type='text'] {
        width: 4.75rem;
        text-align: right;
      }
      .errors {
        margin: 0.4rem 0 0;
        padding: 0;
        list-style: none;
      }
    `,
  ];

  constructor() {
    super();
    this.label = 'Matrix';
    this.min = -Infinity;
    this.max = Infinity;
    this.rowLabels = [];
    this.colLabels = [];
    this._drafts = new Map(); // "r,c" -> { text, error } for cells whose text differs from values
    this._committed = null;
    this._link = new FieldLink(this, { kind: 'matrix', get: () => this.values, set: (v) => (this.values = v) });
  }

  willUpdate(changed) {
    if (changed.has('values') && this.values !== this._committed) {
      this._drafts = new Map();
      this._committed = null;
    }
  }

  #rowName(r) {
    return `row ${this.rowLabels[r] || r}`;
  }

  #colName(c) {
    return `column ${this.colLabels[c] || c}`;
  }

  #onInput(event) {
    const input = event.target;
    const r = Number(input.dataset.r);
    const c = Number(input.dataset.c);
    const key = `${r},${c}`;
    const drafts = new Map(this._drafts);
    const result = parseNumberText(input.value, { min: this.min, max: this.max });
    if (result.error) {
      drafts.set(key, {
        text: input.value,
        error: `Entry at ${this.#rowName(r)}, ${this.#colName(c)} ${result.error}.`,
      });
      this._drafts = drafts;
      return;
    }
    drafts.set(key, { text: input.value, error: '' });
    this._drafts = drafts;
    if (Object.is(result.value, this.values[r][c])) return;
    const values = this.values.map((row) => [...row]);
    values[r][c] = result.value;
    this._committed = values;
    this.values = values;
    this.stateChanged();
    this.dispatchEvent(new CustomEvent('change', { detail: { values: structuredClone(values) }, bubbles: true }));
  }

  #onKeydown(event) {
    const input = event.target;
    if (input.localName !== 'input' || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const r = Number(input.dataset.r);
    const c = Number(input.dataset.c);
    const atStart = input.selectionStart === 0 && input.selectionEnd === 0;
    const atEnd = input.selectionStart === input.value.length || input.selectionEnd === input.value.length;
    const wholeSelected = input.selectionStart === 0 && input.selectionEnd === input.value.length;
    const moves = {
      ArrowUp: [r - 1, c, true],
      ArrowDown: [r + 1, c, true],
      ArrowLeft: [r, c - 1, atStart || wholeSelected],
      ArrowRight: [r, c + 1, atEnd],
    };
    const move = moves[event.key];
    if (!move || !move[2]) return;
    const target = this.renderRoot.querySelector(`input[data-r="${move[0]}"][data-c="${move[1]}"]`);
    if (!target) return;
    event.preventDefault();
    target.focus();
    target.select();
  }

  reset() {
    this._drafts = new Map();
    if (this._link.resetSource()) return; // the setting it edits, back to the page's
    super.reset(); // back to the attributes
    this.dispatchEvent(new CustomEvent('change', { detail: { values: structuredClone(this.values) }, bubbles: true }));
  }

  renderCell() {
    const values = this.values;
    const cols = values[0]?.length ?? 0;
    const errors = [...this._drafts.entries()].filter(([, d]) => d.error);
    const label = mathPlain(this.label);
    return html`
      <div class="card">
        <div class="head">
          <span class="label" id="label">${mathText(this.label)}</span>
          <button type="button" @click=${() => this.reset()} aria-label=${`Reset ${label}`}>Reset</button>
        </div>
        <div
          class="scroll matrix-box"
          ?data-wide-matrix=${cols > WIDE_MATRIX_COLUMNS}
          @scroll=${cols > WIDE_MATRIX_COLUMNS ? markScrollEnd : null}
        >
          <table aria-labelledby="label" @keydown=${this.#onKeydown} @input=${this.#onInput}>
            <thead>
              <tr>
                <td></td>
                ${Array.from({ length: cols }, (_, c) => html`<th scope="col">${this.colLabels[c] || c}</th>`)}
              </tr>
            </thead>
            <tbody>
              ${values.map(
                (row, r) => html`
                  <tr>
                    <th scope="row">${this.rowLabels[r] || r}</th>
                    ${row.map((x, c) => {
                      const draft = this._drafts.get(`${r},${c}`);
                      const bad = Boolean(draft?.error);
                      return html`<td>
                        <input
                          type="text"
                          inputmode="decimal"
                          autocomplete="off"
                          spellcheck="false"
                          data-r=${r}
                          data-c=${c}
                          aria-label=${`${label}, ${this.#rowName(r)}, ${this.#colName(c)}`}
                          aria-invalid=${bad ? 'true' : 'false'}
                          aria-describedby=${bad ? `error-${r}-${c}` : ''}
                          .value=${live(draft ? draft.text : String(x))}
                          @focus=${(e) => e.target.select()}
                        />
                      </td>`;
                    })}
                  </tr>
                `,
              )}
            </tbody>
          </table>
        </div>
        <ul class="errors" aria-live="polite">
          ${errors.map(([key, d]) => html`<li class="field-error" id=${`error-${key.replace(',', '-')}`}>${d.error}</li>`)}
        </ul>
      </div>
    `;
  }
}

customElements.define('attn-matrix-editor', AttnMatrixEditor);
