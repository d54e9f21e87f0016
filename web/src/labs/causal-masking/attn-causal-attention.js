/**
 * <attn-causal-attention id="causal" seed="0" batch="0">
 *
 * The causal-masking example of "Lesson 44: The Attention Mechanism"
 * (§ Causal masking) on the lesson's Q, K, V ((B, T, D) = (2, 5, 8), seeded):
 * attention with the causal mask (query i sees keys j ≤ i), its weights as a
 * heatmap, and the notebook's two checks, live:
 *   - the total weight from position 0 onto the future positions 1…4, over
 *     both batches, is exactly 0;
 *   - the causal kernel (mask 'causal', as is_causal=True) agrees with the
 *     float64 reference run with the explicit lower-triangular boolean mask
 *     (the notebook's torch.tril mask): max |difference| ≤ 1e-6 (the
 *     notebook reports 1.19e-07 against PyTorch).
 * A third check: every weight above the diagonal, in every row, is exactly 0.
 *
 * Maths in the wasm core: randn, attention (causal, fused and with weights),
 * attentionReference (boolean mask). JS builds the 0/1 triangle, adds up
 * the weights it reports and compares.
 *
 * State (permalink): seed, batch (which batch the heatmap shows).
 */
import { html } from 'lit';
import { AttnCell } from '../../cells/base/attn-cell.js';
import { cellStyles, resetToAuthored } from '../../cells/base/cell-support.js';
import {
  B,
  SEED_MAX,
  T,
  batchOf,
  batchSelect,
  drawQKV,
  labStyles,
  maxAbsDiff,
  nested,
  sci,
  seedControls,
  seedHandlers,
} from '../common/qkv-lab.js';

const POSITIONS = Array.from({ length: T }, (_, i) => String(i)).join(',');
const TRIL = Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => (j <= i ? 1 : 0)));

const TORCH = `import math
import torch
import torch.nn.functional as F

def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = Q @ K.transpose(-2, -1) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float('-inf'))
    weights = F.softmax(scores, dim=-1)
    return weights @ V, weights

B, T, D = 2, 5, 8
Q = torch.tensor({{Q}})  # this page's Q, K, V (seed {{seed}})
K = torch.tensor({{K}})
V = torch.tensor({{V}})

causal_mask = torch.tril(torch.ones(T, T))  # 1 where position i may attend to position j <= i
out_causal, w_causal = attention(Q, K, V, mask=causal_mask)
out_torch_causal = F.scaled_dot_product_attention(Q, K, V, is_causal=True)

future_weight = w_causal[:, 0, 1:].abs().sum().item()  # position 0 attending to positions 1..T-1
print(f'total attention weight from position 0 onto FUTURE positions: {future_weight:.6f}  (should be exactly 0)')
print(f'max abs diff vs F.scaled_dot_product_attention(..., is_causal=True): '
      f'{(out_causal - out_torch_causal).abs().max().item():.2e}')`;

export class AttnCausalAttention extends AttnCell {
  static stateFields = {
    seed: { type: 'integer', default: 0, min: 0, max: SEED_MAX },
    batch: { type: 'integer', default: 0, min: 0, max: B - 1 },
  };

  static properties = {
    ...super.properties,
    _result: { state: true },
    _error: { state: true },
    _seedDraft: { state: true },
  };

  static styles = [AttnCell.baseStyles, cellStyles, labStyles];

  constructor() {
    super();
    this._engine = null;
    this._result = null;
    this._error = '';
    this._seedDraft = null;
    this._key = '';
    this._seed = seedHandlers(this, AttnCausalAttention.stateFields.seed);
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

  willUpdate() {
    if (!this._engine || String(this.seed) === this._key) return;
    this._key = String(this.seed);
    try {
      const e = this._engine;
      const { q, k, v } = drawQKV(e, this.seed);
      const fused = e.attention(q, k, v, { mask: 'causal' });
      const full = e.attention(q, k, v, { mask: 'causal', returnWeights: true });
      const ref = e.attentionReference(q, k, v, { mask: TRIL });
      const w = full.weights.data;
      let future = 0; // Σ over batches of |w[b, 0, 1:]|, as the notebook's w_causal[:, 0, 1:].abs().sum()
      let above = 0; // largest weight above the diagonal, any row
      for (let b = 0; b < B; b++) {
        for (let j = 1; j < T; j++) future += Math.abs(w[b * T * T + j]);
        for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) above = Math.max(above, w[(b * T + i) * T + j]);
      }
      this._result = {
        seed: this.seed,
        q,
        k,
        v,
        weights: full.weights,
        future,
        above,
        diff: Math.max(maxAbsDiff(fused.output.data, ref.output.data), maxAbsDiff(full.output.data, ref.output.data)),
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

  renderCell() {
    const r = this._result;
    const b = this.batch;
    const params = r && { seed: r.seed, Q: nested(r.q), K: nested(r.k), V: nested(r.v) };
    const printout =
      r &&
      [
        `total attention weight from position 0 onto FUTURE positions: ${r.future.toFixed(6)}  (should be exactly 0)`,
        `max abs diff vs the float64 reference with the tril mask: ${sci(r.diff)}`,
      ].join('\n');
    return html`<section class="lab" aria-label="Causal attention lab">
      ${seedControls(this, batchSelect(this, 'causal-batch'))}
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      ${
        !r
          ? html`<p class="note">Loading the attention core…</p>`
          : html`
              <attn-heatmap
                label=${`Causal attention weights, batch ${b}`}
                caption="Row i: query position i; column j: key position j. Every row attends only to itself and the past; the upper triangle is 0."
                min="0"
                max="1"
                row-labels=${POSITIONS}
                col-labels=${POSITIONS}
                .values=${batchOf(r.weights, b)}
              ></attn-heatmap>
              <attn-output label="Output" .text=${printout}></attn-output>
              <p class="note">
                Largest difference from the float64 reference:
                <span class="max-diff mono" data-value=${r.diff}>${sci(r.diff)}</span>; weight from position 0 onto the
                future: <span class="future mono" data-value=${r.future}>${r.future.toFixed(6)}</span>.
              </p>
              <attn-check
                class="future"
                label="total weight from position 0 onto positions 1…4, both batches"
                comparison="eq"
                threshold="0"
                .value=${r.future}
              ></attn-check>
              <attn-check
                class="above"
                label="largest weight above the diagonal, any row"
                comparison="eq"
                threshold="0"
                .value=${r.above}
              ></attn-check>
              <attn-check
                class="reference"
                label="max |causal kernel − float64 reference with the tril mask|"
                threshold="1e-6"
                .value=${r.diff}
              ></attn-check>
              <attn-code
                label="PyTorch: the tril mask against is_causal=True"
                .template=${TORCH}
                .params=${params}
              ></attn-code>
            `
      }
    </section>`;
  }
}

customElements.define('attn-causal-attention', AttnCausalAttention);
