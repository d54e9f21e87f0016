/**
 * <attn-exercise id="window3" lesson="causal-masking" label="Exercise 3: …">
 *   <p>The task.</p>
 *   <attn-local-window slot="attempt" id="window3-mask" preset="none"></attn-local-window>
 *   <p slot="hint">…</p> <div slot="explanation">…</div>
 * </attn-exercise>
 *
 * The attempt of Exercise 3 of "Lesson 44: The Attention Mechanism": build the
 * local attention window of width 3 (each position attends to itself and its
 * immediate neighbours, |i − j| ≤ 1) in a mask painter. Placed in the attempt
 * slot of an attn-exercise, it gives that exercise its check (checkWindow3:
 * correct only for exactly that band; otherwise the verdict lists the cells
 * that should be allowed and those that should be blocked) and its attempt
 * (the painted mask), so the exercise shows a Check button. After the first
 * Check, every change of the mask is checked again at once. Outside an
 * exercise it shows the verdict itself, live.
 * Under the painter: the weights the painted mask gives on the lesson's Q, K,
 * V (seed 0, batch 0). The painter offers the presets none, causal and custom
 * (not the local window: that would be the answer).
 *
 * Maths in the wasm core: randn, attention (painted mask). JS compares the
 * painted cells with the band.
 *
 * State (permalink): preset (none | causal | custom), mask (the painted cells).
 */
import { html } from 'lit';
import { AttnCell } from '../../cells/base/attn-cell.js';
import { cellStyles, resetToAuthored } from '../../cells/base/cell-support.js';
import { maskFor } from '../../cells/figures/attn-mask-painter.js';
import { T, batchOf, drawQKV, labStyles } from '../common/qkv-lab.js';

const POSITIONS = Array.from({ length: T }, (_, i) => String(i)).join(',');
/** The width-3 band, |i − j| ≤ 1, as rows of 0/1. */
export const BAND = Array.from({ length: T }, (_, i) =>
  Array.from({ length: T }, (_, j) => (Math.abs(i - j) <= 1 ? 1 : 0)),
);
const cellName = ([i, j]) => `(q${i}, k${j})`;

/** { correct, message } for a painted mask (rows of 0/1) against the width-3 band. */
export function checkWindow3(allowed) {
  if (!Array.isArray(allowed) || allowed.length !== T) {
    return { correct: false, message: `the mask must be ${T} × ${T}.` };
  }
  const missing = [];
  const extra = [];
  for (let i = 0; i < T; i++) {
    for (let j = 0; j < T; j++) {
      const want = BAND[i][j];
      const got = allowed[i]?.[j] ? 1 : 0;
      if (want && !got) missing.push([i, j]);
      if (!want && got) extra.push([i, j]);
    }
  }
  if (!missing.length && !extra.length) {
    return {
      correct: true,
      message:
        'each position sees itself and its immediate neighbours, |i − j| ≤ 1: three keys per row, two at the ends.',
    };
  }
  const parts = [];
  if (missing.length) parts.push(`should be allowed but are blocked: ${missing.map(cellName).join(', ')}`);
  if (extra.length) parts.push(`should be blocked but are allowed: ${extra.map(cellName).join(', ')}`);
  return { correct: false, message: `${missing.length + extra.length} cells are wrong. ${parts.join('; ')}.` };
}

export class AttnLocalWindow extends AttnCell {
  static stateFields = {
    preset: { type: 'enum', default: 'none', values: ['none', 'causal', 'custom'] },
    mask: {
      type: 'matrix',
      default: Array.from({ length: T }, () => Array(T).fill(1)),
      minRows: T,
      maxRows: T,
      min: 0,
      max: 1,
      integer: true,
    },
  };

  static properties = {
    ...super.properties,
    _weights: { state: true },
    _error: { state: true },
    _standalone: { state: true },
  };

  static styles = [AttnCell.baseStyles, cellStyles, labStyles];

  constructor() {
    super();
    this._engine = null;
    this._weights = null;
    this._error = '';
    this._key = '';
    this._exercise = null;
    this._standalone = false;
    this._checked = false; // after the first Check, every edit is checked again
    this._onVerdict = () => (this._checked = true);
  }

  async connectedCallback() {
    super.connectedCallback();
    this._exercise = this.closest('attn-exercise');
    this._standalone = !this._exercise;
    if (this._exercise) {
      this._exercise.check = (attempt) => checkWindow3(attempt);
      this._exercise.getAttempt = () => this.allowed;
      this._exercise.addEventListener('attn-verdict', this._onVerdict);
    }
    try {
      this._engine = await this.engine();
      this._qkv = drawQKV(this._engine, 0);
      this.requestUpdate();
    } catch (error) {
      this.fail(new Error(`the attention core could not be loaded: ${error.message}`));
    }
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._exercise?.removeEventListener('attn-verdict', this._onVerdict);
  }

  get allowed() {
    return maskFor(this.preset, T, 1, this.mask);
  }

  willUpdate() {
    if (!this._engine || !this._qkv) return;
    const allowed = this.allowed;
    const key = JSON.stringify(allowed);
    if (key === this._key) return;
    this._key = key;
    try {
      const { q, k, v } = this._qkv;
      this._weights = batchOf(this._engine.attention(q, k, v, { mask: allowed, returnWeights: true }).weights, 0);
      this._error = '';
    } catch (error) {
      this._error = `${error.message}; showing the last valid weights.`;
    }
  }

  /** Back to the authored mask (the exercise's Reset calls this too). */
  reset() {
    resetToAuthored(this);
    this._checked = false;
  }

  _onMask(event) {
    event.stopPropagation();
    const { preset, mask, allowed } = event.detail;
    this.preset = preset === 'window' ? 'custom' : preset;
    this.mask = preset === 'window' ? allowed : mask;
    this.stateChanged();
    if (this._checked && this._exercise?.status !== 'pending') this._exercise?.submit(this.allowed);
  }

  renderCell() {
    const verdict = this._standalone ? checkWindow3(this.allowed) : null;
    return html`<div class="lab">
      <attn-mask-painter
        label="Your mask"
        size=${T}
        preset="none"
        presets="none,causal,custom"
        .preset=${this.preset}
        .mask=${this.mask}
        @mask-change=${this._onMask}
        @attn-state-change=${(e) => e.stopPropagation()}
      ></attn-mask-painter>
      ${
        verdict
          ? html`<p class="note" role="status">${verdict.correct ? 'Correct' : 'Not yet'} — ${verdict.message}</p>`
          : ''
      }
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      ${
        this._weights
          ? html`<attn-heatmap
              label="Weights with your mask (seed 0, batch 0)"
              caption="The weights your mask gives on the lesson's Q, K, V (seed 0, batch 0); blocked cells are 0."
              min="0"
              max="1"
              row-labels=${POSITIONS}
              col-labels=${POSITIONS}
              .values=${this._weights}
            ></attn-heatmap>`
          : html`<p class="note">Loading the attention core…</p>`
      }
    </div>`;
  }
}

customElements.define('attn-local-window', AttnLocalWindow);
