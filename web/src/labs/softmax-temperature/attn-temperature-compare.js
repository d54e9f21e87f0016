/**
 * <attn-temperature-compare id="three" logits="1.2,4.5,2,0.8" temperatures="0.25,1,5">
 *
 * The source notebook's figure "Softmax competition under temperature
 * scaling": softmax(logits / τ) for a few temperatures, drawn as grouped bars
 * (one group per position, one bar per τ), with the weights printed as in a
 * notebook, a check that every row of weights sums to 1, and the PyTorch code
 * of the figure. Every softmax runs in the wasm core.
 *
 * State (permalink): logits (numbers), temperatures (1 to 4 numbers, each > 0).
 * Attributes: label, caption. A figure (AttnFigure): Reset, SVG/PNG/CSV/JSON.
 * data-settled (AttnCell) once the bars show the current state.
 */
import { css, html } from 'lit';
import { createGroupedBarChart } from '../../charts/bar-chart.js';
import { svgDocument } from '../../charts/export.js';
import { pythonLiteral } from '../../cells/base/cell-support.js';
import { AttnFigure } from '../../cells/base/figure-base.js';

const CODE = `import torch
import numpy as np
import matplotlib.pyplot as plt

logits = torch.tensor({{logits}}, dtype=torch.float32)

def custom_softmax(s, temperature=1.0):
    scaled = s / temperature
    stabilized = scaled - torch.max(scaled)   # subtract the max: nothing overflows
    exps = torch.exp(stabilized)
    return exps / torch.sum(exps)

temperatures = {{temperatures}}
x = np.arange(len(logits))
width = 0.8 / len(temperatures)
for k, tau in enumerate(temperatures):
    alpha = custom_softmax(logits, temperature=tau)
    print(f"tau = {tau}: {alpha.numpy().round(4)}")
    plt.bar(x + (k - (len(temperatures) - 1) / 2) * width, alpha.numpy(), width, label=f"tau = {tau}")
plt.xticks(x, [f"Pos {j}" for j in range(len(logits))])
plt.ylabel("attention weight"); plt.legend(); plt.show()`;

export class AttnTemperatureCompare extends AttnFigure {
  static stateFields = {
    logits: { type: 'numbers', default: [1.2, 4.5, 2.0, 0.8], minLength: 1, maxLength: 16, min: -1e4, max: 1e4 },
    temperatures: { type: 'numbers', default: [0.25, 1, 5], minLength: 1, maxLength: 4, min: 1e-3, max: 1e3 },
  };

  static properties = { ...super.properties, _rows: { state: true }, _error: { state: true } };

  static styles = [
    AttnFigure.baseStyles,
    AttnFigure.figureStyles,
    css`
      .chart {
        max-width: 38rem;
      }
      .bar.series-0 {
        fill: var(--text, #1b1e24);
      }
      .bar.series-1 {
        fill: var(--accent, #3b5bdb);
      }
      .bar.series-2 {
        fill: var(--muted, #555d6b);
        opacity: 0.55;
      }
      .bar.series-3 {
        fill: var(--accent, #3b5bdb);
        opacity: 0.45;
      }
      svg .value {
        font-size: 10px;
      }
    `,
  ];

  defaultLabel = 'Softmax weights at three temperatures';

  constructor() {
    super();
    this._rows = null;
    this._error = '';
    this._engine = null;
    this._chart = null;
    this._chartKey = '';
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
    if (this._engine && (changed.has('logits') || changed.has('temperatures'))) this._compute();
  }

  _compute() {
    try {
      this._rows = this.temperatures.map((t) => this._engine.softmax(this.logits, { temperature: t }).data);
      this._report = this._engine.rowStochasticReport({
        data: Float32Array.from(this._rows.flatMap((r) => Array.from(r))),
        shape: [this._rows.length, this.logits.length],
      });
      this._error = '';
    } catch (error) {
      this._rows = null;
      this._error = error.message;
    }
  }

  updated() {
    const rows = this._rows;
    const container = this.renderRoot.querySelector('.chart');
    if (!rows || !container) return;
    const labels = this.logits.map((_, j) => `Pos ${j}`);
    const series = this.temperatures.map((t) => `τ = ${t}`);
    const key = JSON.stringify([labels, series]);
    if (!this._chart || key !== this._chartKey || !container.contains(this._chart.svg)) {
      container.replaceChildren();
      this._chart = createGroupedBarChart(container, { labels, series, title: this.accessibleName });
      this._chartKey = key;
    }
    this._chart.update(rows);
  }

  describe() {
    if (!this._rows) return 'Softmax weights, not computed yet.';
    const parts = this._rows.map(
      (row, k) => `at τ = ${this.temperatures[k]}: ${Array.from(row, (w) => w.toFixed(3)).join(', ')}`,
    );
    return `Grouped bars of the softmax weights of the logits ${this.logits.join(', ')}, ${parts.join('; ')}.`;
  }

  exportSvgText() {
    return svgDocument(this._chart.svg);
  }

  exportRows() {
    const header = ['position', 'logit', ...this.temperatures.map((t) => `weight at tau=${t}`)];
    return [header, ...this.logits.map((s, j) => [j, s, ...(this._rows ?? []).map((row) => row[j])])];
  }

  exportObject() {
    return {
      logits: this.logits,
      temperatures: this.temperatures,
      weights: (this._rows ?? []).map((row) => Array.from(row)),
    };
  }

  renderFigure() {
    const rows = this._rows;
    const printout = rows
      ? rows
          .map(
            (row, k) =>
              `τ = ${this.temperatures[k].toFixed(2)}: α = ${pythonLiteral(Array.from(row, (w) => Number(w.toFixed(4))))}`,
          )
          .join('\n')
      : 'Loading the attention core…';
    return html`
      <div class="chart"></div>
      <attn-output label="Weights (4 decimals)" .text=${printout}></attn-output>
      <attn-check
        label="max |row sum − 1| over the three temperatures"
        threshold="1e-6"
        comparison="le"
        .value=${rows ? this._report.maxRowSumError : undefined}
      ></attn-check>
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      <attn-code
        label="PyTorch: the figure"
        .template=${CODE}
        .params=${{ logits: this.logits, temperatures: this.temperatures }}
      ></attn-code>
    `;
  }
}

customElements.define('attn-temperature-compare', AttnTemperatureCompare);
