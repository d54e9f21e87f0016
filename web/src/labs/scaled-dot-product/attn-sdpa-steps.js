/**
 * <attn-sdpa-steps id="steps" seed="0" batch="0" row="0" step="0">
 *
 * A step-through of scaled dot-product attention for one query row i of the
 * lesson's Q, K, V ((B, T, D) = (2, 5, 8), seeded), in the four passes of the
 * core's kernels:
 *   1. scores      s_j = q_i · k_j                    (for each key j)
 *   2. scale       s_j / √d_k
 *   3. softmax     w_j = exp(s_j/√d_k − max) / Σ exp(…)
 *   4. weighted sum  y_i = Σ_j w_j v_j
 * A table shows the numbers of row i pass by pass (the columns of later
 * passes stay empty until reached). Previous/Next buttons, or the arrow keys
 * (← →, Home, End) on the step list, move between passes; the query row and
 * the batch are chosen beside them.
 *
 * Maths in the wasm core: randn; attention with scale = 1 and returnLogits
 * (the raw scores), with returnWeights and returnLogits (scaled scores,
 * weights, output). JS only picks row i, multiplies w_j by v_j for the display
 * of the terms (y_i itself is the core's) and formats.
 *
 * State (permalink): seed, batch (0–1), row (0–4), step (0–3).
 * Host attribute data-step mirrors the current pass; data-settled (AttnCell) once computed.
 */
import { css, html } from 'lit';
import { AttnCell } from '../../cells/base/attn-cell.js';
import { cellStyles, resetToAuthored } from '../../cells/base/cell-support.js';
import {
  B,
  D,
  SEED_MAX,
  T,
  batchOf,
  batchSelect,
  drawQKV,
  fixed,
  labStyles,
  rowOf,
  seedControls,
  seedHandlers,
  vector,
} from '../common/qkv-lab.js';

const PASSES = [
  { id: 'scores', name: 'Scores', formula: html`s<sub>j</sub> = q<sub>i</sub> · k<sub>j</sub>` },
  { id: 'scale', name: 'Scale', formula: html`s<sub>j</sub> / √d<sub>k</sub>` },
  { id: 'softmax', name: 'Softmax', formula: html`w<sub>j</sub> = softmax(s / √d<sub>k</sub>)<sub>j</sub>` },
  { id: 'sum', name: 'Weighted sum', formula: html`y<sub>i</sub> = Σ<sub>j</sub> w<sub>j</sub> v<sub>j</sub>` },
];

const CODE = `# needs: sdpa
import numpy as np
# Q, K, V: the (2, 5, 8) arrays of the code cells above
b, i = {{batch}}, {{row}}                  # batch and query row
q, K_b, V_b = Q[b, i], K[b], V[b]
d_k = q.shape[-1]

s = K_b @ q                    # pass 1: scores s_j = q_i · k_j, shape (T,)
s_scaled = s / np.sqrt(d_k)    # pass 2: scale by 1/sqrt(d_k)
e = np.exp(s_scaled - s_scaled.max())
w = e / e.sum()                # pass 3: softmax, sums to 1
y = w @ V_b                    # pass 4: weighted sum of the values, shape (D,)
print(np.round(s, 4), np.round(s_scaled, 4), np.round(w, 4), np.round(y, 4), sep='\\n')`;

export class AttnSdpaSteps extends AttnCell {
  static stateFields = {
    seed: { type: 'integer', default: 0, min: 0, max: SEED_MAX },
    batch: { type: 'integer', default: 0, min: 0, max: B - 1 },
    row: { type: 'integer', default: 0, min: 0, max: T - 1 },
    step: { type: 'integer', default: 0, min: 0, max: PASSES.length - 1 },
  };

  static properties = {
    ...super.properties,
    _result: { state: true },
    _error: { state: true },
    _seedDraft: { state: true },
  };

  static styles = [
    AttnCell.baseStyles,
    cellStyles,
    labStyles,
    css`
      ol.passes {
        display: flex;
        flex-wrap: wrap;
        gap: 0.35rem;
        list-style: none;
        padding: 0.2rem;
        margin: 0.5rem 0;
        border-radius: 6px;
      }
      ol.passes:focus-visible {
        outline: 2px solid var(--accent, #3b5bdb);
        outline-offset: 2px;
      }
      ol.passes li {
        border: 1px solid var(--border, #d0d4dc);
        border-radius: 999px;
        padding: 0.1rem 0.6rem;
        font-size: 0.85rem;
        color: var(--muted, #555d6b);
      }
      ol.passes li.done {
        color: var(--text, #1b1e24);
      }
      ol.passes li[aria-current='step'] {
        border-color: var(--accent, #3b5bdb);
        background: color-mix(in srgb, var(--accent, #3b5bdb) 16%, transparent);
        color: var(--text, #1b1e24);
        font-weight: 600;
      }
      table.steps {
        border-collapse: collapse;
        margin-top: 0.35rem;
      }
      table.steps th,
      table.steps td {
        padding: 0.2rem 0.55rem;
        text-align: right;
        white-space: nowrap;
      }
      table.steps thead th {
        border-bottom: 1px solid var(--border, #d0d4dc);
        color: var(--muted, #555d6b);
        font-weight: 600;
      }
      table.steps tfoot th,
      table.steps tfoot td {
        border-top: 1px solid var(--border, #d0d4dc);
        font-weight: 600;
      }
      table.steps .current {
        background: color-mix(in srgb, var(--accent, #3b5bdb) 12%, transparent);
      }
      table.steps .pending {
        color: var(--muted, #555d6b);
      }
      .explain {
        margin: 0.5rem 0;
      }
    `,
  ];

  constructor() {
    super();
    this._engine = null;
    this._result = null;
    this._error = '';
    this._seedDraft = null;
    this._key = '';
    this._seed = seedHandlers(this, AttnSdpaSteps.stateFields.seed);
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
    if (String(this.seed) !== this._key) {
      this._key = String(this.seed);
      try {
        const e = this._engine;
        const { q, k, v } = drawQKV(e, this.seed);
        const raw = e.attention(q, k, v, { scale: 1, returnLogits: true }).logits;
        const full = e.attention(q, k, v, { returnWeights: true, returnLogits: true });
        this._result = { q, k, v, raw, scaled: full.logits, weights: full.weights, out: full.output };
        this._error = '';
      } catch (error) {
        this._error = `${error.message}; showing the last valid result.`;
      }
    }
  }

  updated() {
    this.dataset.step = String(this.step);
  }

  _onSeed(event) {
    this._seed.onSeed(event);
  }

  _reroll() {
    this._seed.reroll();
  }

  reset() {
    resetToAuthored(this);
    this._seedDraft = null;
  }

  _go(step) {
    const next = Math.max(0, Math.min(PASSES.length - 1, step));
    if (next === this.step) return;
    this.step = next;
    this.stateChanged();
  }

  _onKey(event) {
    const moves = {
      ArrowRight: this.step + 1,
      ArrowDown: this.step + 1,
      ArrowLeft: this.step - 1,
      ArrowUp: this.step - 1,
      Home: 0,
      End: PASSES.length - 1,
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    this._go(moves[event.key]);
  }

  /** Numbers of query row i at every pass. */
  _row(r) {
    const i = this.row;
    const b = this.batch;
    const at = (t) => rowOf(batchOf(t, b), i);
    const weights = at(r.weights);
    const values = Array.from({ length: T }, (_, j) => rowOf(batchOf(r.v, b), j));
    return {
      q: rowOf(batchOf(r.q, b), i),
      scores: at(r.raw),
      scaled: at(r.scaled),
      weights,
      terms: values.map((vj, j) => vj.map((x) => weights[j] * x)),
      y: rowOf(batchOf(r.out, b), i),
    };
  }

  _explain(x) {
    const i = this.row;
    const max = Math.max(...x.scaled);
    const best = x.weights.indexOf(Math.max(...x.weights));
    switch (this.step) {
      case 0:
        return html`Pass 1: query q<sub>${i}</sub> = ${vector(x.q, 2)} is dotted with each key k<sub>j</sub>, one score
          per key. A large score means q<sub>${i}</sub> and k<sub>j</sub> point the same way.`;
      case 1:
        return html`Pass 2: each score is divided by √d<sub>k</sub> = √${D} ≈ ${fixed(Math.sqrt(D), 4)}. The order of
          the scores does not change; their spread shrinks, so the softmax that follows is not pushed to one key.`;
      case 2:
        return html`Pass 3: softmax of the scaled scores. The core subtracts the row maximum (${fixed(max, 4)}) before
        exponentiating, so nothing overflows. The weights are non-negative and add up to
        ${fixed(
          x.weights.reduce((a, c) => a + c, 0),
          6,
        )};
        key ${best} gets the most.`;
      default:
        return html`Pass 4: the output row y<sub>${i}</sub> is the sum of the value rows v<sub>j</sub>, each scaled by
          its weight w<sub>j</sub>: a weighted average of the values, D = ${D} numbers.`;
    }
  }

  _table(x) {
    const s = this.step;
    const cell = (pass, value, digits = 4) => {
      const cls = pass === s ? 'current' : pass > s ? 'pending' : '';
      return pass > s
        ? html`<td class=${cls} data-pass=${PASSES[pass].id}>·</td>`
        : html`<td class=${cls} data-pass=${PASSES[pass].id} data-value=${value}>${fixed(value, digits)}</td>`;
    };
    const sum = (xs) => xs.reduce((a, c) => a + c, 0);
    return html`<div class="scroll" tabindex="0" role="region" aria-label="The numbers of the query row, pass by pass">
        <table class="steps mono">
          <caption class="visually-hidden">
            ${`Query row ${this.row} of batch ${this.batch}, passes 1 to ${s + 1}`}
          </caption>
          <thead>
            <tr>
              <th scope="col">key j</th>
              <th scope="col" class=${s === 0 ? 'current' : ''}>q<sub>i</sub>·k<sub>j</sub></th>
              <th scope="col" class=${s === 1 ? 'current' : ''}>÷ √d<sub>k</sub></th>
              <th scope="col" class=${s === 2 ? 'current' : ''}>w<sub>j</sub></th>
              <th scope="col" class=${s === 3 ? 'current' : ''}>w<sub>j</sub> v<sub>j</sub></th>
            </tr>
          </thead>
          <tbody>
            ${x.scores.map(
              (_, j) =>
                html`<tr>
                  <th scope="row">${j}</th>
                  ${cell(0, x.scores[j])} ${cell(1, x.scaled[j])} ${cell(2, x.weights[j])}
                  ${
                    s < 3
                      ? html`<td class="pending">·</td>`
                      : html`<td class="current" data-pass="sum">${vector(x.terms[j], 2)}</td>`
                  }
                </tr>`,
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Σ</th>
              <td></td>
              <td></td>
              ${s < 2 ? html`<td class="pending">·</td>` : html`<td class="weight-sum" data-value=${sum(x.weights)}>${fixed(sum(x.weights), 4)}</td>`}
              ${s < 3 ? html`<td class="pending">·</td>` : html`<td class="current">y<sub>${this.row}</sub> ↓</td>`}
            </tr>
          </tfoot>
        </table>
      </div>
      ${
        s === 3
          ? html`<p class="mono y-row" data-values=${x.y.join(',')}>
              y<sub>${this.row}</sub> = Σ<sub>j</sub> w<sub>j</sub> v<sub>j</sub> = ${vector(x.y, 4)}
            </p>`
          : ''
      }`;
  }

  renderCell() {
    const r = this._result;
    const s = this.step;
    const x = r && this._row(r);
    const rowSelect = html`<label for="row">Query row i</label>
      <select
        id="row"
        @change=${(e) => {
          this.row = Number(e.target.value);
          this.stateChanged();
        }}
      >
        ${Array.from({ length: T }, (_, i) => html`<option value=${i} ?selected=${i === this.row}>${i}</option>`)}
      </select>`;
    return html`<section class="lab" aria-label="Step through the passes of attention for one query row">
      ${seedControls(this, html`${batchSelect(this, 'steps-batch')} ${rowSelect}`)}
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      <ol class="passes" tabindex="0" aria-label="Passes (use the arrow keys to move)" @keydown=${this._onKey}>
        ${PASSES.map(
          (p, n) =>
            html`<li class=${n < s ? 'done' : ''} aria-current=${n === s ? 'step' : 'false'} data-pass=${p.id}>
              ${n + 1}. ${p.name}
            </li>`,
        )}
      </ol>
      <div class="controls">
        <button type="button" class="previous" ?disabled=${s === 0} @click=${() => this._go(s - 1)}>← Previous</button>
        <button type="button" class="next" ?disabled=${s === PASSES.length - 1} @click=${() => this._go(s + 1)}>
          Next →
        </button>
        <span class="mono current-pass" aria-live="polite" data-pass=${PASSES[s].id}
          >Pass ${s + 1} of ${PASSES.length}: ${PASSES[s].formula}</span
        >
      </div>
      ${
        !x
          ? html`<p class="note">Loading the attention core…</p>`
          : html`<p class="explain">${this._explain(x)}</p>
              ${this._table(x)}
              <attn-code
                label="The four passes in NumPy"
                .template=${CODE}
                .params=${{ batch: this.batch, row: this.row }}
              ></attn-code>`
      }
    </section>`;
  }
}

customElements.define('attn-sdpa-steps', AttnSdpaSteps);
