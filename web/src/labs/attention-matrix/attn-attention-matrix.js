/**
 * <attn-attention-matrix id="am" seed="42">
 *
 * The lab of the attention-matrix lesson ("Attention as a Weighted Mixture" §4–§5): logits S
 * (T × T) and values V (T × d_v), T = 5 and d_v = 4, drawn from the core's seeded normal
 * generator (attention-matrix-model.js); A = softmax(S) row by row, drawn as an annotated
 * heatmap; Y = AV.
 *
 * Linked views, side by side (stacked, the breakdown directly under the heatmap, when the lab is
 * narrow): hovering or focusing a cell (i, j) of the heatmap (arrow keys move) takes its row i
 * apart beside it, y_i = Σ_j A_ij v_j term by term, with term j marked; row i of Y and row j of V
 * are highlighted below. Under the heatmap: the seed (Re-roll, Reset) and S, whose cells are
 * editable (a bad entry shows its error in the editor and S keeps its last valid value), beside V.
 * Verified (one line): rows of A sum to 1, A ≥ 0, Y has the shape (T, d_v). Code: PyTorch, NumPy,
 * the heatmap in Matplotlib.
 *
 * State (permalink): seed (whole number), edited (boolean: S was typed by hand), scores (S, 5 × 5;
 * used when edited, else drawn from the seed). An AttnLab: Reset, Export (A as SVG/PNG/CSV, every
 * matrix as JSON), data-settled once the current result is shown.
 */
import { html } from 'lit';
import { AttnLab, checkCells } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { tex } from '../../cells/base/math.js';
import { seedField, SeedControl } from '../../cells/base/seeds.js';
import { formatField } from '../../cells/base/state-fields.js';
import { tableStyles, touchTargets } from '../../cells/base/styles.js';
import { NUMPY_CODE, PLOT_CODE, TORCH_CODE } from './attention-matrix-code.js';
import {
  computeAttentionMatrix,
  describeAttentionMatrix,
  drawInputs,
  DV,
  MATRIX_ERROR,
  matrixChecks,
  printout,
  rowsOf,
  sameMatrix,
  T,
  TOKENS,
} from './attention-matrix-model.js';
import { compactMatrix, rowBreakdown } from './attention-matrix-parts.js';
import { matrixLabStyles } from './attention-matrix-styles.js';

const INDICES = TOKENS.map((_, i) => String(i)).join(',');

export class AttnAttentionMatrix extends AttnLab {
  static stateFields = {
    seed: seedField(42),
    edited: { type: 'boolean', default: false },
    scores: {
      type: 'matrix',
      default: Array.from({ length: T }, () => Array(T).fill(0)),
      minRows: T,
      maxRows: T,
      min: -100,
      max: 100,
    },
  };

  static properties = { ...super.properties, _row: { state: true }, _col: { state: true } };

  static styles = [AttnLab.labStyles, tableStyles, touchTargets, matrixLabStyles];

  defaultLabel = 'Attention matrix lab: S, A = softmax(S) and Y = AV';

  constructor() {
    super();
    this._row = 0;
    this._col = -1;
    this._draws = null;
    this.seeds = new SeedControl(this, 'Random draws of V and S');
    this.task = new LabTask(this, {
      args: () => [this.seed, this.scores],
      run: ([seed, scores], { engine }) => ({ seed, ...computeAttentionMatrix(engine, this._drawn(engine).V, scores) }),
      explain: () => MATRIX_ERROR,
    });
  }

  /** The draws for the current seed (kept until the seed changes). */
  _drawn(engine) {
    if (this._draws?.seed !== this.seed) this._draws = drawInputs(engine, this.seed);
    return this._draws;
  }

  willUpdate(changed) {
    // a new seed alone (Re-roll, the Seed field) is a new draw: S follows it again
    if (changed.has('seed') && !changed.has('edited') && !changed.has('scores')) this.edited = false;
    const engine = this.task.engine;
    if (!engine || this.edited) return;
    const { S } = this._drawn(engine);
    if (!sameMatrix(this.scores, S)) this.scores = S;
  }

  _onEdit(event) {
    event.stopPropagation();
    const values = event.target.values; // the editor's own array: keeps its typing state
    if (!Array.isArray(values) || values.length !== T) return;
    this.beginEdit();
    this.edited = !sameMatrix(values, this._draws?.S ?? []);
    this.scores = values;
    this.stateChanged();
  }

  _onCell(event) {
    this._row = event.detail.row;
    this._col = event.detail.col;
  }

  resetView() {
    this._row = 0;
    this._col = -1;
  }

  get _i() {
    return Math.min(this._row, T - 1);
  }

  describe() {
    return describeAttentionMatrix(this.task.value, this._i, this.seed, this.edited);
  }

  exportSvgText() {
    return this.renderRoot.querySelector('attn-heatmap').exportSvgText();
  }

  exportRows() {
    const r = this.task.value;
    if (!r) return [['']];
    return [['A', ...TOKENS], ...rowsOf(r.A.data, T, T).map((row, i) => [TOKENS[i], ...row])];
  }

  exportObject() {
    const r = this.task.value;
    return {
      seed: this.seed,
      edited: this.edited,
      S: r?.S ?? this.scores,
      V: r?.V ?? null,
      A: r ? rowsOf(r.A.data, T, T) : null,
      Y: r ? rowsOf(r.Y.data, T, DV) : null,
    };
  }

  /** Under the heatmap: the draws (seed), S to edit beside V, then Y = AV. */
  _inputs(r) {
    const S = this._draws?.S ?? this.scores;
    return html`
      <p class="part-title">The inputs: logits ${tex`S`} and values ${tex`V`}</p>
      ${this.seeds.render()}
      <p class="note">
        ${tex`V`} and ${tex`S`} are drawn from a standard normal distribution with this seed, rounded to 2
        decimals${this.edited ? html`; <strong>${tex`S`} has been edited by hand</strong>` : ''}. Row ${tex`i`} of
        ${tex`S`} holds the scores of query ${tex`i`} for every key ${tex`j`}: type over any entry.
      </p>
      <div class="pair">
        <attn-matrix-editor
          label="Logits $S$ ($T \\times T$)"
          min="-100"
          max="100"
          row-labels=${INDICES}
          col-labels=${INDICES}
          values=${formatField(S, AttnAttentionMatrix.stateFields.scores)}
          .values=${this.scores}
          @change=${this._onEdit}
        ></attn-matrix-editor>
        ${compactMatrix('Values V (T × d_v)', 'Values $V$ ($T \\times d_v$): row $j$ is $v_j$', 2, 'v', this._col, r.V)}
      </div>
      <p class="part-title">${tex`Y = AV`} keeps the shape ${tex`(T, d_v)`}</p>
      <div class="pair">
        ${compactMatrix(
          'Output Y = AV (T × d_v)',
          '$Y = AV$: row $i$ is $y_i$, the mixture for query $i$',
          3,
          'y',
          this._i,
          rowsOf(r.Y.data, r.Y.shape[0], r.Y.shape[1]),
        )}
        <attn-output label="Output" .text=${printout(r)}></attn-output>
      </div>
    `;
  }

  renderFigure() {
    const r = this.task.value;
    if (!r)
      return this.renderLab({ figure: this.task.error ? '' : html`<p class="note">Loading the attention core…</p>` });
    const params = { seed: r.seed, V: r.V, S: r.S, row: this._i };
    const figure = html`<attn-heatmap
      compact
      label="Row-stochastic attention matrix A"
      caption="Row $i$: the query (target position $i$). Column $j$: the key and value (source position $j$). Colour: the weight $A_{ij}$, from 0 (dark) to 1 (light)."
      min="0"
      max="1"
      row-labels=${INDICES}
      col-labels=${INDICES}
      highlight-row=${this._i}
      .values=${r.A}
      @cell-focus=${this._onCell}
    ></attn-heatmap>`;
    const code = html`
      <attn-code label="PyTorch" .template=${TORCH_CODE} .params=${params}></attn-code>
      <attn-code label="NumPy" .template=${NUMPY_CODE} .params=${params}></attn-code>
      <attn-code label="The heatmap with Matplotlib (after either cell)" .template=${PLOT_CODE}></attn-code>
    `;
    const hood = html`<p>
      The draws come from the WebAssembly core's seeded normal generator (one stream: V first, then S, as the notebook
      draws them), not PyTorch's, so seed 42 gives other numbers than the notebook.
      ${tex`A = \operatorname{softmax}(S)`}, the row-stochastic report and ${tex`Y = AV`} are the core's too (float32);
      the page only rounds the draws and forms the products ${tex`A_{ij} \cdot v_j`} shown beside the heatmap.
      ${tex`y_i`} itself is the core's.
    </p>`;
    return this.renderLab({
      figure,
      controls: rowBreakdown(r, this._i, this._col),
      after: this._inputs(r),
      checks: checkCells(matrixChecks(r)),
      code,
      hood,
    });
  }
}

customElements.define('attn-attention-matrix', AttnAttentionMatrix);
