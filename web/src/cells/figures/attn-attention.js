/**
 * <attn-attention id="att" q="1,0;0,1;1,1" k="1,0;0,1;1,1" v="1,2;3,4;5,6" mask="causal"
 *                 temperature="1">
 *   <attn-slider slot="controls" for="att" field="temperature" …></attn-slider>
 * </attn-attention>
 *
 * Attention from attributes alone: A = softmax(c·q kᵀ/τ + mask) (c: the scale factor) and the output A v, computed
 * by the wasm core. Shows the weights A as a heatmap (row i: query i, column j: key j) and the
 * output beside it; children with slot="controls" sit beside the heatmap too (the controls that
 * drive this cell, wired with for/field: see cells/base/wiring.js), other children below it.
 * Verified (one line, opens on demand): the weights and the output against the core's float64
 * reference. A row whose mask blocks every key gets zero weights and a zero output, as in PyTorch,
 * and the cell says so.
 *
 * State (permalink): q, k, v (rows separated by ';', numbers by ','; q and k with the same number
 * of columns, v with a row per key; at most 16 × 16, entries in [−1000, 1000]), mask (none,
 * causal, or rows of 0/1 with a row per query and a column per key), temperature (τ ≥ 0, 0 and
 * Infinity are the limits), scale (the scale factor c, default 1/√E). Attributes: label, caption.
 * Results other cells read (value-of): weights, output, logits (rows of numbers; −Infinity where
 * masked), maxRowSumError, fullyMaskedRows, weightsError, outputError. attn-code with for="<id>"
 * gets its PyTorch code (static codeTemplate). A bad attribute keeps the last valid figure and
 * says which attribute is wrong. An AttnLab: Reset, Export, data-settled once drawn.
 */
import { css, html } from 'lit';
import { AttnLab } from '../base/lab.js';
import { LabTask } from '../base/lab-task.js';
import { tex, texDisplay } from '../base/math.js';
import {
  ATTENTION_CODE,
  ATTENTION_FIELDS,
  ATTENTION_OUTPUTS,
  computeAttention,
  describeAttention,
  explainAttention,
  labels,
  maskWords,
  scaleText,
  tauText,
} from './attention-model.js';

export class AttnAttention extends AttnLab {
  static stateFields = ATTENTION_FIELDS;
  static outputs = ATTENTION_OUTPUTS;
  static codeTemplate = ATTENTION_CODE;

  static styles = [
    AttnLab.labStyles,
    css`
      .lab-figure h3,
      .lab-side h3 {
        font-size: 0.95rem;
        margin: 0.5rem 0 0.25rem;
      }
      .formula {
        margin: 0.25rem 0 0.5rem;
      }
    `,
  ];

  defaultLabel = 'Attention weights and output';

  constructor() {
    super();
    this.task = new LabTask(this, {
      args: () => [this.q, this.k, this.v, this.mask, this.temperature, this.scale],
      run: ([q, k, v, mask, temperature, scale], { engine }) =>
        computeAttention(engine, { q, k, v, mask, temperature, scale }),
      explain: explainAttention,
    });
  }

  describe() {
    return describeAttention(this, this.task.value);
  }

  exportSvgText() {
    return this.renderRoot.querySelector('attn-heatmap').exportSvgText();
  }

  exportRows() {
    const r = this.task.value;
    if (!r) return [['not computed yet']];
    return [
      ['matrix', 'row', ...r.weights[0].map((_, j) => `col ${j}`)],
      ...r.weights.map((row, i) => ['weights', i, ...row]),
      ...r.output.map((row, i) => ['output', i, ...row]),
    ];
  }

  exportObject() {
    const r = this.task.value;
    return { ...this.getState(), weights: r?.weights ?? null, output: r?.output ?? null };
  }

  renderFigure() {
    const r = this.task.value;
    const [L, S, E, Ev] = [this.q.length, this.k.length, this.q[0].length, this.v[0].length];
    const figure = r
      ? html`<h3>Weights A</h3>
          <attn-heatmap
            compact
            label="Attention weights A"
            caption="Row i: query i; column j: key j. Each row sums to 1 over the keys it may see."
            min="0"
            max="1"
            row-labels=${labels('q', r.weights.length)}
            col-labels=${labels('k', r.weights[0].length)}
            .values=${r.weights}
          ></attn-heatmap>`
      : html`<p class="note">Loading the attention core…</p>`;
    const blocked = r?.fullyMaskedRows ?? 0;
    const controls = html`<slot name="controls"></slot>
      <p class="formula">
        ${texDisplay`A = \operatorname{softmax}\left(\frac{c\,QK^\top}{\tau} + M\right), \quad Y = AV`}
      </p>
      <p class="note">
        ${this.scale === null ? tex`c = 1/\sqrt{${E}}` : tex`c = ${scaleText(this.scale, E)}`} (the scale factor),
        ${tex`\tau = ${tauText(this.temperature)}`}, mask ${tex`M`}: ${maskWords(this.mask)}; ${L} queries, ${S} keys.
      </p>
      ${
        r
          ? html`<h3>Output A v</h3>
              <attn-matrix
                compact
                label="Output A v"
                caption="Row i: the output of query i, a mix of the value rows."
                precision="3"
                row-labels=${labels('y', L)}
                col-labels=${labels('', Ev)}
                .values=${r.output}
              ></attn-matrix>`
          : ''
      }
      ${
        blocked
          ? html`<p class="note blocked">
              ${blocked === 1 ? 'One query row may' : `${blocked} query rows may`} attend to no key: the mask blocks
              every key, so its weights and output are zeros, as in PyTorch.
            </p>`
          : ''
      }`;
    const checks = html`
      <attn-check
        class="weights-reference"
        label="max |A (computed here, float32) − A (float64 reference)|"
        .threshold=${r?.weightsTolerance}
        .value=${r?.weightsError}
      ></attn-check>
      <attn-check
        class="output-reference"
        label="max |output (float32) − output (float64 reference)|"
        .threshold=${r?.outputTolerance}
        .value=${r?.outputError}
      ></attn-check>
    `;
    const hood = html`<p class="note">
      The core computes in float32 (SIMD128 where the browser has it); its float64 reference computes the same attention
      one row at a time. The checks allow 1e-5, scaled by the largest score and the largest value: float32 rounding
      grows with the size of the numbers.
    </p>`;
    return this.renderLab({ figure, controls, after: html`<slot></slot>`, checks, hood });
  }
}

for (const name of ATTENTION_OUTPUTS) {
  Object.defineProperty(AttnAttention.prototype, name, {
    get() {
      return this.task.value?.[name];
    },
  });
}

customElements.define('attn-attention', AttnAttention);
