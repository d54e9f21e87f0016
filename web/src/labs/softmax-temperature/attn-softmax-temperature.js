/**
 * <attn-softmax-temperature id="t" logits="1.2,4.5,2,0.8" temperature="1" temperatures="0.25,1,5">
 *
 * The softmax-temperature lab, the lesson's one weight chart. The figure: the logits as an
 * editable bar chart (drag a bar, or focus it and use the arrow keys, PageUp/PageDown, Home/End)
 * above the weights they give. Beside it: a log-scale temperature slider from τ = 0.01 to 100
 * with buttons for the exact limits τ → 0 (argmax, ties share) and τ → ∞ (uniform), the formula,
 * and the entropy H = −Σ α log α (nats) with the effective number of positions exp(H)
 * (engine.entropy, effectivePositions). Under them, the source notebook's comparison: the weights
 * at a few temperatures (`temperatures`, 0.25, 1 and 5 by default) as a table, each row a button
 * that moves the slider there. Every change recomputes softmax(logits / τ) in the wasm core.
 * Verified (one line, opens on demand): the core's float32 softmax against its float64 reference,
 * max |diff| ≤ 1e-6; that its τ = 0 and τ = ∞ results are the argmax one-hot and 1/T; and that
 * every row of the comparison sums to 1. Code: the PyTorch of the lab, and of the source's figure.
 *
 * State (permalink): logits (1 to 64 numbers), temperature (0 to Infinity; 0 and Infinity are
 * the limits), temperatures (1 to 4 numbers in [0.001, 1000]). Attributes: label, caption;
 * figure-only (boolean: the two charts, shorter, and the controls beside them, without the comparison,
 * checks, code and notes, for a page that shows the idea at a glance, such as the home page).
 * An AttnLab: Reset, Export (the weight bars as SVG/PNG, logits and weights as CSV/JSON),
 * data-settled once drawn. Its older name, <attn-softmax-lab>, still works (cells/tag-aliases.js).
 */
import { html, nothing } from 'lit';
import { AttnLab, checkCells } from '../../cells/base/lab.js';
import { LabTask, memoLast } from '../../cells/base/lab-task.js';
import { tex, texDisplay } from '../../cells/base/math.js';
import { tableStyles } from '../../cells/base/styles.js';
import { formatNumber } from '../../cells/base/cell-support.js';
import '../../charts/attn-bar-chart.js';
import { svgDocument } from '../../charts/export.js';
import {
  computeAtTemperature,
  computeLimits,
  describeSoftmaxLab,
  formatTau,
  logitDomain,
  logitsField,
  positionLabels,
  SOFTMAX_ERROR,
  softmaxChecks,
  TEMPERATURES_FIELD,
} from './softmax-lab-model.js';
import { computeComparison, describeComparison } from './temperature-compare-model.js';
import { comparisonTable, softmaxCode, softmaxHood, weightStats } from './softmax-lab-parts.js';
import { softmaxLabStyles } from './softmax-lab-styles.js';

const formatLogit = (v) => formatNumber(v, 3);

export class AttnSoftmaxTemperature extends AttnLab {
  static properties = {
    figureOnly: { type: Boolean, attribute: 'figure-only' },
  };

  static stateFields = {
    logits: logitsField(64),
    temperature: { type: 'number', default: 1, min: 0, max: Infinity },
    temperatures: TEMPERATURES_FIELD,
  };

  static styles = [AttnLab.labStyles, tableStyles, softmaxLabStyles];

  defaultLabel = 'Softmax weights at temperature τ';

  constructor() {
    super();
    this._domain = logitDomain(this.logits);
    this._fromEdit = false;
    this.figureOnly = false;
    // what does not depend on τ is computed again only when the logits or temperatures change
    const limits = memoLast(computeLimits);
    const comparison = memoLast(computeComparison);
    this.task = new LabTask(this, {
      args: () => [this.logits, this.temperature, this.temperatures],
      run: ([logits, tau, temperatures], { engine }) => ({
        ...computeAtTemperature(engine, logits, tau),
        ...limits(engine, logits),
        comparison: comparison(engine, logits, temperatures),
      }),
      explain: () => SOFTMAX_ERROR,
    });
  }

  willUpdate(changed) {
    if (changed.has('logits') && !this._fromEdit) this._domain = logitDomain(this.logits);
    this._fromEdit = false;
  }

  _editLogits(next, done) {
    this.beginEdit();
    if (next.some((v, i) => v !== this.logits[i])) {
      this._fromEdit = true;
      this.logits = next;
    }
    if (done) this.stateChanged();
  }

  _setTemperature(tau) {
    if (tau === this.temperature) return;
    this.beginEdit();
    this.temperature = tau;
    this.stateChanged();
  }

  describe() {
    const r = this.task.value;
    return `${describeSoftmaxLab(this.logits, this.temperature, r)} ${describeComparison(this.logits, r?.comparison)}`;
  }

  exportSvgText() {
    return svgDocument(this.renderRoot.querySelector('.weights').svg);
  }

  exportRows() {
    const w = this.task.value?.weights;
    return [['position', 'logit', 'weight'], ...this.logits.map((s, j) => [j, s, w?.[j] ?? ''])];
  }

  exportObject() {
    const r = this.task.value;
    return {
      logits: this.logits,
      temperature: this.temperature,
      weights: Array.from(r?.weights ?? []),
      entropy: r?.entropy ?? null,
      effectivePositions: r?.effective ?? null,
      comparison: (r?.comparison.rows ?? []).map((row, k) => ({
        temperature: r.comparison.temperatures[k],
        weights: Array.from(row),
      })),
    };
  }

  renderFigure() {
    const tau = this.temperature;
    const r = this.task.value;
    const authoredTau = (this._baseline ?? this).temperature;
    const T = this.logits.length;
    const labels = positionLabels(T);
    const figure = html`
      <p class="part-title" id="logits-title">Logits ${tex`s`} (drag a bar)</p>
      <attn-bar-chart
        class="chart logits"
        aria-describedby="logits-hint"
        label="Logits s (editable)"
        editable
        bar-class="logit-bar"
        height=${this.figureOnly ? 150 : nothing}
        min=${this._domain[0]}
        max=${this._domain[1]}
        .values=${this.logits}
        .labels=${labels}
        .format=${formatLogit}
        @bar-input=${(e) => this._editLogits(e.detail.values, false)}
        @bar-change=${(e) => this._editLogits(e.detail.values, true)}
      ></attn-bar-chart>
      <p class="part-title">Weights ${tex`\alpha`}</p>
      ${
        r && r.weights.length === T
          ? html`<attn-bar-chart
              class="chart weights"
              label="Attention weights of each position"
              height=${this.figureOnly ? 150 : nothing}
              .values=${Array.from(r.weights)}
              .labels=${labels}
            ></attn-bar-chart>`
          : ''
      }
    `;
    const controls = html`
      <attn-slider
        label="Temperature"
        symbol="τ"
        scale="log"
        min="0.01"
        max="100"
        step="0.01"
        limits
        value=${String(authoredTau)}
        .value=${tau}
        .format=${formatTau}
        @change=${(e) => this._setTemperature(e.detail.value)}
      ></attn-slider>
      <p class="hint" id="logits-hint">
        Drag a logit bar, or focus it (Tab) and press ↑/↓ (±0.1), PageUp/PageDown, Home/End.
      </p>
      <p class="formula">
        ${texDisplay`\alpha_j = \frac{\exp(s_j/\tau)}{\sum_{k=0}^{T-1} \exp(s_k/\tau)}`} for
        ${tex`j = 0, \ldots, ${T - 1}`}
      </p>
      ${r ? weightStats(r, T) : this.task.error ? '' : html`<p class="readout">Loading the attention core…</p>`}
    `;
    if (this.figureOnly) return this.renderLab({ figure, controls }); // no checks, code or notes to build
    const checks = checkCells(softmaxChecks(r, T, this.temperatures, tau));
    const code = softmaxCode(this.logits, tau, this.temperatures);
    return this.renderLab({
      figure,
      controls,
      after: comparisonTable(r?.comparison, this.logits.length, this.temperature, (t) => this._setTemperature(t)),
      checks,
      code,
      hood: softmaxHood,
    });
  }
}

customElements.define('attn-softmax-temperature', AttnSoftmaxTemperature);
