/**
 * <attn-scaling-example d="128" seed="0">
 *
 * One live example of the source's Exercise 2: five queries and five keys of dimension D with
 * standard-normal entries (seeded), and their attention weights without the scaling,
 * softmax(QKᵀ), and with it, softmax(QKᵀ/√D), as two annotated heatmaps side by side, with the
 * mean of each row's largest weight and the rows' mean entropy (nats) under each. Directly under
 * them: D on a log₂ slider (powers of two; a link's other value is kept) and the seed.
 * Lesson-sized: computed on the main thread at every slider step (scaling-example-model.js).
 *
 * State (permalink): d (1–512), seed. An AttnLab: Reset, Export, data-settled once drawn.
 */
import { css, html } from 'lit';
import { AttnLab } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { mathText, tex } from '../../cells/base/math.js';
import { SeedControl, seedField } from '../../cells/base/seeds.js';
import { sizeSlider, sizeSliderStyles } from '../../cells/base/size-slider.js';
import {
  computeScalingExample,
  describeExample,
  EXAMPLE_CODE,
  exampleRows,
  explainExample,
  positionLabels,
} from './scaling-example-model.js';

export class AttnScalingExample extends AttnLab {
  static stateFields = {
    d: { type: 'integer', default: 128, min: 1, max: 512 },
    seed: seedField(0),
  };

  static styles = [
    AttnLab.labStyles,
    sizeSliderStyles,
    css`
      .pair {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr));
        gap: 0.75rem;
      }
      attn-heatmap {
        margin: 0;
      }
      .side-title {
        font-size: 0.95rem;
        margin: 0 0 0.25rem;
        min-height: 2.1em; /* room for the radical of √D: both titles one height, the heatmaps level */
      }
      .under {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr));
        gap: 0 1.25rem;
        align-items: end;
      }
    `,
  ];

  defaultLabel = 'Attention weights of five random queries, unscaled and scaled';

  constructor() {
    super();
    this.seeds = new SeedControl(this, 'Random queries and keys');
    this.task = new LabTask(this, {
      args: () => [this.d, this.seed],
      run: ([d, seed], { engine }) => computeScalingExample(engine, d, seed),
      explain: explainExample,
    });
  }

  _setD(d) {
    this.beginEdit();
    this.d = d;
    this.stateChanged();
  }

  describe() {
    return describeExample(this.task.value);
  }

  exportSvgText() {
    return this.renderRoot.querySelector('attn-heatmap').exportSvgText();
  }

  exportRows() {
    return exampleRows(this.task.value);
  }

  exportObject() {
    const r = this.task.value;
    return {
      d: this.d,
      seed: this.seed,
      unscaled: r ? Array.from(r.unscaled.weights.data) : null,
      scaled: r ? Array.from(r.scaled.weights.data) : null,
    };
  }

  renderFigure() {
    const r = this.task.value;
    const side = (which, title) =>
      r
        ? html`<div>
            <h3 class="side-title">${mathText(title)}</h3>
            <attn-heatmap
              class=${which}
              bare
              label=${title}
              .values=${r[which].weights}
              .rowLabels=${positionLabels('q')}
              .colLabels=${positionLabels('k')}
              .min=${0}
              .max=${1}
            ></attn-heatmap>
            <p
              class="readout ${which}-summary"
              data-mean-max=${r[which].meanMax}
              data-mean-entropy=${r[which].meanEntropy}
            >
              mean largest weight ${r[which].meanMax.toFixed(3)}, mean entropy ${r[which].meanEntropy.toFixed(3)} nats
            </p>
          </div>`
        : '';
    // The slider sits directly under the two heatmaps it moves: side by side they need the lab's whole width.
    const figure = html`
      <div class="pair">
        ${side('unscaled', `Without scaling: $\\operatorname{softmax}(QK^\\top)$, $D = ${this.d}$`)}
        ${side('scaled', `Scaled: $\\operatorname{softmax}(QK^\\top/\\sqrt{D})$, $D = ${this.d}$`)}
      </div>
      ${r ? '' : html`<p class="readout">Loading the attention core…</p>`}
      <div class="under">
        ${sizeSlider({ id: 'd', label: '$D$ (dimension)', symbol: 'D', value: this.d, min: 1, max: 512, onChange: (d) => this._setD(d) })}
        ${this.seeds.render()}
      </div>
    `;
    const code = html`<attn-code
      label="PyTorch: the same example"
      .template=${EXAMPLE_CODE}
      .params=${{ seed: this.seed, d: this.d }}
    ></attn-code>`;
    const hood = html`<p>
      Both heatmaps come from the core's attention with the weights returned, once with the scale set to 1 and once with
      its default ${tex`1/\sqrt{D}`}; the entropies are the core's too. The random numbers come from the core's own
      seeded generator, so the PyTorch code shows the same experiment but not the same draws.
    </p>`;
    return this.renderLab({ figure, code, hood });
  }
}

customElements.define('attn-scaling-example', AttnScalingExample);
