/**
 * <attn-shape-diagram a-shape="2,4,5,5" b-shape="2,4,5,8" a-labels="B,h,T,T" b-labels="B,h,T,d_v">
 *
 * The shapes of a batched matrix product, (B, h, T, T) × (B, h, T, d_v) →
 * (B, h, T, d_v): one box per axis, with the axes the operands share aligned
 * in columns (batch axes, A's rows, the summed axis, B's columns) and the
 * current sizes shown. Shapes that cannot be multiplied show an error and keep
 * the last valid diagram.
 *
 * State fields: a-shape, b-shape (whole numbers ≥ 1, at least two each).
 * Attributes: a-labels, b-labels (axis names, comma-separated), label, caption;
 * operands (the names of the rows: two operands and the product, comma-separated;
 * default "A,B,A × B", e.g. "A,V,Y = AV" when an axis is itself called B).
 */
import { css, html } from 'lit';
import { svgDocument } from '../../charts/export.js';
import '../../charts/attn-shape-chart.js';
import { matmulShapes, shapeText } from '../../charts/shape-diagram.js';
import { AttnFigure, listConverter } from '../base/figure-base.js';

const SHAPE = { type: 'numbers', minLength: 2, maxLength: 6, min: 1, max: 1e6, integer: true };

export class AttnShapeDiagram extends AttnFigure {
  static stateFields = {
    'a-shape': { ...SHAPE, default: [2, 4, 5, 5] },
    'b-shape': { ...SHAPE, default: [2, 4, 5, 8] },
  };

  static properties = {
    ...super.properties,
    aLabels: { attribute: 'a-labels', converter: listConverter },
    bLabels: { attribute: 'b-labels', converter: listConverter },
    operands: { attribute: 'operands', converter: listConverter },
    _error: { state: true },
  };

  static styles = [
    AttnFigure.baseStyles,
    AttnFigure.figureStyles,
    css`
      .formula {
        font: 600 13px var(--font-mono, ui-monospace, monospace);
      }
      .sizes {
        font: 12px var(--font-mono, ui-monospace, monospace);
        fill: var(--muted, #555d6b);
      }
      .operand {
        font-weight: 700;
      }
      .head,
      .summed {
        fill: var(--muted, #555d6b);
        font-size: 12px;
      }
      .box {
        fill: var(--surface, #fff);
        stroke: var(--text, #1b1e24);
        stroke-width: 1.5px;
      }
      .box.out {
        fill: color-mix(in srgb, var(--accent, #3b5bdb) 14%, var(--surface, #fff));
      }
      .box.inner {
        stroke: var(--accent, #3b5bdb);
        stroke-width: 2.5px;
      }
      .box.broadcast {
        stroke-dasharray: 4 3;
      }
      .shared {
        fill: none;
        stroke: var(--accent, #3b5bdb);
        stroke-dasharray: 3 3;
      }
      .axis-name {
        font-weight: 600;
      }
      .axis-size {
        font-family: var(--font-mono, ui-monospace, monospace);
      }
    `,
  ];

  defaultLabel = 'Shapes of a batched matrix product';

  constructor() {
    super();
    this.aLabels = null;
    this.bLabels = null;
    this.operands = null;
    this._error = '';
    this._shapes = null;
  }

  willUpdate() {
    try {
      this._shapes = matmulShapes(this['a-shape'], this['b-shape'], this.aLabels ?? [], this.bLabels ?? []);
      this._error = '';
    } catch (error) {
      this._error = error.message;
      this._shapes ??= matmulShapes([2, 2], [2, 2]);
    }
  }

  /** The row names: the `operands` attribute when it names all three, else A, B, A × B. */
  get operandNames() {
    return this.operands?.length === 3 && this.operands.every(Boolean) ? this.operands : ['A', 'B', 'A × B'];
  }

  describe() {
    const s = this._shapes;
    const [a, b] = this.operandNames;
    return `${shapeText(s.aLabels)} = ${shapeText(s.a)} times ${shapeText(s.bLabels)} = ${shapeText(s.b)} gives ${shapeText(
      s.outLabels,
    )} = ${shapeText(s.out)}; the product sums over ${s.inner.a[0]} (${s.inner.a[1]}), ${a}'s last axis and ${b}'s second-to-last.`;
  }

  renderFigure() {
    return html`<attn-shape-chart
        class="chart"
        label=${this.accessibleName}
        .shapes=${this._shapes}
        .names=${this.operandNames}
      ></attn-shape-chart>
      ${this._error ? html`<p class="error" role="alert">${this._error}; showing the last valid shapes.</p>` : ''}`;
  }

  exportSvgText() {
    return svgDocument(this.renderRoot.querySelector('attn-shape-chart').svg);
  }

  exportRows() {
    const s = this._shapes;
    const rows = [['tensor', 'axis', 'name', 'size']];
    for (const [tensor, labels, shape] of [
      [this.operands ? this.operandNames[0] : 'A', s.aLabels, s.a],
      [this.operands ? this.operandNames[1] : 'B', s.bLabels, s.b],
      [this.operands ? this.operandNames[2] : 'A×B', s.outLabels, s.out],
    ]) {
      shape.forEach((size, i) => rows.push([tensor, i, labels[i], size]));
    }
    return rows;
  }

  exportObject() {
    const s = this._shapes;
    return {
      a: { labels: s.aLabels, shape: s.a },
      b: { labels: s.bLabels, shape: s.b },
      out: { labels: s.outLabels, shape: s.out },
      summedAxis: { name: s.inner.a[0], size: s.inner.a[1] },
    };
  }
}

customElements.define('attn-shape-diagram', AttnShapeDiagram);
