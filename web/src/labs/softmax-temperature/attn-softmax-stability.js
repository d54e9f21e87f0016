/**
 * <attn-softmax-stability id="overflow" logits="1000,1001,1002">
 *
 * Why softmax subtracts the maximum. The figure is a table of the same logits through
 * - the naive formula exp(s) / Σ exp(s), computed here in plain JavaScript as a demonstration:
 *   exp(1000) overflows to Infinity and Infinity / Infinity is NaN;
 * - the wasm core's softmax, exp(s − max s) / Σ exp(s − max s), which stays finite for any finite
 *   logits.
 * Beside it: the logits (an attn-vector-editor: a bad entry shows the reason beside the field and
 * the lab keeps the last valid logits), a few logits to try, and what happened in a sentence.
 * Verified (one line): the naive result holds NaN exactly when some exp(s) overflows (s > 709.78)
 * or every exp(s) underflows to 0 (s < −745.13); the core's weights are finite and sum to 1; and
 * the core gives the same weights for s and s − max s. NumPy code with the current logits.
 *
 * State (permalink): logits (1 to 16 numbers, each in [−1e6, 1e6]). Attributes: label, caption.
 * The host has data-naive-nan while the naive softmax is NaN. An AttnLab: Reset, Export (the
 * table as SVG/PNG/CSV/JSON), data-settled once drawn.
 */
import { css, html } from 'lit';
import { AttnLab, checkCells } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { tex } from '../../cells/base/math.js';
import { tableStyles, touchTargets } from '../../cells/base/styles.js';
import { tableSvgDocument, themeColours } from '../../charts/table-svg.js';
import {
  computeStability,
  describeStability,
  naiveSummary,
  STABILITY_CODE,
  STABILITY_COLUMNS,
  STABILITY_PRESETS,
  stabilityChecks,
  stabilityTable,
} from './softmax-stability-model.js';

const bad = (text) => text === 'NaN' || text.endsWith('Infinity');

export class AttnSoftmaxStability extends AttnLab {
  static stateFields = {
    logits: { type: 'numbers', default: [1000, 1001, 1002], minLength: 1, maxLength: 16, min: -1e6, max: 1e6 },
  };

  static styles = [
    AttnLab.labStyles,
    tableStyles,
    touchTargets,
    css`
      table.stability td {
        font-family: var(--font-mono, ui-monospace, monospace);
        font-variant-numeric: tabular-nums;
        white-space: nowrap;
      }
      table.stability .naive {
        background: color-mix(in srgb, var(--danger, #b3261e) 6%, transparent);
      }
      table.stability .stable {
        background: color-mix(in srgb, var(--accent, #3b5bdb) 8%, transparent);
      }
      table.stability td.bad {
        color: var(--danger, #b3261e);
        font-weight: 600;
      }
      table.stability thead th {
        white-space: nowrap;
      }
      table.stability tr.sum > * {
        border-top: 2px solid var(--border, #d0d4dc);
      }
      /* a narrow figure: the heads wrap (as tableStyles has every table do), so both halves, the
         naive formula and the fix, are on screen side by side instead of the fix scrolled away */
      @container (max-width: 36rem) {
        table.stability thead th {
          white-space: normal;
        }
      }
      .presets button {
        font-family: var(--font-mono, ui-monospace, monospace);
      }
      .summary {
        margin: 0.5rem 0 0;
      }
    `,
  ];

  defaultLabel = 'Naive and stable softmax';

  constructor() {
    super();
    this.task = new LabTask(this, {
      args: () => [this.logits],
      run: ([logits], { engine }) => computeStability(engine, logits),
      explain: () => 'The stable softmax could not be computed for these logits; the table keeps the last ones.',
    });
  }

  updated() {
    this.toggleAttribute('data-naive-nan', Boolean(this.task.value?.naiveNaN));
  }

  _setLogits(logits) {
    this.beginEdit();
    this.logits = logits;
    this.stateChanged();
  }

  describe() {
    return describeStability(this.logits, this.task.value);
  }

  _cells() {
    const r = this.task.value;
    return r ? stabilityTable(r) : [];
  }

  exportSvgText() {
    const rows = this._cells();
    return tableSvgDocument({
      cells: rows.map((row) => row.slice(1)),
      rowLabels: rows.map((row) => row[0]),
      colLabels: STABILITY_COLUMNS.slice(1),
      title: this.accessibleName,
      colours: themeColours(this),
    });
  }

  exportRows() {
    return [STABILITY_COLUMNS, ...this._cells()];
  }

  exportObject() {
    const r = this.task.value;
    return {
      logits: this.logits,
      naive: r ? r.naive.weights.map((w) => (Number.isFinite(w) ? w : String(w))) : [],
      stable: r?.stable ?? [],
    };
  }

  _table() {
    const rows = this._cells();
    if (!rows.length) return this.task.error ? '' : html`<p class="readout">Loading the attention core…</p>`;
    const kind = ['', '', 'naive', 'naive', 'stable', 'stable'];
    return html`<table class="stability" tabindex="0">
      <caption class="sr-only">
        The logits through the naive formula and through the stable softmax
      </caption>
      <thead>
        <tr>
          <td colspan="2"></td>
          <th scope="colgroup" colspan="2" class="naive">Naive: ${tex`\exp(s) / \sum \exp(s)`}</th>
          <th scope="colgroup" colspan="2" class="stable">Stable: maximum subtracted first</th>
        </tr>
        <tr>
          <th scope="col">${tex`j`}</th>
          <th scope="col">${tex`s_j`}</th>
          <th scope="col" class="naive">${tex`\exp(s_j)`}</th>
          <th scope="col" class="naive">${tex`\alpha_j`}</th>
          <th scope="col" class="stable">${tex`s_j - \max s`}</th>
          <th scope="col" class="stable">${tex`\alpha_j`}</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (row, r) =>
            html`<tr class=${r === rows.length - 1 ? 'sum' : 'term'}>
              <th scope="row">${row[0]}</th>
              ${row
                .slice(1)
                .map((text, c) => html`<td class=${`${kind[c + 1]} ${bad(text) ? 'bad' : ''}`}>${text}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>`;
  }

  renderFigure() {
    const r = this.task.value;
    const controls = html`
      <attn-vector-editor
        label="Logits s"
        min="-1000000"
        max="1000000"
        max-count="16"
        values=${this.getAttribute('logits') ?? this.constructor.stateFields.logits.default.join(',')}
        .values=${this.logits}
        @change=${(e) => this._setLogits(e.detail.values)}
      ></attn-vector-editor>
      <div class="controls presets" role="group" aria-labelledby="try">
        <span id="try">Try</span>
        ${STABILITY_PRESETS.map(
          (p) =>
            html`<button type="button" title=${p.what} @click=${() => this._setLogits(p.logits)}>
              ${p.logits.join(', ')}
            </button>`,
        )}
      </div>
      <p class="summary" aria-live="polite">${naiveSummary(r)}</p>
    `;
    const checks = checkCells(stabilityChecks(r));
    const hood = html`<p>
      The naive column is computed here in plain JavaScript, in double precision (float64 Math.exp), for this
      demonstration only; nothing else in the course uses it. exp(s) overflows float64 above s ≈ 709.78 and underflows
      to 0 below s ≈ −745.13 (float32, PyTorch's default, overflows above 88.72). The stable column is the WebAssembly
      core's softmax, which subtracts the maximum for every softmax it computes.
    </p>`;
    return this.renderLab({
      figure: this._table(),
      controls,
      checks,
      code: html`<attn-code label="NumPy" .template=${STABILITY_CODE} .params=${{ logits: this.logits }}></attn-code>`,
      hood,
    });
  }
}

customElements.define('attn-softmax-stability', AttnSoftmaxStability);
