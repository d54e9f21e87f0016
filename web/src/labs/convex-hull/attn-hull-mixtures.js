/**
 * <attn-hull-mixtures id="hull" values="1,1;1.5,4;5,4.5;4,0.5" count="1000" concentration="1" seed="42"
 *                     logits="1.2,4.5,2,0.8" temperature="1">
 *
 * The lab of the "convex hull" lesson. The figure: four values v_j in the plane (drag one, or
 * focus it and use the arrow keys; each has a 44 px drag target), their convex hull, `count`
 * random convex combinations of them (weights from the symmetric Dirichlet(c) distribution), and
 * the highlighted mixture y(τ) = softmax(s/τ) V with its path for τ from 0 to ∞ (dashed). Beside
 * it: the temperature τ (0 and ∞ exact) with α(τ) and y(τ), the scores s, the concentration c
 * (log slider 0.01 … 100: sparse mixtures near the corners … even ones near the centre) with the
 * mean effective number of positions exp(H), and the seed of the draw (Seed, Re-roll, Reset).
 * Dragging a value re-applies the same weights to the moved values, so the count outside the hull
 * stays 0. All maths in the core (hull-mixtures-model.js says which call does what).
 * Verified (one line, opens on demand): no mixture outside the hull, the Dirichlet rows sum to 1
 * and are ≥ 0, and y(τ) is inside the hull. The printed output and the NumPy/SciPy code.
 *
 * State (permalink): values (matrix 4 × 2), count (1–2000), concentration (0.01–100), seed
 * (whole number), logits (4 numbers), temperature (0–∞). Attributes: label, caption;
 * scores-after="<exercise id>" (predict first: the part about scores, i.e. the τ slider, α(τ),
 * y(τ) and its dashed path, stays out of the figure, its text alternative and its printed output
 * until the learner has checked an answer to that attn-exercise of the page, as attn-reveal
 * does for a whole figure; Reset on the exercise hides it again). An AttnLab:
 * Reset, Export (the plot as SVG/PNG, values and mixtures as CSV/JSON), data-settled once drawn,
 * data-outside (mixtures outside the hull) and data-highlight ("x,y" of y(τ), 6 significant digits).
 */
import { html } from 'lit';
import { tex } from '../../cells/base/math.js';
import { AttnLab, checkCells } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { ExerciseGate, gateLinkStyles } from '../../cells/notebook/exercise-gate.js';
import { SeedControl, seedField } from '../../cells/base/seeds.js';
import { formatField } from '../../cells/base/state-fields.js';
import { NOTEBOOK_POINTS, scatterHullStyles } from '../../cells/figures/attn-scatter-hull.js';
import '../../charts/attn-scatter-hull-chart.js';
import { scatterDomain } from '../../charts/scatter-layout.js';
import {
  computeHullView,
  describeHull,
  explainHullError,
  formatTau,
  hullExportObject,
  hullExportRows,
  hullPrintout,
  hullChecks,
  pair,
  sig,
} from './hull-mixtures-model.js';
import { hullCode, hullHood, hullReadouts, scoresLocked } from './hull-mixtures-parts.js';
import { hullMixturesStyles } from './hull-mixtures-styles.js';

export class AttnHullMixtures extends AttnLab {
  static properties = {
    scoresAfter: { type: String, attribute: 'scores-after' },
  };

  static stateFields = {
    values: {
      type: 'matrix',
      default: NOTEBOOK_POINTS,
      minRows: 4,
      maxRows: 4,
      min: -100,
      max: 100,
    },
    count: { type: 'integer', default: 1000, min: 1, max: 2000 },
    concentration: { type: 'number', default: 1, min: 0.01, max: 100 },
    seed: seedField(42),
    logits: { type: 'numbers', default: [1.2, 4.5, 2.0, 0.8], minLength: 4, maxLength: 4, min: -100, max: 100 },
    temperature: { type: 'number', default: 1, min: 0, max: Infinity },
  };

  static styles = [AttnLab.labStyles, scatterHullStyles, hullMixturesStyles, gateLinkStyles];

  defaultLabel = 'Values, their convex hull and random mixtures';

  constructor() {
    super();
    this._domain = null;
    this._fromDrag = false;
    this._cache = {}; // the Dirichlet draws and the path's weights, kept between runs
    this.scoresAfter = '';
    // the exercise the scores part waits for (none on the page: the scores are shown, and it says so)
    this.gate = new ExerciseGate(this, () => this.scoresAfter, {
      onAttach: (gate) => {
        if (gate.missing) {
          this._notice = `Attribute scores-after: no exercise "${this.scoresAfter.slice(0, 40)}" on this page; the scores are shown.`;
        }
      },
    });
    this.seeds = new SeedControl(this, 'The random draw of the weights');
    this.task = new LabTask(this, {
      args: () => [this._state()],
      run: ([state], { engine }) => computeHullView(engine, state, this._cache),
      explain: explainHullError,
    });
  }

  _state() {
    const { values, count, concentration, seed, logits, temperature } = this;
    return { values, count, concentration, seed, logits, temperature };
  }

  /** The y(τ) part shows unless scores-after names an exercise not yet attempted. */
  get _scoresOpen() {
    return this.gate.open !== false;
  }

  willUpdate(changed) {
    if (changed.has('scoresAfter') && this.isConnected && customElements.get('attn-exercise')) this.gate.attach();
    // the plot's range follows the values, except while they are being dragged (it would slide away)
    if (!this._domain || (changed.has('values') && !this._fromDrag)) this._domain = scatterDomain(this.values);
    this._fromDrag = false;
  }

  _onDrag(points, done) {
    this.beginEdit();
    this._fromDrag = true;
    this.values = points;
    if (done) this.stateChanged();
  }

  _set(field, value) {
    if (Object.is(this[field], value)) return;
    this.beginEdit();
    this[field] = value;
    this.stateChanged();
  }

  /** A log-scale slider from 0.01 to 100 for a state field (with `limits`: buttons for 0 and ∞). */
  _logSlider(field, label, symbol, limits = false) {
    return html`<attn-slider
      label=${label}
      symbol=${symbol}
      scale="log"
      min="0.01"
      max="100"
      ?limits=${limits}
      value=${this._authored(field)}
      .value=${this[field]}
      @change=${(e) => (e.stopPropagation(), this._set(field, e.detail.value))}
    ></attn-slider>`;
  }

  _authored(name) {
    const state = this._baseline ?? this.getState();
    return formatField(state[name], this.constructor.stateFields[name]);
  }

  updated() {
    const view = this.task.value;
    if (!view) return;
    this.dataset.outside = String(view.outside);
    this.dataset.highlight = view.highlight.map(sig).join(',');
  }

  /** Drops the lines about y(τ) from a text while the scores part waits for its exercise. */
  _withoutScores(text) {
    if (this._scoresOpen) return text;
    return text
      .split(/\n|(?<=\.) (?=Highlighted)/)
      .filter((line) => !/y\(τ\)|softmax\(s/.test(line))
      .join('\n');
  }

  describe() {
    return this._withoutScores(describeHull(this._state(), this.task.value));
  }

  exportSvgText() {
    return this.renderRoot.querySelector('attn-scatter-hull-chart').exportSvg();
  }

  exportRows() {
    return hullExportRows(this.values, this.task.value);
  }

  exportObject() {
    return hullExportObject(this._state(), this.task.value);
  }

  renderFigure() {
    const v = this.task.value;
    const open = this._scoresOpen; // predict first: no y(τ) and no path until then
    const figure = html`
      <attn-scatter-hull-chart
        class="chart"
        aria-describedby="drag-hint"
        label="Values v0 to v3 (draggable), their convex hull and ${this.count} mixtures"
        highlight-label="y(τ)"
        .points=${this.values}
        .hull=${v?.hull ?? null}
        .domain=${this._domain}
        .mixtures=${v?.mixtures ?? null}
        .inside=${v?.inside ?? null}
        .path=${open ? v?.path : null}
        .highlight=${open ? v?.highlight : null}
        @point-input=${(e) => this._onDrag(e.detail.points, false)}
        @point-change=${(e) => this._onDrag(e.detail.points, true)}
      ></attn-scatter-hull-chart>
      ${hullReadouts(v, this.count, this._scoresOpen)}
    `;
    const scores = this._scoresOpen ? this._scoresControls(v) : scoresLocked(this.gate);
    const controls = html`
      ${scores}
      <h3>How the random weights are drawn</h3>
      ${this._logSlider('concentration', 'Concentration c', 'c')}
      <p class="mono mean-effective" data-value=${v ? String(v.meanEffective) : ''}>
        mean exp(H) = ${v ? v.meanEffective.toFixed(2) : '…'} of 4 positions
      </p>
      <p class="hint">
        c &lt; 1: one value takes most of the weight (dots near the corners). c = 1: every mixture equally likely. c
        &gt; 1: weights near 1/4 each (dots near the centre).
      </p>
      ${this.seeds.render()}
    `;
    return this._renderParts(v, figure, controls);
  }

  /** The τ slider, α(τ) and y(τ), and the scores: the part scores-after holds back. */
  _scoresControls(v) {
    const tauText = formatTau(this.temperature);
    return html`
      <h3>One mixture from scores: ${tex`y(\tau) = \operatorname{softmax}(s / \tau)\, V`}</h3>
      ${this._logSlider('temperature', 'Temperature τ', 'τ', true)}
      <p class="mono alpha" aria-live="polite">
        ${v ? html`α(τ = ${tauText}) = [${v.alpha.map((a) => a.toFixed(3)).join(', ')}] → y(τ) = ${pair(v.highlight)}` : '…'}
      </p>
      <attn-vector-editor
        label="Scores s"
        count="4"
        min="-100"
        max="100"
        values=${this._authored('logits')}
        .values=${this.logits}
        @change=${(e) => (e.stopPropagation(), this._set('logits', [...e.detail.values]))}
      ></attn-vector-editor>
    `;
  }

  _renderParts(v, figure, controls) {
    const checks = checkCells(hullChecks(v, this.temperature));
    const code = v ? hullCode(this._state(), this._withoutScores(hullPrintout(this._state(), v))) : '';
    return this.renderLab({ figure, controls, checks, code, hood: hullHood });
  }
}

customElements.define('attn-hull-mixtures', AttnHullMixtures);
