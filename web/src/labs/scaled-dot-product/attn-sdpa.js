/**
 * <attn-sdpa id="sdpa" seed="0" batch="0">
 *
 * The lab of the scaled-dot-product lesson ("Lesson 44: The Attention
 * Mechanism", § Queries, keys, and values): Q, K, V of shape (B, T, D) =
 * (2, 5, 8) from the core's seeded generator, and
 *
 *   Attention(Q, K, V) = softmax(QKᵀ / √d_k) V
 *
 * written out with each term linked to the figure that shows it: hovering or
 * focusing QKᵀ outlines the scores heatmap (and Q and K), √d_k the scaled
 * scores, softmax the weights, V the values and the left-hand side the output.
 * Checks: the output shape (2, 5, 8); every weight row sums to 1; our WASM
 * result (the fused kernel, as F.scaled_dot_product_attention) against the
 * core's float64 scalar reference, max |difference| ≤ 1e-6 (the notebook
 * reports 2.38e-07 against PyTorch). Code cells: the notebook's manual formula
 * against F.scaled_dot_product_attention, in PyTorch and NumPy, with this
 * page's Q, K, V.
 *
 * Maths in the wasm core: randn (Q, K, V), attention (fused output; weights and
 * scores; the unscaled QKᵀ with scale = 1), attentionReference (float64),
 * rowStochasticReport. JS slices, compares (max |a − b|) and formats.
 *
 * State (permalink): seed (whole number), batch (0 or 1: which batch the
 * figures show). Re-roll draws a new seed; Reset goes back to the authored
 * state. data-settled (AttnCell) once the result of the current state is shown.
 */
import { css, html } from 'lit';
import { AttnCell } from '../../cells/base/attn-cell.js';
import { cellStyles, resetToAuthored } from '../../cells/base/cell-support.js';
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
  rowsOf,
  sci,
  seedControls,
  seedHandlers,
} from '../common/qkv-lab.js';

const POSITIONS = Array.from({ length: T }, (_, i) => String(i)).join(',');
const DIMS = Array.from({ length: D }, (_, d) => String(d)).join(',');

/** The formula's terms: what each one is and which panels it lights up. */
const TERMS = {
  out: {
    panels: ['out'],
    text: 'Attention(Q, K, V): the output, one row of D = 8 numbers per query, shape (B, T, D) = (2, 5, 8).',
  },
  softmax: {
    panels: ['weights'],
    text: 'softmax(…): applied to each row of the scaled scores, so every row of weights is ≥ 0 and sums to 1.',
  },
  scores: {
    panels: ['q', 'k', 'scores'],
    text: 'QKᵀ: every query dotted with every key; entry (i, j) scores how well query i matches key j. Shape (B, T, T) = (2, 5, 5).',
  },
  scale: {
    panels: ['scaled'],
    text: `÷ √d_k: the scores divided by √8 ≈ ${Math.sqrt(D).toFixed(4)}, d_k = 8 being the length of a query or key.`,
  },
  v: {
    panels: ['v'],
    text: 'V: the values; the output row i is the weights of row i times V, a weighted average of the rows of V.',
  },
};

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

B, T, D = 2, 5, 8  # batch, sequence length, dimension
# This page's Q, K, V (seed {{seed}}, rounded to 4 decimals). The notebook draws
# its own with torch.manual_seed(0); Q = torch.randn(B, T, D); K = ...; V = ...
Q = torch.tensor({{Q}})
K = torch.tensor({{K}})
V = torch.tensor({{V}})

out, weights = attention(Q, K, V)
out_torch = F.scaled_dot_product_attention(Q, K, V)
out64, _ = attention(Q.double(), K.double(), V.double())  # a float64 reference

print(f'output shape: {tuple(out.shape)}')
print(f'each attention-weight row sums to 1: {torch.allclose(weights.sum(-1), torch.ones(B, T))}')
print(f'max abs diff vs F.scaled_dot_product_attention: {(out - out_torch).abs().max().item():.2e}')
print(f'max abs diff vs float64: {(out_torch.double() - out64).abs().max().item():.2e}')`;

const NUMPY = `import numpy as np

Q = np.array({{Q}}, dtype=np.float32)  # (B, T, D)
K = np.array({{K}}, dtype=np.float32)
V = np.array({{V}}, dtype=np.float32)

def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))  # max-subtracted: exp never overflows
    return e / e.sum(axis=-1, keepdims=True)

d_k = Q.shape[-1]
scores = Q @ K.transpose(0, 2, 1)          # (B, T, T): QKᵀ
weights = softmax(scores / np.sqrt(d_k))   # each row sums to 1
out = weights @ V                          # (B, T, D)
assert out.shape == (2, 5, 8)
assert np.allclose(weights.sum(-1), 1.0)`;

export class AttnSdpa extends AttnCell {
  static stateFields = {
    seed: { type: 'integer', default: 0, min: 0, max: SEED_MAX },
    batch: { type: 'integer', default: 0, min: 0, max: B - 1 },
  };

  static properties = {
    ...super.properties,
    _result: { state: true },
    _error: { state: true },
    _term: { state: true },
    _seedDraft: { state: true },
  };

  static styles = [
    AttnCell.baseStyles,
    cellStyles,
    labStyles,
    css`
      .formula {
        font: 1.15rem/2 var(--font-serif, 'KaTeX_Main', 'Times New Roman', serif);
        text-align: center;
        margin: 0.5rem 0;
        overflow-x: auto;
        white-space: nowrap;
      }
      .formula .op {
        padding: 0 0.15em;
      }
      .term {
        font: inherit;
        font-style: italic;
        border: 1px dashed var(--border, #d0d4dc);
        border-radius: 4px;
        background: transparent;
        padding: 0 0.2em;
        margin: 0 0.05em;
        color: var(--text, #1b1e24);
        cursor: help;
      }
      .term.fn {
        font-style: normal;
      }
      .term.active,
      .term:hover {
        border-style: solid;
        border-color: var(--accent, #3b5bdb);
        background: color-mix(in srgb, var(--accent, #3b5bdb) 14%, transparent);
      }
      .frac {
        display: inline-flex;
        flex-direction: column;
        align-items: center;
        vertical-align: middle;
        line-height: 1.3;
      }
      .frac > :first-child {
        border-bottom: 1px solid currentColor;
        padding: 0 0.2em;
      }
      .pair.wide {
        grid-template-columns: repeat(auto-fit, minmax(min(100%, 27rem), 1fr));
      }
      .term-text {
        min-height: 2.9em;
        margin: 0.25rem 0 0.5rem;
      }
    `,
  ];

  constructor() {
    super();
    this._engine = null;
    this._result = null;
    this._error = '';
    this._term = '';
    this._seedDraft = null;
    this._key = '';
    this._seed = seedHandlers(this, AttnSdpa.stateFields.seed);
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
    if (!this._engine) return;
    if (String(this.seed) !== this._key) {
      this._key = String(this.seed);
      this._compute();
    }
  }

  _compute() {
    try {
      const e = this._engine;
      const { q, k, v } = drawQKV(e, this.seed);
      const fused = e.attention(q, k, v); // the fused kernel: no T×T buffer, as F.scaled_dot_product_attention
      const full = e.attention(q, k, v, { returnWeights: true, returnLogits: true });
      const raw = e.attention(q, k, v, { scale: 1, returnLogits: true }).logits; // QKᵀ, unscaled
      const ref = e.attentionReference(q, k, v);
      const report = e.rowStochasticReport(full.weights);
      this._result = {
        seed: this.seed,
        q,
        k,
        v,
        raw,
        scaled: full.logits,
        weights: full.weights,
        out: fused.output,
        diff: maxAbsDiff(fused.output.data, ref.output.data),
        diffWeightsPath: maxAbsDiff(full.output.data, ref.output.data),
        report,
        simd: e.simd,
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
    this._term = '';
  }

  _panel(name) {
    return TERMS[this._term]?.panels.includes(name) ? 'panel linked' : 'panel';
  }

  _termButton(name, content, extra = '') {
    return html`<button
      type="button"
      class=${`term ${extra} ${this._term === name ? 'active' : ''}`}
      data-term=${name}
      aria-describedby="term-text"
      @mouseenter=${() => (this._term = name)}
      @mouseleave=${() => (this._term = '')}
      @focus=${() => (this._term = name)}
      @blur=${() => (this._term = '')}
    >
      ${content}
    </button>`;
  }

  _formula() {
    return html`<p class="formula" role="group" aria-label="Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V, term by term">
        ${this._termButton('out', 'Attention(Q, K, V)')}<span class="op">=</span>${this._termButton(
          'softmax',
          'softmax',
          'fn',
        )}<span class="op">(</span
        ><span class="frac"
          ><span>${this._termButton('scores', html`QK<sup>T</sup>`)}</span
          ><span>${this._termButton('scale', html`√d<sub>k</sub>`)}</span></span
        ><span class="op">)</span>${this._termButton('v', 'V')}
      </p>
      <p class="note term-text" id="term-text" aria-live="polite">
        ${TERMS[this._term]?.text ?? 'Hover over a term of the formula, or focus it with Tab, to see where it is in the figures below.'}
      </p>`;
  }

  _printout(r) {
    const ok = r.report.maxRowSumError <= 1e-6 ? 'True' : 'False';
    return [
      `output shape: (${r.out.shape.join(', ')})`,
      `each attention-weight row sums to 1: ${ok}`,
      `max abs diff vs float64 reference (fused kernel): ${sci(r.diff)}`,
      `max abs diff vs float64 reference (weights kept): ${sci(r.diffWeightsPath)}`,
    ].join('\n');
  }

  renderCell() {
    const r = this._result;
    const b = this.batch;
    const params = r && { seed: r.seed, Q: nested(r.q), K: nested(r.k), V: nested(r.v) };
    const shapeOk = r ? r.out.shape.join(',') === `${B},${T},${D}` : undefined;
    return html`<section class="lab" aria-label="Scaled dot-product attention lab">
      ${seedControls(this, batchSelect(this))}
      <p class="note">
        Q, K and V are (B, T, D) = (2, 5, 8) standard normal draws from the core's seeded generator, rounded to 4
        decimals. The figures show batch b = ${b}.
      </p>
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''} ${this._formula()}
      ${
        !r
          ? html`<p class="note">Loading the attention core…</p>`
          : html`
              <h3>The inputs</h3>
              <div class="pair wide">
                <div class=${this._panel('q')} data-panel="q">
                  <attn-matrix
                    label=${`Queries Q[${b}] (T × D)`}
                    caption="Queries Q: row i is the query qᵢ of position i."
                    precision="2"
                    row-labels=${POSITIONS}
                    col-labels=${DIMS}
                    .values=${rowsOf(batchOf(r.q, b))}
                  ></attn-matrix>
                </div>
                <div class=${this._panel('k')} data-panel="k">
                  <attn-matrix
                    label=${`Keys K[${b}] (T × D)`}
                    caption="Keys K: row j is the key kⱼ of position j."
                    precision="2"
                    row-labels=${POSITIONS}
                    col-labels=${DIMS}
                    .values=${rowsOf(batchOf(r.k, b))}
                  ></attn-matrix>
                </div>
              </div>
              <h3>Scores, scaled scores and weights</h3>
              <div class="pair">
                <div class=${this._panel('scores')} data-panel="scores">
                  <attn-heatmap
                    label=${`Scores QKᵀ, batch ${b}`}
                    caption="Scores QKᵀ. Row i: query i; column j: key j."
                    row-labels=${POSITIONS}
                    col-labels=${POSITIONS}
                    .values=${batchOf(r.raw, b)}
                  ></attn-heatmap>
                </div>
                <div class=${this._panel('scaled')} data-panel="scaled">
                  <attn-heatmap
                    label=${`Scaled scores QKᵀ/√d_k, batch ${b}`}
                    caption="Scaled scores: the same divided by √8."
                    row-labels=${POSITIONS}
                    col-labels=${POSITIONS}
                    .values=${batchOf(r.scaled, b)}
                  ></attn-heatmap>
                </div>
              </div>
              <div class=${this._panel('weights')} data-panel="weights">
                <attn-heatmap
                  label=${`Weights softmax(QKᵀ/√d_k), batch ${b}`}
                  caption="Weights: each row is a softmax of the scaled scores, non-negative and summing to 1."
                  min="0"
                  max="1"
                  row-labels=${POSITIONS}
                  col-labels=${POSITIONS}
                  .values=${batchOf(r.weights, b)}
                ></attn-heatmap>
              </div>
              <h3>Values and output</h3>
              <div class="pair wide">
                <div class=${this._panel('v')} data-panel="v">
                  <attn-matrix
                    label=${`Values V[${b}] (T × D)`}
                    caption="Values V: row j is the value vⱼ of position j."
                    precision="2"
                    row-labels=${POSITIONS}
                    col-labels=${DIMS}
                    .values=${rowsOf(batchOf(r.v, b))}
                  ></attn-matrix>
                </div>
                <div class=${this._panel('out')} data-panel="out">
                  <attn-matrix
                    label=${`Output Attention(Q, K, V)[${b}] (T × D)`}
                    caption="Output: row i is Σⱼ weightsᵢⱼ vⱼ."
                    precision="3"
                    row-labels=${POSITIONS}
                    col-labels=${DIMS}
                    .values=${rowsOf(batchOf(r.out, b))}
                  ></attn-matrix>
                </div>
              </div>

              <h3>Checks against the float64 reference</h3>
              <p class="note">
                This page runs the ${r.simd ? 'WebAssembly SIMD128' : 'WebAssembly scalar (this browser has no SIMD)'}
                build in float32. The reference is the core's plain scalar loop in float64 on the same inputs. Largest
                difference of the outputs:
                <span class="max-diff mono" data-value=${r.diff}>${sci(r.diff)}</span>.
              </p>
              <attn-output label="Output" .text=${this._printout(r)}></attn-output>
              <attn-check
                class="shape"
                label=${`output shape = (${r.out.shape.join(', ')}), expected (B, T, D) = (${B}, ${T}, ${D})`}
                .pass=${shapeOk}
              ></attn-check>
              <attn-check
                class="row-sums"
                label="max over all B·T rows of |Σⱼ weightsᵢⱼ − 1|"
                threshold="1e-6"
                .value=${r.report.maxRowSumError}
              ></attn-check>
              <attn-check
                class="reference"
                label="max |ours − float64 reference| over the output"
                threshold="1e-6"
                .value=${Math.max(r.diff, r.diffWeightsPath)}
              ></attn-check>

              <h3>The same in code</h3>
              <attn-code
                label="PyTorch: the formula against F.scaled_dot_product_attention"
                .template=${TORCH}
                .params=${params}
              ></attn-code>
              <attn-code label="NumPy" .template=${NUMPY} .params=${params}></attn-code>
            `
      }
    </section>`;
  }
}

customElements.define('attn-sdpa', AttnSdpa);
