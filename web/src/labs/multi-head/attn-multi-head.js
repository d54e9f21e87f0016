/**
 * <attn-multi-head id="mh" batch="2" heads="3" length="5" dv="4" seed="42">
 *
 * The lab of the multi-head lesson ("Attention as a Weighted Mixture" §6–§7):
 * values V (B, h, T, d_v) and logits S (B, h, T, T) drawn from the core's
 * seeded normal generator (one stream, V first, as the notebook draws them),
 * A = softmax(S) over the last axis, and Y = AV computed for every batch
 * entry and head at once. Shows the shapes of the product as a diagram
 * (attn-shape-diagram), one heatmap of A per (batch, head), the notebook's
 * printout, its two assertions as live checks (rows of A sum to 1 across all
 * batches and heads; Y has shape (B, h, T, d_v)) and the dimensional audit
 * table with the live shapes.
 *
 * Maths in the wasm core: randn, softmax (A), rowStochasticReport (the check),
 * and attention(S, I_T, V, { scale: 1 }) for Y: with K the T × T identity,
 * S Kᵀ = S, so the kernel computes softmax(S) V = AV with the batch axes
 * broadcast as torch.matmul does. Output shapes are the core's.
 *
 * State (permalink): batch B (1–4), heads h (1–6), length T (1–8), dv (1–16),
 * seed. A size typed out of range or not a whole number shows its error beside
 * the field and the lab keeps the last valid sizes. Re-roll draws a new seed;
 * Reset goes back to the authored state. data-settled (AttnCell) once computed and drawn.
 */
import { css, html } from 'lit';
import { live } from 'lit/directives/live.js';
import { AttnCell } from '../../cells/base/attn-cell.js';
import { cellStyles, readWholeNumber, resetToAuthored } from '../../cells/base/cell-support.js';

const SEED_MAX = 2147483647;

const SIZES = [
  ['batch', 'B', 'batch size: sequences'],
  ['heads', 'h', 'heads'],
  ['length', 'T', 'sequence length'],
  ['dv', 'd_v', 'value size per head'],
];

const shape = (dims) => `(${dims.join(', ')})`;

const TORCH = `import torch

B, h, T, d_v = {{B}}, {{h}}, {{T}}, {{dv}}  # batch, heads, sequence length, size per head

V = torch.randn(B, h, T, d_v)   # values: one (T, d_v) matrix per sequence and head
S = torch.randn(B, h, T, T)     # logits: one (T, T) matrix per sequence and head
A = torch.softmax(S, dim=-1)    # over the last axis (the keys j): every row sums to 1

Y = torch.matmul(A, V)          # A @ V: B*h = {{pairs}} products (T, T) @ (T, d_v), broadcast over (B, h)
print(f"Batched Attention Matrix A shape: {A.shape}")   # torch.Size({{ashape}})
print(f"Batched Value Matrix V shape: {V.shape}")       # torch.Size({{vshape}})
print(f"Batched Output Matrix Y shape: {Y.shape}")      # torch.Size({{yshape}})

assert torch.allclose(A.sum(dim=-1), torch.ones(B, h, T)), "All rows across all batches/heads must sum to 1.0!"
assert Y.shape == (B, h, T, d_v), "Output tensor shape must match (B, h, T, dv)!"
# The same product written with explicit indices: sum over the key axis j
assert torch.allclose(Y, torch.einsum("bhij,bhjd->bhid", A, V), atol=1e-6)
print("[OK] Multi-head batched tensor assertions verified successfully.")`;

export class AttnMultiHead extends AttnCell {
  static stateFields = {
    batch: { type: 'integer', default: 2, min: 1, max: 4 },
    heads: { type: 'integer', default: 3, min: 1, max: 6 },
    length: { type: 'integer', default: 5, min: 1, max: 8 },
    dv: { type: 'integer', default: 4, min: 1, max: 16 },
    seed: { type: 'integer', default: 42, min: 0, max: SEED_MAX },
  };

  static properties = {
    ...super.properties,
    _result: { state: true },
    _error: { state: true },
    _drafts: { state: true },
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
      h4 {
        font-size: 0.9rem;
        margin: 0.75rem 0 0;
        color: var(--muted, #555d6b);
      }
      .sizes {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        align-items: flex-end;
      }
      .size {
        display: flex;
        flex-direction: column;
        gap: 0.15rem;
        font-size: 0.85rem;
      }
      .size input {
        width: 5rem;
        font: inherit;
        font-family: var(--font-mono, ui-monospace, monospace);
      }
      .size .range {
        color: var(--muted, #555d6b);
      }
      .buttons {
        display: flex;
        gap: 0.5rem;
      }
      .note {
        color: var(--muted, #555d6b);
        font-size: 0.85rem;
        margin: 0.25rem 0;
      }
      .error {
        color: var(--danger, #b3261e);
        margin: 0.25rem 0;
      }
      .errors {
        list-style: none;
        margin: 0.35rem 0 0;
        padding: 0;
      }
      .heads {
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(12.5rem, 1fr));
        gap: 0 0.75rem;
      }
      .heads attn-heatmap {
        margin: 0.5rem 0;
      }
      .scroll {
        overflow-x: auto;
      }
      table.audit {
        border-collapse: collapse;
        font-size: 0.9rem;
      }
      table.audit th,
      table.audit td {
        border-bottom: 1px solid var(--border, #d0d4dc);
        padding: 0.3rem 0.5rem;
        text-align: left;
        vertical-align: top;
      }
      table.audit thead th {
        color: var(--muted, #555d6b);
      }
      .mono {
        font-family: var(--font-mono, ui-monospace, monospace);
        white-space: nowrap;
      }
      /* Narrow screens: one block per object, each value under its column name. */
      @media (max-width: 560px) {
        table.audit,
        table.audit tbody,
        table.audit tr,
        table.audit th,
        table.audit td {
          display: block;
        }
        table.audit thead {
          position: absolute;
          width: 1px;
          height: 1px;
          overflow: hidden;
          clip: rect(0 0 0 0);
        }
        table.audit tr {
          border-bottom: 1px solid var(--border, #d0d4dc);
          padding: 0.35rem 0;
        }
        table.audit th,
        table.audit td {
          border: 0;
          padding: 0.1rem 0;
        }
        table.audit td::before {
          content: attr(data-label) ': ';
          color: var(--muted, #555d6b);
          font-family: var(--font-sans, system-ui, sans-serif);
        }
      }
    `,
  ];

  constructor() {
    super();
    this._engine = null;
    this._result = null;
    this._error = '';
    this._drafts = {};
    this._key = '';
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

  willUpdate() {
    if (!this._engine) return;
    const key = JSON.stringify([this.batch, this.heads, this.length, this.dv, this.seed]);
    if (key !== this._key) {
      this._key = key;
      this._compute();
    }
  }

  _compute() {
    const [B, h, T, dv] = [this.batch, this.heads, this.length, this.dv];
    const engine = this._engine;
    try {
      // One seeded stream: V first, then S (the notebook's order of draws).
      const nV = B * h * T * dv;
      const draws = engine.randn([nV + B * h * T * T], this.seed).data;
      const V = { data: draws.subarray(0, nV), shape: [B, h, T, dv] };
      const S = { data: draws.subarray(nV), shape: [B, h, T, T] };
      const A = engine.softmax(S); // (B, h, T, T)
      const report = engine.rowStochasticReport(A);
      const identity = new Float32Array(T * T);
      for (let i = 0; i < T; i++) identity[i * T + i] = 1;
      // K = I and scale 1: the kernel's logits S Kᵀ are S itself, its output softmax(S) V = AV.
      const Y = engine.attention(S, { data: identity, shape: [T, T] }, V, { scale: 1 }).output; // (B, h, T, d_v)
      const maps = [];
      for (let b = 0; b < B; b++) {
        for (let k = 0; k < h; k++) {
          const at = (b * h + k) * T * T;
          maps.push({ b, k, values: { data: A.data.subarray(at, at + T * T), shape: [T, T] } });
        }
      }
      this._result = { B, h, T, dv, V, S, A, Y, report, maps };
      this._error = '';
    } catch (error) {
      this._error = `${error.message}; showing the last valid result.`;
    }
  }

  _onSize(event) {
    const input = event.target;
    const name = input.dataset.field;
    const spec = AttnMultiHead.stateFields[name];
    const label = SIZES.find(([field]) => field === name)[1];
    const read = readWholeNumber(input, { min: spec.min, max: spec.max });
    if (read.error) {
      this._drafts = {
        ...this._drafts,
        [name]: { text: input.value, error: `${label} ${read.error}; a whole number from ${spec.min} to ${spec.max}.` },
      };
      return;
    }
    this._drafts = { ...this._drafts, [name]: undefined };
    if (read.value !== this[name]) {
      this[name] = read.value;
      this.stateChanged();
    }
  }

  _reroll() {
    let seed = this.seed;
    while (seed === this.seed) seed = Math.floor(Math.random() * SEED_MAX);
    this.seed = seed;
    this.stateChanged();
  }

  reset() {
    resetToAuthored(this);
    this._drafts = {};
  }

  _printout(r) {
    return [
      `Batched Attention Matrix A shape: ${shape(r.A.shape)}`,
      `Batched Value Matrix V shape: ${shape(r.V.shape)}`,
      `Batched Output Matrix Y shape: ${shape(r.Y.shape)}`,
    ].join('\n');
  }

  _audit(r) {
    const rows = [
      [
        'Values',
        'V',
        'Feature representations',
        'B, h, T, d_v',
        r.V.shape,
        html`The vectors being blended; each lives in ℝ<sup>d<sub>v</sub></sup
          >.`,
      ],
      [
        'Logits',
        'S',
        'Unbounded compatibility',
        'B, h, T, T',
        r.S.shape,
        'Raw real scores from query–key dot products, anywhere in (−∞, ∞).',
      ],
      [
        'Weights',
        'A',
        'Row-stochastic matrix',
        'B, h, T, T',
        r.A.shape,
        'Non-negative coefficients that sum to 1 along each row.',
      ],
      [
        'Output',
        'Y',
        'Contextualised vectors',
        'B, h, T, d_v',
        r.Y.shape,
        html`Convex combinations of the values, bounded inside Conv(v<sub>1</sub>, …, v<sub>T</sub>).`,
      ],
    ];
    return html`<div class="scroll" tabindex="0" role="region" aria-label="Dimensional audit table">
      <table class="audit">
        <caption class="visually-hidden">
          Dimensional and conceptual audit, with the shapes of this lab
        </caption>
        <thead>
          <tr>
            <th scope="col">Object</th>
            <th scope="col">Mathematical domain</th>
            <th scope="col">Tensor shape</th>
            <th scope="col">Here</th>
            <th scope="col">Role in the mechanism</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            ([name, symbol, domain, symbolic, live, role]) =>
              html`<tr data-object=${symbol}>
                <th scope="row">${name} (${symbol})</th>
                <td data-label="Mathematical domain">${domain}</td>
                <td class="mono" data-label="Tensor shape">(${symbolic})</td>
                <td class="mono live-shape" data-label="Here">${shape(live)}</td>
                <td data-label="Role">${role}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  renderCell() {
    const r = this._result;
    const errors = SIZES.map(([name]) => [name, this._drafts[name]]).filter(([, d]) => d);
    const expected = r && [r.B, r.h, r.T, r.dv];
    const shapeOk = r ? r.Y.shape.length === 4 && r.Y.shape.every((d, i) => d === expected[i]) : undefined;
    const params = r && {
      B: r.B,
      h: r.h,
      T: r.T,
      dv: r.dv,
      pairs: r.B * r.h,
      ashape: r.A.shape,
      vshape: r.V.shape,
      yshape: r.Y.shape,
    };
    return html`<section class="lab" aria-label="Multi-head lab: batched attention weights and values">
      <div class="sizes" role="group" aria-label="Sizes">
        ${SIZES.map(([name, symbol, words]) => {
          const spec = AttnMultiHead.stateFields[name];
          const draft = this._drafts[name];
          return html`<label class="size">
            <span>${symbol} (${words})</span>
            <input
              type="number"
              min=${spec.min}
              max=${spec.max}
              step="1"
              data-field=${name}
              aria-invalid=${draft ? 'true' : 'false'}
              aria-describedby=${draft ? `error-${name}` : ''}
              .value=${live(draft ? draft.text : String(this[name]))}
              @input=${this._onSize}
            />
            <span class="range">${spec.min} to ${spec.max}</span>
          </label>`;
        })}
        <div class="buttons">
          <button type="button" class="reroll" @click=${this._reroll}>Re-roll</button>
          <button type="button" class="reset" @click=${() => this.reset()}>Reset</button>
        </div>
      </div>
      <ul class="errors" aria-live="polite">
        ${errors.map(([name, d]) => html`<li class="error field-error" id=${`error-${name}`}>${d.error}</li>`)}
      </ul>
      <p class="note">V and S: standard normal draws from the core's seeded generator (seed ${this.seed}).</p>
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      ${
        !r
          ? html`<p class="note">Loading the attention core…</p>`
          : html`
              <h3>The shapes of Y = AV</h3>
              <attn-shape-diagram
                label="Shapes of the batched product Y = AV"
                a-shape=${[r.B, r.h, r.T, r.T].join(',')}
                b-shape=${[r.B, r.h, r.T, r.dv].join(',')}
                a-labels="B,h,T,T"
                b-labels="B,h,T,d_v"
                operands="A,V,Y = AV"
                caption=${`${r.B} × ${r.h} = ${r.B * r.h} independent products of a (${r.T}, ${r.T}) matrix with a (${r.T}, ${r.dv}) one; the last axis of A is summed against the rows of V.`}
              ></attn-shape-diagram>

              <h3>One attention matrix per sequence and head</h3>
              <p class="note">
                Rows: queries i; columns: keys j. One colour scale for every map, from 0 (dark) to 1 (light), as in the
                previous lesson's heatmap. Hover or focus a cell to read it.
              </p>
              <div class="grid">
                ${Array.from(
                  { length: r.B },
                  (_, b) =>
                    html`<div class="batch" role="group" aria-label=${`Sequence b = ${b}`}>
                      <h4>Sequence b = ${b}</h4>
                      <div class="heads">
                        ${r.maps
                          .filter((m) => m.b === b)
                          .map(
                            (m) =>
                              html`<attn-heatmap
                                compact
                                data-batch=${m.b}
                                data-head=${m.k}
                                label=${`A[${m.b}, ${m.k}]: sequence ${m.b}, head ${m.k}`}
                                caption=${`Head ${m.k}: A[${m.b}, ${m.k}]`}
                                min="0"
                                max="1"
                                .values=${m.values}
                              ></attn-heatmap>`,
                          )}
                      </div>
                    </div>`,
                )}
              </div>
              <attn-output label="Output" .text=${this._printout(r)}></attn-output>
              <attn-check
                class="row-sums"
                label=${`max |row sum − 1| over all ${r.B * r.h * r.T} rows (B·h·T) of A`}
                threshold="1e-6"
                .value=${r.report.maxRowSumError}
              ></attn-check>
              <attn-check
                class="shape"
                label=${`Y.shape = ${shape(r.Y.shape)}, expected (B, h, T, d_v) = ${shape(expected)}`}
                .pass=${shapeOk}
              ></attn-check>

              <h3>Dimensional audit</h3>
              ${this._audit(r)}

              <h3>The same in code</h3>
              <attn-code label="PyTorch" .template=${TORCH} .params=${params}></attn-code>
            `
      }
    </section>`;
  }
}

customElements.define('attn-multi-head', AttnMultiHead);
