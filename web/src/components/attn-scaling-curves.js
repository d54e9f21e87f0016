/**
 * <attn-scaling-curves d="128" draws="2000" tokens="5" seed="0">
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
 * Sets data-ready once the curves are drawn, data-computed-in="worker" | "main-thread".
 */
import { css, html } from 'lit';
import { svgDocument } from '../charts/export.js';
import { createLineChart } from '../charts/line-chart.js';
import { formatNumber } from './cell-support.js';
import { AttnFigure } from './figure-base.js';
import { Latest, labStyles, markWhere, workerEngine } from './scale-lab-support.js';

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
    K = rng.standard_normal((draws, tokens, d))   # its keys
    logits = np.einsum('nd,ntd->nt', q, K)        # q·k_j, variance d
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
    draws: { type: 'integer', default: 2000, min: 100, max: 20000 },
    tokens: { type: 'integer', default: 5, min: 2, max: 64 },
    seed: { type: 'integer', default: 0, min: 0, max: 1000000 },
  };

  static properties = { ...super.properties, _stats: { state: true }, _error: { state: true }, _where: { state: true } };

  static styles = [AttnFigure.baseStyles, AttnFigure.figureStyles, labStyles, css``];

  defaultLabel = 'Mean max-weight and entropy of softmax(q·k) against d, scaled and unscaled';

  constructor() {
    super();
    this._stats = null;
    this._error = '';
    this._where = 'Waiting to be shown…';
    this._latest = new Latest();
    this._charts = null;
  }

  async connectedCallback() {
    super.connectedCallback();
    await this.visible;
    try {
      this._engine = await workerEngine();
      this._where = markWhere(this, this._engine);
      this._compute();
    } catch (error) {
      this.fail(new Error(`the attention core could not be loaded: ${error.message}`));
    }
  }

  willUpdate(changed) {
    if (this._engine && ['d', 'draws', 'tokens', 'seed'].some((f) => changed.has(f))) this._compute();
  }

  get dims() {
    return [...new Set([...DIMS, this.d])].sort((a, b) => a - b);
  }

  async _compute() {
    const dims = this.dims;
    const options = { dims, draws: this.draws, seed: this.seed, tokens: this.tokens };
    try {
      const result = await this._latest.run(() =>
        Promise.all([
          this._engine.scalingStatistics({ ...options, scaled: false }),
          this._engine.scalingStatistics({ ...options, scaled: true }),
        ]),
      );
      if (result === Latest.STALE) return;
      const [unscaled, scaled] = result;
      this._stats = { dims, tokens: this.tokens, unscaled, scaled };
      this._error = '';
    } catch (error) {
      this._error = error.message;
    }
  }

  /** { maxU, maxS, entU, entS } at dimension d (d must be in the computed dims). */
  at(d) {
    const s = this._stats;
    const i = s?.dims.indexOf(d) ?? -1;
    if (i < 0) return null;
    return {
      maxU: s.unscaled.meanMaxWeight[i],
      maxS: s.scaled.meanMaxWeight[i],
      entU: s.unscaled.meanEntropy[i],
      entS: s.scaled.meanEntropy[i],
    };
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
    const pick = (stat, key) => s.dims.map((d, i) => [d, s[stat][key][i]]);
    this._charts.max.update([pick('unscaled', 'meanMaxWeight'), pick('scaled', 'meanMaxWeight')], { marker: this.d });
    this._charts.entropy.update([pick('unscaled', 'meanEntropy'), pick('scaled', 'meanEntropy')], { marker: this.d });

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
    this.toggleAttribute('data-ready', true);
  }

  _onD(event) {
    this.beginEdit();
    this.d = Number(event.target.value);
    this.stateChanged();
  }

  _onNumber(field, event) {
    const spec = this.constructor.stateFields[field];
    const value = Number(event.target.value);
    if (!Number.isInteger(value) || value < spec.min || value > spec.max) {
      this._error = `${field} must be a whole number from ${spec.min} to ${spec.max}; keeping ${this[field]}`;
      return;
    }
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
    const s = this._stats;
    if (!s) return [['d']];
    return [
      ['d', 'unscaled mean max weight', 'scaled mean max weight', 'unscaled mean entropy', 'scaled mean entropy'],
      ...s.dims.map((d, i) => [
        d,
        s.unscaled.meanMaxWeight[i],
        s.scaled.meanMaxWeight[i],
        s.unscaled.meanEntropy[i],
        s.scaled.meanEntropy[i],
      ]),
    ];
  }

  exportObject() {
    const s = this._stats;
    return {
      draws: this.draws,
      tokens: this.tokens,
      seed: this.seed,
      dims: s?.dims ?? [],
      unscaled: s ? { meanMaxWeight: [...s.unscaled.meanMaxWeight], meanEntropy: [...s.unscaled.meanEntropy] } : null,
      scaled: s ? { meanMaxWeight: [...s.scaled.meanMaxWeight], meanEntropy: [...s.scaled.meanEntropy] } : null,
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
          .value=${String(this.draws)}
          @change=${(e) => this._onNumber('draws', e)}
        />
        <span></span>
        <label for="tokens">Keys per query</label>
        <input
          id="tokens"
          type="number"
          min="2"
          max="64"
          .value=${String(this.tokens)}
          @change=${(e) => this._onNumber('tokens', e)}
        />
        <span></span>
      </div>
      <p class="readout" data-d=${this.d}>
        ${a
          ? html`At D = ${this.d}: unscaled max weight
              <span class="mono max-unscaled" data-value=${a.maxU}>${a.maxU.toFixed(3)}</span>, entropy
              <span class="mono">${a.entU.toFixed(3)}</span> nats; scaled max weight
              <span class="mono max-scaled" data-value=${a.maxS}>${a.maxS.toFixed(3)}</span>, entropy
              <span class="mono">${a.entS.toFixed(3)}</span> nats (uniform: ${(1 / this.tokens).toFixed(3)} and
              ${Math.log(this.tokens).toFixed(3)}).`
          : 'Computing…'}
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
