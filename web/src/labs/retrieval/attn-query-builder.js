/**
 * <attn-query-builder id="builder" mix="0,0,1,0,0,0">
 *
 * Build a query by mixing tokens: q = Σ_t c_t · vocab[t] with vocab = 5·I₆
 * (so q = 5c), typed as six amounts c₀ … c₅ into an attn-vector-editor, or
 * set by preset buttons (token 2; vocab[2] + vocab[4], the source's Exercise 1;
 * token 5, which is not in the sequence). Against the sequence of tokens
 * 0 … 4 (keys = values = their embeddings) the wasm core computes, per
 * position j: the dot product q·k_j (scale 1), the scaled score q·k_j/√6
 * and the weight α_j = softmax of the scores; then the output y = Σ α_j v_j
 * and the retrieved id argmax(y) (first on ties, as torch.argmax).
 *
 * State (permalink): mix (six numbers, each in [−3, 3]). A bad entry in the
 * editor shows the reason beside it and the cell keeps the last valid query.
 * Sets data-weights, data-dots and data-retrieved on itself for tests.
 */
import { css, html } from 'lit';
import { createBarChart } from '../../charts/bar-chart.js';
import { AttnCell } from '../../cells/base/attn-cell.js';
import { cellStyles, formatNumber, resetToAuthored } from '../../cells/base/cell-support.js';
import { argmax, SCALE, SEQUENCE, sequenceTensor, VOCAB_SIZE } from './attn-retrieval.js';

const PRESETS = [
  { name: 'token 2', mix: [0, 0, 1, 0, 0, 0] },
  { name: 'vocab[2] + vocab[4]', mix: [0, 0, 1, 0, 1, 0] },
  { name: 'token 5 (not in the sequence)', mix: [0, 0, 0, 0, 0, 1] },
  { name: 'vocab[1] + 0.5·vocab[3]', mix: [0, 1, 0, 0.5, 0, 0] },
];

const CODE = `import numpy as np
import torch
import torch.nn.functional as F

vocab = torch.eye(6) * 5.0
seq = vocab[[0, 1, 2, 3, 4]]   # keys = values, (5, 6)
# the amount of each token; q = sum_t mix[t] * vocab[t]
mix = torch.tensor({{mix}}, dtype=torch.float32)
query = mix @ vocab            # (6,)

dots = seq @ query             # q . k_j for each position j
scores = dots / np.sqrt(6)     # scaled by 1/sqrt(d_k), d_k = 6
weights = F.softmax(scores, dim=-1)
out = weights @ seq
print("q . k_j:", dots.tolist())
print("weights:", weights.round(decimals=5).tolist())
print("retrieved token id:", out.argmax().item())`;

export class AttnQueryBuilder extends AttnCell {
  static stateFields = {
    mix: {
      type: 'numbers',
      default: [0, 0, 1, 0, 0, 0],
      minLength: VOCAB_SIZE,
      maxLength: VOCAB_SIZE,
      min: -3,
      max: 3,
    },
  };

  static properties = { ...super.properties, label: { type: String }, _result: { state: true } };

  static styles = [
    AttnCell.baseStyles,
    cellStyles,
    css`
      .presets {
        display: flex;
        flex-wrap: wrap;
        gap: 0.35rem;
        align-items: center;
        margin: 0.25rem 0 0.5rem;
      }
      .mono {
        font-family: var(--font-mono, ui-monospace, monospace);
        overflow-wrap: anywhere;
      }
      .table-wrap {
        overflow-x: auto;
      }
      .table-wrap:focus-visible {
        outline: 2px solid var(--accent, #3b5bdb);
        outline-offset: 2px;
      }
      table {
        border-collapse: collapse;
        font: 0.9rem var(--font-mono, ui-monospace, monospace);
        margin: 0.5rem 0;
      }
      th,
      td {
        border-bottom: 1px solid var(--border, #d0d4dc);
        padding: 0.2rem 0.45rem;
        text-align: right;
      }
      th {
        font-family: var(--font-sans, system-ui, sans-serif);
        font-weight: 600;
      }
      tr.top td {
        font-weight: 700;
      }
      .chart {
        max-width: 30rem;
      }
      svg {
        display: block;
        width: 100%;
        height: auto;
        font: 12px var(--font-sans, system-ui, sans-serif);
      }
      svg text {
        fill: var(--text, #1b1e24);
      }
      svg .bar {
        fill: var(--accent, #3b5bdb);
      }
      svg .grid {
        stroke: var(--border, #d0d4dc);
        stroke-dasharray: 2 3;
      }
      .error {
        color: var(--danger, #b3261e);
      }
    `,
  ];

  constructor() {
    super();
    this.label = 'Query builder';
    this._result = null;
    this._engine = null;
    this._chart = null;
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
    if (this._engine && changed.has('mix')) this._compute();
  }

  /** The query vector q = Σ_t c_t · 5 e_t = 5c (vocab is 5·I₆). */
  get queryVector() {
    return this.mix.map((c) => SCALE * c);
  }

  _compute() {
    const q = { data: Float32Array.from(this.queryVector), shape: [1, VOCAB_SIZE] };
    const seq = sequenceTensor();
    try {
      const raw = this._engine.attention(q, seq, seq, { scale: 1, returnLogits: true });
      const scaled = this._engine.attention(q, seq, seq, { returnWeights: true, returnLogits: true });
      const output = Array.from(scaled.output.data);
      this._result = {
        dots: Array.from(raw.logits.data),
        scores: Array.from(scaled.logits.data),
        weights: Array.from(scaled.weights.data),
        output,
        retrieved: argmax(output),
        error: '',
      };
    } catch (error) {
      this._result = { ...this._result, error: error.message };
    }
  }

  updated() {
    const r = this._result;
    if (!r?.weights) return;
    const box = this.renderRoot.querySelector('.chart');
    if (box && (!this._chart || !box.contains(this._chart.svg))) {
      box.replaceChildren();
      this._chart = createBarChart(box, {
        labels: SEQUENCE.map((j) => `pos ${j}`),
        title: 'Attention weight of each position',
      });
    }
    this._chart?.update(r.weights);
    this.dataset.weights = r.weights.join(',');
    this.dataset.dots = r.dots.join(',');
    this.dataset.retrieved = String(r.retrieved);
  }

  reset() {
    resetToAuthored(this);
  }

  _setMix(mix) {
    this.mix = [...mix];
    this.stateChanged();
  }

  renderCell() {
    const r = this._result;
    const top = r?.weights ? Math.max(...r.weights) : null;
    const authored = this.getAttribute('mix') ?? this.constructor.stateFields.mix.default.join(',');
    return html`
      <section class="card" aria-labelledby="title">
        <div class="head">
          <span class="label" id="title">${this.label}</span>
          <button type="button" @click=${() => this.reset()} aria-label=${`Reset ${this.label}`}>Reset</button>
        </div>
        <attn-vector-editor
          label="Amounts c₀ … c₅ of each token in the query"
          count="6"
          min="-3"
          max="3"
          values=${authored}
          .values=${this.mix}
          @change=${(e) => this._setMix(e.detail.values)}
        ></attn-vector-editor>
        <div class="presets" role="group" aria-label="Preset queries">
          <span>Presets:</span>
          ${PRESETS.map((p) => html`<button type="button" @click=${() => this._setMix(p.mix)}>${p.name}</button>`)}
        </div>
        <p class="mono">
          q = Σ c<sub>t</sub> · vocab[t] = [${this.queryVector.map((x) => formatNumber(x, 4)).join(', ')}]
        </p>
        ${
          r?.weights
            ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Scores and weights per position">
                  <table>
                    <caption class="visually-hidden">
                      Per position: token, dot product, scaled score and weight
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">pos j</th>
                        <th scope="col">token</th>
                        <th scope="col">q·k<sub>j</sub></th>
                        <th scope="col">q·k<sub>j</sub>/√6</th>
                        <th scope="col">α<sub>j</sub></th>
                      </tr>
                    </thead>
                    <tbody>
                      ${SEQUENCE.map(
                        (t, j) =>
                          html`<tr class=${r.weights[j] === top ? 'top' : ''}>
                            <td>${j}</td>
                            <td>${t}</td>
                            <td class="dot">${formatNumber(r.dots[j], 5)}</td>
                            <td>${r.scores[j].toFixed(4)}</td>
                            <td class="weight">${r.weights[j].toFixed(5)}</td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>
                </div>
                <div class="chart"></div>
                <p class="mono">
                  y = Σ α<sub>j</sub> v<sub>j</sub> = [${r.output.map((x) => x.toFixed(4)).join(', ')}]
                </p>
                <p class="mono retrieved">retrieved token id = argmax(y) = ${r.retrieved}</p>`
            : html`<p>Loading the attention core…</p>`
        }
        ${r?.error ? html`<p class="error" role="alert">${r.error}</p>` : ''}
        <attn-code label="PyTorch" .template=${CODE} .params=${{ mix: this.mix }}></attn-code>
      </section>
    `;
  }
}

customElements.define('attn-query-builder', AttnQueryBuilder);
