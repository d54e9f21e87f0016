/**
 * <attn-softmax-temperature logits="1.2,4.5,2,0.8" temperature="1">
 *
 * Bars of softmax(logits / τ) with a log-scale temperature slider (τ from 0.01
 * to 100). Every slider movement recomputes the weights in the wasm core.
 *
 * Attributes: logits (comma-separated numbers), temperature (τ > 0).
 * Sets data-ready on itself once the engine is loaded and the bars are drawn.
 */
import { css, html } from 'lit';
import { createBarChart } from '../charts/bar-chart.js';
import { AttnCell } from './attn-cell.js';

const LOG_MIN = -2; // τ = 0.01
const LOG_MAX = 2; // τ = 100

const formatTau = (tau) => (tau >= 10 ? tau.toFixed(1) : tau.toPrecision(3));

export class AttnSoftmaxTemperature extends AttnCell {
  static stateFields = {
    logits: { type: 'numbers', default: [1.2, 4.5, 2.0, 0.8], minLength: 1, maxLength: 64, min: -1e4, max: 1e4 },
    temperature: { type: 'number', default: 1, min: 0.01, max: 100 },
  };

  static properties = { ...super.properties, _weights: { state: true }, _error: { state: true } };

  static styles = [
    AttnCell.baseStyles,
    css`
      figure {
        margin: 0;
        padding: 1rem;
        border: 1px solid var(--border, #d0d4dc);
        border-radius: 8px;
        background: var(--surface, #fff);
      }
      .chart {
        max-width: 36rem;
      }
      .bar-chart {
        width: 100%;
        height: auto;
        font: 12px var(--font-sans, system-ui, sans-serif);
      }
      .bar {
        fill: var(--accent, #3b5bdb);
      }
      .grid {
        stroke: var(--border, #d0d4dc);
        stroke-dasharray: 2 3;
      }
      .tick,
      .label,
      .value {
        fill: var(--text, #1b1e24);
      }
      .control {
        display: flex;
        align-items: center;
        gap: 0.75rem;
        flex-wrap: wrap;
        margin-top: 0.5rem;
      }
      input[type='range'] {
        flex: 1 1 12rem;
        accent-color: var(--accent, #3b5bdb);
      }
      output,
      .readout {
        font-family: var(--font-mono, ui-monospace, monospace);
      }
      .readout {
        margin: 0.5rem 0 0;
        white-space: pre-wrap;
      }
      .error {
        color: var(--danger, #b3261e);
      }
    `,
  ];

  constructor() {
    super();
    this._weights = null;
    this._error = '';
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
    if (this._engine && (changed.has('logits') || changed.has('temperature'))) this._compute();
  }

  _compute() {
    try {
      this._weights = this._engine.softmax(this.logits, { temperature: this.temperature }).data;
      this._error = '';
    } catch (error) {
      this._error = error.message;
    }
  }

  updated() {
    const values = this.logits;
    if (!this._weights) return;
    if (!this._chart || this._chart.size !== values.length) {
      const container = this.renderRoot.querySelector('.chart');
      container.replaceChildren();
      this._chart = createBarChart(container, {
        labels: values.map((_, j) => `Pos ${j}`),
        title: 'Attention weights of each position',
      });
      this._chart.size = values.length;
    }
    this._chart.update(this._weights);
    this.toggleAttribute('data-ready', true);
  }

  _onInput(event) {
    this.temperature = 10 ** Number(event.target.value);
    this.stateChanged();
  }

  renderCell() {
    const tau = this.temperature;
    const values = this.logits;
    const weights = this._weights;
    const sum = weights ? weights.reduce((a, b) => a + b, 0) : 0;
    const readout = weights && `α = [${Array.from(weights, (w) => w.toFixed(4)).join(', ')}]  sum = ${sum.toFixed(6)}`;
    return html`
      <figure>
        <div class="chart"></div>
        <figcaption>
          Softmax weights α<sub>j</sub> = exp(s<sub>j</sub>/τ) / Σ<sub>k</sub> exp(s<sub>k</sub>/τ) for logits s =
          [${values.join(', ')}]
        </figcaption>
        <div class="control">
          <label for="tau">Temperature</label>
          <input
            id="tau"
            type="range"
            min=${LOG_MIN}
            max=${LOG_MAX}
            step="0.01"
            .value=${String(Math.log10(tau))}
            aria-valuetext=${`τ = ${formatTau(tau)}`}
            @input=${this._onInput}
          />
          <output for="tau">τ = ${formatTau(tau)}</output>
        </div>
        ${weights ? html`<p class="readout">${readout}</p>` : html`<p class="readout">Loading the attention core…</p>`}
        ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      </figure>
    `;
  }
}

customElements.define('attn-softmax-temperature', AttnSoftmaxTemperature);
