/**
 * <attn-sdpa id="sdpa" seed="0" batch="0">
 *
 * The lab of the scaled-dot-product lesson ("Lesson 44: The Attention Mechanism", § Queries,
 * keys, and values): Q, K, V of shape (B, T, D) = (2, 5, 8) from the core's seeded generator, and
 *
 *   Attention(Q, K, V) = softmax(QKᵀ / √d_k) V
 *
 * written out with each term linked to the figure that shows it: hovering or focusing QKᵀ
 * outlines the scores heatmap (and Q and K), √d_k the scaled scores, softmax the weights, V the
 * values and the left-hand side the output. The formula, the Seed row and the batch choice form
 * one bar at the top of the lab, which stays in view (sticky, on screens tall enough) while the
 * figures below it scroll. The nested figures have no toolbars of their own (attn-matrix compact,
 * attn-heatmap bare, with its colour legend): the lab has one Export menu.
 *
 * The output is computed two ways (sdpa-model.js), and the summary line names both differences
 * from the double-precision result: "in one pass (the weights are never stored)" and "step by
 * step (the weights are kept)". Verified (one line): the output shape (2, 5, 8); every weight row
 * sums to 1; each of the two ways within 1e-6 of the double-precision result (the notebook
 * reports 2.38e-07 against PyTorch). Code cells: the notebook's formula against
 * F.scaled_dot_product_attention, in PyTorch and NumPy, with this page's Q, K, V. Under the hood:
 * the kernels' names and the notebook-style printout.
 *
 * State (permalink): seed (whole number), batch (0 or 1: which batch the figures show). Re-roll
 * draws a new seed; Reset goes back to the authored state. data-settled once drawn.
 */
import { html, nothing } from 'lit';
import { cellStyles } from '../../cells/base/cell-support.js';
import { AttnLab, checkCells } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { mathText, tex } from '../../cells/base/math.js';
import { SeedControl, seedField } from '../../cells/base/seeds.js';
import { touchTargets } from '../../cells/base/styles.js';
import { batchOf, rowsOf } from '../common/qkv-lab.js';
import { SDPA_NUMPY, SDPA_TORCH } from './sdpa-code.js';
import {
  B,
  DIMS,
  PANELS,
  POSITIONS,
  TERMS,
  codeParams,
  computeSdpa,
  describeSdpa,
  gapText,
  litPanels,
  referenceGaps,
  sdpaObject,
  sdpaPrintout,
  sdpaChecks,
  sdpaRows,
} from './sdpa-model.js';
import { indexSelect } from './sdpa-parts.js';
import { sdpaStyles } from './sdpa-styles.js';

/** The figures in three groups, as the formula reads: inputs, scores to weights, values to output. */
const GROUPS = [
  { title: 'The inputs', panels: ['q', 'k'], wide: true },
  { title: 'Scores, scaled scores and weights', panels: ['scores', 'scaled', 'weights'], wide: false },
  { title: 'Values and output', panels: ['v', 'out'], wide: true },
];

export class AttnSdpa extends AttnLab {
  static stateFields = {
    seed: seedField(0),
    batch: { type: 'integer', default: 0, min: 0, max: B - 1 },
  };

  static properties = { ...super.properties, _term: { state: true } };

  static styles = [AttnLab.labStyles, cellStyles, touchTargets, sdpaStyles];

  defaultLabel = 'Scaled dot-product attention lab';

  constructor() {
    super();
    this._term = '';
    this.seeds = new SeedControl(this, 'Random draws of Q, K and V');
    this.task = new LabTask(this, {
      args: () => [this.seed],
      run: ([seed], { engine }) => computeSdpa(engine, seed),
      explain: () => `The example could not be computed for seed ${this.seed}; showing the last one that worked.`,
    });
  }

  resetView() {
    this._term = '';
    this.seeds.draft = null;
  }

  describe() {
    return describeSdpa(this.task.value, this.batch);
  }

  exportSvgText() {
    return this.renderRoot.querySelector('[data-panel="weights"] attn-heatmap').exportSvgText();
  }

  exportRows() {
    return sdpaRows(this.task.value, this.batch);
  }

  exportObject() {
    return sdpaObject(this.task.value);
  }

  _termButton(name, content, extra = '') {
    return html`<button
      type="button"
      class=${`term ${extra} ${this._term === name ? 'active' : ''}`}
      data-term=${name}
      aria-describedby="term-text"
      @mouseenter=${() => (this._term = name)}
      @mouseleave=${() => (this._term = '')}
      @focus=${() => (this._term = name)}
      @blur=${() => (this._term = '')}
    >
      ${content}
    </button>`;
  }

  _formula() {
    // display maths, each term a button; on a phone it breaks after "=" instead of scrolling
    return html`<p
        class="formula math"
        role="group"
        aria-label="Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V, term by term"
      >
        <span class="half"
          >${this._termButton('out', tex`\operatorname{Attention}(Q, K, V)`)}<span class="mo rel">=</span></span
        >
        <span class="half"
          >${this._termButton('softmax', tex`\operatorname{softmax}`, 'fn')}<span class="mo open fence">(</span
          ><span class="mfrac"
            ><span class="num">${this._termButton('scores', tex`QK^\top`)}</span
            ><span class="den">${this._termButton('scale', tex`\sqrt{d_k}`)}</span></span
          ><span class="mo close fence">)</span>${this._termButton('v', tex`V`)}</span
        >
      </p>
      <p class="note term-text" id="term-text" aria-live="polite">
        ${TERMS[this._term] ? mathText(TERMS[this._term].text) : 'Hover over a term of the formula, or focus it with Tab, to see where it is in the figures below.'}
      </p>`;
  }

  _panel(id, r) {
    const panel = PANELS.find((p) => p.id === id);
    const b = this.batch;
    const view = batchOf(r[panel.tensor], b);
    const lit = litPanels(this._term).includes(id);
    const figure =
      panel.kind === 'matrix'
        ? html`<attn-matrix
            compact
            label=${`${panel.name}, batch ${b} (T × D)`}
            caption=${`${panel.name}. ${panel.caption}`}
            precision=${id === 'out' ? 3 : 2}
            row-labels=${POSITIONS.join(',')}
            col-labels=${DIMS.join(',')}
            .values=${rowsOf(view)}
          ></attn-matrix>`
        : html`<attn-heatmap
            bare
            label=${`${panel.name}, batch ${b}`}
            caption=${`${panel.name}. ${panel.caption}`}
            min=${id === 'weights' ? '0' : nothing}
            max=${id === 'weights' ? '1' : nothing}
            row-labels=${POSITIONS.join(',')}
            col-labels=${POSITIONS.join(',')}
            .values=${view}
          ></attn-heatmap>`;
    return html`<div class=${lit ? 'panel linked' : 'panel'} data-panel=${id}>${figure}</div>`;
  }

  _gaps(r) {
    return html`<p class="gaps-intro">
        The page computes the output in single precision two ways, and compares each with the same formula computed in
        double precision. Largest difference:
      </p>
      <ul class="gaps">
        ${referenceGaps(r).map(
          (gap, n) =>
            html`<li>
              <span class=${`gap mono ${n === 0 ? 'max-diff' : ''}`} data-way=${gap.id} data-value=${gap.value}
                >${gapText(gap.value)}</span
              >
              ${gap.name}
            </li>`,
        )}
      </ul>
      <p class="note">Both are rounding in the last digits of single precision (about 7 digits), nothing more.</p>`;
  }

  renderFigure() {
    const r = this.task.value;
    const controls = this.seeds.render(
      indexSelect(this, { id: 'batch', field: 'batch', label: 'Batch $b$', count: B }),
    );
    const bar = html`<div class="bar">${this._formula()} ${controls}</div>
      <p class="note">
        Q, K and V: (B, T, D) = (2, 5, 8) numbers drawn at random (seed ${this.seed}), rounded to 4 decimals. The
        figures show batch b = ${this.batch}.
      </p>`;
    if (!r)
      return this.renderLab({
        figure: html`${bar}
          <p class="note">Loading the attention core…</p>`,
      });
    const groups = GROUPS.map(
      (g) =>
        html`<h3>${g.title}</h3>
          <div class=${g.wide ? 'pair wide' : 'pair'}>${g.panels.map((id) => this._panel(id, r))}</div>`,
    );
    const params = codeParams(r);
    return this.renderLab({
      figure: html`${bar}${groups}`,
      after: this._gaps(r),
      checks: checkCells(sdpaChecks(r)),
      code: html`<attn-code
          label="PyTorch: the formula against F.scaled_dot_product_attention"
          .template=${SDPA_TORCH}
          .params=${params}
        ></attn-code>
        <attn-code label="NumPy" .template=${SDPA_NUMPY} .params=${params}></attn-code>`,
      hood: html`<p>
          This page runs
          ${
            r.build === 'js'
              ? 'the JS core (the scalar build compiled to JavaScript by wasm2js, as this page refuses WebAssembly)'
              : `the WebAssembly ${r.simd ? 'SIMD128' : 'scalar (this browser has no SIMD)'} build of the core`
          }
          in float32. “In one pass” is its fused kernel, as PyTorch's F.scaled_dot_product_attention: it streams over
          the keys with a running maximum and sum (an online softmax) and never stores the T × T weights. “Step by step”
          is the kernel that also returns the scores and weights. Both are compared with the core's float64 scalar
          reference on the same float32 inputs. The notebook compares its formula with PyTorch's kernel and finds
          2.38e-07.
        </p>
        <attn-output label="Output" .text=${sdpaPrintout(r)}></attn-output>`,
    });
  }
}

customElements.define('attn-sdpa', AttnSdpa);
