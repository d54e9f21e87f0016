/**
 * <attn-scaling-curves d="128" draws="1000" tokens="5" seed="0">
 *
 * Why attention divides by √d_k: for each d in 1, 2, 4, …, 512, `draws` random queries q (d) and
 * keys K (tokens, d) with standard-normal entries; the weights softmax(q·k_j) (unscaled) and
 * softmax(q·k_j/√d) (scaled) are summarised by their mean largest weight and mean entropy, drawn
 * as two line charts against d (log axis). Computed in the wasm core (engine.scalingStatistics)
 * in the page's Web Worker (scaling-curves-model.js). Beside the charts: D on a log₂ slider
 * (powers of two; a link's other value is kept and computed too), which moves a marker and the
 * readout, the number of draws and of keys, the seed.
 * Verified: at D = 128 unscaled weights are near one-hot, far above the scaled ones, and the
 * scaled statistics are those of D = 8 (the notebook's size).
 *
 * State (permalink): d (1–512), draws (100–20000), tokens (2–64), seed. An AttnLab: Reset,
 * Export, data-settled once the curves are drawn, data-computed-in="worker" | "main-thread".
 */
import { css, html } from 'lit';
import { live } from 'lit/directives/live.js';
import { fieldErrorStyles, readWholeNumber } from '../../cells/base/cell-support.js';
import { AttnLab } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { SeedControl, seedField } from '../../cells/base/seeds.js';
import { sizeSlider, sizeSliderStyles } from '../../cells/base/size-slider.js';
import { lineChartStyles } from '../../cells/base/styles.js';
import { svgDocument } from '../../charts/export.js';
import '../../charts/attn-line-chart.js';
import {
  CHECKS,
  checkValues,
  computeCurves,
  CURVES_CODE,
  curvesObject,
  curvesRows,
  describeCurves,
  DIMS,
  drawnDims,
  explainCurves,
  SERIES,
  THRESHOLDS,
} from './scaling-curves-model.js';

export { DIMS, THRESHOLDS };

const NUMBER_FIELDS = { draws: 'Random draws', tokens: 'Keys per query' };

export class AttnScalingCurves extends AttnLab {
  static stateFields = {
    d: { type: 'integer', default: 128, min: 1, max: 512 },
    draws: { type: 'integer', default: 1000, min: 100, max: 20000 },
    tokens: { type: 'integer', default: 5, min: 2, max: 64 },
    seed: seedField(0),
  };

  static properties = { ...super.properties, _drafts: { state: true } };

  static styles = [
    AttnLab.labStyles,
    lineChartStyles,
    sizeSliderStyles,
    fieldErrorStyles,
    css`
      .fields {
        display: grid;
        grid-template-columns: max-content minmax(5rem, 8rem);
        align-items: center;
        gap: 0.4rem 0.75rem;
        margin: 0.5rem 0;
      }
      .fields .field-error {
        grid-column: 1 / -1;
      }
      .fields input {
        min-height: 2.75rem;
        box-sizing: border-box;
      }
      .readout {
        white-space: normal;
      }
    `,
  ];

  defaultLabel = 'Mean max-weight and entropy of softmax(q·k) against d, scaled and unscaled';

  constructor() {
    super();
    this._drafts = {}; // field -> { text, error } while a number field holds bad text
    this.seeds = new SeedControl(this, 'Random draws of queries and keys');
    this.task = new LabTask(this, {
      engine: 'worker',
      args: () => [this.d, this.draws, this.tokens, this.seed],
      run: ([d, draws, tokens, seed], { engine }) => computeCurves(engine, this.task.value, { d, draws, tokens, seed }),
      explain: explainCurves,
    });
  }

  get state() {
    return { d: this.d, draws: this.draws, tokens: this.tokens, seed: this.seed };
  }

  _setD(d) {
    this.beginEdit();
    this.d = d;
    this.stateChanged();
  }

  /** Reset also drops bad text left in the number fields. */
  resetView() {
    this._drafts = {};
  }

  _onNumber(field, event) {
    const spec = this.constructor.stateFields[field];
    const { value, error } = readWholeNumber(event.target, spec);
    if (error) {
      // shown beside the field; the curves keep the last valid value
      const reason = `${NUMBER_FIELDS[field]} ${error}; a whole number from ${spec.min} to ${spec.max}, keeping ${this[field]}.`;
      this._drafts = { ...this._drafts, [field]: { text: event.target.value, error: reason } };
      return;
    }
    this._drafts = { ...this._drafts, [field]: undefined };
    this.beginEdit();
    this[field] = value;
    this.stateChanged();
  }

  describe() {
    return describeCurves(this.task.value, this.state);
  }

  exportSvgText() {
    return svgDocument(this.renderRoot.querySelector('.chart-max').svg);
  }

  exportRows() {
    return curvesRows(this.task.value, this.d);
  }

  exportObject() {
    return curvesObject(this.task.value, this.state);
  }

  _numberField(field, { step = 1 } = {}) {
    const spec = this.constructor.stateFields[field];
    const draft = this._drafts[field];
    return html`<label for=${field}>${NUMBER_FIELDS[field]}</label>
      <input
        id=${field}
        type="number"
        min=${spec.min}
        max=${spec.max}
        step=${step}
        .value=${live(draft?.text ?? String(this[field]))}
        aria-invalid=${draft ? 'true' : 'false'}
        aria-describedby=${draft ? `${field}-error` : ''}
        @change=${(e) => this._onNumber(field, e)}
      />
      ${draft ? html`<p class="field-error" id=${`${field}-error`}>${draft.error}</p>` : ''}`;
  }

  renderFigure() {
    const a = this.task.value?.byDim.get(this.d);
    const values = checkValues(this.task.value);
    const s = this.task.value;
    const dims = s ? drawnDims(s, this.d) : [];
    const pick = (field) => dims.map((d) => [d, s.byDim.get(d)[field]]);
    const chart = (kind, label, yLabel, yDomain, fields) =>
      html`<attn-line-chart
        class=${`chart-${kind}`}
        label=${label}
        x-label="d (dimension of q and k)"
        y-label=${yLabel}
        x-log
        .xDomain=${[1, 512]}
        .yDomain=${yDomain}
        .series=${SERIES}
        .data=${s ? fields.map(pick) : []}
        .marker=${this.d}
      ></attn-line-chart>`;
    const figure = html`${chart('max', 'Mean largest weight against d', 'mean largest weight', [0, 1], ['maxU', 'maxS'])}
    ${chart('entropy', 'Mean entropy (nats) against d', 'mean entropy (nats)', [0, Math.ceil(Math.log(s?.tokens ?? this.tokens) * 2) / 2], ['entU', 'entS'])}`;
    const controls = html`
      ${sizeSlider({ id: 'd', label: 'D (dimension)', symbol: 'D', value: this.d, min: 1, max: 512, onChange: (d) => this._setD(d) })}
      <p class="readout" data-d=${this.d}>
        ${
          a
            ? html`At D = ${this.d}, unscaled: largest weight
                <span class="mono max-unscaled" data-value=${a.maxU}>${a.maxU.toFixed(3)}</span>, entropy
                <span class="mono">${a.entU.toFixed(3)}</span> nats. Scaled: largest weight
                <span class="mono max-scaled" data-value=${a.maxS}>${a.maxS.toFixed(3)}</span>, entropy
                <span class="mono">${a.entS.toFixed(3)}</span> nats. Uniform weights would give
                ${(1 / this.tokens).toFixed(3)} and ${Math.log(this.tokens).toFixed(3)}.`
            : 'Computing…'
        }
      </p>
      <div class="fields">${this._numberField('draws', { step: 100 })} ${this._numberField('tokens')}</div>
      ${this.seeds.render()}
      <p class="note where">${this.task.where}</p>
    `;
    const checks = CHECKS.map(
      (c, i) =>
        html`<attn-check
          label=${c.label}
          threshold=${c.threshold}
          comparison=${c.comparison}
          python=${c.python}
          .value=${values[i]}
        ></attn-check>`,
    );
    const code = html`<attn-code
      label="NumPy: the same experiment"
      .template=${CURVES_CODE}
      .params=${{ seed: this.seed, draws: this.draws, tokens: this.tokens }}
    ></attn-code>`;
    const hood = html`<p>
      Every point is the core's scalingStatistics: for each d it draws the queries and keys from its seeded generator
      (each d its own stream, so adding a D between two powers of two leaves the others unchanged), takes the softmax of
      the dot products with and without the 1/√d, and averages the largest weight and the entropy over the draws, all in
      the page's Web Worker. Changing D only adds the D not yet computed; draws, keys or the seed start every curve
      afresh.
    </p>`;
    return this.renderLab({ figure, controls, checks, code, hood });
  }
}

customElements.define('attn-scaling-curves', AttnScalingCurves);
