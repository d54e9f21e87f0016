/**
 * <attn-softmax-lab id="lab" logits="1.2,4.5,2,0.8" temperature="1">
 *
 * The softmax-temperature lab, a fuller sibling of attn-softmax-temperature.
 * Logits are an editable bar chart (drag a bar, or focus it and use the arrow
 * keys, PageUp/PageDown, Home/End); a
 * log-scale temperature slider runs from τ = 0.01 to 100 and has buttons for
 * the exact limits τ → 0 (argmax, ties share) and τ → ∞ (uniform). Every
 * change recomputes softmax(logits / τ) in the wasm core and shows:
 * - the weights as bars and as numbers, with their sum;
 * - the entropy H = −Σ α log α (nats) and the effective number of positions
 *   exp(H), both from the core (engine.entropy / effectivePositions);
 * - three live checks: the core's float32 softmax against a float64 reference
 *   (the formula evaluated with the browser's Math.exp on the same
 *   float32-rounded logits, max-subtracted; at τ = 0 or ∞ the exact limit),
 *   max |diff| ≤ 1e-6; and, for the current logits, that the core's τ = 0
 *   result is the one-hot of the argmax and its τ = ∞ result is uniform 1/T;
 * - the PyTorch code with the current logits and τ.
 *
 * State (permalink): logits (comma-separated numbers), temperature (0 to
 * Infinity; 0 and Infinity are the limits). Attributes: label, caption.
 * A figure (AttnFigure): Reset, and export of the weight bars as SVG/PNG and
 * of logits and weights as CSV/JSON. data-settled (AttnCell) once the bars are drawn.
 */
import { css, html } from 'lit';
import { createBarChart } from '../../charts/bar-chart.js';
import { svgDocument } from '../../charts/export.js';
import { niceDomain } from '../../charts/scale.js';
import { formatNumber } from '../../cells/base/cell-support.js';
import { AttnFigure } from '../../cells/base/figure-base.js';

const formatTau = (tau) => (tau === Infinity ? '∞' : formatNumber(tau, 3));

const CODE = `import torch

logits = torch.tensor({{logits}})
tau = {{tau}}

def softmax_t(s, tau):
    if tau == 0:  # the limit tau -> 0: argmax, ties share
        top = (s == s.max()).float()
        return top / top.sum()
    return torch.softmax(s / tau, dim=-1)  # tau = inf: uniform

alpha = softmax_t(logits, tau)
H = -(alpha * torch.log(alpha)).nan_to_num().sum()  # nats
print("alpha =", alpha)
print("entropy H =", H.item())
print("effective positions exp(H) =", torch.exp(H).item())`;

/**
 * The comparison oracle for the core's softmax: the formula in float64 with
 * Math.exp, on the float32 values of the logits (what the core receives). At
 * τ = 0 and τ = ∞ it is the exact limit: the argmax one-hot (ties share) and 1/T.
 */
function referenceSoftmax(logits, tau) {
  const s = logits.map((x) => Math.fround(x));
  const max = Math.max(...s);
  if (tau === Infinity) return s.map(() => 1 / s.length);
  if (tau === 0) {
    const ties = s.filter((x) => x === max).length;
    return s.map((x) => (x === max ? 1 / ties : 0));
  }
  const e = s.map((x) => Math.exp((x - max) / tau));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / total);
}

const maxAbsDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

/** The editable range of the logit bars: at least [−2, 6], wider when the logits need it. */
function logitDomain(logits) {
  const lo = Math.min(-2, Math.floor(Math.min(...logits)));
  const hi = Math.max(6, Math.ceil(Math.max(...logits)));
  return niceDomain(lo, hi);
}

export class AttnSoftmaxLab extends AttnFigure {
  static stateFields = {
    logits: { type: 'numbers', default: [1.2, 4.5, 2.0, 0.8], minLength: 1, maxLength: 16, min: -1e4, max: 1e4 },
    temperature: { type: 'number', default: 1, min: 0, max: Infinity },
  };

  static properties = { ...super.properties, _result: { state: true }, _error: { state: true } };

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
      h3 {
        font-size: 0.95rem;
        margin: 0.75rem 0 0.25rem;
      }
      .hint {
        color: var(--muted, #555d6b);
        font-size: 0.85rem;
        margin: 0;
      }
      .bar {
        fill: var(--accent, #3b5bdb);
      }
      .logits .bar {
        fill: var(--muted, #555d6b);
        cursor: ns-resize;
        touch-action: none;
      }
      .logits .hit {
        fill: transparent;
        cursor: ns-resize;
        touch-action: none;
      }
      .value {
        font-size: 11px;
      }
      .readout {
        white-space: normal;
        overflow-wrap: anywhere;
      }
      dl.stats {
        display: grid;
        grid-template-columns: max-content 1fr;
        gap: 0.15rem 0.75rem;
        margin: 0.5rem 0 0;
        font-family: var(--font-mono, ui-monospace, monospace);
        font-size: 0.9rem;
      }
      dl.stats dt {
        color: var(--muted, #555d6b);
      }
      dl.stats dd {
        margin: 0;
      }
      @media (max-width: 480px) {
        dl.stats {
          grid-template-columns: 1fr;
        }
        dl.stats dd {
          margin-bottom: 0.25rem;
        }
      }
    `,
  ];

  defaultLabel = 'Softmax lab: logits, temperature, weights';

  constructor() {
    super();
    this._result = null;
    this._error = '';
    this._engine = null;
    this._chart = null;
    this._logitChart = null;
    this._logitKey = '';
    this._domain = logitDomain(this.logits);
    this._fromEdit = false;
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
    if (changed.has('logits') && !this._fromEdit) this._domain = logitDomain(this.logits);
    this._fromEdit = false;
    if (this._engine && (changed.has('logits') || changed.has('temperature'))) this._compute();
  }

  /** Everything the figure shows, from the core: weights, entropy, the limits and the reference gap. */
  _compute() {
    const engine = this._engine;
    try {
      const logits = this.logits;
      const tau = this.temperature;
      const weights = engine.softmax(logits, { temperature: tau }).data;
      const entropy = engine.entropy(weights).data[0];
      const effective = engine.effectivePositions(weights).data[0];
      const cold = Array.from(engine.softmax(logits, { temperature: 0 }).data);
      const hot = Array.from(engine.softmax(logits, { temperature: Infinity }).data);
      this._result = {
        weights,
        entropy,
        effective,
        sum: weights.reduce((a, b) => a + b, 0),
        referenceGap: maxAbsDiff(Array.from(weights), referenceSoftmax(logits, tau)),
        coldGap: maxAbsDiff(cold, referenceSoftmax(logits, 0)),
        hotGap: maxAbsDiff(hot, referenceSoftmax(logits, Infinity)),
      };
      this._error = '';
    } catch (error) {
      this._error = error.message;
    }
  }

  updated() {
    const result = this._result;
    if (!result) return;
    const values = this.logits;
    const labels = values.map((_, j) => `Pos ${j}`);
    const logitBox = this.renderRoot.querySelector('.chart.logits');
    const weightBox = this.renderRoot.querySelector('.chart.weights');
    if (!logitBox || !weightBox) return; // the cell is showing an error
    const key = JSON.stringify([labels, this._domain]);
    if (!this._logitChart || key !== this._logitKey || !logitBox.contains(this._logitChart.svg)) {
      logitBox.replaceChildren();
      this._logitChart = createBarChart(logitBox, {
        labels,
        min: this._domain[0],
        max: this._domain[1],
        title: 'Logits s (editable)',
        editable: true,
        format: (v) => formatNumber(v, 3),
        onInput: (next) => this._editLogits(next, false),
        onChange: (next) => this._editLogits(next, true),
      });
      this._logitKey = key;
    }
    this._logitChart.update(values);
    if (!this._chart || this._chart.size !== values.length || !weightBox.contains(this._chart.svg)) {
      weightBox.replaceChildren();
      this._chart = createBarChart(weightBox, { labels, title: 'Attention weights of each position' });
      this._chart.size = values.length;
    }
    this._chart.update(result.weights);
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
    const r = this._result;
    if (!r) return `Softmax of the logits ${this.logits.join(', ')}: not computed yet.`;
    const weights = Array.from(r.weights, (w) => w.toFixed(3)).join(', ');
    return (
      `Softmax of the logits ${this.logits.join(', ')} at temperature ${formatTau(this.temperature)}: ` +
      `weights ${weights}; entropy ${r.entropy.toFixed(3)} nats, ${r.effective.toFixed(2)} effective positions.`
    );
  }

  exportSvgText() {
    return svgDocument(this._chart.svg);
  }

  exportRows() {
    const w = this._result?.weights;
    return [['position', 'logit', 'weight'], ...this.logits.map((s, j) => [j, s, w?.[j] ?? ''])];
  }

  exportObject() {
    const r = this._result;
    return {
      logits: this.logits,
      temperature: this.temperature,
      weights: Array.from(r?.weights ?? []),
      entropy: r?.entropy ?? null,
      effectivePositions: r?.effective ?? null,
    };
  }

  renderFigure() {
    const tau = this.temperature;
    const r = this._result;
    const authoredTau = (this._baseline ?? this).temperature;
    const T = this.logits.length;
    const weightsText =
      r && `α = [${Array.from(r.weights, (w) => w.toFixed(4)).join(', ')}]  sum = ${r.sum.toFixed(6)}`;
    return html`
      <h3 id="logits-title">Logits</h3>
      <p class="hint" id="logits-hint">
        Drag a bar, or focus it (Tab) and press ↑/↓ (±0.1), PageUp/PageDown, Home/End.
      </p>
      <div class="chart logits" aria-describedby="logits-hint"></div>
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
        @change=${(e) => this._setTemperature(e.detail.value)}
      ></attn-slider>
      <h3>Weights</h3>
      <div class="chart weights"></div>
      <p class="formula">
        α<sub>j</sub> = exp(s<sub>j</sub>/τ) / Σ<sub>k</sub> exp(s<sub>k</sub>/τ) with τ = ${formatTau(tau)}
      </p>
      ${
        r
          ? html`<p class="readout" data-weights=${Array.from(r.weights).join(',')}>${weightsText}</p>
              <dl class="stats">
                <dt>entropy H = −Σ α log α</dt>
                <dd class="entropy" data-value=${String(r.entropy)}>
                  ${r.entropy.toFixed(4)} nats (from 0 to ln ${T} = ${Math.log(T).toFixed(4)})
                </dd>
                <dt>effective positions exp(H)</dt>
                <dd class="effective" data-value=${String(r.effective)}>${r.effective.toFixed(3)} of ${T}</dd>
              </dl>`
          : html`<p class="readout">Loading the attention core…</p>`
      }
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      <attn-check
        id="check-reference"
        label="max |α (wasm, float32) − α (float64 reference)|"
        threshold="1e-6"
        .value=${r?.referenceGap}
      ></attn-check>
      <attn-check
        id="check-cold"
        label="τ → 0: max |α − one-hot of the argmax|"
        threshold="1e-7"
        .value=${r?.coldGap}
      ></attn-check>
      <attn-check id="check-hot" label=${`τ → ∞: max |α − 1/${T}|`} threshold="1e-7" .value=${r?.hotGap}></attn-check>
      <attn-code label="PyTorch" .template=${CODE} .params=${{ logits: this.logits, tau }}></attn-code>
    `;
  }
}

customElements.define('attn-softmax-lab', AttnSoftmaxLab);
