/**
 * <attn-value-strips .rows=${rows} .domain=${[0, 3]} mark-label="y" ?stale=${false} label="Where y lands">
 *
 * A chart part (ChartElement): where a mixture lands among the values, one coordinate at a time.
 * A number line per coordinate (row) with the values as labelled dots (values that are equal on
 * that coordinate share a dot and a label), the stretch between the smallest and the largest of
 * them shaded (a mixture with weights ≥ 0 summing to 1 cannot leave it), one highlighted mark (a
 * ring, e.g. the mixture y, labelled below the line) and optionally a stray mark (a cross, e.g. a
 * weighted sum whose weights break a rule). All rows share one scale, with ticks at the bottom.
 * Laid out for the width it is given (strips-layout.js): 12 px text, labels that would touch go on
 * a level of their own, never over one another.
 *
 * Properties: rows ([{ label, groups: [{ x, label }], span: [lo, hi], mark, stray }]), domain
 * ([lo, hi]), markLabel (`mark-label`, 'y'), stale (the mark is the last valid one: drawn dashed,
 * labelled "(last valid)"), label (accessible name).
 * Drawn: <svg class="value-strips[ stale]"> with g.axes (.grid, .tick), g.strip[data-row] per row:
 * text.row-label, line.grid, rect.span, g.values (circle.value-dot[data-value],
 * text.value-label[data-level]), path.stray[data-value], g.mark[data-value] (circle.mark-ring,
 * circle.mark-dot, text.mark-label).
 */
import { nothing, svg } from 'lit';
import { ChartElement } from './chart-element.js';
import { CROSS, DOT_R, layoutStrips, RING_R } from './strips-layout.js';

export class AttnValueStrips extends ChartElement {
  static properties = {
    ...super.properties,
    rows: { attribute: false },
    domain: { attribute: false },
    markLabel: { attribute: 'mark-label' },
    stale: { type: Boolean },
  };

  constructor() {
    super();
    this.rows = [];
    this.domain = [0, 1];
    this.markLabel = 'y';
    this.stale = false;
  }

  renderChart(width, measure) {
    const l = layoutStrips({
      width,
      rows: this.rows,
      domain: this.domain,
      markLabel: this.markLabel,
      stale: this.stale,
      measure,
    });
    const name = this.label || 'Where the mixture lands, coordinate by coordinate';
    return svg`<svg class="value-strips${this.stale ? ' stale' : ''}" viewBox="0 0 ${l.width} ${l.height}"
      width=${l.width} height=${l.height} role="img" aria-label=${name}>
      <title>${name}</title>
      <g class="axes" aria-hidden="true">
        ${l.ticks.map(
          (t) => svg`<line x1=${t.grid} x2=${t.grid} y1=${l.gridTop} y2=${l.gridBottom} class="grid"></line>
            <text x=${t.x} y=${t.y} text-anchor="middle" class="tick">${t.text}</text>`,
        )}
      </g>
      <g class="rows" aria-hidden="true">
        ${l.rows.map((row) => this.#row(l, row))}
      </g>
    </svg>`;
  }

  #row(l, row) {
    const c = row.lineY;
    const { mark, stray } = row;
    return svg`<g class="strip" data-row=${row.index}>
      <text x=${row.name.x} y=${row.name.y} text-anchor="end" class="row-label">${row.name.text}${
        row.name.text !== row.name.full ? svg`<title>${row.name.full}</title>` : nothing
      }</text>
      <line x1=${l.plot.left} x2=${l.plot.right} y1=${c} y2=${c} class="grid"></line>
      <rect x=${row.span.x} width=${row.span.width} y=${c - DOT_R} height=${2 * DOT_R} rx=${DOT_R} class="span"></rect>
      <g class="values">
        ${row.groups.map(
          (g) => svg`<circle cx=${g.x} cy=${c} r=${DOT_R} class="value-dot" data-value=${g.value}></circle>
            ${
              g.label
                ? svg`<text x=${g.label.x} y=${g.label.y} text-anchor="middle" class="value-label"
                    data-level=${g.label.level}>${g.label.text}</text>`
                : nothing
            }`,
        )}
      </g>
      ${
        stray
          ? svg`<path class="stray" data-value=${String(stray.value)}
              d="M${stray.x - CROSS},${c - CROSS}L${stray.x + CROSS},${c + CROSS}M${stray.x - CROSS},${c + CROSS}L${stray.x + CROSS},${c - CROSS}"></path>`
          : nothing
      }
      ${
        mark
          ? svg`<g class="mark" data-value=${String(mark.value)}>
              <circle r=${RING_R} cx=${mark.x} cy=${c} class="mark-ring"></circle>
              <circle r="2.5" cx=${mark.x} cy=${c} class="mark-dot"></circle>
              ${mark.label ? svg`<text x=${mark.label.x} y=${mark.label.y} text-anchor="middle" class="mark-label">${mark.label.text}</text>` : nothing}
            </g>`
          : nothing
      }
    </g>`;
  }
}

customElements.define('attn-value-strips', AttnValueStrips);
