/**
 * <attn-mask-painter size="5" preset="causal" window="1" presets="none,causal,window,custom">
 *
 * A T × T attention mask to paint: row i is query i, column j is key j; a
 * filled cell (✓) means query i may attend to key j, an empty one (×) that
 * it may not (PyTorch's boolean convention: true = may attend).
 *   - Presets: none (every key allowed), causal (j ≤ i), local window
 *     (|i − j| ≤ w, with w chosen beside it), custom (the cells as painted).
 *   - Mouse or touch: click a cell to toggle it; press and drag to paint
 *     several cells the same way. Every cell is a 44 px target (2.75rem);
 *     a grid wider than its box scrolls inside its own box (touch the row or
 *     column labels to scroll it) rather than shrinking the cells.
 *   - Keyboard: the grid is one Tab stop; arrow keys (and Home/End) move
 *     between cells, Space or Enter toggles the focused cell.
 * Any toggle turns the preset into "custom", starting from the cells shown.
 * Only builds the 0/1 grid; the lab that holds it runs attention with it.
 *
 * State fields: size (T, 1–16), preset (none | causal | window | custom),
 * window (w, 0–15), mask (the custom cells, rows of 0/1 separated by ";").
 * Attributes: presets (which preset buttons to show, comma-separated; default
 * all four), label, no-reset (leave out the "Reset mask" button, for a lab
 * that has its own Reset). "Reset mask" returns to the authored attributes.
 * Property `allowed`: the current mask as rows of 0/1.
 * Fires `mask-change` (bubbles, composed; detail { allowed, preset, window,
 * mask }) after every user edit and on Reset.
 */
import { css, html } from 'lit';
import { live } from 'lit/directives/live.js';
import { AttnCell } from '../base/attn-cell.js';
import { cellStyles, readWholeNumber, resetToAuthored } from '../base/cell-support.js';
import { tex } from '../base/math.js';
import { listConverter } from '../base/figure-base.js';
import { markScrollEnd, matrixBoxStyles, WIDE_MATRIX_COLUMNS } from '../base/matrix-box.js';
import { controlStyles } from '../base/styles.js';
import { emptyRows, MASK_PRESETS as PRESETS, maskFor } from './mask-presets.js';
import { styleProps } from '../../charts/style-props.js';

export { maskFor };

const PRESET_NAMES = { none: 'None', causal: 'Causal', window: 'Local window', custom: 'Custom' };
const MAX = 16;

export class AttnMaskPainter extends AttnCell {
  static stateFields = {
    size: { type: 'integer', default: 5, min: 1, max: MAX },
    preset: { type: 'enum', default: 'causal', values: PRESETS },
    window: { type: 'integer', default: 1, min: 0, max: MAX - 1 },
    mask: {
      type: 'matrix',
      default: Array.from({ length: 5 }, () => Array(5).fill(1)),
      minRows: 1,
      maxRows: MAX,
      min: 0,
      max: 1,
      integer: true,
    },
  };

  static properties = {
    ...super.properties,
    presets: { converter: listConverter },
    label: { type: String },
    noReset: { type: Boolean, attribute: 'no-reset' },
    _focus: { state: true },
    _windowDraft: { state: true },
  };

  static styles = [
    AttnCell.baseStyles,
    cellStyles,
    controlStyles,
    matrixBoxStyles,
    css`
      :host {
        margin: 0.5rem 0;
      }
      .presets {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.35rem;
        margin-bottom: 0.5rem;
      }
      /* pressed is shown without a change of width, so nothing moves under a pointer that paints */
      button[aria-pressed='true'].preset {
        border-color: var(--accent, #3b5bdb);
        box-shadow: inset 0 0 0 1px var(--accent, #3b5bdb);
        background: color-mix(in srgb, var(--accent, #3b5bdb) 18%, var(--surface, #fff));
      }
      .window-field {
        flex-basis: 100%;
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.35rem;
      }
      input[type='number'] {
        width: 3.5rem;
      }
      .grid-box {
        /* the cells keep their 44 px: a grid of up to WIDE_MATRIX_COLUMNS keys fits a phone, a
           wider one scrolls here (matrixBoxStyles: data-wide-matrix, its edge faded) */
        padding: 2px;
      }
      .grid {
        display: inline-grid;
        gap: 1px;
        user-select: none;
        font-family: var(--font-mono, ui-monospace, monospace);
        font-size: 0.8rem;
      }
      .row {
        display: contents;
      }
      .head {
        display: flex;
        align-items: center;
        justify-content: center;
        color: var(--muted, #555d6b);
        min-width: 1.25rem;
        min-height: 1.4rem;
      }
      .cell {
        display: flex;
      }
      .cell button {
        width: 2.75rem;
        height: 2.75rem;
        padding: 0;
        border-radius: 4px;
        font: inherit;
        font-size: 1rem;
        border: 1px solid var(--border, #d0d4dc);
        background: var(--surface, #fff);
        color: var(--muted, #555d6b);
        touch-action: none; /* a touch on a cell paints; on the labels it scrolls the box */
      }
      .cell button[aria-pressed='true'] {
        background: var(--accent, #3b5bdb);
        border-color: var(--accent, #3b5bdb);
        color: #fff;
        font-weight: 700;
      }
      .cell button:focus-visible {
        outline: 3px solid var(--text, #1b1e24);
        outline-offset: 1px;
      }
      .summary {
        margin: 0.35rem 0 0;
        color: var(--muted, #555d6b);
        font-size: 0.85rem;
      }
    `,
  ];

  constructor() {
    super();
    this.presets = null;
    this.label = 'Attention mask';
    this.noReset = false;
    this._focus = [0, 0];
    this._windowDraft = null; // { text, error } while the window field holds bad text
    this._paint = null; // { value, x, y } while a pointer drag paints (x, y: where the pointer last was)
    this._endPaint = () => (this._paint = null);
  }

  connectedCallback() {
    super.connectedCallback();
    window.addEventListener('pointerup', this._endPaint);
    window.addEventListener('pointercancel', this._endPaint);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    window.removeEventListener('pointerup', this._endPaint);
    window.removeEventListener('pointercancel', this._endPaint);
  }

  /** The mask shown: rows of 0/1, size × size. */
  get allowed() {
    return maskFor(this.preset, this.size, this.window, this.mask);
  }

  reset() {
    resetToAuthored(this);
    this._focus = [0, 0];
    this._windowDraft = null;
    this.#emit();
  }

  #emit() {
    const detail = { allowed: this.allowed, preset: this.preset, window: this.window, mask: this.mask };
    this.dispatchEvent(new CustomEvent('mask-change', { detail, bubbles: true, composed: true }));
  }

  #commit() {
    this.stateChanged();
    this.#emit();
  }

  #setPreset(preset) {
    if (preset === 'custom') this.mask = this.allowed;
    this.preset = preset;
    this.#commit();
  }

  #setCell(i, j, value) {
    const current = this.allowed;
    if (current[i][j] === value && this.preset === 'custom') return;
    current[i][j] = value;
    this.mask = current;
    this.preset = 'custom';
    this.#commit();
  }

  #toggle(i, j) {
    this.#setCell(i, j, this.allowed[i][j] ? 0 : 1);
  }

  #onWindow(event) {
    const max = this.size - 1;
    const { value: w, error } = readWholeNumber(event.target, { min: 0, max });
    if (error) {
      // shown beside the field; the mask keeps the last valid window
      this._windowDraft = { text: event.target.value, error: `Window w ${error}; a whole number from 0 to ${max}.` };
      return;
    }
    this._windowDraft = null;
    this.window = w;
    if (this.preset !== 'window') this.preset = 'window';
    this.#commit();
  }

  #onKey(event) {
    const n = this.size;
    const [i, j] = this._focus;
    const moves = {
      ArrowUp: [i - 1, j],
      ArrowDown: [i + 1, j],
      ArrowLeft: [i, j - 1],
      ArrowRight: [i, j + 1],
      Home: [i, 0],
      End: [i, n - 1],
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const [r, c] = moves[event.key].map((x) => Math.max(0, Math.min(n - 1, x)));
    this._focus = [r, c];
    this.updateComplete.then(() => this.renderRoot.querySelector(`button[data-row="${r}"][data-col="${c}"]`)?.focus());
  }

  #onPointerDown(event, i, j) {
    if (event.button !== 0) return;
    event.preventDefault(); // no text selection, no focus ring jump while painting
    event.target.releasePointerCapture?.(event.pointerId); // touch: let other cells see the pointer
    const value = this.allowed[i][j] ? 0 : 1;
    this._paint = { value, x: event.clientX, y: event.clientY };
    this._focus = [i, j];
    this.#setCell(i, j, value);
    event.target.focus({ preventScroll: true });
  }

  /**
   * A drag paints the cells the pointer moves into. A cell that comes under a pointer that did not
   * move (the layout shifted) is left alone: the browser reports it at the pointer's last place.
   */
  #onPointerEnter(event, i, j) {
    const paint = this._paint;
    if (!paint || (event.clientX === paint.x && event.clientY === paint.y)) return;
    this.#setCell(i, j, paint.value);
  }

  #onPointerMove(event) {
    if (!this._paint) return;
    this._paint.x = event.clientX;
    this._paint.y = event.clientY;
  }

  #onClick(event, i, j) {
    // Mouse and touch toggle on pointerdown; a click with detail 0 comes from the keyboard (Space, Enter).
    if (event.detail !== 0) return;
    this._focus = [i, j];
    this.#toggle(i, j);
  }

  renderCell() {
    const n = this.size;
    const allowed = this.allowed;
    const shown = (this.presets ?? PRESETS).filter((p) => PRESETS.includes(p));
    const [fi, fj] = this._focus.map((x) => Math.min(x, n - 1));
    const count = allowed.flat().reduce((a, b) => a + b, 0);
    const empty = emptyRows(allowed);
    return html`<div class="presets" role="group" aria-label=${`${this.label}: presets`}>
        <span class="note">Preset:</span>
        ${shown.map(
          (p) =>
            html`<button
              type="button"
              class="preset"
              data-preset=${p}
              aria-pressed=${this.preset === p ? 'true' : 'false'}
              @click=${() => this.#setPreset(p)}
            >
              ${PRESET_NAMES[p]}
            </button>`,
        )}
        ${
          shown.includes('window')
            ? html`<span class="window-field">
                <label for="window">${tex`w`}</label>
                <input
                  id="window"
                  type="number"
                  min="0"
                  max=${n - 1}
                  step="1"
                  .value=${live(this._windowDraft ? this._windowDraft.text : String(this.window))}
                  aria-invalid=${this._windowDraft ? 'true' : 'false'}
                  aria-describedby=${this._windowDraft ? 'window-error window-help' : 'window-help'}
                  @change=${(e) => this.#onWindow(e)}
                />
                <span class="note" id="window-help"
                  >local window: ${tex`|i - j| \le w`} (width ${2 * this.window + 1})</span
                >
                ${this._windowDraft ? html`<p class="field-error" id="window-error">${this._windowDraft.error}</p>` : ''}
              </span>`
            : ''
        }
        ${this.noReset ? '' : html`<button type="button" class="reset-mask" @click=${() => this.reset()}>Reset mask</button>`}
      </div>
      <div
        class="grid-box matrix-box"
        ?data-wide-matrix=${n > WIDE_MATRIX_COLUMNS}
        @scroll=${n > WIDE_MATRIX_COLUMNS ? markScrollEnd : null}
      >
        <div
          class="grid"
          role="grid"
          aria-label=${`${this.label}: rows are queries i, columns are keys j; pressed = may attend`}
          aria-describedby="grid-help"
          style=${styleProps({ 'grid-template-columns': `auto repeat(${n}, auto)` })}
          @keydown=${(e) => this.#onKey(e)}
          @pointermove=${(e) => this.#onPointerMove(e)}
        >
          <div class="row" role="row">
            <div class="head" role="columnheader">
              <span class="visually-hidden">query \\ key</span>${tex`i`}\\${tex`j`}
            </div>
            ${allowed.map((_, j) => html`<div class="head" role="columnheader">${tex`k_{${j}}`}</div>`)}
          </div>
          ${allowed.map(
            (row, i) =>
              html`<div class="row" role="row">
                <div class="head" role="rowheader">${tex`q_{${i}}`}</div>
                ${row.map(
                  (a, j) =>
                    html`<div class="cell" role="gridcell">
                      <button
                        type="button"
                        data-row=${i}
                        data-col=${j}
                        tabindex=${i === fi && j === fj ? '0' : '-1'}
                        aria-pressed=${a ? 'true' : 'false'}
                        aria-label=${`query ${i}, key ${j}`}
                        @pointerdown=${(e) => this.#onPointerDown(e, i, j)}
                        @pointerenter=${(e) => this.#onPointerEnter(e, i, j)}
                        @click=${(e) => this.#onClick(e, i, j)}
                        @focus=${() => (this._focus = [i, j])}
                      >
                        ${a ? '✓' : '×'}
                      </button>
                    </div>`,
                )}
              </div>`,
          )}
        </div>
      </div>
      <p class="summary" id="grid-help">
        ${count} of ${n * n} cells
        allowed${empty.length ? `; no key allowed in row${empty.length > 1 ? 's' : ''} ${empty.join(', ')}` : ''}. Click
        or drag to paint; on the keyboard, arrows move and Space or Enter toggles.
      </p>`;
  }
}

customElements.define('attn-mask-painter', AttnMaskPainter);
