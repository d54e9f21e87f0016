/**
 * <attn-sdpa-steps id="steps" seed="0" batch="0" row="0" step="0">
 *
 * A step-through of scaled dot-product attention for one query row i of the lesson's Q, K, V
 * ((B, T, D) = (2, 5, 8), seeded), in the four passes of the core (core/src/attention.cpp):
 *   1. scores        s_j = q_i · k_j                    (for each key j; kernel qk)
 *   2. scale         s_j / √d_k                         (and the mask, when there is one: none here)
 *   3. softmax       w_j = exp(s_j/√d_k − max) / Σ exp(…), in three steps: the row max,
 *                    exp and sum, normalise
 *   4. weighted sum  y_i = Σ_j w_j v_j                  (kernel pv)
 * The figure: the list of passes (click one, or focus the list and use ← → Home End), what the
 * current pass does, and a table of the numbers of row i pass by pass (later passes' columns stay
 * empty until reached). Directly under it: Previous/Next, the query row, the batch and the seed.
 *
 * Maths in the wasm core (sdpa-model.js computeSdpa): randn; scores with scale = 1 (pass 1);
 * attention with returnWeights and returnLogits (passes 2 to 4: scaled scores, weights,
 * output). JS only picks row i (sdpa-steps-model.js), multiplies w_j by v_j for the display of
 * the terms (y_i itself is the core's) and formats. The view of the row: sdpa-steps-parts.js.
 *
 * State (permalink): seed, batch (0–1), row (0–4), step (0–3). Host attribute data-step mirrors
 * the current pass; data-settled once drawn. Export: the table's numbers (CSV/JSON).
 */
import { html } from 'lit';
import { cellStyles } from '../../cells/base/cell-support.js';
import { cssVariable } from '../../charts/export.js';
import { tableSvgDocument } from '../../charts/table-svg.js';
import { AttnLab } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { SeedControl, seedField } from '../../cells/base/seeds.js';
import { tableStyles, touchTargets } from '../../cells/base/styles.js';
import { vector } from '../common/qkv-lab.js';
import { STEPS_NUMPY } from './sdpa-code.js';
import { B, D, T, computeSdpa } from './sdpa-model.js';
import { PASSES, clampStep, queryRow, stepAfterKey, stepsTable } from './sdpa-steps-model.js';
import { indexSelect } from './sdpa-parts.js';
import { FORMULAS, passExplanation, stepsTableView } from './sdpa-steps-parts.js';
import { stepsStyles } from './sdpa-styles.js';

export class AttnSdpaSteps extends AttnLab {
  static stateFields = {
    seed: seedField(0),
    batch: { type: 'integer', default: 0, min: 0, max: B - 1 },
    row: { type: 'integer', default: 0, min: 0, max: T - 1 },
    step: { type: 'integer', default: 0, min: 0, max: PASSES.length - 1 },
  };

  static styles = [AttnLab.labStyles, cellStyles, tableStyles, touchTargets, stepsStyles];

  defaultLabel = 'Step through the passes of attention for one query row';

  constructor() {
    super();
    this.seeds = new SeedControl(this, 'Random draws of Q, K and V');
    this.task = new LabTask(this, {
      args: () => [this.seed],
      run: ([seed], { engine }) => computeSdpa(engine, seed),
      explain: () => `The example could not be computed for seed ${this.seed}; showing the last one that worked.`,
    });
  }

  updated() {
    this.dataset.step = String(this.step);
  }

  resetView() {
    this.seeds.draft = null;
  }

  _go(step) {
    this.setField('step', clampStep(step));
  }

  _onKey(event) {
    const next = stepAfterKey(this.step, event.key);
    if (next === null) return;
    event.preventDefault();
    this._go(next);
  }

  _row() {
    return this.task.value && queryRow(this.task.value, this.batch, this.row);
  }

  describe() {
    const x = this._row();
    if (!x) return 'Step-through of one query row: not computed yet.';
    return (
      `Query row ${this.row} of batch ${this.batch}, pass ${this.step + 1} of 4 (${PASSES[this.step].name}): ` +
      `scores ${vector(x.scores)}, scaled ${vector(x.scaled)}, weights ${vector(x.weights)}, output ${vector(x.y)}.`
    );
  }

  exportSvgText() {
    return tableSvgDocument({
      ...stepsTable(this._row(), this.step),
      title: `Query row ${this.row} of batch ${this.batch}, pass ${this.step + 1} of 4`,
      colours: {
        text: cssVariable(this, '--text', '#1b1e24'),
        muted: cssVariable(this, '--muted', '#555d6b'),
        border: cssVariable(this, '--border', '#d0d4dc'),
        background: cssVariable(this, '--surface', '#ffffff'),
      },
    });
  }

  exportRows() {
    const x = this._row();
    return [
      ['key j', 'q_i·k_j', 'scaled', 'w_j', ...Array.from({ length: D }, (_, d) => `w_j v_j[${d}]`)],
      ...x.scores.map((s, j) => [j, s, x.scaled[j], x.weights[j], ...x.terms[j]]),
    ];
  }

  exportObject() {
    const x = this._row();
    return { seed: this.seed, batch: this.batch, row: this.row, ...x };
  }

  renderFigure() {
    const s = this.step;
    const x = this._row();
    const passes = html`<ol
      class="passes"
      tabindex="0"
      aria-label="Passes (use the arrow keys to move)"
      @keydown=${this._onKey}
    >
      ${PASSES.map(
        (p, n) =>
          html`<li
            class=${n < s ? 'done' : ''}
            aria-current=${n === s ? 'step' : 'false'}
            data-pass=${p.id}
            @click=${() => this._go(n)}
          >
            ${n + 1}. ${p.name}
          </li>`,
      )}
    </ol>`;
    const controls = html`<div class="controls" role="group" aria-label="Move between the passes">
        <button type="button" class="previous" ?disabled=${s === 0} @click=${() => this._go(s - 1)}>← Previous</button>
        <button type="button" class="next" ?disabled=${s === PASSES.length - 1} @click=${() => this._go(s + 1)}>
          Next →
        </button>
        ${indexSelect(this, { id: 'row', field: 'row', label: 'Query row $i$', count: T })}
        ${indexSelect(this, { id: 'steps-batch', field: 'batch', label: 'Batch $b$', count: B })}
        <span class="mono current-pass" aria-live="polite" data-pass=${PASSES[s].id}
          >Pass ${s + 1} of ${PASSES.length}: ${FORMULAS[PASSES[s].id]}</span
        >
      </div>
      ${this.seeds.render()}`;
    const figure = x
      ? html`${passes}
          <p class="explain">${passExplanation(x, this.step, this.row)}</p>
          ${stepsTableView(x, this)}`
      : html`${passes}
          <p class="note">Loading the attention core…</p>`;
    return this.renderLab({
      figure,
      after: controls,
      code: html`<attn-code
        label="The four passes in NumPy"
        .template=${STEPS_NUMPY}
        .params=${{ batch: this.batch, row: this.row }}
      ></attn-code>`,
    });
  }
}

customElements.define('attn-sdpa-steps', AttnSdpaSteps);
