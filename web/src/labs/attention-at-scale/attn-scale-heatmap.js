/**
 * <attn-scale-heatmap t="256" mask="causal" window="8" seed="0" scale="linear">
 *
 * The full attention weights of one head at sequence length T (8 … 4,096), E = 64, random q, k, v
 * (seeded), with no mask, the causal mask or a two-sided local window (|i − j| ≤ w), drawn by
 * attn-heatmap (numbers in the cells while they are large enough, a canvas with a magnifier
 * beyond 32 × 32; colours span [0, 1] up to 32 × 32 and [0, largest weight] beyond, on a linear or
 * a log scale: on the log scale a thin band of small weights, the local window at T = 4,096,
 * stands out). Computed in the page's Web Worker (scale-heatmap-model.js). Beside it: T and w on
 * log₂ sliders, the mask, the colour scale, and the bytes the weights take, T·T·4.
 * Verified: the weight that fell on masked keys is exactly 0.
 *
 * State (permalink): t (8–4096, a power of two), mask (none | causal | window), window (1–512),
 * seed, scale (linear | log). An AttnLab: Reset, Export, data-settled once drawn, data-t the T
 * shown, data-computed-in="worker" | "main-thread".
 */
import { css, html } from 'lit';
import { AttnLab } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { tex } from '../../cells/base/math.js';
import { seedField } from '../../cells/base/seeds.js';
import { sizeSlider, sizeSliderStyles } from '../../cells/base/size-slider.js';
import { COLOR_SCALES } from '../../charts/color-scale.js';
import { lengthSlider } from './length-slider.js';
import { formatBytes, weightsBytes } from './memory-model.js';
import {
  computeScaleHeatmap,
  describeScaleHeatmap,
  explainHeatmap,
  HEATMAP_CODE,
  HEATMAP_SIZES,
  heatmapRows,
  MASKS,
} from './scale-heatmap-model.js';

export { HEATMAP_SIZES };

/** What the heatmap holds, hidden, until the first weights arrive. */
const PENDING = [[0]];
const MASK_LABELS = { none: 'none (every key)', causal: 'causal (j ≤ i)', window: 'local window (|i − j| ≤ w)' };
const SCALE_LABELS = { linear: 'linear', log: 'log (small weights show)' };

export class AttnScaleHeatmap extends AttnLab {
  static stateFields = {
    t: { type: 'enum', default: '256', values: HEATMAP_SIZES.map(String) },
    mask: { type: 'enum', default: 'causal', values: MASKS },
    window: { type: 'integer', default: 8, min: 1, max: 512 },
    seed: seedField(0),
    scale: { type: 'enum', default: 'linear', values: COLOR_SCALES },
  };

  static styles = [
    AttnLab.labStyles,
    sizeSliderStyles,
    css`
      attn-heatmap {
        margin: 0;
      }
      attn-heatmap.pending {
        visibility: hidden;
        position: absolute;
      }
      fieldset {
        border: 0;
        padding: 0;
        margin: 0.25rem 0 0.5rem;
      }
      legend {
        padding: 0;
        margin-bottom: 0.2rem;
      }
      .choice {
        display: flex;
        align-items: center;
        gap: 0.4rem;
        min-height: 2.75rem;
        cursor: pointer;
      }
      .choice input {
        width: 1.1rem;
        height: 1.1rem;
        margin: 0;
        accent-color: var(--accent, #3b5bdb);
      }
      .readout {
        white-space: normal;
      }
    `,
  ];

  defaultLabel = 'Attention weights at sequence length T';

  constructor() {
    super();
    this.task = new LabTask(this, {
      engine: 'worker',
      args: () => [this.T, this.mask, this.window, this.seed],
      run: ([T, mask, window, seed], { engine }) => computeScaleHeatmap(engine, { T, mask, window, seed }),
      explain: explainHeatmap,
    });
  }

  get T() {
    return Number(this.t);
  }

  updated() {
    const r = this.task.value;
    if (r) this.dataset.t = String(r.T);
  }

  _set(field, value) {
    if (value === this[field]) return;
    this.beginEdit();
    this[field] = value;
    this.stateChanged();
  }

  describe() {
    return describeScaleHeatmap(this.task.value, this.scale);
  }

  exportSvgText() {
    return this.renderRoot.querySelector('attn-heatmap').exportSvgText();
  }

  exportRows() {
    return heatmapRows(this.task.value);
  }

  exportObject() {
    const r = this.task.value;
    return { ...this.getState(), weightsBytes: r ? weightsBytes(r.T) : null, heapBytes: r?.heapBytes ?? null };
  }

  _radios(field, values, labels, legend) {
    return html`<fieldset>
      <legend>${legend}</legend>
      ${values.map(
        (value) =>
          html`<label class="choice"
            ><input
              type="radio"
              name=${field}
              value=${value}
              .checked=${this[field] === value}
              @change=${() => this._set(field, value)}
            />${labels[value]}</label
          >`,
      )}
    </fieldset>`;
  }

  renderFigure() {
    const r = this.task.value;
    // The heatmap element is there from the start (hidden until the first weights arrive), so a
    // reader who scrolls past before the worker answers still finds it drawn on the way back.
    const figure = html`<attn-heatmap
        bare
        class=${r ? '' : 'pending'}
        label=${r ? `Attention weights, T = ${r.T}, mask: ${r.mask}` : 'Attention weights'}
        .values=${r ? r.weights : PENDING}
        .min=${0}
        .max=${!r || r.T <= 32 ? 1 : null}
        .scale=${this.scale}
      ></attn-heatmap>
      ${r ? '' : html`<p class="readout">Computing…</p>`}`;
    const controls = html`
      ${lengthSlider(HEATMAP_SIZES, this.T, (T) => this._set('t', String(T)))}
      <label for="mask">Mask</label>
      <select id="mask" .value=${this.mask} @change=${(e) => this._set('mask', e.target.value)}>
        ${MASKS.map((m) => html`<option value=${m} ?selected=${this.mask === m}>${MASK_LABELS[m]}</option>`)}
      </select>
      ${
        this.mask === 'window'
          ? sizeSlider({
              id: 'w',
              label: 'Window $w$',
              symbol: 'w',
              value: this.window,
              min: 1,
              max: 512,
              onChange: (w) => this._set('window', w),
            })
          : ''
      }
      ${this._radios('scale', COLOR_SCALES, SCALE_LABELS, 'Colour scale')}
      ${
        r
          ? html`<p class="readout memory">
              The weights: ${r.T} × ${r.T} × 4 bytes =
              <span class="mono weights-bytes" data-value=${weightsBytes(r.T)}>${formatBytes(weightsBytes(r.T))}</span>,
              computed in ${r.ms.toFixed(0)} ms.
            </p>`
          : ''
      }
      <p class="note where">${this.task.where}</p>
    `;
    const checks = html`<attn-check
      label="total weight on masked keys"
      threshold="0"
      comparison="eq"
      python="(weights.masked_fill(mask, 0).sum() if mask is not None else 0)"
      .value=${r?.masked}
    ></attn-check>`;
    const code = html`<attn-code
      label="PyTorch: the weights and the fused call"
      .template=${HEATMAP_CODE}
      .params=${{ T: this.T, window: this.window, mask: this.mask }}
    ></attn-code>`;
    const hood = r
      ? html`<p>
          The weights come from the core's two-pass kernel with the weights returned (the full ${tex`T \times T`} matrix
          is computed and copied out of the worker). The worker's wasm heap is now
          <span class="mono heap-bytes" data-value=${r.heapBytes}>${formatBytes(r.heapBytes)}</span>: a high-water mark,
          since wasm memory never shrinks. From 64 × 64 on, the heatmap is a canvas of one pixel per weight; the
          magnifier shows 25 × 25 of them around the pointer, a tap or the keyboard cursor. The log scale colours
          ${tex`\log_{10}`} of each weight from ${tex`10^{-6}`} of the largest up; masked weights (exactly 0) get the
          darkest colour.
        </p>`
      : '';
    return this.renderLab({ figure, controls, checks, code, hood });
  }
}

customElements.define('attn-scale-heatmap', AttnScaleHeatmap);
