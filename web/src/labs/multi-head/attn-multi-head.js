/**
 * <attn-multi-head id="mh" batch="2" heads="3" length="5" dv="4" seed="42">
 *
 * The lab of the multi-head lesson ("Attention as a Weighted Mixture" §6–§7): values V
 * (B, h, T, d_v) and logits S (B, h, T, T) drawn at random, A = softmax(S) over the last axis and
 * Y = AV for every sequence and head at once (multi-head-model.js; the maths is the core's).
 *
 * The figure, two linked views side by side (stacked when narrow): the grid of the B · h maps of
 * A (rows: sequences b, columns: heads k), small and in colours only (their cells are too small to
 * print numbers in, which the lab says), with the sizes B, h, T, d_v (typed, or − and +) and the
 * Seed row directly under it; and the map picked in the grid (click it, or arrow keys), drawn
 * large with its numbers (attn-heatmap, compact: 12 px text, numbers in cells of 32 px and more,
 * up to 56 px beside the grid). Then the shapes of Y = AV (attn-shape-diagram), the
 * notebook's printout and its dimensional audit table with the live shapes, indices from 0.
 * Verified (one line): every row of A sums to 1 across all sequences and heads; Y has shape
 * (B, h, T, d_v). The PyTorch code with the current sizes.
 *
 * State (permalink): batch B (1–4), heads h (1–6), length T (1–8), dv (1–16), seed. A size typed
 * out of range or not a whole number shows its error beside the field and the lab keeps the last
 * valid sizes. Re-roll draws a new seed; Reset goes back to the authored state. The map shown
 * large is view state (not saved). Export: the grid as SVG/PNG, every weight as CSV/JSON.
 */
import { html } from 'lit';
import { live } from 'lit/directives/live.js';
import { cellStyles, readWholeNumber } from '../../cells/base/cell-support.js';
import { AttnLab, checkCells } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { mathPlain, tex } from '../../cells/base/math.js';
import { SeedControl, seedField } from '../../cells/base/seeds.js';
import { tableStyles, touchTargets } from '../../cells/base/styles.js';
import { MULTI_HEAD_TORCH } from './multi-head-code.js';
import {
  LEGEND_GRADIENT,
  SIZES,
  codeParams,
  computeMultiHead,
  describeMultiHead,
  exportObject,
  gridSvg,
  moveInGrid,
  multiHeadChecks,
  pickMap,
  weightRows,
} from './multi-head-model.js';
import { mapGrid, shapesAndAudit } from './multi-head-parts.js';
import { multiHeadStyles } from './multi-head-styles.js';
import { styleProps } from '../../charts/style-props.js';

export class AttnMultiHead extends AttnLab {
  static stateFields = {
    batch: { type: 'integer', default: 2, min: 1, max: 4 },
    heads: { type: 'integer', default: 3, min: 1, max: 6 },
    length: { type: 'integer', default: 5, min: 1, max: 8 },
    dv: { type: 'integer', default: 4, min: 1, max: 16 },
    seed: seedField(42),
  };

  static properties = { ...super.properties, _drafts: { state: true }, _pick: { state: true } };

  static styles = [AttnLab.labStyles, cellStyles, tableStyles, touchTargets, multiHeadStyles];

  defaultLabel = 'Multi-head lab: batched attention weights and values';

  constructor() {
    super();
    this._drafts = {};
    this._pick = { b: 0, k: 0 };
    this.seeds = new SeedControl(this, 'Random draws of V and S');
    this.task = new LabTask(this, {
      args: () => [this.batch, this.heads, this.length, this.dv, this.seed],
      run: ([batch, heads, length, dv, seed], { engine }) =>
        computeMultiHead(engine, { batch, heads, length, dv, seed }),
      explain: () => 'These sizes could not be computed; showing the last ones that worked.',
    });
  }

  resetView() {
    this._drafts = {};
    this._pick = { b: 0, k: 0 };
    this.seeds.draft = null;
  }

  describe() {
    return describeMultiHead(this.task.value);
  }

  exportSvgText() {
    return gridSvg(this.task.value);
  }

  exportRows() {
    return weightRows(this.task.value);
  }

  exportObject() {
    return exportObject(this.task.value);
  }

  _size(field) {
    return SIZES.find((s) => s.field === field);
  }

  _onSize(event) {
    const input = event.target;
    const field = input.dataset.field;
    const spec = AttnMultiHead.stateFields[field];
    const read = readWholeNumber(input, { min: spec.min, max: spec.max });
    if (read.error) {
      const error = `${read.error}; a whole number from ${spec.min} to ${spec.max}.`; // after the symbol
      this._drafts = { ...this._drafts, [field]: { text: input.value, error } };
      return;
    }
    this._drafts = { ...this._drafts, [field]: undefined };
    this.setField(field, read.value);
  }

  _step(field, delta) {
    const spec = AttnMultiHead.stateFields[field];
    this._drafts = { ...this._drafts, [field]: undefined };
    this.setField(field, Math.max(spec.min, Math.min(spec.max, this[field] + delta)));
  }

  _onGridKey(event) {
    const r = this.task.value;
    const next = moveInGrid(pickMap(r, this._pick), event.key, r.B, r.h);
    if (!next) return;
    event.preventDefault();
    this._pick = next;
    this.updateComplete.then(() => this.renderRoot.querySelector('button.tile[tabindex="0"]')?.focus());
  }

  _sizeControls() {
    const errors = SIZES.filter(({ field }) => this._drafts[field]);
    return html`<div class="controls sizes" role="group" aria-label="Sizes">
        ${SIZES.map(({ field, symbol, words }) => {
          const spec = AttnMultiHead.stateFields[field];
          const draft = this._drafts[field];
          const name = mathPlain(`$${symbol}$`); // d_v read as "dv"
          return html`<div class="size">
            <label for=${`size-${field}`}>${tex(symbol)} (${words})</label>
            <div class="stepper">
              <button
                type="button"
                aria-label=${`${name} − 1`}
                ?disabled=${this[field] <= spec.min}
                @click=${() => this._step(field, -1)}
              >
                −
              </button>
              <input
                id=${`size-${field}`}
                type="number"
                min=${spec.min}
                max=${spec.max}
                step="1"
                data-field=${field}
                aria-invalid=${draft ? 'true' : 'false'}
                aria-describedby=${draft ? `error-${field}` : ''}
                .value=${live(draft ? draft.text : String(this[field]))}
                @input=${this._onSize}
              />
              <button
                type="button"
                aria-label=${`${name} + 1`}
                ?disabled=${this[field] >= spec.max}
                @click=${() => this._step(field, 1)}
              >
                +
              </button>
            </div>
            <span class="range">${spec.min} to ${spec.max}</span>
          </div>`;
        })}
      </div>
      <ul class="errors" aria-live="polite">
        ${errors.map(
          ({ field, symbol }) =>
            html`<li class="field-error" id=${`error-${field}`}>${tex(symbol)} ${this._drafts[field].error}</li>`,
        )}
      </ul>
      ${this.seeds.render()}`;
  }

  _figure(r) {
    const map = pickMap(r, this._pick);
    return html`<h3 id="grid-title">
        The weights ${tex`A`}: one ${tex`T \times T`} map per sequence ${tex`b`} and head ${tex`k`}
      </h3>
      <div class="linked">
        <div class="overview">
          ${mapGrid(r, map, { onPick: (pick) => (this._pick = pick), onKey: (e) => this._onGridKey(e) })}
          <p class="note">
            ${r.B} × ${r.h} = ${r.B * r.h} maps of ${r.T} × ${r.T} weights. The small maps show colours only, their
            cells being too small to print numbers in: pick one to read it in the large map. One colour scale for every
            map:
          </p>
          <p class="legend" aria-hidden="true">
            weight 0 <span class="ramp" style=${styleProps({ background: LEGEND_GRADIENT })}></span> 1
          </p>
          ${this._sizeControls()}
        </div>
        <div class="detail" style=${styleProps({ '--cells': String(r.T) })}>
          <attn-heatmap
            compact
            data-batch=${map.b}
            data-head=${map.k}
            label=${`A[${map.b}, ${map.k}]: sequence ${map.b}, head ${map.k}`}
            caption=${`$A[${map.b}, ${map.k}]$. Row $i$: the weights with which position $i$ mixes the values; column $j$: the value mixed in.`}
            min="0"
            max="1"
            .values=${map.values}
          ></attn-heatmap>
        </div>
      </div>`;
  }

  renderFigure() {
    const r = this.task.value;
    if (!r) return this.renderLab({ figure: html`<p class="note">Loading the attention core…</p>` });
    return this.renderLab({
      figure: this._figure(r),
      after: shapesAndAudit(r, this.seed),
      checks: checkCells(multiHeadChecks(r)),
      code: html`<attn-code label="PyTorch" .template=${MULTI_HEAD_TORCH} .params=${codeParams(r)}></attn-code>`,
      hood: html`<p>
        ${tex`Y`} is computed by the core as the notebook computes it, ${tex`Y = AV`}: for every sequence ${tex`b`} and
        head ${tex`k`}, convexCombination(A[b, k], V[b, k]) mixes the rows of ${tex`V[b, k]`} with the weights of each
        row of ${tex`A[b, k]`}, as torch.matmul does for every ${tex`(b, k)`} of the batch. The row sums are measured by
        the core (rowStochasticReport) in float32.
      </p>`,
    });
  }
}

customElements.define('attn-multi-head', AttnMultiHead);
