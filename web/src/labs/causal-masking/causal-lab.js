/**
 * CausalLab: what the causal-masking labs share on top of AttnLab (not an element: only
 * attn-*.js files are registered). Reset goes back to the lesson's own settings (the
 * attributes), also after a permalink set others; the T × T matrices are heatmaps drawn by
 * charts/heatmap.js straight into the lab (one frame, one Export menu: the lab's), their cells a
 * keyboard grid, their text at least 11.5 px as rendered however far the chart is scaled down;
 * hovering or focusing a cell reports it to the lab (`cell`, { name, row, col }); a lab with a
 * result { weights: (B, T, T) } gets its heatmap 'weights' drawn, read out and exported; the lab's
 * headings, readouts and notes; below 600 px of window the lab's card is flat.
 */
import { css, html } from 'lit';
import { AttnLab } from '../../cells/base/lab.js';
import { resetToAuthored } from '../../cells/base/cell-support.js';
import { tableStyles } from '../../cells/base/styles.js';
import { createHeatmap } from '../../charts/heatmap.js';
import { batchOf } from '../common/qkv-lab.js';
import { cellReadout, POSITIONS, weightsCsv } from './masks-model.js';

const LABELS = POSITIONS.split(',');

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
      .chart {
        max-width: 24rem;
      }
      .heatmap-svg .cell {
        stroke: var(--surface, #fff);
        stroke-width: 1px;
      }
      .heatmap-svg .annotation {
        font-family: var(--font-mono, ui-monospace, monospace);
      }
      /* the chart sets 12-unit text; as rendered it stays at least 11.5 px (see figureStyles) */
      .heatmap-svg .axes,
      .heatmap-svg .annotation {
        font-size: max(12px, calc(11.5px * var(--units-per-px, 1)));
      }
      .stat {
        margin: 0.5rem 0;
        font-size: 0.9rem;
      }
      .cell-readout {
        min-height: 2.9em;
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
    this._charts = new Map();
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

  /** The box a heatmap is drawn into (by drawHeatmap, in updated()), with its caption under it. */
  heatmapBox(name, caption) {
    return html`<div class=${`chart ${name}`}></div>
      <p class="hint">${caption}</p>`;
  }

  /**
   * Draws the T × T matrix `values` ({ data, shape } or rows of numbers) into the box `name`,
   * coloured from min to max; recolours in place when only the numbers change.
   */
  drawHeatmap(name, { title, values, min = 0, max = 1 }) {
    const box = this.renderRoot.querySelector(`.chart.${name}`);
    if (!box || !values) return;
    const data = values.data ?? Float64Array.from(values.flat());
    let chart = this._charts.get(name);
    if (!chart || chart.title !== title || !box.contains(chart.svg)) {
      box.replaceChildren();
      chart = createHeatmap(box, {
        rows: LABELS.length,
        cols: LABELS.length,
        rowLabels: LABELS,
        colLabels: LABELS,
        title,
        legend: false,
        onCell: (row, col) => (this.cell = { name, row, col }),
      });
      chart.title = title;
      this._charts.set(name, chart);
    }
    const drawn = `${min} ${max} ${Array.from(data).join(',')}`;
    if (chart.drawn !== drawn) {
      chart.update({ data, min, max, palette: 'viridis' });
      chart.drawn = drawn;
    }
  }

  /** The hovered or focused cell of the heatmap `name` and its row, read from `view`, as a live line. */
  readoutLine(name, view) {
    const read = this.cell?.name === name ? cellReadout(view, this.cell) : null;
    return html`<p class="readout cell-readout mono" aria-live="polite">
      ${read ? html`${read.cell}<br />${read.row}` : html`<span class="hint">Hover or focus a cell to read its row.</span>`}
    </p>`;
  }

  /** attn-check cells for `specs` ({ name, value, label, threshold, comparison }), valued from result[value]. */
  checkCells(specs, result) {
    return specs.map(
      ({ name, value, label, threshold, comparison = 'le' }) =>
        html`<attn-check
          class=${name}
          label=${label}
          comparison=${comparison}
          threshold=${threshold}
          .value=${result?.[value]}
        ></attn-check>`,
    );
  }

  /** The PyTorch code cell: `template` filled in with `params`. */
  codeCell(label, template, params) {
    return html`<attn-code label=${label} .template=${template} .params=${params}></attn-code>`;
  }

  /** The heatmap drawn in box `name` (its svg, exportSvg()), if any. */
  chart(name) {
    return this._charts.get(name);
  }

  /** The weights the heatmap 'weights' shows: batch `batch` (or 0) of the result's (B, T, T) weights, or null. */
  get shownWeights() {
    const r = this.task?.value;
    return r?.weights ? batchOf(r.weights, this.batch ?? 0) : null;
  }

  /** Draws the heatmap 'weights' (titled by the lab's weightsTitle) once there is a result. */
  updated() {
    this.drawHeatmap('weights', { title: this.weightsTitle, values: this.shownWeights });
  }

  exportSvgText() {
    return this._charts.values().next().value.exportSvg();
  }

  exportRows() {
    return weightsCsv(this.shownWeights);
  }
}
