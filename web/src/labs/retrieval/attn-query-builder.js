/**
 * <attn-query-builder id="builder" mix="0,0,1,0,0,0">
 *
 * Build a query by mixing tokens: q = Σ_t c_t · vocab[t] with vocab = 5·I₆ (so q = 5c), typed as
 * six amounts c₀ … c₅ into an attn-vector-editor, or set by preset buttons (token 2;
 * vocab[2] + vocab[4], the source's Exercise 1; token 5, which is not in the sequence; a weighted
 * blend). Against the sequence of tokens 0 … 4 (keys = values = their embeddings) the core
 * computes, per position j: the dot product q·k_j (scale 1), the scaled score q·k_j/√6 and the
 * weight α_j = softmax of the scores; then the output y = Σ α_j v_j and the retrieved id argmax(y)
 * (first on ties, as torch.argmax). retrieval-model.js computeQuery.
 *
 * The figure: the weights as bars and, under them, the table of dot products, scores and weights
 * per position. Beside it: the amounts, the presets, the query, the output and the retrieved id.
 *
 * State (permalink): mix (six numbers, each in [−3, 3]). A bad entry in the editor shows the
 * reason beside it and the cell keeps the last valid query. Sets data-weights, data-dots and
 * data-retrieved on itself for tests. Export: the bars as SVG/PNG, the table as CSV/JSON.
 */
import { css, html } from 'lit';
import { formatNumber } from '../../cells/base/cell-support.js';
import { AttnLab } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { tex } from '../../cells/base/math.js';
import { tableStyles, touchTargets } from '../../cells/base/styles.js';
import '../../charts/attn-bar-chart.js';
import { svgDocument } from '../../charts/export.js';
import { BUILDER_TORCH } from './retrieval-code.js';
import {
  PRESETS,
  SEQUENCE,
  VOCAB_SIZE,
  computeQuery,
  describeResult,
  positionLabels,
  positionRows,
  queryVector,
  resultObject,
} from './retrieval-model.js';

export class AttnQueryBuilder extends AttnLab {
  static stateFields = {
    mix: {
      type: 'numbers',
      default: [0, 0, 1, 0, 0, 0],
      minLength: VOCAB_SIZE,
      maxLength: VOCAB_SIZE,
      min: -3,
      max: 3,
    },
  };

  static styles = [
    AttnLab.labStyles,
    tableStyles,
    touchTargets,
    css`
      h3 {
        margin-top: 0;
      }
      .bar {
        fill: var(--accent, #3b5bdb);
      }
      .presets {
        flex-direction: column;
        align-items: stretch;
      }
      .presets button {
        text-align: left;
      }
      table {
        font-family: var(--font-mono, ui-monospace, monospace);
      }
      tr.top td {
        font-weight: 700;
      }
      .readout {
        overflow-wrap: anywhere;
        margin: 0.35rem 0;
      }
    `,
  ];

  defaultLabel = 'Query builder';

  constructor() {
    super();
    this.task = new LabTask(this, {
      args: () => [this.mix],
      run: ([mix], { engine }) => computeQuery(engine, mix),
      explain: () => 'This query could not be computed; showing the last one that worked.',
    });
  }

  updated() {
    const r = this.task.value;
    if (!r) return;
    this.dataset.weights = r.weights.join(',');
    this.dataset.dots = r.dots.join(',');
    this.dataset.retrieved = String(r.retrieved);
  }

  describe() {
    return describeResult(this.task.value);
  }

  exportSvgText() {
    return svgDocument(this.renderRoot.querySelector('attn-bar-chart').svg);
  }

  exportRows() {
    return positionRows(this.task.value);
  }

  exportObject() {
    return resultObject(this.task.value);
  }

  _table(r) {
    const top = Math.max(...r.weights);
    return html`<div class="scroll" tabindex="0" role="region" aria-label="Scores and weights per position">
      <table aria-label="Per position: token, dot product, scaled score and weight">
        <thead>
          <tr>
            <th scope="col">pos&nbsp;${tex`j`}</th>
            <th scope="col">token</th>
            <th scope="col">${tex`q \cdot k_j`}</th>
            <th scope="col">${tex`q \cdot k_j / \sqrt{6}`}</th>
            <th scope="col">${tex`\alpha_j`}</th>
          </tr>
        </thead>
        <tbody>
          ${SEQUENCE.map(
            (t, j) =>
              html`<tr class=${r.weights[j] === top ? 'top' : ''}>
                <td>${j}</td>
                <td>${t}</td>
                <td class="dot">${formatNumber(r.dots[j], 5)}</td>
                <td>${r.scores[j].toFixed(4)}</td>
                <td class="weight">${r.weights[j].toFixed(5)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  renderFigure() {
    const r = this.task.value;
    const authored = this.getAttribute('mix') ?? this.constructor.stateFields.mix.default.join(',');
    const figure = r
      ? html`<h3>Attention weight ${tex`\alpha_j`} of each position</h3>
          <attn-bar-chart
            class="chart"
            label="Attention weight of each position"
            .values=${Array.from(r.weights)}
            .labels=${positionLabels()}
          ></attn-bar-chart>
          ${this._table(r)}`
      : html`<p class="note">Loading the attention core…</p>`;
    const controls = html`<attn-vector-editor
        label="Amounts $c_0, \\ldots, c_5$ of each token in the query"
        count="6"
        min="-3"
        max="3"
        values=${authored}
        .values=${this.mix}
        @change=${(e) => this.setField('mix', [...e.detail.values])}
      ></attn-vector-editor>
      <div class="controls presets" role="group" aria-label="Preset queries">
        <span>Presets:</span>
        ${PRESETS.map((p) => html`<button type="button" @click=${() => this.setField('mix', [...p.mix])}>${p.name}</button>`)}
      </div>
      <p class="mono readout">
        ${tex`q = \sum_t c_t \cdot \mathrm{vocab}[t] =`}
        [${queryVector(this.mix)
          .map((x) => formatNumber(x, 4))
          .join(', ')}]
      </p>
      ${
        r
          ? html`<p class="mono readout">
                ${tex`y = \sum_j \alpha_j v_j =`} [${r.output.map((x) => x.toFixed(4)).join(', ')}]
              </p>
              <p class="mono readout retrieved">
                retrieved token id ${tex`= \operatorname{argmax}(y) = ${r.retrieved}`}
              </p>`
          : ''
      }`;
    return this.renderLab({
      figure,
      controls,
      code: html`<attn-code label="PyTorch" .template=${BUILDER_TORCH} .params=${{ mix: this.mix }}></attn-code>`,
    });
  }
}

customElements.define('attn-query-builder', AttnQueryBuilder);
