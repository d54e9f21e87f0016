/**
 * <attn-scatter-hull points="1,1;1.5,4;5,4.5;4,0.5" mixtures="…">
 *
 * Points in the plane with their convex hull, computed by the attention core
 * (attn.convexHull, counter-clockwise). Drag a point (from anywhere within 24 px
 * of it as drawn, also on a phone), or focus it and use the arrow keys (Shift for
 * bigger steps): the hull follows. With `mixtures` (a
 * cloud of m points drawn behind, on a canvas when m > 500) it counts how many
 * lie outside the hull (attn.pointsInHull) and says so in text.
 * Edits fire `input` (while dragging), `change` (detail { points }) and
 * `attn-state-change`.
 *
 * State fields: points (matrix n × 2), mixtures (matrix m × 2, optional).
 * Attributes: labels (names of the points, comma-separated; default v0, v1, …), label, caption,
 * highlight-label (text beside the highlighted point).
 * Properties (set from JS by a lab): highlight ([x, y] or null: one point drawn
 * as a ring, e.g. the mixture under study), path (array of [x, y]: a dashed
 * polyline, e.g. where that mixture goes as a parameter changes).
 * data-outside = mixtures outside; data-settled (AttnCell) once the hull is drawn.
 */
import { css, html } from 'lit';
import '../../charts/attn-scatter-hull-chart.js';
import { formatDecimals } from '../../charts/scale.js';
import { scatterDomain } from '../../charts/scatter-layout.js';
import { AttnFigure, listConverter } from '../base/figure-base.js';

/** The source notebook's four values in the plane: this figure's default points, and the convex-hull lab's. */
export const NOTEBOOK_POINTS = [
  [1, 1],
  [1.5, 4],
  [5, 4.5],
  [4, 0.5],
];

/** The plot's CSS (attn-scatter-hull-chart draws into the light DOM), shared with the labs that use the chart. */
export const scatterHullStyles = css`
  .chart {
    max-width: 30rem;
  }
  .hull {
    fill: var(--accent, #3b5bdb);
    fill-opacity: 0.12;
    stroke: var(--accent, #3b5bdb);
    stroke-width: 2px;
    stroke-linejoin: round;
  }
  .mixture {
    fill: var(--muted, #555d6b);
    fill-opacity: 0.6;
  }
  .mixture.outside {
    fill: var(--danger, #b3261e);
    fill-opacity: 1;
  }
  .point {
    fill: var(--accent, #3b5bdb);
    stroke: var(--surface, #fff);
    stroke-width: 2px;
    cursor: grab;
    touch-action: none;
  }
  .point:active,
  .point-hit:active {
    cursor: grabbing;
  }
  .path {
    stroke: var(--danger, #b3261e);
    stroke-width: 2.5px;
    stroke-dasharray: 6 4;
    stroke-linecap: round;
  }
  .highlight circle {
    fill: none;
    stroke: var(--danger, #b3261e);
    stroke-width: 2.5px;
  }
  .highlight .highlight-dot {
    fill: var(--danger, #b3261e);
    stroke: none;
  }
  .highlight-label {
    font-weight: 600;
  }
  .point-label {
    font-weight: 600;
    pointer-events: none;
  }
  .count {
    margin: 0.25rem 0 0;
  }
`;

export class AttnScatterHull extends AttnFigure {
  static stateFields = {
    points: {
      type: 'matrix',
      default: NOTEBOOK_POINTS,
      minRows: 1,
      maxRows: 64,
      min: -1e6,
      max: 1e6,
    },
    mixtures: { type: 'matrix', default: null, maxRows: 2048, min: -1e6, max: 1e6 },
  };

  static properties = {
    ...super.properties,
    labels: { converter: listConverter },
    highlight: { attribute: false },
    highlightLabel: { attribute: 'highlight-label' },
    path: { attribute: false },
    _hull: { state: true },
    _error: { state: true },
  };

  static styles = [AttnFigure.baseStyles, AttnFigure.figureStyles, scatterHullStyles];

  defaultLabel = 'Points and their convex hull';

  constructor() {
    super();
    this.labels = null;
    this.highlight = null;
    this.highlightLabel = '';
    this.path = null;
    this._attn = null;
    this._hull = null;
    this._inside = null;
    this._error = '';
    this._fromEdit = false;
    this._domain = null;
  }

  async connectedCallback() {
    super.connectedCallback();
    try {
      this._attn = await this.engine();
      this.requestUpdate();
    } catch (error) {
      this.fail(new Error(`the attention core could not be loaded: ${error.message}`));
    }
  }

  pointLabel(i) {
    return this.labels?.[i] ?? `v${i}`;
  }

  willUpdate(changed) {
    if (!this._domain || ((changed.has('points') || changed.has('mixtures')) && !this._fromEdit)) {
      this._domain = scatterDomain([...this.points, ...(this.mixtures ?? [])]);
    }
    this._fromEdit = false;
    if (this._attn) this._compute();
  }

  _compute() {
    try {
      if (this.points.some((p) => p.length !== 2)) throw new Error('points must have two coordinates each');
      this._hull = Array.from(this._attn.convexHull(this.points));
      const hullPoints = this._hull.map((i) => this.points[i]);
      this._inside =
        this.mixtures?.length && hullPoints.length ? this._attn.pointsInHull(this.mixtures, hullPoints) : null;
      this._error = '';
    } catch (error) {
      this._error = error.message;
    }
  }

  get outsideCount() {
    return this._inside ? this._inside.reduce((n, v) => n + (v ? 0 : 1), 0) : 0;
  }

  updated() {
    if (this._hull) this.dataset.outside = String(this.outsideCount);
  }

  _edit(points, done) {
    this.beginEdit();
    if (points.some((p, i) => p[0] !== this.points[i][0] || p[1] !== this.points[i][1])) {
      this._fromEdit = true;
      this.points = points;
      this.dispatchEvent(new CustomEvent('input', { detail: { points }, bubbles: true, composed: true }));
    }
    if (done) {
      this.dispatchEvent(new CustomEvent('change', { detail: { points }, bubbles: true, composed: true }));
      this.stateChanged();
    }
  }

  _hullText() {
    return this._hull ? this._hull.map((i) => this.pointLabel(i)).join(' → ') : '';
  }

  describe() {
    const pts = this.points.map(
      (p, i) => `${this.pointLabel(i)} (${formatDecimals(p[0], 3)}, ${formatDecimals(p[1], 3)})`,
    );
    const h = this.highlight;
    const marked = h
      ? ` Highlighted${this.highlightLabel ? ` ${this.highlightLabel}` : ''}: (${formatDecimals(h[0], 3)}, ${formatDecimals(h[1], 3)}).`
      : '';
    return `${this.accessibleName}: ${pts.join(', ')}. Hull vertices counter-clockwise: ${this._hullText() || 'computing'}.${marked} Each point can be focused and moved with the arrow keys.`;
  }

  renderFigure() {
    const m = this.mixtures?.length ?? 0;
    return html`
      <attn-scatter-hull-chart
        class="chart"
        label=${this.accessibleName}
        highlight-label=${this.highlightLabel}
        .points=${this.points}
        .pointLabels=${this.labels}
        .hull=${this._hull}
        .domain=${this._domain}
        .mixtures=${this.mixtures}
        .inside=${this._inside}
        .path=${this.path}
        .highlight=${this.highlight}
        @point-input=${(e) => this._edit(e.detail.points, false)}
        @point-change=${(e) => this._edit(e.detail.points, true)}
      ></attn-scatter-hull-chart>
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      <p class="readout">Hull (counter-clockwise): ${this._hullText() || '…'}</p>
      ${
        m
          ? html`<p class="count" aria-live="polite">
              <strong class="outside-count">${this._inside ? this.outsideCount : '…'}</strong> of ${m} mixtures lie
              outside the hull.
            </p>`
          : ''
      }
    `;
  }

  exportSvgText() {
    return this.renderRoot.querySelector('attn-scatter-hull-chart').exportSvg();
  }

  exportRows() {
    const rows = [['kind', 'index', 'label', 'x', 'y', 'hull_order', 'inside_hull']];
    this.points.forEach((p, i) => {
      const order = this._hull?.indexOf(i) ?? -1;
      rows.push(['point', i, this.pointLabel(i), p[0], p[1], order >= 0 ? order : '', '']);
    });
    (this.mixtures ?? []).forEach((p, j) =>
      rows.push(['mixture', j, '', p[0], p[1], '', this._inside ? this._inside[j] : '']),
    );
    return rows;
  }

  exportObject() {
    return {
      points: this.points,
      labels: this.points.map((_, i) => this.pointLabel(i)),
      hull: this._hull,
      mixtures: this.mixtures,
      insideHull: this._inside ? Array.from(this._inside, Boolean) : null,
      outside: this.outsideCount,
      highlight: this.highlight ?? null,
    };
  }
}

customElements.define('attn-scatter-hull', AttnScatterHull);
