/**
 * <attn-scaling-example d="128" seed="0">
 *
 * One live example of the source's Exercise 2: five queries and five keys of
 * dimension D with standard-normal entries (seeded), and their attention weights
 * without the scaling, softmax(QKᵀ), and with it, softmax(QKᵀ/√D), as two annotated
 * heatmaps side by side, with each row's largest weight and the rows' mean
 * entropy (nats). Lesson-sized: computed on the main thread at every slider step.
 *
 * State (permalink): d (1–512), seed. data-settled (AttnCell) once drawn.
 */
import { css, html } from 'lit';
import { AttnFigure } from '../../cells/base/figure-base.js';
import { labStyles } from '../common/worker-lab.js';

const T = 5;

const CODE = `import torch
import torch.nn.functional as F

torch.manual_seed({{seed}})
T, D = 5, {{d}}
Q, K = torch.randn(T, D), torch.randn(T, D)
w_unscaled = F.softmax(Q @ K.T, dim=-1)                 # the exercise: no / sqrt(d_k)
w_scaled = F.softmax(Q @ K.T / D ** 0.5, dim=-1)        # the scaling restored
print(w_unscaled.max(-1).values.mean(), w_scaled.max(-1).values.mean())`;

export class AttnScalingExample extends AttnFigure {
  static stateFields = {
    d: { type: 'integer', default: 128, min: 1, max: 512 },
    seed: { type: 'integer', default: 0, min: 0, max: 1000000 },
  };

  static properties = { ...super.properties, _result: { state: true }, _error: { state: true } };

  static styles = [
    AttnFigure.baseStyles,
    AttnFigure.figureStyles,
    labStyles,
    css`
      .pair {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr));
        gap: 0.75rem;
      }
      attn-heatmap {
        margin: 0;
      }
    `,
  ];

  defaultLabel = 'Attention weights of five random queries, unscaled and scaled';

  constructor() {
    super();
    this._result = null;
    this._error = '';
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
    if (this._engine && (changed.has('d') || changed.has('seed'))) this._compute();
  }

  _compute() {
    const e = this._engine;
    try {
      const q = e.randn([T, this.d], this.seed);
      const k = e.randn([T, this.d], this.seed + 1);
      const v = e.randn([T, 1], this.seed + 2);
      const unscaled = e.attention(q, k, v, { scale: 1, returnWeights: true }).weights;
      const scaled = e.attention(q, k, v, { returnWeights: true }).weights; // default scale 1/√D
      const summary = (w) => {
        const rowMax = Array.from({ length: T }, (_, i) => Math.max(...w.data.subarray(i * T, i * T + T)));
        const entropy = e.entropy(w).data;
        return {
          weights: w,
          rowMax,
          meanMax: rowMax.reduce((a, b) => a + b, 0) / T,
          meanEntropy: entropy.reduce((a, b) => a + b, 0) / T,
        };
      };
      this._result = { d: this.d, unscaled: summary(unscaled), scaled: summary(scaled) };
      this._error = '';
    } catch (error) {
      this._error = error.message;
    }
  }

  updated() {
    const code = this.renderRoot.querySelector('attn-code');
    if (code) code.params = { seed: this.seed, d: this.d };
  }

  _onD(event) {
    this.beginEdit();
    this.d = Number(event.target.value);
    this.stateChanged();
  }

  describe() {
    const r = this._result;
    if (!r) return 'Not computed yet.';
    return (
      `D = ${r.d}. Without scaling each row's largest weight averages ${r.unscaled.meanMax.toFixed(3)} ` +
      `(entropy ${r.unscaled.meanEntropy.toFixed(3)} nats); with 1/√D scaling ${r.scaled.meanMax.toFixed(3)} ` +
      `(entropy ${r.scaled.meanEntropy.toFixed(3)} nats).`
    );
  }

  exportSvgText() {
    return this.renderRoot.querySelector('attn-heatmap').exportSvgText();
  }

  exportRows() {
    const r = this._result;
    if (!r) return [['query', 'key', 'unscaled', 'scaled']];
    const rows = [['query', 'key', 'unscaled weight', 'scaled weight']];
    for (let i = 0; i < T; i++) {
      for (let j = 0; j < T; j++)
        rows.push([i, j, r.unscaled.weights.data[i * T + j], r.scaled.weights.data[i * T + j]]);
    }
    return rows;
  }

  exportObject() {
    const r = this._result;
    return {
      d: this.d,
      seed: this.seed,
      unscaled: r ? Array.from(r.unscaled.weights.data) : null,
      scaled: r ? Array.from(r.scaled.weights.data) : null,
    };
  }

  renderFigure() {
    const r = this._result;
    const labels = Array.from({ length: T }, (_, i) => `k${i}`);
    const rowLabels = Array.from({ length: T }, (_, i) => `q${i}`);
    const side = (which, title) =>
      r
        ? html`<div>
            <attn-heatmap
              class=${which}
              label=${title}
              .values=${r[which].weights}
              .rowLabels=${rowLabels}
              .colLabels=${labels}
              .min=${0}
              .max=${1}
            ></attn-heatmap>
            <p
              class="readout ${which}-summary"
              data-mean-max=${r[which].meanMax}
              data-mean-entropy=${r[which].meanEntropy}
            >
              mean max weight ${r[which].meanMax.toFixed(3)}, mean entropy ${r[which].meanEntropy.toFixed(3)} nats
            </p>
          </div>`
        : '';
    return html`
      <div class="controls">
        <label for="d">D (dimension)</label>
        <input id="d" type="range" min="1" max="512" step="1" .value=${String(this.d)} @input=${this._onD} />
        <output for="d">D = ${this.d}</output>
      </div>
      <div class="pair">
        ${side('unscaled', `softmax(QKᵀ), D = ${this.d}`)} ${side('scaled', `softmax(QKᵀ/√D), D = ${this.d}`)}
      </div>
      ${r ? '' : html`<p class="readout">Loading the attention core…</p>`}
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      <attn-code label="PyTorch: the same example" .template=${CODE}></attn-code>
    `;
  }
}

customElements.define('attn-scaling-example', AttnScalingExample);
