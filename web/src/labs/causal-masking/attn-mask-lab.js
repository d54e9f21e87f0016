/**
 * <attn-mask-lab id="painter" seed="0" batch="0" preset="causal" window="1">
 *
 * Paint a mask, watch attention obey it. An attn-mask-painter (presets none,
 * causal, local window, custom; click, drag or keyboard) gives a T × T boolean
 * mask (1 = may attend) that drives attention on the lesson's Q, K, V
 * ((B, T, D) = (2, 5, 8), seeded); the weights are shown as a heatmap.
 * A row with every key blocked (a fully masked row) gets zero weights and a
 * zero output, is counted by the core (fullyMaskedRows), and is explained
 * beside the figure (the manual softmax would give 0/0 = NaN there).
 * Checks, for any mask: blocked cells get weight exactly 0; every row with at
 * least one allowed key sums to 1; the result agrees with the float64
 * reference for the same mask (max |difference| ≤ 1e-6).
 *
 * Maths in the wasm core: randn, attention (boolean mask, weights kept),
 * attentionReference. JS turns the preset into 0/1 cells, adds up rows and
 * compares.
 *
 * State (permalink): seed, batch, preset (none | causal | window | custom),
 * window (w: |i − j| ≤ w), mask (the custom cells, rows of 0/1).
 */
import { css, html } from 'lit';
import { AttnCell } from '../../cells/base/attn-cell.js';
import { cellStyles, resetToAuthored } from '../../cells/base/cell-support.js';
import { maskFor } from '../../cells/figures/attn-mask-painter.js';
import {
  B,
  D,
  SEED_MAX,
  T,
  batchOf,
  batchSelect,
  drawQKV,
  labStyles,
  maxAbsDiff,
  nested,
  rowOf,
  sci,
  seedControls,
  seedHandlers,
  vector,
} from '../common/qkv-lab.js';

const POSITIONS = Array.from({ length: T }, (_, i) => String(i)).join(',');

const TORCH = `import math
import torch
import torch.nn.functional as F

Q = torch.tensor({{Q}})  # this page's Q, K, V (seed {{seed}}), shape (2, 5, 8)
K = torch.tensor({{K}})
V = torch.tensor({{V}})
mask = torch.tensor({{mask}}, dtype=torch.bool)  # True = may attend (the painted mask)

# the manual formula with the mask
scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
scores = scores.masked_fill(~mask, float('-inf'))
weights = torch.softmax(scores, dim=-1)  # a row with no allowed key: softmax of all -inf = NaN
print(weights[0])

# PyTorch's kernel with the same boolean mask (recent versions give zeros for a fully masked row, older ones NaN)
out = F.scaled_dot_product_attention(Q, K, V, attn_mask=mask)
print(out[0])`;

export class AttnMaskLab extends AttnCell {
  static stateFields = {
    seed: { type: 'integer', default: 0, min: 0, max: SEED_MAX },
    batch: { type: 'integer', default: 0, min: 0, max: B - 1 },
    preset: { type: 'enum', default: 'causal', values: ['none', 'causal', 'window', 'custom'] },
    window: { type: 'integer', default: 1, min: 0, max: T - 1 },
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
    _result: { state: true },
    _error: { state: true },
    _seedDraft: { state: true },
  };

  static styles = [
    AttnCell.baseStyles,
    cellStyles,
    labStyles,
    css`
      .fully-masked {
        border: 1px solid var(--border, #d0d4dc);
        border-left: 4px solid var(--accent, #3b5bdb);
        border-radius: 6px;
        padding: 0.4rem 0.75rem;
        margin: 0.5rem 0;
      }
      .fully-masked p {
        margin: 0.25rem 0;
      }
    `,
  ];

  constructor() {
    super();
    this._engine = null;
    this._result = null;
    this._error = '';
    this._seedDraft = null;
    this._key = '';
    this._seed = seedHandlers(this, AttnMaskLab.stateFields.seed);
  }

  async connectedCallback() {
    super.connectedCallback();
    try {
      this._engine = await this.engine();
      this.requestUpdate();
    } catch (error) {
      this.fail(new Error(`the attention core could not be loaded: ${error.message}`));
    }
  }

  get allowed() {
    return maskFor(this.preset, T, this.window, this.mask);
  }

  willUpdate() {
    if (!this._engine) return;
    const allowed = this.allowed;
    const key = JSON.stringify([this.seed, allowed]);
    if (key === this._key) return;
    this._key = key;
    try {
      const e = this._engine;
      const { q, k, v } = drawQKV(e, this.seed);
      const r = e.attention(q, k, v, { mask: allowed, returnWeights: true });
      const ref = e.attentionReference(q, k, v, { mask: allowed });
      const w = r.weights.data;
      let blocked = 0; // largest weight on a blocked cell
      let rowError = 0; // max |row sum − 1| over rows with an allowed key
      for (let b = 0; b < B; b++) {
        for (let i = 0; i < T; i++) {
          let sum = 0;
          for (let j = 0; j < T; j++) {
            const x = w[(b * T + i) * T + j];
            sum += x;
            if (!allowed[i][j]) blocked = Math.max(blocked, Math.abs(x));
          }
          if (allowed[i].some(Boolean)) rowError = Math.max(rowError, Math.abs(sum - 1));
        }
      }
      this._result = {
        seed: this.seed,
        allowed,
        q,
        k,
        v,
        weights: r.weights,
        output: r.output,
        fullyMaskedRows: r.fullyMaskedRows,
        blocked,
        rowError,
        diff: Math.max(maxAbsDiff(r.output.data, ref.output.data), maxAbsDiff(w, ref.weights.data)),
      };
      this._error = '';
    } catch (error) {
      this._error = `${error.message}; showing the last valid result.`;
    }
  }

  _onSeed(event) {
    this._seed.onSeed(event);
  }

  _reroll() {
    this._seed.reroll();
  }

  reset() {
    resetToAuthored(this);
    this._seedDraft = null;
  }

  _onMask(event) {
    event.stopPropagation();
    const { preset, window, mask } = event.detail;
    Object.assign(this, { preset, window: Math.min(window, T - 1), mask });
    this.stateChanged();
  }

  _fullyMasked(r) {
    const rows = r.allowed.map((row, i) => (row.some(Boolean) ? -1 : i)).filter((i) => i >= 0);
    if (!rows.length) {
      return html`<p class="note">
        Every row allows at least one key. Block a whole row in the painter to see what happens to a query that may
        attend to nothing.
      </p>`;
    }
    const b = this.batch;
    const i = rows[0];
    const y = rowOf(batchOf(r.output, b), i);
    const w = rowOf(batchOf(r.weights, b), i);
    return html`<div class="fully-masked" role="note" data-rows=${rows.join(',')} data-count=${r.fullyMaskedRows}>
      <p>
        <strong>Fully masked row${rows.length > 1 ? 's' : ''} ${rows.join(', ')}:</strong> query ${i} may attend to no
        key. Its scores are all −∞, and the softmax would divide 0 by 0: the notebook's hand-written attention (and
        PyTorch's own kernel, in older versions) returns NaN there, which then spreads through everything computed from
        it.
      </p>
      <p>
        This core returns zero weights and a zero output for such a row instead, as current PyTorch does, and counts it:
        <span class="mono">fullyMaskedRows = <span class="count">${r.fullyMaskedRows}</span></span>
        (${rows.length} row${rows.length > 1 ? 's' : ''} × B = ${B} batches).
      </p>
      <p class="mono">
        weights[${b}, ${i}] = <span class="zero-weights" data-values=${w.join(',')}>${vector(w, 3)}</span><br />
        output[${b}, ${i}] = <span class="zero-output" data-values=${y.join(',')}>${vector(y, 3)}</span>
      </p>
      <p>
        Zeros are a convention, not an answer: a query with nothing to look at has nothing to average. Models avoid such
        rows (a causal mask always leaves a position its own key).
      </p>
    </div>`;
  }

  renderCell() {
    const r = this._result;
    const b = this.batch;
    const params = r && {
      seed: r.seed,
      Q: nested(r.q),
      K: nested(r.k),
      V: nested(r.v),
      mask: r.allowed.map((row) => row.map(Boolean)),
    };
    return html`<section class="lab" aria-label="Mask painter lab: attention with a painted boolean mask">
      ${seedControls(this, batchSelect(this, 'mask-batch'))}
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      <div class="pair">
        <div>
          <h3>The mask</h3>
          <attn-mask-painter
            label="Mask"
            size=${T}
            preset="causal"
            window="1"
            .size=${T}
            .preset=${this.preset}
            .window=${this.window}
            .mask=${this.mask}
            @mask-change=${this._onMask}
            @attn-state-change=${(e) => e.stopPropagation()}
          ></attn-mask-painter>
        </div>
        <div>
          <h3>The weights it gives</h3>
          ${
            r
              ? html`<attn-heatmap
                  label=${`Attention weights with the painted mask, batch ${b}`}
                  caption="Row i: query i; column j: key j. Blocked cells are 0."
                  min="0"
                  max="1"
                  row-labels=${POSITIONS}
                  col-labels=${POSITIONS}
                  .values=${batchOf(r.weights, b)}
                ></attn-heatmap>`
              : html`<p class="note">Loading the attention core…</p>`
          }
        </div>
      </div>
      ${
        r
          ? html`${this._fullyMasked(r)}
              <attn-check
                class="blocked"
                label="largest weight on a blocked cell"
                comparison="eq"
                threshold="0"
                .value=${r.blocked}
              ></attn-check>
              <attn-check
                class="row-sums"
                label="max |row sum − 1| over rows with an allowed key"
                threshold="1e-6"
                .value=${r.rowError}
              ></attn-check>
              <attn-check
                class="reference"
                label="max |ours − float64 reference| for this mask"
                threshold="1e-6"
                .value=${r.diff}
              ></attn-check>
              <p class="note">
                D = ${D}; the mask is the same for both batches (it broadcasts over B). Largest difference from the
                reference: <span class="max-diff mono" data-value=${r.diff}>${sci(r.diff)}</span>.
              </p>
              <attn-code label="PyTorch: the painted mask" .template=${TORCH} .params=${params}></attn-code>`
          : ''
      }
    </section>`;
  }
}

customElements.define('attn-mask-lab', AttnMaskLab);
