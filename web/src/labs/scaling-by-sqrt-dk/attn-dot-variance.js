/**
 * <attn-dot-variance d="128" samples="4096" seed="0">
 *
 * The variance argument behind 1/√d_k: for q and k with independent standard-normal entries,
 * q·k = Σ_{i=0}^{D−1} q_i k_i is a sum of D terms of mean 0 and variance 1, so it has mean 0 and
 * variance D. The lab draws `samples` pairs (q, k) of dimension D in the wasm core and has the
 * core compute their dot products (dot-variance-model.js), in the page's Web Worker.
 * The figure: histograms of q·k and of q·k/√D on one axis (the first widens as D grows, the
 * second keeps its shape). Beside it: D on a log₂ slider (powers of two; a link's other value is
 * kept), the measured variance, the seed. Below: the table of numbers.
 * Verified: |var(q·k)/D − 1| within four standard errors, 4·√((2 + 6/D)/samples).
 *
 * State (permalink): d (1–512), samples (256–16384), seed. An AttnLab: Reset, Export,
 * data-settled once computed and drawn, data-computed-in="worker" | "main-thread".
 */
import { css, html } from 'lit';
import { AttnLab } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { SeedControl, seedField } from '../../cells/base/seeds.js';
import { sizeSlider, sizeSliderStyles } from '../../cells/base/size-slider.js';
import { lineChartStyles, tableStyles } from '../../cells/base/styles.js';
import { svgDocument } from '../../charts/export.js';
import '../../charts/attn-line-chart.js';
import {
  computeDotVariance,
  describeVariance,
  explainVariance,
  HISTOGRAM,
  varianceRows,
  varianceSentence,
  varianceTolerance,
} from './dot-variance-model.js';

export { varianceTolerance };

const SERIES = [
  { name: 'q·k', className: 'series-0', points: false },
  { name: 'q·k / √D', className: 'series-1', dashed: true, points: false },
];

export class AttnDotVariance extends AttnLab {
  static stateFields = {
    d: { type: 'integer', default: 128, min: 1, max: 512 },
    samples: { type: 'integer', default: 4096, min: 256, max: 16384 },
    seed: seedField(0),
  };

  static styles = [
    AttnLab.labStyles,
    tableStyles,
    lineChartStyles,
    sizeSliderStyles,
    css`
      .readout {
        white-space: normal;
      }
    `,
  ];

  defaultLabel = 'Histograms of q·k and q·k/√D for random q and k of dimension D';

  constructor() {
    super();
    this.seeds = new SeedControl(this, 'Random draws of q and k');
    this.task = new LabTask(this, {
      engine: 'worker',
      args: () => [this.d, this.samples, this.seed],
      run: ([d, samples, seed], { engine }) => computeDotVariance(engine, { d, samples, seed }),
      explain: explainVariance,
    });
  }

  _setD(d) {
    this.beginEdit();
    this.d = d;
    this.stateChanged();
  }

  describe() {
    return describeVariance(this.task.value);
  }

  exportSvgText() {
    return svgDocument(this.renderRoot.querySelector('attn-line-chart').svg);
  }

  exportRows() {
    return varianceRows(this.task.value);
  }

  exportObject() {
    const r = this.task.value; // the numbers; the histograms are in the SVG
    return {
      ...this.getState(),
      ...(r && { n: r.n, mean: r.mean, variance: r.variance, ratio: r.ratio, first: r.first }),
    };
  }

  renderFigure() {
    const r = this.task.value;
    const figure = html`<attn-line-chart
      class="chart"
      label="How q·k and q·k/√D are spread"
      x-label="value"
      y-label="share per unit"
      .xDomain=${[HISTOGRAM.lo, HISTOGRAM.hi]}
      .yDomain=${[0, 0.45]}
      .series=${SERIES}
      .data=${r ? [r.raw, r.scaled] : []}
    ></attn-line-chart>`;
    const controls = html`
      ${sizeSlider({ id: 'd', label: 'D (dimension)', symbol: 'D', value: this.d, min: 1, max: 512, onChange: (d) => this._setD(d) })}
      <p class="readout mono">${r ? varianceSentence(r) : 'Computing…'}</p>
      <p class="hint">Raise D: q·k spreads out (its variance is D), q·k/√D keeps its shape.</p>
      ${this.seeds.render()}
      <p class="note where">${this.task.where}</p>
    `;
    const after = r
      ? html`<table>
          <thead>
            <tr>
              <th scope="col">pairs</th>
              <th scope="col">mean of q·k</th>
              <th scope="col">variance of q·k</th>
              <th scope="col">variance / D</th>
              <th scope="col">std of q·k</th>
              <th scope="col">std of q·k/√D</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td class="mono">${r.n}</td>
              <td class="mono">${r.mean.toFixed(3)}</td>
              <td class="mono variance" data-value=${r.variance}>${r.variance.toFixed(2)}</td>
              <td class="mono ratio" data-value=${r.ratio}>${r.ratio.toFixed(3)}</td>
              <td class="mono">${r.std.toFixed(2)}</td>
              <td class="mono">${r.stdScaled.toFixed(3)}</td>
            </tr>
          </tbody>
        </table>`
      : '';
    const tol = varianceTolerance(this.d, this.samples);
    const checks = html`<attn-check
      label="|measured variance of q·k / D − 1|, within four standard errors"
      threshold=${Number(tol.toFixed(3))}
      comparison="le"
      .value=${r ? Math.abs(r.ratio - 1) : undefined}
    ></attn-check>`;
    const hood = html`<p>
      The ${this.samples} pairs come from the core's seeded generator (PCG32, Box–Muller), drawn in the page's Web
      Worker. Each dot product is the core's attention logit of one query against one key with the scale set to 1, so it
      is exactly q·k in float32. The mean, variance and histograms are plain arithmetic on those numbers here. The check
      allows four standard errors: for Gaussian entries Var((q·k)²) = 2D² + 6D.
    </p>`;
    return this.renderLab({ figure, controls, after, checks, hood });
  }
}

customElements.define('attn-dot-variance', AttnDotVariance);
