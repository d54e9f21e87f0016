/**
 * <attn-scaling-curves d="128" draws="1000" tokens="5" seed="0">
 *
 * Why attention divides by sqrt(d_k): for each d in 1, 2, 4, …, 512, `draws`
 * random queries q (d) and keys K (tokens, d) with standard-normal entries; the
 * weights softmax(q·kⱼ) (unscaled) and softmax(q·kⱼ/√d) (scaled) are summarised by
 * their mean max-weight and mean entropy, drawn as two line charts against d
 * (log axis). Computed in the wasm core (engine.scalingStatistics) in the page's
 * Web Worker. The D slider moves a marker and the readout of both curves at D.
 * Checks at D = 128: unscaled weights are near one-hot, far above the scaled ones,
 * and the scaled statistics are those of D = 8 (the notebook's size).
 *
 * State (permalink): d (1–512), draws (100–20000), tokens (2–64), seed.
 * data-settled (AttnCell) once the curves are drawn, data-computed-in="worker" | "main-thread".
 */
import { css, html } from 'lit';
import { live } from 'lit/directives/live.js';
import { svgDocument } from '../../charts/export.js';
import { createLineChart } from '../../charts/line-chart.js';
import { fieldErrorStyles, readWholeNumber } from '../../cells/base/cell-support.js';
import { AttnFigure } from '../../cells/base/figure-base.js';
import { labStyles, markWhere, workerEngine } from '../common/worker-lab.js';

export const DIMS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];
const SERIES = [
  { name: 'unscaled: q·k', className: 'series-0' },
  { name: 'scaled: q·k / √d', className: 'series-1', dashed: true },
];
// Thresholds of the checks (see the lesson for where they come from).
export const THRESHOLDS = { unscaledMax: 0.85, gap: 0.3, scaledDrift: 0.05, unscaledEntropy: 0.3 };

const CODE = `import numpy as np

rng = np.random.default_rng({{seed}})
draws, tokens = {{draws}}, {{tokens}}

def weight_stats(d, scaled):
    q = rng.standard_normal((draws, d))           # one query per draw
    # its keys, one at a time (all at once is draws * tokens * d numbers: GBs)
    logits = np.stack([(q * rng.standard_normal((draws, d))).sum(-1) for _ in range(tokens)], axis=-1)
    # logits[n, j] = q·k_j, variance d
    if scaled:
        logits /= np.sqrt(d)                      # variance 1 again
    w = np.exp(logits - logits.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    entropy = -(w * np.log(np.where(w > 0, w, 1))).sum(-1)
    return w.max(-1).mean(), entropy.mean()

for d in [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]:
    print(d, weight_stats(d, scaled=False), weight_stats(d, scaled=True))`;

export class AttnScalingCurves extends AttnFigure {
  static stateFields = {
    d: { type: 'integer', default: 128, min: 1, max: 512 },
    draws: { type: 'integer', default: 1000, min: 100, max: 20000 },
    tokens: { type: 'integer', default: 5, min: 2, max: 64 },
    seed: { type: 'integer', default: 0, min: 0, max: 1000000 },
  };

  static properties = {
    ...super.properties,
    _stats: { state: true },
    _error: { state: true },
    _where: { state: true },
    _drafts: { state: true },
  };

  static styles = [
    AttnFigure.baseStyles,
    AttnFigure.figureStyles,
    labStyles,
    fieldErrorStyles,
    css`
      .field-error {
        grid-column: 1 / -1;
      }
    `,
  ];

  defaultLabel = 'Mean max-weight and entropy of softmax(q·k) against d, scaled and unscaled';

  constructor() {
    super();
    this._stats = null;
    this._error = '';
    this._where = 'Waiting to be shown…';
    this._drafts = {}; // field -> { text, error } while a number field holds bad text
    this._inflight = false;
    this._queued = false;
    this._charts = null;
  }

  connectedCallback() {
    super.connectedCallback();
    this.settleAfter(this._start()); // not settled until shown, with the worker's first result drawn
  }

  async _start() {
    await this.visible;
    try {
      this._engine = await workerEngine();
      this._where = markWhere(this, this._engine);
      this.settleAfter(this._compute());
    } catch (error) {
      this.fail(new Error(`the attention core could not be loaded: ${error.message}`));
    }
  }

  willUpdate(changed) {
    if (this._engine && ['d', 'draws', 'tokens', 'seed'].some((f) => changed.has(f))) this.settleAfter(this._compute());
  }

  get key() {
    return `${this.draws}/${this.tokens}/${this.seed}`;
  }

  /**
   * Computes what the state needs: every d of DIMS and the chosen D when draws, tokens or
   * the seed changed, else only a D not computed yet (each d has its own random stream, so
   * its numbers do not depend on the other dims asked for). One request at a time: changes
   * made meanwhile are computed next, the intermediate ones skipped.
   */
  async _compute() {
    if (this._inflight) {
      this._queued = true;
      return;
    }
    const key = this.key;
    const fresh = !this._stats || this._stats.key !== key;
    const dims = fresh ? [...new Set([...DIMS, this.d])] : this._stats.byDim.has(this.d) ? [] : [this.d];
    if (dims.length === 0) return;
    const options = { dims, draws: this.draws, seed: this.seed, tokens: this.tokens };
    this._inflight = true;
    try {
      const [unscaled, scaled] = await Promise.all([
        this._engine.scalingStatistics({ ...options, scaled: false }),
        this._engine.scalingStatistics({ ...options, scaled: true }),
      ]);
      const byDim = fresh ? new Map() : new Map(this._stats.byDim);
      dims.forEach((d, i) =>
        byDim.set(d, {
          maxU: unscaled.meanMaxWeight[i],
          maxS: scaled.meanMaxWeight[i],
          entU: unscaled.meanEntropy[i],
          entS: scaled.meanEntropy[i],
        }),
      );
      this._stats = { key, tokens: this.tokens, byDim };
      this._error = '';
    } catch (error) {
      this._error = error.message;
    } finally {
      this._inflight = false;
    }
    if (this._queued || this.key !== key) {
      this._queued = false;
      await this._compute(); // the waiting change, within this run: the cell settles after it
    }
  }

  /** { maxU, maxS, entU, entS } at dimension d, if computed. */
  at(d) {
    return this._stats?.byDim.get(d) ?? null;
  }

  /** The computed dims in order: the powers of two, and the chosen D when it is not one. */
  get dims() {
    return this._stats
      ? [...this._stats.byDim.keys()].filter((d) => DIMS.includes(d) || d === this.d).sort((a, b) => a - b)
      : [];
  }

  updated() {
    const s = this._stats;
    const root = this.renderRoot;
    const maxBox = root.querySelector('.chart-max');
    const entBox = root.querySelector('.chart-entropy');
    if (!s || !maxBox) return;
    if (!this._charts || this._charts.tokens !== s.tokens || !maxBox.contains(this._charts.max.svg)) {
      maxBox.replaceChildren();
      entBox.replaceChildren();
      const common = { xLabel: 'd (dimension of q and k)', xLog: true, xDomain: [1, 512], series: SERIES };
      this._charts = {
        tokens: s.tokens,
        max: createLineChart(maxBox, {
          ...common,
          title: 'Mean max weight against d',
          yLabel: 'mean max weight',
          yDomain: [0, 1],
        }),
        entropy: createLineChart(entBox, {
          ...common,
          title: 'Mean entropy (nats) against d',
          yLabel: 'mean entropy (nats)',
          yDomain: [0, Math.ceil(Math.log(s.tokens) * 2) / 2],
        }),
      };
    }
    const dims = this.dims;
    const pick = (field) => dims.map((d) => [d, s.byDim.get(d)[field]]);
    this._charts.max.update([pick('maxU'), pick('maxS')], { marker: this.d });
    this._charts.entropy.update([pick('entU'), pick('entS')], { marker: this.d });

    const at128 = this.at(128);
    const at8 = this.at(8);
    const checks = root.querySelectorAll('attn-check');
    if (at128 && at8 && checks.length === 4) {
      checks[0].value = at128.maxU;
      checks[1].value = at128.maxU - at128.maxS;
      checks[2].value = Math.abs(at128.maxS - at8.maxS);
      checks[3].value = at128.entU;
    }
    const code = root.querySelector('attn-code');
    if (code) code.params = { seed: this.seed, draws: this.draws, tokens: this.tokens };
  }

  _onD(event) {
    this.beginEdit();
    this.d = Number(event.target.value);
    this.stateChanged();
  }

  /** Reset also drops bad text left in the number fields. */
  resetView() {
    this._drafts = {};
  }

  _onNumber(field, event) {
    const spec = this.constructor.stateFields[field];
    const { value, error } = readWholeNumber(event.target, spec);
    const label = field === 'draws' ? 'Random draws' : 'Keys per query';
    if (error) {
      // shown beside the field; the curves keep the last valid value
      const reason = `${label} ${error}; a whole number from ${spec.min} to ${spec.max}, keeping ${this[field]}.`;
      this._drafts = { ...this._drafts, [field]: { text: event.target.value, error: reason } };
      return;
    }
    this._drafts = { ...this._drafts, [field]: undefined };
    this.beginEdit();
    this[field] = value;
    this.stateChanged();
  }

  describe() {
    const a = this.at(this.d);
    if (!a) return 'Curves not computed yet.';
    return (
      `Over ${this.draws} random draws of ${this.tokens} keys: at d = ${this.d} the unscaled weights have mean max ` +
      `${a.maxU.toFixed(3)} and mean entropy ${a.entU.toFixed(3)} nats; the scaled ones ${a.maxS.toFixed(3)} and ` +
      `${a.entS.toFixed(3)} nats. Unscaled, the max weight rises toward 1 as d grows; scaled, it stays flat.`
    );
  }

  exportSvgText() {
    return svgDocument(this._charts.max.svg);
  }

  exportRows() {
    return [
      ['d', 'unscaled mean max weight', 'scaled mean max weight', 'unscaled mean entropy', 'scaled mean entropy'],
      ...this.dims.map((d) => {
        const a = this.at(d);
        return [d, a.maxU, a.maxS, a.entU, a.entS];
      }),
    ];
  }

  exportObject() {
    const dims = this.dims;
    const column = (field) => dims.map((d) => this.at(d)[field]);
    return {
      draws: this.draws,
      tokens: this.tokens,
      seed: this.seed,
      dims,
      unscaled: { meanMaxWeight: column('maxU'), meanEntropy: column('entU') },
      scaled: { meanMaxWeight: column('maxS'), meanEntropy: column('entS') },
    };
  }

  renderFigure() {
    const a = this.at(this.d);
    const t = THRESHOLDS;
    return html`
      <div class="charts">
        <div class="chart-max"></div>
        <div class="chart-entropy"></div>
      </div>
      <div class="controls">
        <label for="d">D (dimension)</label>
        <input id="d" type="range" min="1" max="512" step="1" .value=${String(this.d)} @input=${this._onD} />
        <output for="d" class="d-value">D = ${this.d}</output>
        <label for="draws">Random draws</label>
        <input
          id="draws"
          type="number"
          min="100"
          max="20000"
          step="100"
          .value=${live(this._drafts.draws?.text ?? String(this.draws))}
          aria-invalid=${this._drafts.draws ? 'true' : 'false'}
          aria-describedby=${this._drafts.draws ? 'draws-error' : ''}
          @change=${(e) => this._onNumber('draws', e)}
        />
        <span></span>
        ${this._drafts.draws ? html`<p class="field-error" id="draws-error">${this._drafts.draws.error}</p>` : ''}
        <label for="tokens">Keys per query</label>
        <input
          id="tokens"
          type="number"
          min="2"
          max="64"
          .value=${live(this._drafts.tokens?.text ?? String(this.tokens))}
          aria-invalid=${this._drafts.tokens ? 'true' : 'false'}
          aria-describedby=${this._drafts.tokens ? 'tokens-error' : ''}
          @change=${(e) => this._onNumber('tokens', e)}
        />
        <span></span>
        ${this._drafts.tokens ? html`<p class="field-error" id="tokens-error">${this._drafts.tokens.error}</p>` : ''}
      </div>
      <p class="readout" data-d=${this.d}>
        ${
          a
            ? html`At D = ${this.d}: unscaled max weight
                <span class="mono max-unscaled" data-value=${a.maxU}>${a.maxU.toFixed(3)}</span>, entropy
                <span class="mono">${a.entU.toFixed(3)}</span> nats; scaled max weight
                <span class="mono max-scaled" data-value=${a.maxS}>${a.maxS.toFixed(3)}</span>, entropy
                <span class="mono">${a.entS.toFixed(3)}</span> nats (uniform: ${(1 / this.tokens).toFixed(3)} and
                ${Math.log(this.tokens).toFixed(3)}).`
            : 'Computing…'
        }
      </p>
      <p class="where">${this._where}</p>
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      <attn-check label="unscaled mean max weight at D = 128" threshold=${t.unscaledMax} comparison="ge"></attn-check>
      <attn-check label="unscaled − scaled mean max weight at D = 128" threshold=${t.gap} comparison="ge"></attn-check>
      <attn-check
        label="|scaled mean max weight at D = 128 − at D = 8|"
        threshold=${t.scaledDrift}
        comparison="le"
      ></attn-check>
      <attn-check
        label="unscaled mean entropy at D = 128 (nats)"
        threshold=${t.unscaledEntropy}
        comparison="le"
      ></attn-check>
      <attn-code label="NumPy: the same experiment" .template=${CODE}></attn-code>
    `;
  }
}

customElements.define('attn-scaling-curves', AttnScalingCurves);
