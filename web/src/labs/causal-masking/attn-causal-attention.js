/**
 * <attn-causal-attention id="causal" seed="0" batch="0">
 *
 * The causal-masking example of "Lesson 44: The Attention Mechanism" (§ Causal masking) on the
 * lesson's Q, K, V ((B, T, D) = (2, 5, 8), seeded): attention with the causal mask (query i sees
 * keys j ≤ i, counted from 0). The figure: its weights as a heatmap. Beside it: the seed (Seed,
 * Re-roll, Reset), the batch shown, and the weight position 0 puts on the future.
 * Verified (one line, opens on demand or when a check fails), the notebook's two checks and one
 * more: the total weight from position 0 onto positions 1 … 4 over both batches is exactly 0;
 * every weight above the diagonal is exactly 0; the causal path agrees with the float64
 * reference run with the explicit tril mask (max |difference| ≤ 1e-6; the notebook reports
 * 1.19e-07 against PyTorch). The PyTorch code with this page's Q, K, V. Under the hood: the
 * notebook's printout and both causal paths' differences from the reference.
 *
 * Maths in the wasm core (randn, attention, attentionReference); the model
 * (causal-attention-model.js) adds up and compares.
 *
 * State (permalink): seed, batch (which batch the heatmap shows). An AttnLab: Reset, Export
 * (the heatmap as SVG/PNG, the weights as CSV, everything as JSON), data-settled once drawn.
 */
import { html } from 'lit';
import { LabTask } from '../../cells/base/lab-task.js';
import { tex } from '../../cells/base/math.js';
import { SeedControl, seedField } from '../../cells/base/seeds.js';
import { B, batchSelect, rowsOf, sci } from '../common/qkv-lab.js';
import { checkCells } from '../../cells/base/lab.js';
import { CausalLab } from './causal-lab.js';
import { CAUSAL_CHECKS, causalPrintout, computeCausal, describeCausal } from './causal-attention-model.js';
import { CAUSAL_CODE, CAUSAL_PLOT_CODE, codeParams } from './causal-masking-code.js';
import { checksFrom, explainCoreError } from './masks-model.js';

export class AttnCausalAttention extends CausalLab {
  static stateFields = {
    seed: seedField(0),
    batch: { type: 'integer', default: 0, min: 0, max: B - 1 },
  };

  static styles = CausalLab.causalStyles;

  defaultLabel = 'Causal attention: the weights with the causal mask';

  constructor() {
    super();
    this.seeds = new SeedControl(this, 'Random draws of Q, K and V');
    this.task = new LabTask(this, {
      args: () => [this.seed],
      run: ([seed], { engine }) => computeCausal(engine, seed),
      explain: explainCoreError,
    });
  }

  get weightsTitle() {
    return `Causal attention weights, batch ${this.batch}`;
  }

  describe() {
    return describeCausal(this.task.value, this.batch);
  }

  exportObject() {
    const r = this.task.value;
    return {
      seed: this.seed,
      batch: this.batch,
      weights: r ? rowsOf(this.shownWeights) : null,
      futureWeight: r?.future ?? null,
      maxDifferenceFromReference: r?.diff ?? null,
    };
  }

  renderFigure() {
    const r = this.task.value;
    const figure = r
      ? this.weightsHeatmap('Row $i$: query position $i$; column $j$: key position $j$. The upper triangle is 0.')
      : html`<p class="note">Loading the attention core…</p>`;
    const controls = html`
      ${this.seeds.render(batchSelect(this, 'causal-batch'))} ${r ? this.readoutLine('weights', this.shownWeights) : ''}
      ${
        r
          ? html`<p class="stat">
              Weight from position 0 onto the future (positions 1 to 4, both batches):
              <strong class="future mono" data-value=${r.future}>${r.future.toFixed(6)}</strong>
            </p>`
          : ''
      }
      <p class="hint">
        Row ${tex`i`} may use keys 0 to ${tex`i`}: row 0 only itself, row 4 all five. Re-roll draws new ${tex`Q`},
        ${tex`K`} and ${tex`V`}; the triangle stays.
      </p>
    `;
    const checks = checkCells(checksFrom(CAUSAL_CHECKS, r));
    const code = html`${this.codeCell('PyTorch: the tril mask against is_causal=True', CAUSAL_CODE, codeParams(r))}
    ${this.codeCell('The heatmap with Matplotlib (after the cell above)', CAUSAL_PLOT_CODE, { batch: this.batch ?? 0 })}`;
    const hood = r
      ? html`<p>
            The core's float64 reference applies the tril mask explicitly. Largest difference from it:
            <span class="max-diff mono" data-value=${r.diff}>${sci(r.diff)}</span> (the fused causal kernel
            ${sci(r.diffFused)}, the kernel that keeps the weights ${sci(r.diffWeights)}; the check takes the larger).
          </p>
          <attn-output
            label="The notebook's printout, with this page's numbers"
            .text=${causalPrintout(r)}
          ></attn-output>`
      : '';
    return this.renderLab({ figure, controls, checks, code, hood });
  }
}

customElements.define('attn-causal-attention', AttnCausalAttention);
