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
import { svgDocument } from '../../charts/export.js';
import {
  barDomain,
  computeMix,
  DECIMALS,
  describeMix,
  explainMixError,
  exportRows,
  keepSumEdit,
  mixChecks,
  normaliseWeights,
  stripRows,
  vec,
  weightsReport,
  yAttribute,
} from './convex-mix-model.js';
import {
  codeCells,
  mixHood,
  rulesPanel,
  stripsFigure,
  weightBars,
  valuesAndLoop,
  weightControls,
} from './convex-mix-parts.js';
import { mixStyles } from './convex-mix-styles.js';

const KEEP = 'keep-sum';

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
    return stripsFigure(stripRows(this.values, y, broken ? this._rules.loop : null), !this._mix, broken);
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

  renderFigure() {
    const r = this._rules;
    const mix = this._mix;
    const keep = this[KEEP];
    const broken = r && !(r.okNonNegative && r.okSum);
    const figure = html`
      <h3>The weights α (drag a bar)</h3>
      ${weightBars(this.weights, this._barDomain, (values, i, done) => this._onBars(values, i, done))}
      <h3>Where y lands among the values</h3>
      ${this._strips(broken)}
      ${
        mix
          ? html`<p class="y" aria-live="polite">y = α V = <span class="y-value">${vec(mix.y)}</span></p>`
          : this.task.engine
            ? this.task.errorLine()
            : html`<p class="readout">Loading the attention core…</p>`
      }
      ${r ? rulesPanel(r) : ''}
    `;
    const controls = weightControls({
      keep,
      count: this.values.length,
      weights: this.weights,
      authored: this._authored('weights'),
      canNormalise: Boolean(r) && !this._valid,
      onKeepSum: (on) => this._setKeepSum(on),
      onVectorChange: (e) => this._onVectorChange(e),
      onNormalise: () => this._setWeights(normaliseWeights(this.weights)),
    });
    const after = valuesAndLoop(this.values, this._authored('values'), (e) => this._onMatrixChange(e), r);
    const checks = checkCells(mixChecks(r, mix));
    const code = r ? codeCells(this.weights, this.values, r, mix) : '';
    return this.renderLab({ figure, controls, after, checks, code, hood: mixHood, error: '' });
  }
}

customElements.define('attn-convex-mix', AttnConvexMix);
