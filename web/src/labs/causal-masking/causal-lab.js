/**
 * CausalLab: what the causal-masking labs share on top of AttnLab (not an element: only
 * attn-*.js files are registered). Reset goes back to the lesson's own settings (the
 * attributes), also after a permalink set others; the T × T matrices are attn-heatmap cells
 * without a toolbar of their own (`bare`: the lab's one Export menu exports them), laid out for
 * the width they are given; hovering or focusing a cell reports it to the lab (`cell`,
 * { name, row, col }), which reads out that cell's whole row beside the figure; a lab with a
 * result { weights: (B, T, T) } shows batch `batch` (or 0) of it as the heatmap 'weights'; the
 * lab's headings, readouts and notes; below 600 px of window the lab's card is flat.
 */
import { css, html } from 'lit';
import { AttnLab } from '../../cells/base/lab.js';
import { resetToAuthored } from '../../cells/base/cell-support.js';
import { tableStyles } from '../../cells/base/styles.js';
import { batchOf } from '../common/qkv-lab.js';
import { POSITIONS, rowReadout, weightsCsv } from './masks-model.js';

export class CausalLab extends AttnLab {
  static properties = { ...super.properties, cell: { state: true } };

  static causalStyles = [
    AttnLab.labStyles,
    tableStyles,
    css`
      h3 {
        font-size: 0.95rem;
        margin: 0.25rem 0;
      }
      attn-heatmap {
        margin: 0.25rem 0;
        max-width: 26rem;
      }
      .stat {
        margin: 0.5rem 0;
        font-size: 0.9rem;
      }
      .cell-readout {
        min-height: 2.9em;
        margin: 0.25rem 0;
        overflow-wrap: anywhere;
      }
      .cell-readout .hint {
        font-family: var(--font-sans, system-ui, sans-serif);
      }
      .notice {
        border: 1px solid var(--border, #d0d4dc);
        border-left: 4px solid var(--accent, #3b5bdb);
        border-radius: 6px;
        padding: 0.4rem 0.75rem;
        margin: 0.5rem 0;
      }
      .notice p {
        margin: 0.25rem 0;
      }
      /* below 600 px the lab's card is flat, so the matrices keep their width (and their text its size) */
      @media (max-width: 600px) {
        figure {
          border: 0;
          border-radius: 0;
          padding: 0.25rem 0;
          background: transparent;
        }
      }
    `,
  ];

  constructor() {
    super();
    this.cell = null;
  }

  /** Back to the lesson's own settings: the attributes (not a permalink's), the Seed field cleared. */
  reset() {
    this._baseline = null;
    super.reset();
    resetToAuthored(this);
  }

  resetView() {
    this.cell = null;
    if (this.seeds) this.seeds.draft = null;
  }

  /**
   * A heatmap of a T × T matrix over positions 0 … T − 1 (values: a { data, shape } view or rows),
   * coloured from min to max (null: the data's range), named `name` (its class).
   */
  heatmap(name, { label, caption, values, min = 0, max = 1 }) {
    return html`<attn-heatmap
      bare
      class=${name}
      label=${label}
      caption=${caption}
      .min=${min}
      .max=${max}
      row-labels=${POSITIONS}
      col-labels=${POSITIONS}
      .values=${values}
      @cell-focus=${(e) => (this.cell = { name, ...e.detail })}
    ></attn-heatmap>`;
  }

  /** The nested heatmap `name`. */
  heatmapCell(name) {
    return this.renderRoot.querySelector(`attn-heatmap.${name}`);
  }

  /** The row of the hovered or focused cell of the heatmap `name`, read from `view`, as a live line. */
  readoutLine(name, view) {
    const row = this.cell?.name === name ? rowReadout(view, this.cell) : null;
    return html`<p class="readout cell-readout mono" aria-live="polite">
      ${row ?? html`<span class="hint">Hover or focus a cell to read its whole row.</span>`}
    </p>`;
  }

  /** The PyTorch code cell: `template` filled in with `params`. */
  codeCell(label, template, params) {
    return html`<attn-code label=${label} .template=${template} .params=${params}></attn-code>`;
  }

  /** The weights the heatmap 'weights' shows: batch `batch` (or 0) of the result's (B, T, T) weights, or null. */
  get shownWeights() {
    const r = this.task?.value;
    return r?.weights ? batchOf(r.weights, this.batch ?? 0) : null;
  }

  /** The heatmap 'weights' of shownWeights, titled by the lab's weightsTitle, with `caption`. */
  weightsHeatmap(caption) {
    return this.heatmap('weights', { label: this.weightsTitle, caption, values: this.shownWeights });
  }

  exportSvgText() {
    return this.heatmapCell('weights').exportSvgText();
  }

  exportRows() {
    return weightsCsv(this.shownWeights);
  }
}
