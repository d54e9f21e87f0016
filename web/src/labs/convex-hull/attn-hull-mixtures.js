/**
 * <attn-hull-mixtures values="1,1;1.5,4;5,4.5;4,0.5" count="1000" concentration="1" seed="42"
 *                     logits="1.2,4.5,2,0.8" temperature="1">
 *
 * The lab of the "convex hull" lesson. Four values v_j in the plane and `count`
 * random convex combinations of them: weights drawn from the symmetric
 * Dirichlet(c, …, c) distribution (attn.dirichlet), mixtures = W V
 * (attn.convexCombination), drawn as a cloud inside the values' convex hull
 * (attn.convexHull). A live check counts the mixtures outside the hull
 * (attn.pointsInHull): 0, however the values are dragged, since the same weights
 * are re-applied to the moved values.
 *
 * Controls: drag a value (or focus it, arrow keys); the concentration c on a
 * log slider (0.01 … 100: sparse mixtures near the corners … even mixtures near
 * the centre), with the mean effective number of positions exp(H) (attn.effectivePositions);
 * "New draw" (a new seed); logits s and a temperature τ (0 and ∞ are exact):
 * the highlighted mixture y(τ) = softmax(s/τ) V (attn.softmax), with its path
 * for τ from 0 to ∞ drawn dashed.
 *
 * Contains attn-scatter-hull, attn-slider ×2, attn-vector-editor, four
 * attn-check cells, attn-output and attn-code.
 *
 * State (permalink): values (matrix 4 × 2), count (1–2000), concentration
 * (0.01–100), seed (whole number), logits (4 numbers), temperature (0–∞).
 * Attributes: label, caption. A figure: Reset, SVG/PNG/CSV/JSON (of the plot).
 * Reflects data-settled (AttnCell; with the nested plot and checks), data-outside (mixtures outside the hull) and
 * data-highlight ("x,y" of y(τ), 6 significant digits).
 */
import { css, html } from 'lit';
import { formatField } from '../../cells/base/state-fields.js';
import { formatNumber } from '../../cells/base/cell-support.js';
import { AttnFigure } from '../../cells/base/figure-base.js';

const ROW_SUM_TOLERANCE = 1e-5;
const PATH_STEPS = 81; // τ = 10^-2 … 10^2 on the path, plus the limits 0 and ∞
const fmt = (x) => formatNumber(x, 3);
const sig = (x) => String(Number(x.toPrecision(6)));
const pair = (p) => `(${fmt(p[0])}, ${fmt(p[1])})`;

/** A Tensor (rows × 2) as an array of [x, y] rows. */
function rowsOf(tensor) {
  const [m, d] = tensor.shape;
  const out = new Array(m);
  for (let r = 0; r < m; r++) out[r] = Array.from(tensor.data.subarray(r * d, r * d + d));
  return out;
}

export class AttnHullMixtures extends AttnFigure {
  static stateFields = {
    values: {
      type: 'matrix',
      default: [
        [1, 1],
        [1.5, 4],
        [5, 4.5],
        [4, 0.5],
      ],
      minRows: 4,
      maxRows: 4,
      min: -100,
      max: 100,
    },
    count: { type: 'integer', default: 1000, min: 1, max: 2000 },
    concentration: { type: 'number', default: 1, min: 0.01, max: 100 },
    seed: { type: 'integer', default: 42, min: 0, max: 2 ** 31 - 1 },
    logits: { type: 'numbers', default: [1.2, 4.5, 2.0, 0.8], minLength: 4, maxLength: 4, min: -100, max: 100 },
    temperature: { type: 'number', default: 1, min: 0, max: Infinity },
  };

  static properties = { ...super.properties, _view: { state: true } };

  static styles = [
    AttnFigure.baseStyles,
    AttnFigure.figureStyles,
    css`
      h3 {
        font-size: 0.95rem;
        margin: 0.9rem 0 0.2rem;
      }
      .controls {
        display: grid;
        gap: 0 1rem;
        grid-template-columns: repeat(auto-fit, minmax(min(100%, 15rem), 1fr));
      }
      .note {
        color: var(--muted, #555d6b);
        font-size: 0.9rem;
        margin: 0.2rem 0;
      }
      .row {
        display: flex;
        flex-wrap: wrap;
        align-items: baseline;
        gap: 0.5rem 0.75rem;
      }
      .mono {
        font-family: var(--font-mono, ui-monospace, monospace);
        font-size: 0.9rem;
      }
    `,
  ];

  defaultLabel = 'Values, their convex hull and random mixtures';

  constructor() {
    super();
    this._engine = null;
    this._view = null;
    this._weights = null; // Dirichlet draws (count, 4) and the key they were drawn for
    this._pathWeights = null; // softmax(s/τ) for the path's τs, (PATH_STEPS + 2, 4)
    this._pushed = false; // the view was just computed by a drag handler
  }

  async connectedCallback() {
    super.connectedCallback();
    try {
      this._engine = await this.engine();
      this._view = this._compute();
    } catch (error) {
      this.fail(new Error(`the attention core could not be loaded: ${error.message}`));
    }
  }

  willUpdate(changed) {
    const fields = Object.keys(this.constructor.stateFields);
    if (this._engine && fields.some((f) => changed.has(f)) && !this._pushed) this._view = this._compute();
    this._pushed = false;
  }

  /** Everything the figure shows, from the current state (all maths in the core). */
  _compute() {
    const e = this._engine;
    const V = this.values;
    const view = { error: '' };
    try {
      const key = `${this.count}|${this.concentration}|${this.seed}`;
      if (this._weights?.key !== key) {
        const W = e.dirichlet([0, 0, 0, 0].fill(this.concentration), this.count, this.seed);
        const report = e.rowStochasticReport(W);
        const eff = e.effectivePositions(W).data;
        this._weights = { key, W, report, meanEffective: eff.reduce((a, b) => a + b, 0) / eff.length };
      }
      const pathKey = this.logits.join(',');
      if (this._pathWeights?.key !== pathKey) {
        const taus = [
          0,
          ...Array.from({ length: PATH_STEPS }, (_, i) => 10 ** (-2 + (4 * i) / (PATH_STEPS - 1))),
          Infinity,
        ];
        const rows = taus.map((tau) => Array.from(e.softmax(this.logits, { temperature: tau }).data));
        this._pathWeights = { key: pathKey, rows };
      }
      const mixtures = e.convexCombination(this._weights.W, V);
      view.mixtures = rowsOf(mixtures);
      const hull = Array.from(e.convexHull(V));
      view.hull = hull;
      const inside = e.pointsInHull(
        mixtures,
        hull.map((i) => V[i]),
      );
      view.outside = inside.reduce((n, v) => n + (v ? 0 : 1), 0);
      view.alpha = Array.from(e.softmax(this.logits, { temperature: this.temperature }).data);
      view.highlight = Array.from(e.convexCombination(view.alpha, V).data);
      view.highlightInside =
        e.pointsInHull(
          [view.highlight],
          hull.map((i) => V[i]),
        )[0] === 1;
      view.path = rowsOf(e.convexCombination(this._pathWeights.rows, V));
    } catch (error) {
      view.error = error.message;
    }
    return view;
  }

  _authored(name) {
    const state = this._baseline ?? this.getState();
    return formatField(state[name], this.constructor.stateFields[name]);
  }

  /** A value was dragged: recompute, and hand the new cloud to the plot in the same update. */
  _onPointsInput(event) {
    const plot = event.currentTarget;
    const points = event.detail?.points;
    if (!points) return;
    this.beginEdit();
    this.values = plot.points; // the plot's own array: nothing to re-sync
    const view = this._compute();
    this._view = view;
    this._pushed = true;
    if (!view.error) Object.assign(plot, { mixtures: view.mixtures, path: view.path, highlight: view.highlight });
  }

  _onPointsChange(event) {
    event.stopPropagation();
    this.stateChanged();
  }

  /** The plot's own Reset moves the points without an input event: follow it. */
  _onPlotState(event) {
    const plot = event.currentTarget;
    if (plot.points === this.values) return;
    this.beginEdit();
    this.values = plot.points;
  }

  _set(field, value) {
    if (Object.is(this[field], value)) return;
    this.beginEdit();
    this[field] = value;
    this.stateChanged();
  }

  _redraw() {
    this._set('seed', (this.seed + 1) % 2 ** 31);
  }

  updated() {
    const v = this._view;
    if (v && !v.error) {
      this.dataset.outside = String(v.outside);
      this.dataset.highlight = v.highlight.map(sig).join(',');
    }
  }

  get _plot() {
    return this.renderRoot.querySelector('attn-scatter-hull');
  }

  describe() {
    const v = this._view;
    if (!v) return 'Loading the attention core.';
    if (v.error) return v.error;
    const pts = this.values.map((p, j) => `v${j} ${pair(p)}`).join(', ');
    return `Values ${pts}. ${this.count} Dirichlet(${fmt(this.concentration)}) mixtures, ${v.outside} outside the convex hull. Highlighted mixture softmax(s/τ) V at τ = ${fmt(this.temperature)}: ${pair(v.highlight)}.`;
  }

  exportSvgText() {
    return this._plot.exportSvgText();
  }

  exportRows() {
    return this._plot.exportRows();
  }

  exportObject() {
    const v = this._view;
    return {
      values: this.values,
      count: this.count,
      concentration: this.concentration,
      seed: this.seed,
      logits: this.logits,
      temperature: this.temperature,
      hull: v?.hull ?? null,
      outside: v?.outside ?? null,
      highlight: v?.highlight ?? null,
      highlightWeights: v?.alpha ?? null,
      mixtures: v?.mixtures ?? null,
    };
  }

  _printout(v) {
    const w = this._weights;
    const hull = v.hull.map((i) => `v${i}`).join(' → ');
    return [
      `V_2d shape: (4, 2)`,
      `alpha_samples shape: (${this.count}, 4)   # Dirichlet(${fmt(this.concentration)}), seed ${this.seed}`,
      `mixtures_2d shape: (${this.count}, 2)`,
      `mean effective number of positions exp(H): ${w.meanEffective.toFixed(2)} of 4`,
      `hull vertices (counter-clockwise): ${hull}`,
      `mixtures outside the hull: ${v.outside} of ${this.count}`,
      `softmax(s / τ) at τ = ${fmt(this.temperature)}: [${v.alpha.map((a) => a.toFixed(4)).join(', ')}]`,
      `y(τ) = ${pair(v.highlight)}, inside the hull: ${v.highlightInside}`,
    ].join('\n');
  }

  renderFigure() {
    const v = this._view;
    if (!v) return html`<p class="readout">Loading the attention core…</p>`;
    const w = this._weights;
    const tau = this.temperature;
    const tauText = tau === Infinity ? '∞' : fmt(tau);
    return html`
      ${v.error ? html`<p class="error" role="alert">${v.error}</p>` : ''}
      <attn-scatter-hull
        label="Values v0 to v3 (draggable), their convex hull and ${this.count} mixtures"
        labels="v0,v1,v2,v3"
        highlight-label="y(τ)"
        .points=${this.values}
        .mixtures=${v.mixtures ?? null}
        .path=${v.path ?? null}
        .highlight=${v.highlight ?? null}
        @input=${this._onPointsInput}
        @change=${this._onPointsChange}
        @attn-state-change=${this._onPlotState}
      ></attn-scatter-hull>
      <p class="note">
        Drag a value, or focus it (Tab) and use the arrow keys. The ${this.count} mixtures keep their weights and
        follow; the dashed curve is y(τ) for τ from 0 (at the value with the largest logit) to ∞ (the plain average).
      </p>
      ${
        v.error
          ? ''
          : html`
              <attn-check
                class="check-outside"
                label="mixtures outside the hull"
                comparison="le"
                threshold="0"
                .value=${v.outside}
              ></attn-check>
              <attn-check
                class="check-rows"
                label="Dirichlet weights: max |row sum − 1|"
                comparison="le"
                threshold=${ROW_SUM_TOLERANCE}
                .value=${w.report.maxRowSumError}
              ></attn-check>
              <attn-check
                class="check-nonnegative"
                label="Dirichlet weights: smallest entry"
                comparison="ge"
                threshold="0"
                .value=${w.report.minEntry}
              ></attn-check>
            `
      }

      <h3>How the weights are drawn</h3>
      <div class="controls">
        <attn-slider
          label="Concentration c"
          symbol="c"
          scale="log"
          min="0.01"
          max="100"
          value=${this._authored('concentration')}
          .value=${this.concentration}
          @change=${(e) => (e.stopPropagation(), this._set('concentration', e.detail.value))}
        ></attn-slider>
        <div>
          <p class="note">
            c &lt; 1: sparse weights, one value takes most of the share (dots near the corners). c = 1: every mixture
            equally likely (the notebook's choice). c &gt; 1: even weights near 1/4 (dots near the centre).
          </p>
          <p class="row">
            <span class="mono">mean exp(H) = ${w ? w.meanEffective.toFixed(2) : '…'} of 4 positions</span>
            <button type="button" @click=${this._redraw}>New draw</button>
            <span class="mono">seed ${this.seed}</span>
          </p>
        </div>
      </div>

      <h3>One mixture from scores: y(τ) = softmax(s/τ) V</h3>
      <div class="controls">
        <attn-vector-editor
          label="Logits s"
          count="4"
          min="-100"
          max="100"
          values=${this._authored('logits')}
          .values=${this.logits}
          @change=${(e) => (e.stopPropagation(), this._set('logits', [...e.detail.values]))}
        ></attn-vector-editor>
        <attn-slider
          label="Temperature τ"
          symbol="τ"
          scale="log"
          min="0.01"
          max="100"
          limits
          value=${this._authored('temperature')}
          .value=${this.temperature}
          @change=${(e) => (e.stopPropagation(), this._set('temperature', e.detail.value))}
        ></attn-slider>
      </div>
      ${
        v.error
          ? ''
          : html`
              <p class="mono" aria-live="polite">
                α(τ = ${tauText}) = [${v.alpha.map((a) => a.toFixed(3)).join(', ')}] → y(τ) = ${pair(v.highlight)}
              </p>
              <attn-check
                class="check-highlight"
                label=${`y(τ) inside the hull at τ = ${tauText}`}
                .pass=${v.highlightInside}
              ></attn-check>
              <attn-output label="Printed output" .text=${this._printout(v)}></attn-output>
              <attn-code
                label="NumPy and SciPy: Dirichlet mixtures and a hull test"
                .params=${{
                  V: this.values,
                  c: this.concentration,
                  count: this.count,
                  seed: this.seed,
                  s: this.logits,
                  tau: this.temperature,
                }}
                .template=${CODE}
              ></attn-code>
            `
      }
    `;
  }
}

const CODE = `import numpy as np
from scipy.spatial import ConvexHull

V_2d = np.array({{V}})   # (4, 2): one value per row
rng = np.random.default_rng({{seed}})

# {{count}} random convex weight vectors from the symmetric Dirichlet(c) distribution
alpha_samples = rng.dirichlet([{{c}}] * 4, size={{count}})   # (count, 4), rows >= 0 summing to 1
mixtures_2d = alpha_samples @ V_2d   # (count, 4) @ (4, 2) -> (count, 2)

if np.linalg.matrix_rank(V_2d - V_2d[0]) == 2:   # the values span an area
    # The hull as half-planes: normal . p + offset <= 0 inside every edge
    hull = ConvexHull(V_2d)
    print("hull vertices:", hull.vertices)   # counter-clockwise
    normals, offsets = hull.equations[:, :2], hull.equations[:, 2]
    outside = ((mixtures_2d @ normals.T + offsets) > 1e-9).any(axis=1).sum()
else:   # all on one line (or one point): the hull is the segment a-b between the farthest two
    far = np.linalg.norm(V_2d[:, None] - V_2d[None], axis=-1)
    a, b = V_2d[list(np.unravel_index(far.argmax(), far.shape))]
    t = np.clip((mixtures_2d - a) @ (b - a) / max((b - a) @ (b - a), 1e-300), 0, 1)
    outside = (np.linalg.norm(mixtures_2d - (a + t[:, None] * (b - a)), axis=1) > 1e-9).sum()
print("mixtures outside the hull:", outside)
assert outside == 0

# One mixture from scores: y = softmax(s / tau) @ V
s, tau = np.array({{s}}), {{tau}}
if tau == 0:   # the limit tau -> 0: all weight on the largest score (ties share)
    alpha = (s == s.max()) / (s == s.max()).sum()
else:
    z = np.exp((s - s.max()) / tau)
    alpha = z / z.sum()
print("alpha:", alpha.round(3), "y:", alpha @ V_2d)`;

customElements.define('attn-hull-mixtures', AttnHullMixtures);
