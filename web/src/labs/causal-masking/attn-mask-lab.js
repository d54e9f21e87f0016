/**
 * <attn-mask-lab id="painter" seed="0" batch="0" preset="causal" window="1">
 *
 * Paint a mask, watch attention obey it. The figure: the weights the mask gives on the lesson's
 * Q, K, V ((B, T, D) = (2, 5, 8), seeded), as a heatmap. Beside it (linked views): the mask
 * painter (presets none, causal, local window, custom; click, drag or keyboard) with T × T
 * 44 px cells (1 = may attend), then the seed and the batch shown. A row with every key
 * blocked (a fully masked row) gets zero weights and a zero output, is counted by the core
 * (fullyMaskedRows), and is explained under the figure (the manual softmax gives 0/0 = NaN).
 * Verified (one line): blocked cells get weight exactly 0; every row with an allowed key sums to
 * 1; the result agrees with the float64 reference for the same mask (max |difference| ≤ 1e-6).
 * The PyTorch code with the painted mask. Under the hood: the difference from the reference.
 *
 * Maths in the wasm core (randn, attention with a boolean mask, attentionReference); the model
 * (mask-lab-model.js) adds up rows and compares.
 *
 * Attribute presets: which preset buttons the painter shows (comma-separated, default all), e.g.
 * presets="none,causal,custom" where a local window would answer an exercise further down; a
 * link's preset=window still applies the window.
 *
 * State (permalink): seed, batch, preset (none | causal | window | custom), window (w: |i − j| ≤ w),
 * mask (the custom cells, rows of 0/1). An AttnLab: Reset, Export, data-settled once drawn.
 */
import { html } from 'lit';
import { LabTask } from '../../cells/base/lab-task.js';
import { tex } from '../../cells/base/math.js';
import { SeedControl, seedField } from '../../cells/base/seeds.js';
import { maskFor, MASK_PRESETS } from '../../cells/figures/mask-presets.js';
import { B, D, T, batchSelect, rowsOf, sci, vector } from '../common/qkv-lab.js';
import { checkCells } from '../../cells/base/lab.js';
import { CausalLab } from './causal-lab.js';
import { MASK_CODE, codeParams } from './causal-masking-code.js';
import { computeMaskLab, describeMaskLab, fullyMasked, MASK_CHECKS } from './mask-lab-model.js';
import { checksFrom, explainCoreError, MASK_FIELD } from './masks-model.js';

export class AttnMaskLab extends CausalLab {
  static stateFields = {
    seed: seedField(0),
    batch: { type: 'integer', default: 0, min: 0, max: B - 1 },
    preset: { type: 'enum', default: 'causal', values: MASK_PRESETS },
    window: { type: 'integer', default: 1, min: 0, max: T - 1 },
    mask: MASK_FIELD,
  };

  static properties = { ...super.properties, presets: { type: String } };

  static styles = CausalLab.causalStyles;

  defaultLabel = 'Mask painter lab: attention with a painted boolean mask';

  constructor() {
    super();
    this.presets = '';
    this.seeds = new SeedControl(this, 'Random draws of Q, K and V');
    this.task = new LabTask(this, {
      args: () => [this.seed, this.allowed],
      run: ([seed, allowed], { engine }) => computeMaskLab(engine, seed, allowed),
      explain: explainCoreError,
    });
  }

  /** The mask as rows of 0/1. */
  get allowed() {
    return maskFor(this.preset, T, this.window, this.mask);
  }

  _onMask(event) {
    event.stopPropagation();
    const { preset, window, mask } = event.detail;
    Object.assign(this, { preset, window: Math.min(window, T - 1), mask });
    this.stateChanged();
  }

  get weightsTitle() {
    return `Attention weights with the painted mask, batch ${this.batch}`;
  }

  describe() {
    return describeMaskLab(this.task.value, this.batch);
  }

  exportObject() {
    const r = this.task.value;
    return {
      seed: this.seed,
      batch: this.batch,
      mask: this.allowed,
      weights: r ? rowsOf(this.shownWeights) : null,
      fullyMaskedRows: r?.fullyMaskedRows ?? null,
    };
  }

  _fullyMasked(r) {
    const f = fullyMasked(r, this.batch);
    if (!f) {
      return html`<p class="note">
        Every row allows at least one key. Block a whole row in the painter to see what happens to a query that may
        attend to nothing.
      </p>`;
    }
    const { rows, row, count, batches } = f;
    const plural = rows.length > 1 ? 's' : '';
    return html`<div class="notice fully-masked" role="note" data-rows=${rows.join(',')} data-count=${count}>
      <p>
        <strong>Fully masked row${plural} ${rows.join(', ')}:</strong> query ${row} may attend to no key. Its scores are
        all ${tex`-\infty`}, and the softmax would divide 0 by 0: the notebook's hand-written attention (and PyTorch's
        own kernel, in older versions) returns NaN there, which then spreads through everything computed from it.
      </p>
      <p>
        This page's attention returns zero weights and a zero output for such a row instead, as current PyTorch does,
        and counts it:
        <span class="mono">fullyMaskedRows = <span class="count">${count}</span></span>
        (${rows.length} row${plural} × ${tex`B = ${batches}`} batches).
      </p>
      <p class="mono">
        weights[${this.batch}, ${row}] =
        <span class="zero-weights" data-values=${f.weights.join(',')}>${vector(f.weights, 3)}</span><br />
        output[${this.batch}, ${row}] =
        <span class="zero-output" data-values=${f.output.join(',')}>${vector(f.output, 3)}</span>
      </p>
      <p>
        Zeros are a convention, not an answer: a query with nothing to look at has nothing to average. Models avoid such
        rows (a causal mask always leaves a position its own key).
      </p>
    </div>`;
  }

  renderFigure() {
    const r = this.task.value;
    const figure = html`<h3>The weights it gives</h3>
      ${
        r
          ? html`${this.weightsHeatmap('Row $i$: query $i$; column $j$: key $j$. Blocked cells are 0.')}
            ${this.readoutLine('weights', this.shownWeights)}`
          : html`<p class="note">Loading the attention core…</p>`
      }`;
    const controls = html`
      <h3>The mask</h3>
      <attn-mask-painter
        label="Mask"
        size=${T}
        no-reset
        presets=${this.presets || MASK_PRESETS.join(',')}
        .size=${T}
        .preset=${this.preset}
        .window=${this.window}
        .mask=${this.mask}
        @mask-change=${this._onMask}
        @attn-state-change=${(e) => e.stopPropagation()}
      ></attn-mask-painter>
      ${this.seeds.render(batchSelect(this, 'mask-batch'))}
    `;
    const checks = checkCells(checksFrom(MASK_CHECKS, r));
    const code = this.codeCell('PyTorch: the painted mask', MASK_CODE, codeParams(r));
    const hood = r
      ? html`<p>
          ${tex`D = ${D}`}; the mask is the same for both batches (it broadcasts over ${tex`B`}). Largest difference
          from the core's float64 reference with the same mask:
          <span class="max-diff mono" data-value=${r.diff}>${sci(r.diff)}</span>.
        </p>`
      : '';
    return this.renderLab({ figure, controls, after: r ? this._fullyMasked(r) : '', checks, code, hood });
  }
}

customElements.define('attn-mask-lab', AttnMaskLab);
