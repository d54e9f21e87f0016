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
 * output). JS only picks row i, multiplies w_j by v_j for the display of the terms (y_i itself is
 * the core's) and formats.
 *
 * State (permalink): seed, batch (0–1), row (0–4), step (0–3). Host attribute data-step mirrors
 * the current pass; data-settled once drawn. Export: the table's numbers (CSV/JSON).
 */
import { css, html } from 'lit';
import { cellStyles } from '../../cells/base/cell-support.js';
import { cssVariable } from '../../charts/export.js';
import { tableSvgDocument } from '../../charts/table-svg.js';
import { AttnLab } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { mathText, tex } from '../../cells/base/math.js';
import { SeedControl, seedField } from '../../cells/base/seeds.js';
import { tableStyles, touchTargets } from '../../cells/base/styles.js';
import { fixed, vector } from '../common/qkv-lab.js';
import { STEPS_NUMPY } from './sdpa-code.js';
import {
  B,
  D,
  PASSES,
  STEP_HEADS,
  T,
  clampStep,
  computeSdpa,
  queryRow,
  stepAfterKey,
  stepsTable,
} from './sdpa-model.js';
import { indexSelect } from './sdpa-parts.js';

const FORMULAS = {
  scores: tex`s_j = q_i \cdot k_j`,
  scale: tex`s_j / \sqrt{d_k}`,
  softmax: tex`w_j = \operatorname{softmax}(s / \sqrt{d_k})_j`,
  sum: tex`y_i = \sum_j w_j v_j`,
};

export class AttnSdpaSteps extends AttnLab {
  static stateFields = {
    seed: seedField(0),
    batch: { type: 'integer', default: 0, min: 0, max: B - 1 },
    row: { type: 'integer', default: 0, min: 0, max: T - 1 },
    step: { type: 'integer', default: 0, min: 0, max: PASSES.length - 1 },
  };

  static styles = [
    AttnLab.labStyles,
    cellStyles,
    tableStyles,
    touchTargets,
    css`
      ol.passes {
        display: flex;
        flex-wrap: wrap;
        gap: 0.35rem;
        list-style: none;
        padding: 0.2rem;
        margin: 0 0 0.5rem;
        border-radius: 6px;
      }
      ol.passes:focus-visible {
        outline: 2px solid var(--accent, #3b5bdb);
        outline-offset: 2px;
      }
      ol.passes li {
        display: flex;
        align-items: center;
        min-height: 2.75rem;
        border: 1px solid var(--border, #d0d4dc);
        border-radius: 999px;
        padding: 0 0.8rem;
        font-size: 0.9rem;
        color: var(--muted, #555d6b);
        cursor: pointer;
      }
      ol.passes li.done {
        color: var(--text, #1b1e24);
      }
      ol.passes li[aria-current='step'] {
        border-color: var(--accent, #3b5bdb);
        background: color-mix(in srgb, var(--accent, #3b5bdb) 16%, transparent);
        color: var(--text, #1b1e24);
        font-weight: 600;
      }
      table.steps td {
        white-space: nowrap;
      }
      table.steps tfoot th,
      table.steps tfoot td {
        border-top: 1px solid var(--border, #d0d4dc);
        font-weight: 600;
      }
      table.steps .current {
        background: color-mix(in srgb, var(--accent, #3b5bdb) 12%, transparent);
      }
      table.steps .pending {
        color: var(--muted, #555d6b);
      }
      .explain {
        margin: 0.25rem 0 0.5rem;
        min-height: 3em;
      }
      .current-pass {
        flex-basis: 100%;
      }
    `,
  ];

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

  _explain(x) {
    const i = this.row;
    switch (this.step) {
      case 0:
        return html`Pass 1, scores: query ${tex`q_{${i}}`} = ${vector(x.q, 2)} is dotted with each key ${tex`k_j`}, one
        score per key. A large score means ${tex`q_{${i}}`} and ${tex`k_j`} point the same way.`;
      case 1:
        return html`Pass 2, scale: each score is divided by
        ${tex`\sqrt{d_k} = \sqrt{${D}} \approx ${fixed(Math.sqrt(D), 4)}`} (a mask, when there is one, is added here;
        this example has none). The order of the scores does not change; their spread shrinks, so the softmax that
        follows is not pushed to one key.`;
      case 2:
        return html`Pass 3, softmax of the scaled scores, in three steps: the row's largest score (${fixed(x.max, 4)});
        the exponential of each score minus it (so nothing overflows) and their sum; each exponential divided by the
        sum. The weights are non-negative and add up to ${fixed(x.weightSum, 6)}; key ${x.best} gets the most.`;
      default:
        return html`Pass 4, weighted sum: the output row ${tex`y_{${i}}`} is the sum of the value rows ${tex`v_j`}, each
        scaled by its weight ${tex`w_j`}: a weighted average of the values, ${tex`D = ${D}`} numbers.`;
    }
  }

  _cell(pass, value) {
    const s = this.step;
    const id = PASSES[pass].id;
    if (pass > s) return html`<td class="pending" data-pass=${id}>·</td>`;
    return html`<td class=${pass === s ? 'current' : ''} data-pass=${id} data-value=${value}>${fixed(value, 4)}</td>`;
  }

  _table(x) {
    const s = this.step;
    const head = (pass, content) => html`<th scope="col" class=${s === pass ? 'current' : ''}>${content}</th>`;
    return html`<div class="scroll" tabindex="0" role="region" aria-label="The numbers of the query row, pass by pass">
        <table class="steps mono">
          <caption class="visually-hidden">
            ${`Query row ${this.row} of batch ${this.batch}, passes 1 to ${s + 1}`}
          </caption>
          <thead>
            <tr>
              <th scope="col">key&nbsp;${tex`j`}</th>
              ${STEP_HEADS.map((text, pass) => head(pass, mathText(text)))}
            </tr>
          </thead>
          <tbody>
            ${x.scores.map(
              (_, j) =>
                html`<tr>
                  <th scope="row">${j}</th>
                  ${this._cell(0, x.scores[j])} ${this._cell(1, x.scaled[j])} ${this._cell(2, x.weights[j])}
                  ${
                    s < 3
                      ? html`<td class="pending">·</td>`
                      : html`<td class="current" data-pass="sum">${vector(x.terms[j], 2)}</td>`
                  }
                </tr>`,
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">${tex`\sum`}</th>
              <td></td>
              <td></td>
              ${
                s < 2
                  ? html`<td class="pending">·</td>`
                  : html`<td class="weight-sum" data-value=${x.weightSum}>${fixed(x.weightSum, 4)}</td>`
              }
              ${s < 3 ? html`<td class="pending">·</td>` : html`<td class="current">${tex`y_{${this.row}}`} ↓</td>`}
            </tr>
          </tfoot>
        </table>
      </div>
      ${
        s === 3
          ? html`<p class="mono y-row" data-values=${x.y.join(',')}>
              ${tex`y_{${this.row}} = \sum_j w_j v_j =`} ${vector(x.y, 4)}
            </p>`
          : ''
      }`;
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
          <p class="explain">${this._explain(x)}</p>
          ${this._table(x)}`
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
