/**
 * <attn-qkv-world id="hand" query="2" angle-q="0" scale-q="1" angle-k="0" scale-k="1">
 *
 * Queries and keys by hand, in two dimensions (qkv-world-model.js): five token embeddings
 * x₀ … x₄ drawn as grey points; W_Q = s_Q·R(θ_Q) and W_K = s_K·R(θ_K) (a turn and a length each)
 * make the keys k_j = x_j W_K (orange squares) and the queries q_i = x_i W_Q (arrows; the chosen
 * token's drawn bold). The key the chosen query picks (its largest dot product) is ringed and
 * linked to the query's tip. Under the plane, the table of every dot product q_i·k_j with each
 * row's pick; beside it: which token's query to follow, the four sliders, the two matrices, the
 * chosen query's dot products and softmax weights. The tip of the chosen query is a handle:
 * dragging it sets W_Q so that x_i W_Q lands there (its turn and length); focused, ←/→ turn W_Q by
 * 5°, ↑/↓ lengthen or shorten it by 0.05.
 *
 * In the attempt slot of an attn-exercise it gives that exercise its check (checkChallenge:
 * token 2's query must pick token 4), its attempt (the state and the pick), so the exercise
 * shows a Check button, and its "Show me" (a half turn of W_Q); the lab itself says live which
 * key token 2's query picks.
 *
 * State (permalink): query (0–4), angle-q, scale-q, angle-k, scale-k (degrees −180…180, lengths
 * 0.25…2). Sets data-picks (each query's pick, comma-separated) and data-pick (the chosen
 * query's). Export: the plane as SVG/PNG, every dot product and weight as CSV/JSON.
 */
import { html } from 'lit';
import { AttnLab } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { formatField } from '../../cells/base/state-fields.js';
import { tableStyles, touchTargets } from '../../cells/base/styles.js';
import { svgDocument } from '../../charts/export.js';
import { WORLD_NUMPY } from './qkv-code.js';
import { planeStyles } from './plane-styles.js';
import { dotsTable, planeChart, planeKey, tokenButtons } from './qkv-world-parts.js';
import { worldStyles } from './qkv-world-styles.js';
import {
  ANGLE,
  CHALLENGE,
  SCALE,
  SOLUTION,
  TOKENS,
  checkChallenge,
  computeWorld,
  describeWorld,
  fmt,
  matrixText,
  vec,
  worldObject,
  worldRows,
  wrapAngle,
} from './qkv-world-model.js';

const ANGLE_Q = 'angle-q';
const SCALE_Q = 'scale-q';
const ANGLE_K = 'angle-k';
const SCALE_K = 'scale-k';
const angleField = { type: 'number', default: 0, min: ANGLE.min, max: ANGLE.max };
const scaleField = { type: 'number', default: 1, min: SCALE.min, max: SCALE.max };

export class AttnQkvWorld extends AttnLab {
  static stateFields = {
    query: { type: 'integer', default: CHALLENGE.query, min: 0, max: TOKENS.length - 1 },
    [ANGLE_Q]: angleField,
    [SCALE_Q]: scaleField,
    [ANGLE_K]: angleField,
    [SCALE_K]: scaleField,
  };

  static styles = [AttnLab.labStyles, tableStyles, touchTargets, planeStyles, worldStyles];

  defaultLabel = 'Queries and keys of five tokens, by hand';

  constructor() {
    super();
    this._exercise = null;
    this.task = new LabTask(this, {
      args: () => [this._state()],
      run: ([state], { engine }) => computeWorld(engine, state),
      explain: () => 'These projections could not be computed; showing the last ones that worked.',
    });
  }

  connectedCallback() {
    super.connectedCallback();
    this._exercise = this.closest('attn-exercise');
    if (this._exercise) {
      this._exercise.check = (attempt) => checkChallenge(attempt);
      this._exercise.getAttempt = () => ({ ...this._state(), pick: this.task.value?.picks[CHALLENGE.query] });
      this._exercise.showAnswer = () => {
        this._set({ query: CHALLENGE.query, [ANGLE_Q]: SOLUTION.angleQ, [ANGLE_K]: SOLUTION.angleK });
        return `turn W_Q by ${SOLUTION.angleQ}° and leave W_K at ${SOLUTION.angleK}°: q${CHALLENGE.query} = −x${CHALLENGE.query} then picks key ${CHALLENGE.key} (the plane shows it now).`;
      };
    }
  }

  _state() {
    return { angleQ: this[ANGLE_Q], scaleQ: this[SCALE_Q], angleK: this[ANGLE_K], scaleK: this[SCALE_K] };
  }

  _set(changes, done = true) {
    const entries = Object.entries(changes).filter(([name, value]) => !Object.is(this[name], value));
    if (!entries.length) return;
    this.beginEdit();
    for (const [name, value] of entries) this[name] = value;
    if (done) this.stateChanged();
  }

  /** The handle dragged to `at`: W_Q turns x_i onto that direction and scales it to that length. */
  _dragTo(at, done) {
    const x = TOKENS[this.query];
    const length = Math.hypot(...at);
    if (length < 1e-6) return;
    const turn = ((Math.atan2(at[1], at[0]) - Math.atan2(x[1], x[0])) * 180) / Math.PI;
    const scale = Math.min(SCALE.max, Math.max(SCALE.min, length / Math.hypot(...x)));
    this._set({ [ANGLE_Q]: wrapAngle(Math.round(turn)), [SCALE_Q]: Math.round(scale * 100) / 100 }, done);
  }

  _onKey(key) {
    const turn = { ArrowLeft: ANGLE.step, ArrowRight: -ANGLE.step }[key];
    const grow = { ArrowUp: SCALE.step, ArrowDown: -SCALE.step }[key];
    if (turn) this._set({ [ANGLE_Q]: wrapAngle(this[ANGLE_Q] + turn) });
    else if (grow) {
      const s = Math.min(SCALE.max, Math.max(SCALE.min, Math.round((this[SCALE_Q] + grow) * 100) / 100));
      this._set({ [SCALE_Q]: s });
    } else return false;
    return true;
  }

  updated() {
    const w = this.task.value;
    if (!w) return;
    this.dataset.picks = w.picks.join(',');
    this.dataset.pick = String(w.picks[this.query]);
  }

  /** The chart part (for tests that drag: toSvg, size). */
  get _plane() {
    return this.renderRoot.querySelector('attn-vector-plane');
  }

  describe() {
    return describeWorld(this._state(), this.task.value, this.query);
  }

  exportSvgText() {
    return svgDocument(this._plane.svg);
  }

  exportRows() {
    return worldRows(this.task.value);
  }

  exportObject() {
    return worldObject(this._state(), this.task.value);
  }

  _authored(name) {
    const state = this._baseline ?? this.getState();
    return formatField(state[name], this.constructor.stateFields[name]);
  }

  _slider(field, label, symbol, { min, max, step }, format) {
    return html`<attn-slider
      label=${label}
      symbol=${symbol}
      min=${min}
      max=${max}
      step=${step}
      value=${this._authored(field)}
      .value=${this[field]}
      .format=${format}
      @change=${(e) => (e.stopPropagation(), this._set({ [field]: e.detail.value }))}
      @attn-state-change=${(e) => e.stopPropagation()}
    ></attn-slider>`;
  }

  renderFigure() {
    const w = this.task.value;
    const i = this.query;
    const degrees = (v) => `${fmt(v, 0)}°`;
    const figure = w
      ? html`${planeChart(w, i, this[ANGLE_Q], this[SCALE_Q], {
            onDrag: (at, done) => this._dragTo(at, done),
            onKey: (key) => this._onKey(key),
          })}
          ${planeKey}
          <p class="hint" id="plane-hint">
            Drag the tip of q${i}, or focus it (Tab) and use the arrow keys. The ringed key is the one q${i} picks.
          </p>
          ${dotsTable(w, i)}`
      : html`<p class="note">Loading the attention core…</p>`;
    const pick = w?.picks[CHALLENGE.query];
    const done = pick === CHALLENGE.key;
    const controls = html`${tokenButtons(i, (t) => this._set({ query: t }))}
      <h3>W<sub>Q</sub>: what a position looks for</h3>
      ${this._slider(ANGLE_Q, 'W_Q turns by', 'θ_Q', ANGLE, degrees)}
      ${this._slider(SCALE_Q, 'W_Q lengthens by', 's_Q', SCALE)}
      <p class="mono wq">W_Q = ${w ? matrixText(w.wq) : '…'}</p>
      <h3>W<sub>K</sub>: what a position offers</h3>
      ${this._slider(ANGLE_K, 'W_K turns by', 'θ_K', ANGLE, degrees)}
      ${this._slider(SCALE_K, 'W_K lengthens by', 's_K', SCALE)}
      <p class="mono wk">W_K = ${w ? matrixText(w.wk) : '…'}</p>
      ${
        w
          ? html`<p class="mono">q${i} = x${i} W_Q = ${vec(w.queries[i])}</p>
              <p class="mono dots">q${i}·k<sub>j</sub> = [${w.dots[i].map((d) => fmt(d)).join(', ')}]</p>
              <p class="mono weights">
                softmax(q${i}·k<sub>j</sub>/√2) = [${w.weights[i].map((a) => fmt(a, 3)).join(', ')}]
              </p>
              <p class="challenge" role="status" data-done=${done ? 'true' : 'false'}>
                Token ${CHALLENGE.query}'s query picks token ${pick}${done ? ' ✓' : ''}.
              </p>`
          : ''
      }`;
    return this.renderLab({
      figure,
      controls,
      code: html`<attn-code label="NumPy" .template=${WORLD_NUMPY} .params=${this._state()}></attn-code>`,
    });
  }
}

customElements.define('attn-qkv-world', AttnQkvWorld);
