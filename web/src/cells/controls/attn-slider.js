/**
 * <attn-slider label="Temperature" symbol="τ" scale="log" min="0.01" max="100" value="1" limits>
 *
 * A labelled range control. With scale="log" the thumb moves along log10 of
 * the value (0.01 … 100 gives four equal decades); `step` is then in decades
 * (default 0.01), otherwise in the value's units (default (max − min)/100).
 * `limits` adds two buttons, "0" and "∞", that set the exact limits 0 and
 * Infinity (the temperature limits of softmax: argmax and uniform).
 *
 * State (permalink): value. Config attributes: label (text; maths between $…$ is typeset), symbol
 * (TeX: τ, \theta_Q, s_K; shown typeset as "symbol = value"), min, max, step,
 * scale (linear | log), limits (boolean); for and field: drive that setting of another cell,
 * e.g. <attn-slider for="att" field="temperature"> (cells/base/wiring.js; the slider then starts
 * at that cell's value and its Reset resets that setting).
 * Property `format` (optional): value -> the text shown and spoken (default formatNumber).
 * Events: `change` (detail { value }) and attn-state-change on every user change.
 */
import { css, html } from 'lit';
import { AttnCell } from '../base/attn-cell.js';
import { formatNumber } from '../base/cell-support.js';
import { FieldLink, fieldLinkProperties } from '../base/wiring.js';
import { mathPlain, mathText, texValue } from '../base/math.js';

const significant = (x, digits = 6) => Number(x.toPrecision(digits));

export class AttnSlider extends AttnCell {
  static stateFields = {
    value: { type: 'number', default: 0, min: -Infinity, max: Infinity },
  };

  static properties = {
    ...super.properties,
    label: { type: String },
    symbol: { type: String },
    min: { type: Number },
    max: { type: Number },
    step: { type: Number },
    scale: { type: String },
    limits: { type: Boolean },
    ...fieldLinkProperties,
    format: { attribute: false },
  };

  static styles = [
    AttnCell.compactStyles,
    css`
      .track {
        display: flex;
        align-items: center;
        gap: 0.5rem;
        margin-top: 0.35rem;
      }
      input[type='range'] {
        flex: 1 1 auto;
        min-width: 6rem;
        min-height: 2.75rem; /* a finger's hit area, 44 px */
        margin: 0;
        accent-color: var(--accent, #3b5bdb);
      }
      output {
        margin-right: auto;
        font-family: var(--font-mono, ui-monospace, monospace);
        font-variant-numeric: tabular-nums;
      }
      .ends {
        display: flex;
        justify-content: space-between;
        color: var(--muted, #555d6b);
        font-size: 0.8rem;
        font-family: var(--font-mono, ui-monospace, monospace);
      }
      .limits .ends {
        padding: 0 3.25rem;
      }
      .limit {
        min-width: 2.75rem;
        min-height: 2.75rem;
        font-family: var(--font-mono, ui-monospace, monospace);
      }
      .limit[aria-pressed='true'] {
        background: var(--accent, #3b5bdb);
        border-color: var(--accent, #3b5bdb);
        color: var(--surface, #fff);
      }
    `,
  ];

  constructor() {
    super();
    this.label = 'Value';
    this.symbol = '';
    this.min = 0;
    this.max = 1;
    this.step = 0;
    this.scale = 'linear';
    this.limits = false;
    this._link = new FieldLink(this, { kind: 'number', get: () => this.value, set: (v) => (this.value = v) });
    this.format = null;
  }

  /** True when the log scale can be used (0 < min < max). */
  get #log() {
    return this.scale === 'log' && this.min > 0 && this.max > this.min;
  }

  willUpdate(changed) {
    if (changed.has('scale') && !['linear', 'log'].includes(this.scale)) {
      this._notice = `Attribute scale: "${String(this.scale).slice(0, 20)}" is not linear or log; using linear.`;
      this.scale = 'linear';
    } else if (this.scale === 'log' && !(this.min > 0 && this.max > this.min)) {
      this._notice = 'A log scale needs 0 < min < max; using a linear scale.';
    }
    if (typeof this.value !== 'number' || Number.isNaN(this.value)) this.value = this.min;
  }

  /** Slider range in position units: [lo, hi], step. */
  #range() {
    if (this.#log) return [Math.log10(this.min), Math.log10(this.max), this.step > 0 ? this.step : 0.01];
    const lo = Math.min(this.min, this.max);
    const hi = Math.max(this.min, this.max);
    return [lo, hi, this.step > 0 ? this.step : (hi - lo) / 100 || 1];
  }

  #position(value) {
    const [lo, hi] = this.#range();
    const p = this.#log ? (value > 0 ? Math.log10(value) : lo) : value;
    return Math.min(Math.max(p, lo), hi);
  }

  #fromPosition(p) {
    const [lo, hi] = this.#range();
    if (p <= lo) return this.min;
    if (p >= hi) return this.max;
    return this.#log ? significant(10 ** p) : significant(p, 12);
  }

  /** Sets the value as the user did: fires attn-state-change and change. */
  #set(value) {
    this.value = value;
    this.stateChanged();
    this.dispatchEvent(new CustomEvent('change', { detail: { value }, bubbles: true }));
  }

  reset() {
    if (this._link.resetSource()) return; // the setting it drives, back to the page's
    super.reset(); // back to the attributes
    this.dispatchEvent(new CustomEvent('change', { detail: { value: this.value }, bubbles: true }));
  }

  #formatted(value) {
    return this.format ? this.format(value) : formatNumber(value);
  }

  #text(value) {
    const v = this.#formatted(value);
    return this.symbol ? texValue(this.symbol, v) : v;
  }

  renderCell() {
    const [lo, hi, step] = this.#range();
    const value = this.value;
    const name = mathPlain(this.symbol ? `$${this.symbol}$` : this.label);
    const label = mathPlain(this.label);
    const spoken = value === Infinity ? 'infinity' : this.#formatted(value);
    return html`
      <div class="card ${this.limits ? 'limits' : ''}">
        <div class="head">
          <label class="label" for="range">${mathText(this.label)}</label>
          <output for="range">${this.#text(value)}</output>
          <button type="button" class="reset" @click=${() => this.reset()} aria-label=${`Reset ${label}`}>Reset</button>
        </div>
        <div class="track">
          ${
            this.limits
              ? html`<button
                  type="button"
                  class="limit"
                  aria-label=${`${name} → 0`}
                  aria-pressed=${value === 0 ? 'true' : 'false'}
                  @click=${() => this.#set(0)}
                >
                  0
                </button>`
              : ''
          }
          <input
            id="range"
            type="range"
            min=${lo}
            max=${hi}
            step=${step}
            .value=${String(this.#position(value))}
            aria-valuetext=${this.symbol ? `${mathPlain(`$${this.symbol}$`)} = ${spoken}` : spoken}
            @input=${(e) => this.#set(this.#fromPosition(Number(e.target.value)))}
          />
          ${
            this.limits
              ? html`<button
                  type="button"
                  class="limit"
                  aria-label=${`${name} → ∞`}
                  aria-pressed=${value === Infinity ? 'true' : 'false'}
                  @click=${() => this.#set(Infinity)}
                >
                  ∞
                </button>`
              : ''
          }
        </div>
        <div class="ends" aria-hidden="true">
          <span>${formatNumber(this.min)}</span>${this.#log ? html`<span>log scale</span>` : ''}<span
            >${formatNumber(this.max)}</span
          >
        </div>
      </div>
    `;
  }
}

customElements.define('attn-slider', AttnSlider);
