/**
 * <attn-dot-variance d="128" samples="4096" seed="0">
 *
 * The variance argument behind 1/sqrt(d_k): for q and k with independent
 * standard-normal entries, q·k = Σᵢ qᵢkᵢ is a sum of d terms of mean 0 and
 * variance 1, so it has mean 0 and variance d. The lab draws `samples` pairs
 * (q, k) of dimension d in the wasm core (engine.randn) and has the core compute
 * their dot products (engine.attention with scale 1 and returnLogits: the logits
 * of one query against one key are exactly q·k); the page then averages them
 * (mean and mean square: display arithmetic) and checks |var(q·k)/d − 1| is within
 * four standard errors of that estimate, 4·√((2 + 6/d)/samples)
 * (for Gaussian entries Var((q·k)²) = 2d² + 6d). Runs in the page's Web Worker.
 *
 * State (permalink): d (1–512), samples (256–16384), seed.
 * data-settled (AttnCell) once computed and drawn, data-computed-in="worker" | "main-thread".
 */
import { html } from 'lit';
import { AttnFigure } from '../../cells/base/figure-base.js';
import { Coalescer, labStyles, markWhere, workerEngine } from '../common/worker-lab.js';

/** Four standard errors of the sample variance over d, for samples Gaussian dot products. */
export const varianceTolerance = (d, samples) => 4 * Math.sqrt((2 + 6 / d) / samples);

export class AttnDotVariance extends AttnFigure {
  static stateFields = {
    d: { type: 'integer', default: 128, min: 1, max: 512 },
    samples: { type: 'integer', default: 4096, min: 256, max: 16384 },
    seed: { type: 'integer', default: 0, min: 0, max: 1000000 },
  };

  static properties = {
    ...super.properties,
    _result: { state: true },
    _error: { state: true },
    _where: { state: true },
  };

  static styles = [AttnFigure.baseStyles, AttnFigure.figureStyles, labStyles];

  defaultLabel = 'Variance of q·k against the dimension d';

  constructor() {
    super();
    this._result = null;
    this._error = '';
    this._where = 'Waiting to be shown…';
    this._coalescer = new Coalescer();
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
      this._compute();
    } catch (error) {
      this.fail(new Error(`the attention core could not be loaded: ${error.message}`));
    }
  }

  willUpdate(changed) {
    if (this._engine && ['d', 'samples', 'seed'].some((f) => changed.has(f))) this._compute();
  }

  _compute() {
    this.settleAfter(this._coalescer.run(() => this._computeNow()));
  }

  async _computeNow() {
    const { d, samples: n, seed } = this;
    try {
      const result = await (async () => {
        const e = this._engine;
        const [q, k, v] = await Promise.all([
          e.randn([n, 1, d], seed),
          e.randn([n, 1, d], seed + 1),
          e.randn([n, 1, 1], seed + 2),
        ]);
        const { logits } = await e.attention(q, k, v, { scale: 1, returnLogits: true }); // (n, 1, 1): q·k per pair
        return logits.data;
      })();
      let sum = 0;
      let squares = 0;
      for (const x of result) {
        sum += x;
        squares += x * x;
      }
      const mean = sum / n;
      const variance = squares / n - mean * mean;
      this._result = { d, n, mean, variance, first: Array.from(result.slice(0, 5)) };
      this._error = '';
    } catch (error) {
      this._error = error.message;
    }
  }

  updated() {
    const r = this._result;
    const check = this.renderRoot.querySelector('attn-check');
    if (!r || !check) return;
    check.value = Math.abs(r.variance / r.d - 1);
  }

  _onD(event) {
    this.beginEdit();
    this.d = Number(event.target.value);
    this.stateChanged();
  }

  describe() {
    const r = this._result;
    return r
      ? `Over ${r.n} random pairs with d = ${r.d}: q·k has mean ${r.mean.toFixed(3)} and variance ${r.variance.toFixed(2)}, ` +
          `${(r.variance / r.d).toFixed(3)} times d. Divided by √d it has variance ${(r.variance / r.d).toFixed(3)}.`
      : 'Not computed yet.';
  }

  exportSvgText() {
    const text = this.describe().replace(/[<&>]/g, '');
    return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="640" height="40"><text x="8" y="24" font-family="sans-serif" font-size="13">${text}</text></svg>\n`;
  }

  exportRows() {
    const r = this._result;
    return [
      ['d', 'samples', 'mean of q·k', 'variance of q·k', 'variance / d'],
      r ? [r.d, r.n, r.mean, r.variance, r.variance / r.d] : [],
    ];
  }

  exportObject() {
    return { ...this.getState(), ...(this._result ?? {}) };
  }

  renderFigure() {
    const r = this._result;
    const tol = varianceTolerance(this.d, this.samples);
    return html`
      <div class="controls">
        <label for="d">d (dimension)</label>
        <input id="d" type="range" min="1" max="512" step="1" .value=${String(this.d)} @input=${this._onD} />
        <output for="d">d = ${this.d}</output>
      </div>
      ${
        r
          ? html`<table>
              <thead>
                <tr>
                  <th scope="col">pairs</th>
                  <th scope="col">mean of q·k</th>
                  <th scope="col">variance of q·k</th>
                  <th scope="col">variance / d</th>
                  <th scope="col">std of q·k</th>
                  <th scope="col">std of q·k/√d</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <td class="mono">${r.n}</td>
                  <td class="mono">${r.mean.toFixed(3)}</td>
                  <td class="mono variance" data-value=${r.variance}>${r.variance.toFixed(2)}</td>
                  <td class="mono ratio" data-value=${r.variance / r.d}>${(r.variance / r.d).toFixed(3)}</td>
                  <td class="mono">${Math.sqrt(r.variance).toFixed(2)}</td>
                  <td class="mono">${Math.sqrt(r.variance / r.d).toFixed(3)}</td>
                </tr>
              </tbody>
            </table>`
          : html`<p class="readout">Computing…</p>`
      }
      <p class="where">${this._where}</p>
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      <attn-check
        label="|measured var(q·k) / d − 1|, within four standard errors"
        threshold=${Number(tol.toFixed(3))}
        comparison="le"
      ></attn-check>
    `;
  }
}

customElements.define('attn-dot-variance', AttnDotVariance);
