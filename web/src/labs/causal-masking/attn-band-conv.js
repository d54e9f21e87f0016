/**
 * <attn-band-conv id="band-conv" kernel="0.25,0.5,0.25">
 *
 * Local attention with a window of width 3 beside a width-3 convolution slid
 * along the sequence, both drawn as T × T mixing matrices (row i: how output i
 * mixes positions j). The attention weights come from the lesson's Q, K, V
 * (seed 0, batch 0) with the mask |i − j| ≤ 1: a different triple in every
 * row, computed from q · k, summing to 1. The convolution applies the same
 * kernel (taps for offsets −1, 0, +1) at every position, zero-padded at the
 * ends: constant diagonals. A readout lists both rows side by side.
 *
 * Maths in the wasm core: randn and attention (window mask). JS lays the
 * kernel out as a matrix for display.
 *
 * State (permalink): kernel (three numbers, the taps for offsets −1, 0, +1).
 */
import { css, html } from 'lit';
import { AttnCell } from '../../cells/base/attn-cell.js';
import { cellStyles, resetToAuthored } from '../../cells/base/cell-support.js';
import { T, batchOf, drawQKV, labStyles, rowOf, vector } from '../common/qkv-lab.js';

const POSITIONS = Array.from({ length: T }, (_, i) => String(i)).join(',');

export class AttnBandConv extends AttnCell {
  static stateFields = {
    kernel: { type: 'numbers', default: [0.25, 0.5, 0.25], minLength: 3, maxLength: 3, min: -100, max: 100 },
  };

  static properties = { ...super.properties, _band: { state: true } };

  static styles = [
    AttnCell.baseStyles,
    cellStyles,
    labStyles,
    css`
      .compare {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr));
        gap: 0 1rem;
      }
      table {
        border-collapse: collapse;
      }
      th,
      td {
        padding: 0.15rem 0.5rem;
        text-align: left;
        white-space: nowrap;
      }
    `,
  ];

  constructor() {
    super();
    this._band = null;
  }

  async connectedCallback() {
    super.connectedCallback();
    try {
      const engine = await this.engine();
      const { q, k, v } = drawQKV(engine, 0);
      this._band = batchOf(engine.attention(q, k, v, { mask: { window: 1 }, returnWeights: true }).weights, 0);
    } catch (error) {
      this.fail(new Error(`the attention core could not be loaded: ${error.message}`));
    }
  }

  reset() {
    resetToAuthored(this);
  }

  /** The convolution as a T × T matrix: row i has kernel[o + 1] at column i + o, o ∈ {−1, 0, 1}. */
  _conv() {
    return Array.from({ length: T }, (_, i) =>
      Array.from({ length: T }, (_, j) => (Math.abs(i - j) <= 1 ? this.kernel[j - i + 1] : 0)),
    );
  }

  renderCell() {
    if (!this._band) return html`<p class="note">Loading the attention core…</p>`;
    const conv = this._conv();
    const kernel = `[${this.kernel.join(', ')}]`;
    const unit = this.kernel.every((x) => x >= 0 && x <= 1); // same colour scale as the attention weights
    return html`<div class="lab">
      <div class="compare">
        <attn-heatmap
          label="Local attention, |i − j| ≤ 1 (seed 0, batch 0)"
          caption="Different weights in every row, computed from q · k; each row sums to 1."
          min="0"
          max="1"
          row-labels=${POSITIONS}
          col-labels=${POSITIONS}
          .values=${this._band}
        ></attn-heatmap>
        <attn-heatmap
          label=${`Convolution kernel ${kernel} as a matrix`}
          caption="The same three weights in every row: constant diagonals; the ends lose a tap."
          .min=${unit ? 0 : null}
          .max=${unit ? 1 : null}
          row-labels=${POSITIONS}
          col-labels=${POSITIONS}
          .values=${conv}
        ></attn-heatmap>
      </div>
      <div class="scroll" tabindex="0" role="region" aria-label="Attention weights and convolution taps, row by row">
        <table class="mono">
          <caption class="visually-hidden">
            Row by row: the attention weights and the convolution taps over positions 0 to ${T - 1}
          </caption>
          <thead>
            <tr>
              <th scope="col">row i</th>
              <th scope="col">attention weights</th>
              <th scope="col">convolution taps</th>
            </tr>
          </thead>
          <tbody>
            ${conv.map(
              (row, i) =>
                html`<tr>
                  <th scope="row">${i}</th>
                  <td>${vector(rowOf(this._band, i), 2)}</td>
                  <td>${vector(row, 2)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </div>`;
  }
}

customElements.define('attn-band-conv', AttnBandConv);
