/**
 * <attn-exercise id="window3" lesson="causal-masking" label="Exercise 3: …">
 *   <p>The task.</p>
 *   <attn-local-window slot="attempt" id="window3-mask" preset="none"></attn-local-window>
 *   <p slot="hint">…</p> <div slot="explanation">…</div>
 * </attn-exercise>
 *
 * The attempt of Exercise 3 of "Lesson 44: The Attention Mechanism": build the local attention
 * window of width 3 (each position attends to itself and its immediate neighbours, |i − j| ≤ 1)
 * in a mask painter. Placed in the attempt slot of an attn-exercise, it gives that exercise its
 * check (checkWindow3: correct only for exactly that band; otherwise the verdict says how many
 * cells are wrong inside, above and below the band, not which) and its attempt (the painted mask),
 * so the exercise shows a Check button. A mask is checked only when the learner presses Check
 * (each Check is one attempt); painting in between checks nothing. Outside an exercise it shows
 * the verdict itself, live.
 * The figure: the weights the painted mask gives on the lesson's Q, K, V (seed 0, batch 0).
 * Beside it (linked views): the painter, with the presets none, causal and custom (not the
 * local window: that would be the answer), 44 px cells.
 *
 * Maths in the wasm core (randn, attention with the painted mask); the model
 * (local-window-model.js) compares the painted cells with the band.
 *
 * State (permalink): preset (none | causal | custom), mask (the painted cells). An AttnLab:
 * Reset (also the exercise's Reset: back to the authored mask), Export, data-settled.
 */
import { html } from 'lit';
import { LabTask } from '../../cells/base/lab-task.js';
import { maskFor } from '../../cells/figures/mask-presets.js';
import { T, rowsOf } from '../common/qkv-lab.js';
import { CausalLab } from './causal-lab.js';
import { checkWindow3, describeWindow, windowWeights } from './local-window-model.js';
import { explainCoreError, MASK_FIELD } from './masks-model.js';

export { BAND, checkWindow3 } from './local-window-model.js';

export class AttnLocalWindow extends CausalLab {
  static stateFields = {
    preset: { type: 'enum', default: 'none', values: ['none', 'causal', 'custom'] },
    mask: MASK_FIELD,
  };

  static properties = { ...super.properties, _standalone: { state: true } };

  static styles = CausalLab.causalStyles;

  defaultLabel = 'Your mask and the weights it gives';

  constructor() {
    super();
    this._exercise = null;
    this._standalone = false;
    this.task = new LabTask(this, {
      args: () => [this.allowed],
      run: ([allowed], { engine }) => windowWeights(engine, allowed),
      explain: explainCoreError,
    });
  }

  connectedCallback() {
    super.connectedCallback();
    this._exercise = this.closest('attn-exercise');
    this._standalone = !this._exercise;
    if (this._exercise) {
      this._exercise.check = (attempt) => checkWindow3(attempt);
      this._exercise.getAttempt = () => this.allowed;
    }
  }

  get allowed() {
    return maskFor(this.preset, T, 1, this.mask);
  }

  _onMask(event) {
    event.stopPropagation();
    const { preset, mask, allowed } = event.detail;
    this.preset = preset === 'window' ? 'custom' : preset;
    this.mask = preset === 'window' ? allowed : mask;
    this.stateChanged();
  }

  get weightsTitle() {
    return 'Weights with your mask (seed 0, batch 0)';
  }

  describe() {
    return describeWindow(this.allowed, this._standalone ? checkWindow3(this.allowed) : null);
  }

  exportObject() {
    return { mask: this.allowed, weights: this.task.value ? rowsOf(this.shownWeights) : null };
  }

  renderFigure() {
    const weights = this.shownWeights;
    const verdict = this._standalone ? checkWindow3(this.allowed) : null;
    const figure = html`<h3>The weights it gives</h3>
      ${
        weights
          ? html`${this.weightsHeatmap("The lesson's Q, K, V (seed 0, batch 0); blocked cells are 0.")}
            ${this.readoutLine('weights', weights)}`
          : html`<p class="note">Loading the attention core…</p>`
      }`;
    const controls = html`<h3>Your mask</h3>
      <attn-mask-painter
        label="Your mask"
        size=${T}
        presets="none,causal,custom"
        no-reset
        .preset=${this.preset}
        .mask=${this.mask}
        @mask-change=${this._onMask}
        @attn-state-change=${(e) => e.stopPropagation()}
      ></attn-mask-painter>
      ${
        verdict
          ? html`<p class="note" role="status">${verdict.correct ? 'Correct' : 'Not yet'} — ${verdict.message}</p>`
          : ''
      }`;
    return this.renderLab({ figure, controls });
  }
}

customElements.define('attn-local-window', AttnLocalWindow);
