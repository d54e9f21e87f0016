/**
 * <attn-retrieval id="retrieve" query="2">
 *
 * Attention as soft, content-based retrieval (Lesson 44 of the source): a
 * vocabulary of six tokens whose embeddings are the rows of 5·I₆, a sequence
 * of tokens 0, 1, 2, 3, 4 whose embeddings are both the keys and the values,
 * and a query equal to one token's embedding. The wasm core computes
 * softmax(q Kᵀ / √d_k) V with d_k = 6 (the source's scaling); the cell shows
 * K = V, the weights as a 1 × 5 heatmap (as the source's figure) and the
 * notebook's printout: the weights rounded to 3 decimals and the retrieved
 * token id, which is the argmax of the output vector's entries (the source's
 * out[0, 0].argmax()). Two live checks: the rounded weights are the one-hot of
 * the queried position, and the retrieved id is the queried token.
 *
 * State (permalink): query (the queried token, 0 to 4). PyTorch code of the
 * source's cell with the current query.
 */
import { css, html } from 'lit';
import { AttnCell } from '../../cells/base/attn-cell.js';
import { cellStyles, resetToAuthored } from '../../cells/base/cell-support.js';

export const VOCAB_SIZE = 6;
export const SEQUENCE = [0, 1, 2, 3, 4];
export const SCALE = 5;

/** Row t of vocab = 5·I₆: the embedding of token t. */
export const embedding = (t) => Array.from({ length: VOCAB_SIZE }, (_, j) => (j === t ? SCALE : 0));

/** The keys and values: the embeddings of the sequence's tokens, (5, 6). */
export const sequenceTensor = () => ({
  data: Float32Array.from(SEQUENCE.flatMap((t) => embedding(t))),
  shape: [SEQUENCE.length, VOCAB_SIZE],
});

/** Index of the largest entry, the first one on ties (as torch.argmax). */
export function argmax(xs) {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i] > xs[best]) best = i;
  return best;
}

/** A list as Python prints round(3).tolist(): 0.0, 1.0, 0.5. */
export function pythonFloats(xs, decimals = 3) {
  return `[${Array.from(xs, (x) => {
    const r = Number(x.toFixed(decimals)) + 0; // + 0 turns −0 into 0
    return Number.isInteger(r) ? r.toFixed(1) : String(r);
  }).join(', ')}]`;
}

const CODE = `import numpy as np
import torch
import torch.nn.functional as F

def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = Q @ K.transpose(-2, -1) / np.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float('-inf'))
    weights = F.softmax(scores, dim=-1)
    return weights @ V, weights

vocab = torch.eye(6) * 5.0                        # 6 distinct tokens, scaled by 5
seq = vocab[[0, 1, 2, 3, 4]].unsqueeze(0)         # keys = values: tokens 0..4
query = vocab[{{token}}].unsqueeze(0).unsqueeze(0)        # the query is token {{token}}

out_retrieve, w_retrieve = attention(query, seq, seq)
retrieved_token = out_retrieve[0, 0].argmax().item()

print(f'attention weights over the 5 sequence positions: {w_retrieve[0, 0].round(decimals=3).tolist()}')
print(f'retrieved token id: {retrieved_token}  (queried for token {{token}})')`;

export class AttnRetrieval extends AttnCell {
  static stateFields = {
    query: { type: 'integer', default: 2, min: 0, max: SEQUENCE.length - 1 },
  };

  static properties = { ...super.properties, label: { type: String }, _result: { state: true } };

  static styles = [
    AttnCell.baseStyles,
    cellStyles,
    css`
      .row {
        display: flex;
        align-items: center;
        gap: 0.5rem;
        flex-wrap: wrap;
        margin: 0.5rem 0;
      }
      select {
        font: inherit;
        color: var(--text, #1b1e24);
        background: var(--bg, #f7f8fa);
        border: 1px solid var(--border, #d0d4dc);
        border-radius: 4px;
        padding: 0.2rem 0.4rem;
      }
      select:focus-visible {
        outline: 2px solid var(--accent, #3b5bdb);
        outline-offset: 2px;
      }
      .mono {
        font-family: var(--font-mono, ui-monospace, monospace);
      }
      .error {
        color: var(--danger, #b3261e);
      }
    `,
  ];

  constructor() {
    super();
    this.label = 'Retrieval: query = one token';
    this._result = null;
    this._engine = null;
  }

  async connectedCallback() {
    super.connectedCallback();
    try {
      this._engine = await this.engine();
      this._compute();
    } catch (error) {
      this.fail(new Error(`the attention core could not be loaded: ${error.message}`));
    }
  }

  willUpdate(changed) {
    if (this._engine && changed.has('query')) this._compute();
  }

  _compute() {
    const token = this.query;
    const q = { data: Float32Array.from(embedding(token)), shape: [1, VOCAB_SIZE] };
    const seq = sequenceTensor();
    try {
      // default scale: 1/sqrt(d_k) with d_k = 6, as in the source
      const { output, weights } = this._engine.attention(q, seq, seq, { returnWeights: true });
      const w = Array.from(weights.data);
      const y = Array.from(output.data);
      const rounded = w.map((x) => Number(x.toFixed(3)));
      const oneHotGap = rounded.reduce((m, x, j) => Math.max(m, Math.abs(x - (j === token ? 1 : 0))), 0);
      this._result = { token, weights: w, output: y, rounded, oneHotGap, retrieved: argmax(y), error: '' };
    } catch (error) {
      this._result = { error: error.message };
    }
  }

  updated() {
    if (this._result && !this._result.error) {
      this.dataset.weights = this._result.weights.join(',');
      this.dataset.retrieved = String(this._result.retrieved);
    }
  }

  reset() {
    resetToAuthored(this);
  }

  _onSelect(event) {
    this.query = Number(event.target.value);
    this.stateChanged();
  }

  renderCell() {
    const r = this._result;
    const ok = r && !r.error;
    const printout = ok
      ? `attention weights over the 5 sequence positions: ${pythonFloats(r.weights)}\n` +
        `retrieved token id: ${r.retrieved}  (queried for token ${r.token})`
      : (r?.error ?? 'Loading the attention core…');
    const keys = SEQUENCE.map((t) => embedding(t));
    return html`
      <section class="card" aria-labelledby="title">
        <div class="head">
          <span class="label" id="title">${this.label}</span>
          <button type="button" @click=${() => this.reset()} aria-label=${`Reset ${this.label}`}>Reset</button>
        </div>
        <div class="row">
          <label for="token">Query = embedding of token</label>
          <select id="token" .value=${String(this.query)} @change=${this._onSelect}>
            ${SEQUENCE.map((t) => html`<option value=${t} ?selected=${t === this.query}>${t}</option>`)}
          </select>
          <span class="mono">q = vocab[${this.query}] = [${embedding(this.query).join(', ')}]</span>
        </div>
        <attn-matrix
          label="Keys K = values V: the embeddings of tokens 0 to 4 (rows)"
          precision="0"
          row-labels="pos 0 (token 0),pos 1 (token 1),pos 2 (token 2),pos 3 (token 3),pos 4 (token 4)"
          col-labels="e0,e1,e2,e3,e4,e5"
          .values=${keys}
          highlight-row=${this.query}
        ></attn-matrix>
        <attn-heatmap
          label=${`Attention weights: query = token ${this.query}`}
          row-labels="query"
          col-labels="pos 0,pos 1,pos 2,pos 3,pos 4"
          min="0"
          max="1"
          .values=${ok ? { data: Float32Array.from(r.weights), shape: [1, SEQUENCE.length] } : [[0, 0, 0, 0, 0]]}
        ></attn-heatmap>
        <attn-output label="Output" .text=${printout}></attn-output>
        <attn-check
          id="check-weights"
          label=${ok ? `weights to 3 decimals = ${pythonFloats(r.rounded)}; max |· − one-hot at position ${r.token}|` : 'weights to 3 decimals'}
          threshold="0"
          .value=${ok ? r.oneHotGap : undefined}
        ></attn-check>
        <attn-check
          id="check-retrieved"
          label="retrieved token id (argmax of the output)"
          comparison="eq"
          .threshold=${this.query}
          .value=${ok ? r.retrieved : undefined}
        ></attn-check>
        <attn-code label="PyTorch (the source's cell)" .template=${CODE} .params=${{ token: this.query }}></attn-code>
      </section>
    `;
  }
}

customElements.define('attn-retrieval', AttnRetrieval);
