/**
 * <attn-retrieval id="retrieve" query="2">
 *
 * Attention as soft, content-based retrieval (Lesson 44 of the source): a vocabulary of six
 * tokens whose embeddings are the rows of 5·I₆, a sequence of tokens 0, 1, 2, 3, 4 whose
 * embeddings are both the keys and the values, and a query equal to one token's embedding. The
 * core computes softmax(q Kᵀ / √d_k) V with d_k = 6 (the source's scaling; retrieval-model.js).
 *
 * The figure: K = V with the queried token's row outlined, and the weights as a 1 × 5 heatmap
 * (as the source's figure). Beside it: the queried token (five buttons, one per token of the
 * sequence), the query vector and the source's printout: the weights rounded to 3 decimals and
 * the retrieved token id, the argmax of the output vector (the source's out[0, 0].argmax()).
 * Verified (one line): the rounded weights are the one-hot of the queried position, and the
 * retrieved id is the queried token. The PyTorch code of the source's cell with the current query.
 *
 * State (permalink): query (the queried token, 0 to 4). Sets data-weights and data-retrieved on
 * itself. Export: the weights heatmap as SVG/PNG, the scores and weights as CSV/JSON.
 */
import { css, html } from 'lit';
import { AttnLab, checkCells } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { tex } from '../../cells/base/math.js';
import { touchTargets } from '../../cells/base/styles.js';
import { RETRIEVAL_PLOT, RETRIEVAL_TORCH } from './retrieval-code.js';
import {
  SEQUENCE,
  computeRetrieval,
  describeResult,
  embedding,
  keyRows,
  positionLabels,
  positionRows,
  resultObject,
  retrievalChecks,
  retrievalPrintout,
} from './retrieval-model.js';

export class AttnRetrieval extends AttnLab {
  static stateFields = {
    query: { type: 'integer', default: 2, min: 0, max: SEQUENCE.length - 1 },
  };

  static styles = [
    AttnLab.labStyles,
    touchTargets,
    css`
      h3:first-child {
        margin-top: 0;
      }
      .lab-figure > attn-matrix,
      .lab-figure > attn-heatmap {
        margin: 0.25rem 0 0.75rem;
      }
      fieldset {
        border: 0;
        margin: 0;
        padding: 0;
      }
      legend {
        font-weight: 600;
        padding: 0;
      }
      .tokens {
        display: flex;
        flex-wrap: wrap;
        gap: 0.35rem;
        margin: 0.35rem 0;
      }
      .tokens button[aria-pressed='true'] {
        border-color: var(--accent, #3b5bdb);
        background: color-mix(in srgb, var(--accent, #3b5bdb) 16%, transparent);
        font-weight: 700;
      }
      .readout {
        overflow-wrap: anywhere;
      }
    `,
  ];

  defaultLabel = 'Retrieval: query = one token';

  constructor() {
    super();
    this.task = new LabTask(this, {
      args: () => [this.query],
      run: ([token], { engine }) => computeRetrieval(engine, token),
      explain: () => `Token ${this.query} could not be looked up; showing the last result that worked.`,
    });
  }

  updated() {
    const r = this.task.value;
    if (!r) return;
    this.dataset.weights = r.weights.join(',');
    this.dataset.retrieved = String(r.retrieved);
  }

  describe() {
    return describeResult(this.task.value);
  }

  exportSvgText() {
    return this.renderRoot.querySelector('attn-heatmap').exportSvgText();
  }

  exportRows() {
    return positionRows(this.task.value);
  }

  exportObject() {
    return { token: this.query, ...resultObject(this.task.value) };
  }

  renderFigure() {
    const r = this.task.value;
    const token = this.query;
    const figure = html`<h3>Keys ${tex`K`} = values ${tex`V`}: the embeddings of tokens 0 to 4</h3>
      <attn-matrix
        compact
        label="Keys K = values V: the embeddings of tokens 0 to 4 (rows)"
        precision="0"
        row-labels=${SEQUENCE.map((t) => `pos ${t} (token ${t})`).join(',')}
        col-labels="e0,e1,e2,e3,e4,e5"
        .values=${keyRows()}
        highlight-row=${token}
      ></attn-matrix>
      <h3>Attention weights of the query over the positions</h3>
      <attn-heatmap
        compact
        label=${`Attention weights: query = token ${token}`}
        caption="Row $q$: the query; columns: the positions of the sequence. Weights from 0 (dark) to 1 (light)."
        row-labels="q"
        col-labels=${positionLabels().join(',')}
        min="0"
        max="1"
        .values=${r ? { data: Float32Array.from(r.weights), shape: [1, SEQUENCE.length] } : [[0, 0, 0, 0, 0]]}
      ></attn-heatmap>`;
    const controls = html`<fieldset class="controls" aria-describedby="query-vector">
        <legend>Query = embedding of token</legend>
        <div class="tokens">
          ${SEQUENCE.map(
            (t) =>
              html`<button
                type="button"
                data-token=${t}
                aria-pressed=${t === token ? 'true' : 'false'}
                aria-label=${`Query token ${t}`}
                @click=${() => this.setField('query', t)}
              >
                ${t}
              </button>`,
          )}
        </div>
      </fieldset>
      <p class="mono readout" id="query-vector">
        ${tex`q = \mathrm{vocab}[${token}] =`} [${embedding(token).join(', ')}]
      </p>
      <attn-output label="Output" .text=${r ? retrievalPrintout(r) : 'Loading the attention core…'}></attn-output>`;
    return this.renderLab({
      figure,
      controls,
      checks: r ? checkCells(retrievalChecks(r)) : '',
      code: html`<attn-code
          label="PyTorch (the source's cell)"
          .template=${RETRIEVAL_TORCH}
          .params=${{ token }}
        ></attn-code>
        <attn-code
          label="The heatmap with Matplotlib (after the cell above)"
          .template=${RETRIEVAL_PLOT}
          .params=${{ token }}
        ></attn-code>`,
    });
  }
}

customElements.define('attn-retrieval', AttnRetrieval);
