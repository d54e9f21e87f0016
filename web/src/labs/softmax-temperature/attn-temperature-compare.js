/**
 * <attn-temperature-compare id="three" logits="1.2,4.5,2,0.8" temperatures="0.25,1,5">
 *
 * The source notebook's figure "Softmax competition under temperature scaling" for a course page:
 * softmax(logits / τ) for a few temperatures, drawn as grouped bars (one group per position, one
 * bar per τ), with the weights printed as in a notebook. Every softmax runs in the wasm core.
 * Verified (one line): every row of weights sums to 1. Code: the figure in PyTorch.
 * (The softmax-temperature lesson shows the same comparison as a table in its softmax lab.)
 *
 * State (permalink): logits (numbers), temperatures (1 to 4 numbers, each > 0).
 * Attributes: label, caption. An AttnLab: Reset, Export (SVG/PNG/CSV/JSON), data-settled once
 * the bars show the current state.
 */
import { css, html } from 'lit';
import { AttnLab, checkCells } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import '../../charts/attn-bar-chart.js';
import { svgDocument } from '../../charts/export.js';
import { logitsField, positionLabels, SOFTMAX_ERROR, TEMPERATURES_FIELD } from './softmax-lab-model.js';
import {
  COMPARE_CODE,
  comparisonCheck,
  comparisonPrintout,
  comparisonRows,
  computeComparison,
  describeComparison,
} from './temperature-compare-model.js';

const format2 = (v) => v.toFixed(2);

export class AttnTemperatureCompare extends AttnLab {
  static stateFields = {
    logits: logitsField(16),
    temperatures: TEMPERATURES_FIELD,
  };

  static styles = [
    AttnLab.labStyles,
    css`
      .bar.series-0 {
        fill: var(--text, #1b1e24);
      }
      .bar.series-1 {
        fill: var(--accent, #3b5bdb);
      }
      .bar.series-2 {
        fill: var(--muted, #555d6b);
        opacity: 0.55;
      }
      .bar.series-3 {
        fill: var(--accent, #3b5bdb);
        opacity: 0.45;
      }
    `,
  ];

  defaultLabel = 'Softmax weights at three temperatures';

  constructor() {
    super();
    this.task = new LabTask(this, {
      args: () => [this.logits, this.temperatures],
      run: ([logits, temperatures], { engine }) => computeComparison(engine, logits, temperatures),
      explain: () => SOFTMAX_ERROR,
    });
  }

  describe() {
    return `Grouped bars. ${describeComparison(this.logits, this.task.value)}`;
  }

  exportSvgText() {
    return svgDocument(this.renderRoot.querySelector('attn-bar-chart').svg);
  }

  exportRows() {
    return comparisonRows(this.logits, this.task.value);
  }

  exportObject() {
    const c = this.task.value;
    return {
      logits: this.logits,
      temperatures: this.temperatures,
      weights: (c?.rows ?? []).map((row) => Array.from(row)),
    };
  }

  renderFigure() {
    const c = this.task.value;
    return this.renderLab({
      figure: c
        ? html`<attn-bar-chart
            class="chart"
            label=${this.accessibleName}
            .values=${c.rows.map((row) => Array.from(row))}
            .labels=${positionLabels(c.rows[0].length)}
            .series=${c.temperatures.map((t) => `τ = ${t}`)}
            .format=${format2}
          ></attn-bar-chart>`
        : '',
      after: html`<attn-output
        label="Weights (4 decimals)"
        .text=${c ? comparisonPrintout(c) : 'Loading the attention core…'}
      ></attn-output>`,
      checks: checkCells([comparisonCheck(c, this.temperatures)]),
      code: html`<attn-code
        label="PyTorch: the figure"
        .template=${COMPARE_CODE}
        .params=${{ logits: this.logits, temperatures: this.temperatures }}
      ></attn-code>`,
    });
  }
}

customElements.define('attn-temperature-compare', AttnTemperatureCompare);
