/**
 * <attn-softmax-temperature logits="1.2,4.5,2,0.8" temperature="1">
 *
 * Bars of softmax(logits / τ) with a log-scale temperature slider (τ from 0.01
 * to 100). Every slider movement recomputes the weights in the wasm core.
 *
 * State (permalink): logits (comma-separated numbers), temperature (0.01–100).
 * Attributes: label, caption. A figure (AttnFigure): Reset, and export of the
 * bars as SVG/PNG and of logits and weights as CSV/JSON.
 * data-settled (AttnCell) once the engine is loaded and the bars are drawn.
 */
import { css, html } from 'lit';
import { createBarChart } from '../../charts/bar-chart.js';
import { svgDocument } from '../../charts/export.js';
import { AttnFigure } from '../../cells/base/figure-base.js';

const LOG_MIN = -2; // τ = 0.01
const LOG_MAX = 2; // τ = 100

const formatTau = (tau) => (tau >= 10 ? tau.toFixed(1) : tau.toPrecision(3));

export class AttnSoftmaxTemperature extends AttnFigure {
  static stateFields = {
    logits: { type: 'numbers', default: [1.2, 4.5, 2.0, 0.8], minLength: 1, maxLength: 64, min: -1e4, max: 1e4 },
    temperature: { type: 'number', default: 1, min: 0.01, max: 100 },
  };

  static properties = { ...super.properties, _weights: { state: true }, _error: { state: true } };

  static styles = [
    AttnFigure.baseStyles,
    AttnFigure.figureStyles,
    css`
      .formula {
        margin: 0.25rem 0 0;
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

  defaultLabel = 'Softmax weights at temperature τ';

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
    const container = this.renderRoot.querySelector('.chart');
    if (!container) return; // the cell is showing an error
    if (!this._chart || this._chart.size !== values.length || !container.contains(this._chart.svg)) {
      container.replaceChildren();
      this._chart = createBarChart(container, {
        labels: values.map((_, j) => `Pos ${j}`),
        title: 'Attention weights of each position',
      });
      this._chart.size = values.length;
    }
    this._chart.update(this._weights);
  }

  _onInput(event) {
    this.beginEdit();
    this.temperature = 10 ** Number(event.target.value);
    this.stateChanged();
  }

  describe() {
    const weights = this._weights ? Array.from(this._weights, (w) => w.toFixed(3)).join(', ') : 'not computed yet';
    return `Softmax of the logits ${this.logits.join(', ')} at temperature ${formatTau(this.temperature)}: weights ${weights}.`;
  }

  exportSvgText() {
    return svgDocument(this._chart.svg);
  }

  exportRows() {
    return [['position', 'logit', 'weight'], ...this.logits.map((s, j) => [j, s, this._weights?.[j] ?? ''])];
  }

  exportObject() {
    return { logits: this.logits, temperature: this.temperature, weights: Array.from(this._weights ?? []) };
  }

  renderFigure() {
    const tau = this.temperature;
    const values = this.logits;
    const weights = this._weights;
    const sum = weights ? weights.reduce((a, b) => a + b, 0) : 0;
    const readout = weights && `α = [${Array.from(weights, (w) => w.toFixed(4)).join(', ')}]  sum = ${sum.toFixed(6)}`;
    return html`
      <div class="chart"></div>
      <p class="formula">
        Softmax weights α<sub>j</sub> = exp(s<sub>j</sub>/τ) / Σ<sub>k</sub> exp(s<sub>k</sub>/τ) for logits s =
        [${values.join(', ')}]
      </p>
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
    `;
  }
}

customElements.define('attn-softmax-temperature', AttnSoftmaxTemperature);
