/**
 * <attn-shape-chart .shapes=${matmulShapes(a, b, aLabels, bLabels)} .names=${['A', 'V', 'Y = AV']} label="…">
 *
 * A chart part (ChartElement): the tensor-shape diagram of a batched matrix product A × B → C
 * (shape-diagram.js matmulShapes), laid out for the width it is given (shape-layout.js): one
 * labelled box per axis, in columns that align the axes the operands share (the batch axes,
 * broadcast as in NumPy and PyTorch, A's rows, the summed axis, B's columns), the formula of the
 * labels and of the sizes above it (on two lines when narrow), all text 12 px or more.
 * Drawn: <svg class="shape-diagram"> with text.formula, text.sizes (one tspan a line, so their
 * textContent is the whole formula), text.operand, text.head, rect.box(.out)(.inner)(.broadcast),
 * rect.shared, text.summed, text.axis-name and text.axis-size.
 */
import { svg } from 'lit';
import { ChartElement } from './chart-element.js';
import { layoutShapes } from './shape-layout.js';

const tspans = (parts) => parts.map((p) => svg`<tspan x="4" y=${p.y}>${p.text}</tspan>`);

export class AttnShapeChart extends ChartElement {
  static properties = {
    ...super.properties,
    shapes: { attribute: false },
    names: { attribute: false },
  };

  constructor() {
    super();
    this.shapes = null;
    this.names = ['A', 'B', 'A × B'];
  }

  renderChart(width, measure) {
    if (!this.shapes) return svg``;
    const l = layoutShapes({ width, shapes: this.shapes, names: this.names, measure });
    const name = this.label || 'Tensor shapes';
    return svg`<svg class="shape-diagram" viewBox="0 0 ${l.width} ${l.height}" width=${l.width} height=${l.height}
      role="img" aria-label=${name}>
      <title>${name}</title>
      <text class="formula">${tspans(l.formula)}</text>
      <text class="sizes">${tspans(l.sizes)}</text>
      ${l.names.map((n) => svg`<text x="4" y=${n.y} class="operand">${n.text}</text>`)}
      ${l.columns.map(
        (col) => svg`<text x=${col.centre} y=${col.headY} text-anchor="middle" class="head">${col.head}</text>
          ${
            col.inner
              ? svg`<rect x=${col.x - 3} y=${col.cells[0].y - 2} width=${l.box.width + 6} height=${l.sharedHeight}
                  rx="6" class="shared"></rect>
                <text x=${col.centre} y=${l.summedY} text-anchor="middle" class="summed">${col.summed}</text>`
              : ''
          }
          ${col.cells.map((cell, r) =>
            cell
              ? svg`<rect x=${col.x} y=${cell.y} width=${l.box.width} height=${l.box.height} rx="4"
                  class="box${cell.out ? ' out' : ''}${col.inner ? ' inner' : ''}${
                    col.broadcast && cell.size === 1 && r < 2 ? ' broadcast' : ''
                  }"></rect>
                <text x=${col.centre} y=${cell.y + 15} text-anchor="middle" class="axis-name">${cell.name}</text>
                <text x=${col.centre} y=${cell.y + 30} text-anchor="middle" class="axis-size">${cell.size}</text>`
              : '',
          )}`,
      )}
    </svg>`;
  }
}

customElements.define('attn-shape-chart', AttnShapeChart);
