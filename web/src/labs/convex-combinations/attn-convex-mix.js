/**
 * <attn-convex-mix id="mix" weights="0.4,0.1,0.2,0.3" values="1,0,0;0,2,0;0,0,3;1,1,1">
 *
 * The lab of the "convex combinations" lesson: y = Σ_j α_j v_j for a T × d_v value matrix V and
 * weights α. The figure: the weights as bars (drag one, or focus it and use the arrow keys) above
 * a picture of where y lands among the values, one number line per coordinate (the values as
 * dots, y as a ring; the stretch a mixture can reach shaded). Beside it: "Keep Σα = 1" (on by
 * default: dragging one weight rescales the others in proportion, so the weights stay a convex
 * combination), the weights as text, the two rules of a convex combination (checked by the core,
 * attn.rowStochasticReport: every α_j ≥ 0 and Σ α_j = 1 within 1e-5) with the entries that break
 * them, Normalise (convex-mix-model.js normaliseWeights) and y. Below: the values V (a matrix
 * editor) and the notebook's loop, term by term.
 *
 * y is computed by the core (attn.convexCombination), which refuses weights that break a rule:
 * the lab then says why in the learner's words, keeps the last y that was a mixture (drawn as such)
 * and marks where the weighted sum with the weights as typed would land.
 * Verified (one line, opens on demand): the notebook's three asserts (weights ≥ 0, sum to 1, the
 * loop agrees with α @ V). The printed output and the NumPy and PyTorch code.
 *
 * State (permalink): weights (numbers, −10…10), values (matrix, up to 16 × 16), keep-sum
 * (boolean, default on; links without it open with it on). Attributes: label, caption. An AttnLab:
 * Reset, Export (the bars as SVG/PNG, weights, values and y as CSV/JSON), data-settled once drawn,
 * data-valid="true|false" (α convex or not) and data-y (y from the core, comma-separated, 6
 * significant digits; empty while the core refuses α).
 */
import { html } from 'lit';
import { AttnLab, checkCells } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { tableStyles } from '../../cells/base/styles.js';
import { formatField } from '../../cells/base/state-fields.js';
import { formatNumber } from '../../cells/base/cell-support.js';
import '../../charts/attn-bar-chart.js';
import { svgDocument } from '../../charts/export.js';
import '../../charts/attn-value-strips.js';
import {
  AGREEMENT,
  barDomain,
  computeMix,
  DECIMALS,
  describeMix,
  dimLabels,
  explainMixError,
  exportRows,
  fmt,
  keepSumEdit,
  mixChecks,
  normaliseWeights,
  printout,
  ROW_SUM_TOLERANCE,
  stripRows,
  vec,
  weightsReport,
  yAttribute,
} from './convex-mix-model.js';
import { NUMPY_CODE, TORCH_CODE } from './convex-mix-code.js';
import { mixStyles } from './convex-mix-styles.js';

const KEEP = 'keep-sum';

const format3 = (v) => formatNumber(v, 3);

export class AttnConvexMix extends AttnLab {
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
    [KEEP]: { type: 'boolean', default: true },
  };

  static styles = [AttnLab.labStyles, tableStyles, mixStyles];

  defaultLabel = 'Attention output as a weighted mix of value vectors';

  constructor() {
    super();
    this._barDomain = [0, 1];
    this._fromBars = false;
    this._dragBase = null; // the weights when a drag began (keep Σα = 1 rescales from them)
    this._rules = null;
    this._rulesKey = '';
    this.task = new LabTask(this, {
      args: () => [this.weights, this.values],
      run: ([alpha, V], { engine }) => computeMix(engine, alpha, V),
      explain: (error) => explainMixError(error, this.weights, this.values),
    });
  }

  /** The current weights against the rules, and the loop (for any weights), from the core. */
  willUpdate() {
    // the bars' axis stays put while a bar is dragged; it follows any other change of the weights
    if (!this._fromBars) this._barDomain = barDomain(this.weights, this[KEEP]);
    this._fromBars = false;
    const engine = this.task.engine;
    const key = JSON.stringify([this.weights, this.values]);
    if (!engine || key === this._rulesKey) return;
    this._rulesKey = key;
    this._rules = weightsReport(engine, this.weights, this.values);
  }

  /** y from the core for the current weights, or null while it refuses them. */
  get _mix() {
    return this.task.error ? null : (this.task.value ?? null);
  }

  get _valid() {
    return Boolean(this._rules?.okNonNegative && this._rules.okSum && this._mix);
  }

  _setWeights(weights, done = true) {
    this.beginEdit();
    this.weights = weights;
    if (done) this.stateChanged();
  }

  _onBars(values, i, done) {
    let next;
    if (this[KEEP]) {
      this._dragBase ??= this.weights.slice();
      next = keepSumEdit(this._dragBase, i, values[i]);
    } else {
      next = values.map((v) => Number(v.toFixed(DECIMALS)));
    }
    if (done) this._dragBase = null;
    this._fromBars = true;
    this._setWeights(next, done);
  }

  _setKeepSum(on) {
    this.beginEdit();
    this[KEEP] = on;
    const rules = this._rules;
    if (on && rules && !(rules.okNonNegative && rules.okSum)) this.weights = normaliseWeights(this.weights);
    this.stateChanged();
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
    if (this._rules && this.task.engine) {
      this.dataset.valid = String(this._valid);
      this.dataset.y = yAttribute(this._mix?.y);
    }
  }

  /** Where y lands among the values: the last y that was a mixture, and the weighted sum when α breaks a rule. */
  _strips(broken) {
    const mix = this.task.value;
    const y = mix?.y.length === this.values[0].length ? mix.y : null;
    const { rows, domain } = stripRows(this.values, y, broken ? this._rules.loop : null);
    return html`<attn-value-strips
      class="chart strips"
      label="Where y lands among the values, one line per coordinate"
      .rows=${rows}
      .domain=${domain}
      ?stale=${!this._mix}
    ></attn-value-strips>`;
  }

  describe() {
    if (!this.task.engine) return 'Loading the attention core.';
    return describeMix(this.weights, this.values, this._rules, this._mix);
  }

  exportSvgText() {
    return svgDocument(this.renderRoot.querySelector('attn-bar-chart').svg);
  }

  exportRows() {
    return exportRows(this.weights, this.values, this._mix?.y);
  }

  exportObject() {
    return {
      weights: this.weights,
      values: this.values,
      keepSum: this[KEEP],
      y: this._mix?.y ?? null,
      loopSum: this._rules?.loop ?? null,
      isConvex: this._valid,
      refused: this.task.error || null,
    };
  }

  _rulesPanel(r) {
    const rep = r.report;
    const negList = r.negatives.map(([j, a]) => `α${j} = ${fmt(a)}`).join(', ');
    return html`<ul class="rules" aria-label="The two rules of a convex combination" aria-live="polite">
      <li class=${r.okNonNegative ? 'kept' : 'broken'} data-rule="nonnegative">
        <span class="verdict">${r.okNonNegative ? '✓ Rule 1 kept' : '✗ Rule 1 broken'}:</span> every α<sub>j</sub> ≥ 0.
        ${
          r.okNonNegative
            ? html`The smallest weight is ${fmt(rep.minEntry)}.`
            : html`${negList} ${r.negatives.length === 1 ? 'is' : 'are'} negative (the most negative is
                ${fmt(-rep.minEntry)} below zero).
                <span class="why"
                  >A weight is the share of y a position gives; a negative share pushes y away from that value, out of
                  the stretch the values span.</span
                >`
        }
      </li>
      <li class=${r.okSum ? 'kept' : 'broken'} data-rule="sum">
        <span class="verdict">${r.okSum ? '✓ Rule 2 kept' : '✗ Rule 2 broken'}:</span> Σ α<sub>j</sub> = 1. The weights
        add up to ${fmt(r.sum)}${r.okSum ? '.' : html`, off by ${formatNumber(Math.abs(r.sum - 1), 3)}.`}
        ${
          r.okSum
            ? ''
            : html`<span class="why"
                >Shares that do not add up to 1 scale y by ${fmt(r.sum)} as well as mixing: equal values would not come
                back unchanged.</span
              >`
        }
      </li>
    </ul>`;
  }

  _terms(r) {
    return html`<div class="terms" tabindex="0" role="region" aria-label="The loop, one position at a time">
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
    </div>`;
  }

  renderFigure() {
    const r = this._rules;
    const mix = this._mix;
    const T = this.values.length;
    const d = this.values[0]?.length ?? 0;
    const keep = this[KEEP];
    const broken = r && !(r.okNonNegative && r.okSum);
    const figure = html`
      <h3>The weights α (drag a bar)</h3>
      <attn-bar-chart
        class="chart bars"
        aria-describedby="bars-hint"
        label="Weights α, one bar per position (drag, or focus and use the arrow keys)"
        editable
        step="0.01"
        min=${this._barDomain[0]}
        max=${this._barDomain[1]}
        .values=${this.weights}
        .labels=${this.weights.map((_, j) => `α${j}`)}
        .format=${format3}
        @bar-input=${(e) => this._onBars(e.detail.values, e.detail.index, false)}
        @bar-change=${(e) => this._onBars(e.detail.values, e.detail.index, true)}
      ></attn-bar-chart>
      <h3>Where y lands among the values</h3>
      ${this._strips(broken)}
      <p class="legend">
        <span class="key key-value" aria-hidden="true">●</span> the values, one line per coordinate; shaded: the stretch
        from the smallest to the largest. <span class="key key-y" aria-hidden="true">○</span> y${
          broken
            ? html`. <span class="key key-stray" aria-hidden="true">✕</span> Σ α<sub>j</sub> v<sub>j</sub> with the
                weights as they are: not a mixture.`
            : ''
        }
      </p>
      ${
        mix
          ? html`<p class="y" aria-live="polite">y = α V = <span class="y-value">${vec(mix.y)}</span></p>`
          : this.task.engine
            ? this.task.errorLine()
            : html`<p class="readout">Loading the attention core…</p>`
      }
      ${r ? this._rulesPanel(r) : ''}
    `;
    const controls = html`
      <label class="toggle">
        <input type="checkbox" .checked=${keep} @change=${(e) => this._setKeepSum(e.target.checked)} />
        Keep Σα = 1
      </label>
      <p class="hint" id="bars-hint">
        ${
          keep
            ? 'Dragging one weight rescales the others, so the weights still add up to 1.'
            : 'Each bar moves on its own: the weights may break a rule.'
        }
        Keyboard: focus a bar (Tab), then ↑/↓ (±0.01), PageUp/PageDown, Home/End.
      </p>
      <attn-vector-editor
        label="Weights α"
        min="-10"
        max="10"
        count=${T}
        values=${this._authored('weights')}
        .values=${this.weights}
        @change=${this._onVectorChange}
      ></attn-vector-editor>
      <p class="normalise">
        <button
          type="button"
          class="primary"
          ?disabled=${!r || this._valid}
          @click=${() => this._setWeights(normaliseWeights(this.weights))}
        >
          Normalise α
        </button>
        <span class="hint">negative weights to 0, then each divided by the sum</span>
      </p>
    `;
    const after = html`
      <h3>The values V (${T} × ${d}: one row v<sub>j</sub> per position)</h3>
      <attn-matrix-editor
        label="Values V"
        row-labels=${this.values.map((_, j) => `v${j}`).join(',')}
        col-labels=${dimLabels(d).join(',')}
        min="-1000"
        max="1000"
        values=${this._authored('values')}
        .values=${this.values}
        @change=${this._onMatrixChange}
      ></attn-matrix-editor>
      ${
        r
          ? html`<h3>The loop, one position at a time</h3>
              ${this._terms(r)}`
          : ''
      }
    `;
    const checks = checkCells(mixChecks(r, mix));
    const params = { V: this.values, alpha: this.weights, y: mix?.y ?? r?.loop ?? [] };
    const code = r
      ? html`
          <attn-output label="Printed output" .text=${printout(this.weights, this.values, r, mix)}></attn-output>
          <attn-code label="NumPy: loop vs α @ V" .params=${params} .template=${NUMPY_CODE}></attn-code>
          <attn-code label="PyTorch: loop vs α @ V" .params=${params} .template=${TORCH_CODE}></attn-code>
        `
      : '';
    const hood = html`<p>
      y is computed twice. The loop adds α<sub>j</sub> v<sub>j</sub> one position at a time in JavaScript, rounding to
      float32 like the notebook's tensors, so that every term can be shown. The product α @ V is computed by the
      attention core (C++ compiled to WebAssembly, <code>convexCombination</code>), which refuses weights that are
      negative or do not sum to 1 within ${ROW_SUM_TOLERANCE}. The rules are checked by the core's
      <code>rowStochasticReport</code> with the same tolerance (close to <code>torch.isclose</code>'s). The two results
      agree when they differ by at most ${AGREEMENT}; float32 rounding is about 1e-7 here. "Keep Σα = 1" and Normalise
      round the weights to ${DECIMALS} decimals and put the rounding on one weight, so the sum stays exactly 1.
    </p>`;
    return this.renderLab({ figure, controls, after, checks, code, hood, error: '' });
  }
}

customElements.define('attn-convex-mix', AttnConvexMix);
