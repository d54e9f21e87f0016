/**
 * <attn-convex-mix weights="0.4,0.1,0.2,0.3" values="1,0,0;0,2,0;0,0,3;1,1,1">
 *
 * The lab of the "convex combinations" lesson: y = Σ_j α_j v_j for a T × d_v
 * value matrix V and weights α, computed twice, as the notebook does: a loop
 * that adds α_j v_j one position at a time (JavaScript, float32, so every term
 * can be shown) and the product α @ V in the wasm core (attn.convexCombination).
 *
 * α is edited as text (attn-vector-editor) or by dragging its bars (keyboard:
 * focus a bar, arrows); V with attn-matrix-editor. The two rules of a convex
 * combination are checked live through the core (attn.rowStochasticReport):
 * every α_j ≥ 0 and Σ α_j = 1 (within 1e-5). A broken rule is named with the
 * entries and the amount that break it, and "Normalise" repairs α: negative
 * weights become 0, then every weight is divided by the sum (equal weights 1/T
 * if nothing positive is left), rounded to 4 decimals with the rounding put on
 * the largest weight so the sum stays 1.
 *
 * Contains: the two editors, the α bars, the rules panel, the loop's terms as a
 * table, three attn-check cells (the notebook's asserts), an attn-output
 * printout and two attn-code cells (NumPy and PyTorch).
 *
 * State (permalink): weights (numbers, −10…10), values (matrix, up to 16 × 16).
 * Attributes: label, caption. A figure: Reset, SVG/PNG of the bars, CSV/JSON.
 * Reflects data-settled (AttnCell) once computed and drawn, data-valid="true|false" (α convex or not),
 * and data-y (y from the core, comma-separated, 6 significant digits; empty
 * when the core refuses α).
 */
import { css, html } from 'lit';
import { createBarChart } from '../../charts/bar-chart.js';
import { svgDocument } from '../../charts/export.js';
import { niceDomain } from '../../charts/scale.js';
import { formatField } from '../../cells/base/state-fields.js';
import { formatNumber } from '../../cells/base/cell-support.js';
import { AttnFigure } from '../../cells/base/figure-base.js';

const ROW_SUM_TOLERANCE = 1e-5; // the core's kRowSumTolerance (and ≈ torch.isclose's rtol)
const AGREEMENT = 1e-6; // max |loop − matrix| accepted (float32 rounding is ~1e-7 here)
const DECIMALS = 4; // Normalise rounds to this many decimals

const fmt = (x) => formatNumber(x, 4);
const vec = (xs) => `[${Array.from(xs, fmt).join(', ')}]`;
const sig = (x) => String(Number(x.toPrecision(6)));

/**
 * Normalise: clip negatives to 0, divide by the sum (1/T each if it is 0), round
 * to DECIMALS and put the rounding remainder on the largest weight.
 * Display arithmetic on a handful of numbers; the result is checked by the core.
 */
export function normaliseWeights(weights) {
  const clipped = weights.map((w) => (w > 0 ? w : 0));
  const total = clipped.reduce((a, b) => a + b, 0);
  const shares = total > 0 ? clipped.map((w) => w / total) : clipped.map(() => 1 / clipped.length);
  const scale = 10 ** DECIMALS;
  const rounded = shares.map((w) => Math.round(w * scale));
  const largest = rounded.indexOf(Math.max(...rounded));
  rounded[largest] += scale - rounded.reduce((a, b) => a + b, 0);
  return rounded.map((k) => k / scale);
}

export class AttnConvexMix extends AttnFigure {
  static stateFields = {
    weights: { type: 'numbers', default: [0.4, 0.1, 0.2, 0.3], minLength: 1, maxLength: 16, min: -10, max: 10 },
    values: {
      type: 'matrix',
      default: [
        [1, 0, 0],
        [0, 2, 0],
        [0, 0, 3],
        [1, 1, 1],
      ],
      minRows: 1,
      maxRows: 16,
      min: -1000,
      max: 1000,
    },
  };

  static properties = { ...super.properties, _result: { state: true } };

  static styles = [
    AttnFigure.baseStyles,
    AttnFigure.figureStyles,
    css`
      h3 {
        font-size: 0.95rem;
        margin: 0.9rem 0 0.2rem;
      }
      .editors {
        display: grid;
        gap: 0 1rem;
        grid-template-columns: repeat(auto-fit, minmax(min(100%, 15rem), 1fr));
      }
      .chart {
        max-width: 30rem;
      }
      .bar {
        fill: var(--accent, #3b5bdb);
      }
      .bar.negative {
        fill: var(--danger, #b3261e);
      }
      .editable .bar,
      .editable .hit {
        cursor: ns-resize;
        touch-action: none;
      }
      .hit {
        fill: transparent;
      }
      .label,
      .value {
        fill: var(--text, #1b1e24);
      }
      .value {
        font-size: 11px;
      }
      .rules {
        list-style: none;
        padding: 0;
        margin: 0.25rem 0;
      }
      .rules li {
        margin: 0.3rem 0;
        padding: 0.3rem 0.6rem;
        border-left: 4px solid var(--pass, #1b7f3b);
        border-radius: 4px;
        background: var(--bg, transparent);
      }
      .rules li.broken {
        border-left-color: var(--danger, #b3261e);
      }
      .rules .verdict {
        font-weight: 600;
      }
      .rules li.broken .verdict {
        color: var(--danger, #b3261e);
      }
      .why {
        display: block;
        color: var(--muted, #555d6b);
        font-size: 0.9rem;
      }
      .normalise {
        display: flex;
        flex-wrap: wrap;
        align-items: baseline;
        gap: 0.5rem 0.75rem;
        margin: 0.4rem 0;
      }
      .normalise p {
        flex: 1 1 16rem;
        margin: 0;
        color: var(--muted, #555d6b);
        font-size: 0.9rem;
      }
      button.primary {
        border-color: var(--accent, #3b5bdb);
        font-weight: 600;
      }
      button:disabled {
        opacity: 0.55;
        cursor: default;
      }
      .y {
        font-family: var(--font-mono, ui-monospace, monospace);
        font-size: 1rem;
        margin: 0.3rem 0;
      }
      .refused {
        color: var(--danger, #b3261e);
        font-size: 0.9rem;
      }
      .terms {
        overflow-x: auto;
      }
      table {
        border-collapse: collapse;
        font: 0.85rem var(--font-mono, ui-monospace, monospace);
      }
      th,
      td {
        padding: 0.15rem 0.6rem;
        text-align: right;
        border-bottom: 1px solid var(--border, #d0d4dc);
        white-space: nowrap;
      }
      th {
        font-family: var(--font-sans, system-ui, sans-serif);
        font-weight: 500;
        color: var(--muted, #555d6b);
      }
    `,
  ];

  defaultLabel = 'Attention output as a weighted mix of value vectors';

  constructor() {
    super();
    this._engine = null;
    this._result = null;
    this._chart = null;
    this._chartKey = '';
    this._fromBars = false;
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
    if (this._engine && (changed.has('weights') || changed.has('values'))) this._compute();
  }

  /** Everything shown: the rules, the loop, the core's α @ V and the agreement. */
  _compute() {
    const alpha = this.weights;
    const V = this.values;
    const r = { shapeError: '', report: null, negatives: [], sum: 0, terms: [], loop: null, y: null, refused: '' };
    try {
      if (alpha.length !== V.length) {
        r.shapeError = `α has ${alpha.length} weights but V has ${V.length} rows: they must match (one weight per position).`;
        this._result = r;
        return;
      }
      r.report = this._engine.rowStochasticReport(alpha);
      r.negatives = alpha.map((a, j) => [j, a]).filter(([, a]) => a < 0);
      r.sum = alpha.reduce((a, b) => a + b, 0);
      // the loop, in float32 like the notebook's torch tensors: y += α_j v_j
      const d = V[0].length;
      const acc = new Float32Array(d);
      for (let j = 0; j < alpha.length; j++) {
        const a = Math.fround(alpha[j]);
        const term = V[j].map((v) => Math.fround(a * Math.fround(v)));
        term.forEach((t, c) => (acc[c] = Math.fround(acc[c] + t)));
        r.terms.push({ j, a: alpha[j], v: V[j], term, running: Array.from(acc) });
      }
      r.loop = Array.from(acc);
      try {
        r.y = Array.from(this._engine.convexCombination(alpha, V).data);
        r.diff = Math.max(...r.y.map((y, c) => Math.abs(y - r.loop[c])));
      } catch (error) {
        r.refused = error.message;
      }
    } catch (error) {
      r.shapeError = error.message;
    }
    this._result = r;
  }

  get _valid() {
    return Boolean(this._result?.report?.isRowStochastic && this._result.y);
  }

  _setWeights(weights, { done = true } = {}) {
    this.beginEdit();
    this.weights = weights;
    if (done) this.stateChanged();
  }

  _normalise() {
    this._setWeights(normaliseWeights(this.weights));
  }

  _onVectorChange(event) {
    event.stopPropagation();
    if (event.detail?.values) this._setWeights([...event.detail.values]);
  }

  _onMatrixChange(event) {
    event.stopPropagation();
    if (!event.detail?.values) return;
    this.beginEdit();
    // the editor's own array (not the event's copy), so it keeps the text being typed
    this.values = event.target.values;
    this.stateChanged();
  }

  _authored(name) {
    const state = this._baseline ?? this.getState();
    return formatField(state[name], this.constructor.stateFields[name]);
  }

  updated() {
    const container = this.renderRoot.querySelector('.chart');
    if (!container) return;
    const alpha = this.weights;
    const labels = alpha.map((_, j) => `α${j}`);
    if (!this._fromBars || !this._chart) {
      const [lo, hi] = niceDomain(Math.min(-0.5, ...alpha), Math.max(1, ...alpha), 3);
      const key = JSON.stringify([labels, lo, hi]);
      if (key !== this._chartKey || !container.contains(this._chart?.svg)) {
        container.replaceChildren();
        this._chart = createBarChart(container, {
          labels,
          min: lo,
          max: hi,
          step: 0.01,
          editable: true,
          title: 'Weights α, one bar per position (drag, or focus and use the arrow keys)',
          format: (v) => formatNumber(v, 3),
          onInput: (values) => this._onBars(values, false),
          onChange: (values) => this._onBars(values, true),
        });
        this._chartKey = key;
      }
    }
    this._fromBars = false;
    this._chart.update(alpha);
    this._chart.svg.querySelectorAll('rect.bar').forEach((rect, j) => rect.classList.toggle('negative', alpha[j] < 0));
    const r = this._result;
    if (r) {
      this.dataset.valid = String(this._valid);
      this.dataset.y = r.y ? r.y.map(sig).join(',') : '';
    }
  }

  _onBars(values, done) {
    this._fromBars = true;
    this._setWeights(
      values.map((v) => Number(v.toFixed(4))),
      { done },
    );
  }

  describe() {
    const r = this._result;
    if (!r) return 'Loading the attention core.';
    if (r.shapeError) return r.shapeError;
    const rows = this.values.map((row, j) => `v${j} = (${row.join(', ')})`).join('; ');
    const y = r.y ? `y = α V = (${r.y.map(fmt).join(', ')})` : `not a convex combination: ${r.refused}`;
    return `Values ${rows}. Weights α = (${this.weights.join(', ')}), sum ${fmt(r.sum)}. ${y}.`;
  }

  exportSvgText() {
    return svgDocument(this._chart.svg);
  }

  exportRows() {
    const r = this._result;
    const d = this.values[0]?.length ?? 0;
    const head = ['position', 'alpha', ...Array.from({ length: d }, (_, c) => `v_${c + 1}`)];
    const rows = [head, ...this.values.map((row, j) => [j, this.weights[j] ?? '', ...row])];
    rows.push(['y (alpha @ V)', '', ...(r?.y ?? Array(d).fill(''))]);
    return rows;
  }

  exportObject() {
    const r = this._result;
    return {
      weights: this.weights,
      values: this.values,
      y: r?.y ?? null,
      loopSum: r?.loop ?? null,
      isConvex: this._valid,
      refused: r?.refused || null,
    };
  }

  _rules(r) {
    const rep = r.report;
    const okNonNeg = r.negatives.length === 0;
    const sumError = Math.abs(r.sum - 1);
    const okSum = rep.maxRowSumError <= ROW_SUM_TOLERANCE;
    const negList = r.negatives.map(([j, a]) => `α${j} = ${fmt(a)}`).join(', ');
    return html`<ul class="rules" aria-label="The two rules of a convex combination">
      <li class=${okNonNeg ? 'kept' : 'broken'} data-rule="nonnegative">
        <span class="verdict">${okNonNeg ? '✓ Rule 1 kept' : '✗ Rule 1 broken'}:</span> every α<sub>j</sub> ≥ 0.
        ${
          okNonNeg
            ? html`The smallest weight is ${fmt(rep.minEntry)}.`
            : html`${negList} ${r.negatives.length === 1 ? 'is' : 'are'} negative (the most negative is
                ${fmt(-rep.minEntry)} below zero).
                <span class="why"
                  >A weight is the share of the output a position contributes; a negative share pushes y away from that
                  value, out of the region the values span.</span
                >`
        }
      </li>
      <li class=${okSum ? 'kept' : 'broken'} data-rule="sum">
        <span class="verdict">${okSum ? '✓ Rule 2 kept' : '✗ Rule 2 broken'}:</span> Σ α<sub>j</sub> = 1. The weights
        add up to ${fmt(r.sum)}${okSum ? '.' : html`, off by ${formatNumber(sumError, 3)}.`}
        ${
          okSum
            ? ''
            : html`<span class="why"
                >Shares that do not add up to 1 scale y by ${fmt(r.sum)} as well as mixing: equal values would not come
                back unchanged.</span
              >`
        }
      </li>
    </ul>`;
  }

  _printout(r) {
    const shape = `(${this.values.length}, ${this.values[0].length})`;
    const lines = [`Value matrix V shape: ${shape}`];
    if (r.negatives.length) return [...lines, 'AssertionError: Weights must be non-negative!'].join('\n');
    if (!(r.report.maxRowSumError <= ROW_SUM_TOLERANCE)) {
      return [...lines, 'AssertionError: Weights must sum to 1.0!'].join('\n');
    }
    lines.push(`Weights alpha: ${vec(this.weights)} (Sum = ${r.sum.toFixed(2)})`);
    if (!r.y) return [...lines, `Error: ${r.refused}`].join('\n');
    lines.push(`Output mixture vector: ${vec(r.y)}`);
    lines.push(
      r.diff <= AGREEMENT
        ? '[OK] Loop sum and matrix multiplication verified.'
        : 'AssertionError: Loop sum and matrix product must be mathematically identical!',
    );
    return lines.join('\n');
  }

  _codeParams(r) {
    return { V: this.values, alpha: this.weights, y: r.y ?? r.loop ?? [] };
  }

  renderFigure() {
    const r = this._result;
    const T = this.values.length;
    const d = this.values[0]?.length ?? 0;
    const rowLabels = this.values.map((_, j) => `v${j}`).join(',');
    const colLabels = Array.from({ length: d }, (_, c) => `d${c + 1}`).join(',');
    const valid = this._valid;
    return html`
      <h3>The values V (${T} × ${d}: one row v<sub>j</sub> per position)</h3>
      <attn-matrix-editor
        label="Values V"
        row-labels=${rowLabels}
        col-labels=${colLabels}
        min="-1000"
        max="1000"
        values=${this._authored('values')}
        .values=${this.values}
        @change=${this._onMatrixChange}
      ></attn-matrix-editor>

      <h3>The weights α (one per position)</h3>
      <div class="editors">
        <attn-vector-editor
          label="Weights α"
          min="-10"
          max="10"
          count=${T}
          values=${this._authored('weights')}
          .values=${this.weights}
          @change=${this._onVectorChange}
        ></attn-vector-editor>
        <div class="chart"></div>
      </div>

      ${
        !r
          ? html`<p class="readout">Loading the attention core…</p>`
          : r.shapeError
            ? html`<p class="error" role="alert">${r.shapeError}</p>`
            : html`
                <div aria-live="polite">${this._rules(r)}</div>
                <div class="normalise">
                  <button type="button" class="primary" ?disabled=${valid} @click=${this._normalise}>
                    Normalise α
                  </button>
                  <p>
                    Sets every negative weight to 0, then divides each weight by their sum so they add up to 1 (equal
                    weights 1/${T} if nothing positive is left). Rounded to ${DECIMALS} decimals.
                  </p>
                </div>

                <h3>The output y = Σ α<sub>j</sub> v<sub>j</sub></h3>
                ${
                  r.y
                    ? html`<p class="y" aria-live="polite">y = α @ V = <span class="y-value">${vec(r.y)}</span></p>`
                    : html`<p class="y">
                          Σ α<sub>j</sub> v<sub>j</sub> = ${vec(r.loop)}: a weighted sum, but not a convex combination.
                        </p>
                        <p class="refused" role="alert">
                          The core's convexCombination refuses these weights: ${r.refused}
                        </p>`
                }
                <div class="terms" tabindex="0" role="region" aria-label="The loop, one position at a time">
                  <table>
                    <caption class="sr-only">
                      The loop, one position at a time
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">j</th>
                        <th scope="col">α<sub>j</sub></th>
                        <th scope="col">v<sub>j</sub></th>
                        <th scope="col">α<sub>j</sub> v<sub>j</sub></th>
                        <th scope="col">running sum</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${r.terms.map(
                        (t) =>
                          html`<tr>
                            <td>${t.j}</td>
                            <td>${fmt(t.a)}</td>
                            <td>${vec(t.v)}</td>
                            <td>${vec(t.term)}</td>
                            <td>${vec(t.running)}</td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>
                </div>

                <attn-check
                  class="check-nonnegative"
                  label="min α_j (all weights ≥ 0)"
                  comparison="ge"
                  threshold="0"
                  .value=${r.report.minEntry}
                ></attn-check>
                <attn-check
                  class="check-sum"
                  label="|Σ α_j − 1|"
                  comparison="le"
                  threshold=${ROW_SUM_TOLERANCE}
                  .value=${r.report.maxRowSumError}
                ></attn-check>
                <attn-check
                  class="check-agree"
                  label=${r.y ? 'max |loop sum − α @ V|' : 'max |loop sum − α @ V| (the core computes α @ V only for convex α)'}
                  comparison="le"
                  threshold=${AGREEMENT}
                  .value=${r.y ? r.diff : undefined}
                ></attn-check>
                <attn-output label="Printed output" .text=${this._printout(r)}></attn-output>
                <attn-code label="NumPy: loop vs α @ V" .params=${this._codeParams(r)} .template=${NUMPY}></attn-code>
                <attn-code label="PyTorch: loop vs α @ V" .params=${this._codeParams(r)} .template=${TORCH}></attn-code>
              `
      }
    `;
  }
}

const NUMPY = `import numpy as np

V = np.array({{V}}, dtype=np.float32)   # (T, d_v): one value vector per row
alpha = np.array({{alpha}}, dtype=np.float32)   # (T,)

assert (alpha >= 0).all(), "Weights must be non-negative!"
assert np.isclose(alpha.sum(), 1.0), "Weights must sum to 1.0!"

# 1. Loop: y = sum_j alpha_j * v_j
y_sum = np.zeros(V.shape[1], dtype=np.float32)
for j in range(len(alpha)):
    y_sum += alpha[j] * V[j]

# 2. Vector-matrix product: (T,) @ (T, d_v) -> (d_v,)
y_matrix = alpha @ V

print(y_matrix)   # about {{y}}
assert np.allclose(y_sum, y_matrix), "Loop sum and matrix product must agree!"
print("[OK] Loop sum and matrix multiplication verified.")`;

const TORCH = `import torch

V = torch.tensor({{V}}, dtype=torch.float32)   # (T, d_v)
alpha = torch.tensor({{alpha}}, dtype=torch.float32)   # (T,)

assert (alpha >= 0).all(), "Weights must be non-negative!"
assert torch.isclose(alpha.sum(), torch.tensor(1.0)), "Weights must sum to 1.0!"

y_sum = torch.zeros(V.shape[1])
for j in range(len(alpha)):
    y_sum += alpha[j] * V[j]

y_matrix = alpha.unsqueeze(0) @ V   # (1, T) @ (T, d_v) -> (1, d_v)

print(y_matrix.squeeze(0).tolist())   # about {{y}}
assert torch.allclose(y_sum, y_matrix.squeeze(0))
print("[OK] Loop sum and matrix multiplication verified.")`;

customElements.define('attn-convex-mix', AttnConvexMix);
