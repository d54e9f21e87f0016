/**
 * <attn-attention-matrix id="am" seed="42">
 *
 * The lab of the attention-matrix lesson ("Attention as a Weighted Mixture"
 * §4–§5): logits S (T × T) and values V (T × d_v), T = 5 and d_v = 4, drawn
 * from the core's seeded normal generator (one stream, V first and then S, as
 * the notebook draws them; rounded to 2 decimals so they can be read and
 * typed); A = softmax(S) row by row, drawn as an annotated heatmap; Y = AV.
 * Hovering or focusing a cell of the heatmap picks its row i and shows y_i as
 * the convex combination Σ_j A_ij v_j, term by term.
 *
 * Maths in the wasm core: randn (S, V), softmax (A), rowStochasticReport (the
 * row-sum check), convexCombination (Y = AV). JS only rounds the draws,
 * formats, adds up a row for the printout and forms the products A_ij · v_j
 * shown in the breakdown (y_i itself is the core's).
 *
 * State (permalink): seed (whole number), edited (boolean: S was typed by
 * hand), scores (S, 5 × 5; used when edited, else drawn from the seed).
 * Re-roll picks a new seed; cells of S are editable (a bad entry shows its
 * error in the editor and S keeps its last valid value); Reset goes back to
 * the authored state. data-settled (AttnCell) once the current result is shown.
 */
import { css, html } from 'lit';
import { live } from 'lit/directives/live.js';
import { formatField, parseField } from '../../cells/base/state-fields.js';
import { AttnCell } from '../../cells/base/attn-cell.js';
import { cellStyles, resetToAuthored } from '../../cells/base/cell-support.js';

const T = 5;
const DV = 4;
const SEED_MAX = 2147483647;
const TOKENS = Array.from({ length: T }, (_, i) => `Token ${i}`).join(',');
const DIMS = Array.from({ length: DV }, (_, d) => `d${d + 1}`).join(',');

const round2 = (x) => Math.round(x * 100) / 100 + 0; // + 0 turns −0 into 0
const rowsOf = (data, rows, cols) =>
  Array.from({ length: rows }, (_, r) => Array.from(data.subarray(r * cols, (r + 1) * cols)));
const fixed = (x, digits) => {
  const text = x.toFixed(digits);
  return (/^-0\.?0*$/.test(text) ? text.slice(1) : text).replace(/^-/, '−');
};
const vector = (xs, digits = 2) => `[${Array.from(xs, (x) => fixed(x, digits)).join(', ')}]`;
const sameMatrix = (a, b) =>
  a.length === b.length && a.every((row, r) => row.length === b[r].length && row.every((x, c) => x === b[r][c]));

const TORCH = `import torch

T, d_v = 5, 4
# V and S as drawn on this page (seed {{seed}}, rounded to 2 decimals);
# the notebook draws them with torch.randn(T, d_v) and torch.randn(T, T)
V = torch.tensor({{V}}, dtype=torch.float32)  # (T, d_v): row j is the value v_j
S = torch.tensor({{S}}, dtype=torch.float32)  # (T, T): S[i, j] scores position j for query i

# Softmax strictly over the last dimension, so each row of A sums to 1
A = torch.softmax(S, dim=-1)
row_sums = A.sum(dim=-1)
print(f"Attention Matrix A shape: {A.shape}")
print(f"Row sums of A: {row_sums.tolist()}")
assert torch.allclose(row_sums, torch.ones(T)), "Every row of A must sum to 1.0!"

Y = A @ V  # (T, T) @ (T, d_v) -> (T, d_v)
print(f"Output Matrix Y shape: {Y.shape} [Preserves (T, dv)]")
assert Y.shape == (T, d_v), "Output Y must match shape (T, dv)!"

# Row i of Y is a convex combination of the rows of V
i = {{row}}
y_i = sum(A[i, j] * V[j] for j in range(T))
assert torch.allclose(y_i, Y[i])`;

const NUMPY = `import numpy as np

V = np.array({{V}}, dtype=np.float32)  # (T, d_v)
S = np.array({{S}}, dtype=np.float32)  # (T, T)

def softmax(s, axis=-1):
    e = np.exp(s - s.max(axis=axis, keepdims=True))  # subtract the row max: exp never overflows
    return e / e.sum(axis=axis, keepdims=True)

A = softmax(S)        # row-stochastic: A >= 0, rows sum to 1
Y = A @ V             # (5, 5) @ (5, 4) -> (5, 4)
assert np.allclose(A.sum(axis=-1), 1.0)
assert Y.shape == (5, 4)`;

const PLOT = `# needs: am
import matplotlib.pyplot as plt

T = A.shape[0]
plt.imshow(A, cmap="viridis", vmin=0, vmax=1.0)
plt.colorbar(label="Attention Weight $A_{ij}$")
labels = [f"Token {i}" for i in range(T)]
plt.xticks(range(T), labels)
plt.yticks(range(T), labels)
plt.xlabel("Keys / Values (Source Position $j$)")
plt.ylabel("Queries (Target Position $i$)")
for i in range(T):
    for j in range(T):
        val = float(A[i, j])
        plt.text(j, i, f"{val:.2f}", ha="center", va="center",
                 color="black" if val > 0.4 else "white")
plt.show()`;

export class AttnAttentionMatrix extends AttnCell {
  static stateFields = {
    seed: { type: 'integer', default: 42, min: 0, max: SEED_MAX },
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

  static properties = {
    ...super.properties,
    _result: { state: true },
    _error: { state: true },
    _row: { state: true },
    _col: { state: true },
    _seedDraft: { state: true },
  };

  static styles = [
    AttnCell.baseStyles,
    cellStyles,
    css`
      .lab {
        border: 1px solid var(--border, #d0d4dc);
        border-radius: 8px;
        padding: 0.75rem 1rem;
        background: var(--surface, #fff);
        color: var(--text, #1b1e24);
        min-width: 0;
      }
      @media (max-width: 480px) {
        .lab {
          padding: 0.5rem;
        }
      }
      h3 {
        font-size: 1rem;
        margin: 1rem 0 0.25rem;
      }
      h3:first-of-type {
        margin-top: 0.5rem;
      }
      .controls {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.5rem;
      }
      .controls input {
        width: 7.5rem;
        font: inherit;
        font-family: var(--font-mono, ui-monospace, monospace);
      }
      .note,
      .hint {
        color: var(--muted, #555d6b);
        font-size: 0.85rem;
        margin: 0.25rem 0;
      }
      .error {
        color: var(--danger, #b3261e);
        margin: 0.25rem 0;
      }
      .mono,
      table.terms {
        font-family: var(--font-mono, ui-monospace, monospace);
        font-variant-numeric: tabular-nums;
        font-size: 0.85rem;
      }
      .scroll {
        overflow-x: auto;
      }
      table.terms {
        border-collapse: collapse;
        margin-top: 0.35rem;
      }
      table.terms th,
      table.terms td {
        padding: 0.2rem 0.5rem;
        text-align: right;
        white-space: nowrap;
      }
      table.terms thead th {
        border-bottom: 1px solid var(--border, #d0d4dc);
        color: var(--muted, #555d6b);
        font-weight: 600;
      }
      table.terms tfoot th,
      table.terms tfoot td {
        border-top: 1px solid var(--border, #d0d4dc);
        font-weight: 600;
      }
      tr.current {
        background: color-mix(in srgb, var(--accent, #3b5bdb) 14%, transparent);
      }
      .bar {
        display: inline-block;
        height: 0.7rem;
        min-width: 1px;
        background: var(--accent, #3b5bdb);
        vertical-align: middle;
      }
      .bar-cell {
        width: 6rem;
        text-align: left;
      }
      .pair {
        display: flex;
        flex-wrap: wrap;
        gap: 0 1rem;
        align-items: flex-start;
      }
      .pair > * {
        flex: 0 1 auto;
        max-width: 100%;
        min-width: 0;
      }
    `,
  ];

  constructor() {
    super();
    this._engine = null;
    this._result = null;
    this._error = '';
    this._row = 0;
    this._col = -1;
    this._seedDraft = null;
    this._key = '';
    this._draws = null; // { seed, V, S } for the last seed drawn
  }

  async connectedCallback() {
    super.connectedCallback();
    try {
      this._engine = await this.engine();
      this.requestUpdate();
    } catch (error) {
      this.fail(new Error(`the attention core could not be loaded: ${error.message}`));
    }
  }

  /** V (T × d_v) and S (T × T) from one seeded stream, V first, rounded to 2 decimals. */
  _draw(seed) {
    if (this._draws?.seed !== seed) {
      const r = this._engine.randn([T * DV + T * T], seed).data;
      const x = Array.from(r, round2);
      this._draws = {
        seed,
        V: rowsOf(Float64Array.from(x.slice(0, T * DV)), T, DV),
        S: rowsOf(Float64Array.from(x.slice(T * DV)), T, T),
      };
    }
    return this._draws;
  }

  willUpdate() {
    if (!this._engine) return;
    try {
      const draws = this._draw(this.seed);
      if (!this.edited && !sameMatrix(this.scores, draws.S)) this.scores = draws.S;
    } catch (error) {
      this._error = error.message;
      return;
    }
    const key = JSON.stringify([this.seed, this.edited, this.scores]);
    if (key !== this._key) {
      this._key = key;
      this._compute();
    }
  }

  _compute() {
    try {
      const { V } = this._draws;
      const S = this.scores;
      if (S.length !== T || S.some((row) => row.length !== T)) {
        throw new Error(`S must be ${T} × ${T}, got ${S.length} × ${S[0]?.length ?? 0}`);
      }
      const A = this._engine.softmax(S); // (T, T), softmax over the last axis
      const report = this._engine.rowStochasticReport(A);
      const Y = this._engine.convexCombination(A, V); // (T, d_v)
      const sums = rowsOf(A.data, T, T).map((row) => row.reduce((a, b) => a + b, 0));
      this._result = { S, V, A, Y, report, sums, seed: this.seed };
      this._error = '';
    } catch (error) {
      this._error = `${error.message}; showing the last valid result.`;
    }
  }

  _reroll() {
    let seed = this.seed;
    while (seed === this.seed) seed = Math.floor(Math.random() * SEED_MAX);
    Object.assign(this, { seed, edited: false });
    this._seedDraft = null;
    this.stateChanged();
  }

  _onSeed(event) {
    const text = event.target.value;
    try {
      const seed = parseField(text.trim(), 'seed', AttnAttentionMatrix.stateFields.seed);
      this._seedDraft = null;
      if (seed !== this.seed || this.edited) {
        Object.assign(this, { seed, edited: false });
        this.stateChanged();
      }
    } catch (error) {
      this._seedDraft = { text, error: `Seed: ${error.message.replace(/^seed: /, '')}` };
    }
  }

  _onEdit(event) {
    event.stopPropagation();
    const values = event.target.values; // the editor's own array: keeps its typing state
    if (!Array.isArray(values) || values.length !== T) return;
    this.edited = !sameMatrix(values, this._draws?.S ?? []);
    this.scores = values;
    this.stateChanged();
  }

  _onCell(event) {
    this._row = event.detail.row;
    this._col = event.detail.col;
  }

  reset() {
    resetToAuthored(this);
    this._seedDraft = null;
    this._row = 0;
    this._col = -1;
  }

  _printout(r) {
    const sums = r.sums.map((s) => s.toFixed(7)).join(', ');
    return [
      `Attention Matrix A shape: (${r.A.shape.join(', ')})`,
      `Row sums of A: [${sums}]`,
      `Output Matrix Y shape: (${r.Y.shape.join(', ')}) [Preserves (T, dv)]`,
    ].join('\n');
  }

  _breakdown(r) {
    const i = Math.min(this._row, T - 1);
    const weights = r.A.data.subarray(i * T, (i + 1) * T);
    const y = r.Y.data.subarray(i * DV, (i + 1) * DV);
    const total = weights.reduce((a, b) => a + b, 0);
    return html`<div class="breakdown" data-row=${i} aria-live="polite">
      <p class="mono">
        y<sub>${i}</sub> = Σ<sub>j</sub> A<sub>${i}j</sub> v<sub>j</sub>: row ${i} (Token ${i}) of A weights the rows of
        V
      </p>
      <div class="scroll" tabindex="0" role="region" aria-label=${`Terms of y${i}`}>
        <table class="terms">
          <caption class="visually-hidden">
            ${`Row ${i} of Y as a weighted sum of the rows of V`}
          </caption>
          <thead>
            <tr>
              <th scope="col">j</th>
              <th scope="col">A<sub>${i}j</sub></th>
              <th scope="col"><span class="visually-hidden">weight as a bar</span></th>
              <th scope="col">v<sub>j</sub></th>
              <th scope="col">A<sub>${i}j</sub> · v<sub>j</sub></th>
            </tr>
          </thead>
          <tbody>
            ${Array.from(weights, (a, j) => {
              const v = r.V[j];
              return html`<tr class=${j === this._col ? 'current term' : 'term'} data-weight=${a}>
                <th scope="row">${j}</th>
                <td>${a.toFixed(4)}</td>
                <td class="bar-cell"><span class="bar" style=${`width: ${(a * 100).toFixed(1)}%`}></span></td>
                <td>${vector(v)}</td>
                <td>
                  ${vector(
                    v.map((x) => a * x),
                    3,
                  )}
                </td>
              </tr>`;
            })}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Σ</th>
              <td class="weight-sum">${total.toFixed(4)}</td>
              <td></td>
              <td></td>
              <td class="y-row" data-values=${Array.from(y).join(',')}>y<sub>${i}</sub> = ${vector(y, 3)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <p class="hint">
        Every weight is ≥ 0 and they add up to 1, so y<sub>${i}</sub> lies in the convex hull of v<sub>0</sub>, …,
        v<sub>${T - 1}</sub>. Hover or focus another cell of the heatmap (arrow keys move) to read another row.
      </p>
    </div>`;
  }

  renderCell() {
    const r = this._result;
    const draws = this._draws;
    const seedText = this._seedDraft ? this._seedDraft.text : String(this.seed);
    const shapeOk = r ? r.Y.shape.length === 2 && r.Y.shape[0] === T && r.Y.shape[1] === DV : undefined;
    const params = r && {
      seed: r.seed,
      V: r.V,
      S: r.S,
      row: Math.min(this._row, T - 1),
    };
    return html`<section class="lab" aria-label="Attention matrix lab: S, A = softmax(S) and Y = AV">
      <div class="controls" role="group" aria-label="Random draws">
        <label for="seed">Seed</label>
        <input
          id="seed"
          type="text"
          inputmode="numeric"
          autocomplete="off"
          spellcheck="false"
          aria-invalid=${this._seedDraft ? 'true' : 'false'}
          aria-describedby=${this._seedDraft ? 'seed-error' : ''}
          .value=${live(seedText)}
          @input=${this._onSeed}
        />
        <button type="button" class="reroll" @click=${this._reroll}>Re-roll</button>
        <button type="button" class="reset" @click=${() => this.reset()}>Reset</button>
      </div>
      ${this._seedDraft ? html`<p class="error field-error" id="seed-error">${this._seedDraft.error}</p>` : ''}
      <p class="note">
        V and S are standard normal draws from the core's seeded generator, rounded to 2
        decimals${this.edited ? html`; <strong>S has been edited by hand</strong>` : ''}.
      </p>
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      ${
        !r || !draws
          ? html`<p class="note">Loading the attention core…</p>`
          : html`
              <h3>The inputs: logits S and values V</h3>
              <p class="note">Row i of S holds the scores of query i for every key j. Type over any entry.</p>
              <div class="pair">
                <attn-matrix-editor
                  label="Logits S (T × T)"
                  min="-100"
                  max="100"
                  row-labels="0,1,2,3,4"
                  col-labels="0,1,2,3,4"
                  values=${formatField(draws.S, AttnAttentionMatrix.stateFields.scores)}
                  .values=${this.scores}
                  @change=${this._onEdit}
                ></attn-matrix-editor>
                <attn-matrix
                  compact
                  label="Values V (T × d_v)"
                  caption="Values V (T × d_v): row j is v_j"
                  precision="2"
                  row-labels="v0,v1,v2,v3,v4"
                  col-labels=${DIMS}
                  .values=${r.V}
                ></attn-matrix>
              </div>

              <h3>A = softmax(S), one row at a time</h3>
              <attn-heatmap
                label="Row-stochastic attention matrix A"
                caption="Rows: queries (target position i). Columns: keys and values (source position j)."
                min="0"
                max="1"
                row-labels=${TOKENS}
                col-labels=${TOKENS}
                highlight-row=${Math.min(this._row, T - 1)}
                .values=${r.A}
                @cell-focus=${this._onCell}
              ></attn-heatmap>
              <attn-output label="Output" .text=${this._printout(r)}></attn-output>
              <attn-check
                class="row-sums"
                label="max over rows of |Σⱼ Aᵢⱼ − 1|"
                threshold="1e-6"
                .value=${r.report.maxRowSumError}
              ></attn-check>
              <attn-check
                class="non-negative"
                label="smallest entry of A"
                comparison="ge"
                threshold="0"
                .value=${r.report.minEntry}
              ></attn-check>

              <h3>Y = AV keeps the shape (T, d_v)</h3>
              <attn-matrix
                compact
                label="Output Y = AV (T × d_v)"
                caption="Y = AV: row i is y_i, the mixture for query i"
                precision="3"
                row-labels="y0,y1,y2,y3,y4"
                col-labels=${DIMS}
                highlight-row=${Math.min(this._row, T - 1)}
                .values=${rowsOf(r.Y.data, r.Y.shape[0], r.Y.shape[1])}
              ></attn-matrix>
              <attn-check
                class="shape"
                label=${`Y.shape = (${r.Y.shape.join(', ')}), expected (T, d_v) = (${T}, ${DV})`}
                .pass=${shapeOk}
              ></attn-check>
              ${this._breakdown(r)}

              <h3>The same in code</h3>
              <attn-code label="PyTorch" .template=${TORCH} .params=${params}></attn-code>
              <attn-code label="NumPy" .template=${NUMPY} .params=${params}></attn-code>
              <attn-code label="The heatmap with Matplotlib (after either cell)" .template=${PLOT}></attn-code>
            `
      }
    </section>`;
  }
}

customElements.define('attn-attention-matrix', AttnAttentionMatrix);
