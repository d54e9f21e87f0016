/**
 * <attn-vector-editor label="Weights w" values="0.2,0.3,0.5" count="3" min="-10" max="10">
 *
 * One text field of comma-separated numbers. Every keystroke is checked: a
 * valid list becomes `values` (change + attn-state-change); anything else
 * (not a number, NaN, Infinity, out of [min, max], not `count` entries, more
 * than `max-count` entries) shows
 * the reason beside the field (aria-invalid, aria-describedby) and `values`
 * keep the last valid list.
 *
 * State (permalink): values. Config attributes: label (maths between $…$ is typeset), min, max,
 * count (0 = any),
 * max-count (at most this many entries when count is 0; default and limit 64); for and field:
 * edit that setting of another cell, e.g. <attn-vector-editor for="b" field="values">
 * (cells/base/wiring.js).
 * Events: `change` (detail { values }).
 */
import { css, html } from 'lit';
import { live } from 'lit/directives/live.js';
import { AttnCell } from '../base/attn-cell.js';
import { parseNumberList } from '../base/cell-support.js';
import { mathPlain, mathText } from '../base/math.js';
import { FieldLink, fieldLinkProperties } from '../base/wiring.js';

const MAX_ENTRIES = 64;
const sameList = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

export class AttnVectorEditor extends AttnCell {
  static stateFields = {
    values: { type: 'numbers', default: [0, 0, 0], minLength: 1, maxLength: MAX_ENTRIES },
  };

  static properties = {
    ...super.properties,
    label: { type: String },
    min: { type: Number },
    max: { type: Number },
    count: { type: Number },
    maxCount: { type: Number, attribute: 'max-count' },
    ...fieldLinkProperties,
    _text: { state: true },
    _error: { state: true },
  };

  static styles = [
    AttnCell.compactStyles,
    css`
      .field {
        display: flex;
        align-items: center;
        gap: 0.5rem 0.75rem;
        flex-wrap: wrap;
        margin-top: 0.35rem;
      }
      input[type='text'] {
        flex: 1 1 12rem;
      }
      .hint {
        color: var(--muted, #555d6b);
        font-size: 0.85rem;
        margin: 0.25rem 0 0;
      }
    `,
  ];

  constructor() {
    super();
    this.label = 'Values';
    this.min = -Infinity;
    this.max = Infinity;
    this.count = 0;
    this.maxCount = MAX_ENTRIES;
    this._text = null; // what the field shows; null = the formatted values
    this._error = '';
    this._committed = null; // the values the current text was parsed into
    this._link = new FieldLink(this, { kind: 'numbers', get: () => this.values, set: (v) => (this.values = v) });
  }

  willUpdate(changed) {
    // values set from outside (attribute, JS, reset): show them and drop any error
    if (changed.has('values') && !(this._committed && sameList(this._committed, this.values))) {
      this._text = null;
      this._error = '';
      this._committed = null;
    }
  }

  #onInput(event) {
    const text = event.target.value;
    this._text = text;
    const { values, error } = parseNumberList(text, {
      min: this.min,
      max: this.max,
      count: this.count > 0 ? this.count : 0,
      maxCount: this.#maxCount(),
    });
    if (error) {
      this._error = error;
      return;
    }
    this._error = '';
    if (sameList(values, this.values)) return;
    this._committed = values;
    this.values = values;
    this.stateChanged();
    this.dispatchEvent(new CustomEvent('change', { detail: { values: [...values] }, bubbles: true }));
  }

  #maxCount() {
    return this.maxCount >= 1 && this.maxCount < MAX_ENTRIES ? Math.floor(this.maxCount) : MAX_ENTRIES;
  }

  reset() {
    this._text = null;
    this._error = '';
    if (this._link.resetSource()) return; // the setting it edits, back to the page's
    super.reset(); // back to the attributes
    this.dispatchEvent(new CustomEvent('change', { detail: { values: [...this.values] }, bubbles: true }));
  }

  #hint() {
    const parts = [
      this.count > 0
        ? `${this.count} numbers`
        : this.#maxCount() < MAX_ENTRIES
          ? `1 to ${this.#maxCount()} numbers`
          : 'numbers',
      'separated by commas',
    ];
    if (Number.isFinite(this.min) && Number.isFinite(this.max)) parts.push(`each from ${this.min} to ${this.max}`);
    else if (Number.isFinite(this.min)) parts.push(`each at least ${this.min}`);
    else if (Number.isFinite(this.max)) parts.push(`each at most ${this.max}`);
    return parts.join(', ');
  }

  renderCell() {
    const text = this._text ?? this.values.join(', ');
    const invalid = Boolean(this._error);
    return html`
      <div class="card">
        <div class="head">
          <label class="label" for="field">${mathText(this.label)}</label>
          <button type="button" @click=${() => this.reset()} aria-label=${`Reset ${mathPlain(this.label)}`}>
            Reset
          </button>
        </div>
        <div class="field">
          <input
            id="field"
            type="text"
            inputmode="decimal"
            autocomplete="off"
            spellcheck="false"
            .value=${live(text)}
            aria-invalid=${invalid ? 'true' : 'false'}
            aria-describedby=${invalid ? 'error hint' : 'hint'}
            @input=${this.#onInput}
          />
          <p class="field-error" id="error" aria-live="polite" ?hidden=${!invalid}>${this._error}</p>
        </div>
        <p class="hint" id="hint">${this.#hint()}</p>
      </div>
    `;
  }
}

customElements.define('attn-vector-editor', AttnVectorEditor);
