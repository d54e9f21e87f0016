/**
 * <attn-band-conv id="band-conv" kernel="0.25,0.5,0.25">
 *
 * Local attention with a window of width 3 beside a width-3 convolution slid along the
 * sequence, both drawn as T × T mixing matrices (row i: how output i mixes positions j, counted
 * from 0), side by side. The attention weights come from the lesson's Q, K, V (seed 0, batch 0)
 * with the mask |i − j| ≤ 1: a different triple in every row, computed from q · k, summing to 1.
 * The convolution applies the same kernel (taps for offsets −1, 0, +1) at every position,
 * zero-padded at the ends: constant diagonals. Directly under them: the kernel's three taps
 * (editable; bad text is refused beside the field) and both matrices row by row.
 *
 * Maths in the wasm core (randn, attention with the window mask); the model
 * (band-conv-model.js) lays the kernel out as a matrix.
 *
 * State (permalink): kernel (three numbers, the taps for offsets −1, 0, +1). An AttnLab: Reset,
 * Export (both matrices side by side as SVG/PNG, both as CSV and JSON), data-settled.
 */
import { css, html } from 'lit';
import { LabTask } from '../../cells/base/lab-task.js';
import { tex } from '../../cells/base/math.js';
import { T, vector } from '../common/qkv-lab.js';
import { CausalLab } from './causal-lab.js';
import { bandWeights, convMatrix, convRange, describeBandConv, rowsSideBySide } from './band-conv-model.js';
import { explainCoreError } from './masks-model.js';

export class AttnBandConv extends CausalLab {
  static stateFields = {
    kernel: { type: 'numbers', default: [0.25, 0.5, 0.25], minLength: 3, maxLength: 3, min: -100, max: 100 },
  };

  static styles = [
    CausalLab.causalStyles,
    css`
      .pair {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr));
        gap: 0 1rem;
        align-items: start;
      }
      td {
        white-space: normal; /* a vector breaks after a comma when the lab is narrow (a phone) */
      }
    `,
  ];

  defaultLabel = 'Local attention beside a width-3 convolution';

  constructor() {
    super();
    this.task = new LabTask(this, {
      args: () => [],
      run: (_, { engine }) => bandWeights(engine),
      explain: explainCoreError,
    });
  }

  _onKernel(event) {
    event.stopPropagation();
    this.kernel = event.detail.values;
    this.stateChanged();
  }

  describe() {
    return describeBandConv(this.kernel);
  }

  /** Both matrices side by side in one SVG document (each heatmap's own export, placed left and right). */
  exportSvgText() {
    const parse = (text) => new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
    const [left, right] = ['band', 'conv'].map((name) => parse(this.heatmapCell(name).exportSvgText()));
    const size = (svg, what) => Number(svg.getAttribute(what)) || svg.viewBox.baseVal[what];
    const gap = 24;
    const width = size(left, 'width') + gap + size(right, 'width');
    const height = Math.max(size(left, 'height'), size(right, 'height'));
    // made in the parsed document, which loads nothing: moved into the page's, each heatmap's embedded
    // data: image would be loaded there, and refused by a strict CSP
    const pair = left.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'svg');
    for (const [name, value] of [
      ['width', width],
      ['height', height],
      ['viewBox', `0 0 ${width} ${height}`],
    ]) {
      pair.setAttribute(name, String(value));
    }
    right.setAttribute('x', String(size(left, 'width') + gap));
    pair.append(left, right);
    return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(pair)}`;
  }

  exportRows() {
    const band = this.task.value;
    if (!band) return [['row i']];
    return [
      [
        'row i',
        ...Array.from({ length: T }, (_, j) => `attention ${j}`),
        ...Array.from({ length: T }, (_, j) => `convolution ${j}`),
      ],
      ...rowsSideBySide(band, convMatrix(this.kernel)).map(({ i, attention, conv }) => [i, ...attention, ...conv]),
    ];
  }

  exportObject() {
    const band = this.task.value;
    const rows = band ? rowsSideBySide(band, convMatrix(this.kernel)) : [];
    return { kernel: this.kernel, attention: rows.map((r) => r.attention), convolution: convMatrix(this.kernel) };
  }

  renderFigure() {
    const band = this.task.value;
    if (!band) return this.renderLab({ figure: html`<p class="note">Loading the attention core…</p>` });
    const conv = convMatrix(this.kernel);
    const kernel = `[${this.kernel.join(', ')}]`;
    const [min, max] = convRange(this.kernel);
    const figure = html`<div class="pair">
      <div>
        <h3>Local attention, ${tex`|i - j| \le 1`}</h3>
        ${this.heatmap('band', {
          label: 'Local attention, |i − j| ≤ 1 (seed 0, batch 0)',
          caption: 'Different weights in every row, computed from $q \\cdot k$; each row sums to 1.',
          values: band,
        })}
      </div>
      <div>
        <h3>Convolution ${kernel}</h3>
        ${this.heatmap('conv', {
          label: `Convolution kernel ${kernel} as a matrix`,
          caption: 'The same three weights in every row: constant diagonals; the ends lose a tap.',
          values: conv,
          min,
          max,
        })}
      </div>
    </div>`;
    const authored = this.getAttribute('kernel') ?? AttnBandConv.stateFields.kernel.default.join(',');
    const after = html`<attn-vector-editor
        label="Convolution taps for offsets −1, 0, +1"
        values=${authored}
        count="3"
        min="-100"
        max="100"
        .values=${this.kernel}
        @change=${(e) => this._onKernel(e)}
        @attn-state-change=${(e) => e.stopPropagation()}
      ></attn-vector-editor>
      <div class="scroll" tabindex="0" role="region" aria-label="Attention weights and convolution taps, row by row">
        <table class="mono">
          <caption class="sr-only">
            Row by row: the attention weights and the convolution taps over positions 0 to ${T - 1}
          </caption>
          <thead>
            <tr>
              <th scope="col">row&nbsp;${tex`i`}</th>
              <th scope="col">attention weights</th>
              <th scope="col">convolution taps</th>
            </tr>
          </thead>
          <tbody>
            ${rowsSideBySide(band, conv).map(
              ({ i, attention, conv: taps }) =>
                html`<tr>
                  <th scope="row">${i}</th>
                  <td>${vector(attention, 2)}</td>
                  <td>${vector(taps, 2)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>`;
    return this.renderLab({ figure, after });
  }
}

customElements.define('attn-band-conv', AttnBandConv);
