/**
 * <attn-scale-heatmap t="256" mask="causal" window="8" seed="0">
 *
 * The full attention weights of one head at sequence length T (8 … 4,096, a
 * slider over powers of two), E = 64, random q, k, v (seeded), with no mask, the
 * causal mask or a two-sided local window (|i − j| ≤ window), drawn by
 * attn-heatmap (annotated SVG up to 32 × 32, a canvas beyond; colours span
 * [0, 1] up to 32 × 32 and [0, largest weight] beyond). Computed in the page's Web Worker
 * (engine.attention with returnWeights). Shows the bytes the weights take,
 * T·T·4, the worker module's wasm heap (engine.memory(), a high-water mark) and the
 * time. A check sums the weight that fell on masked keys (must be exactly 0).
 *
 * State (permalink): t (8–4096, a power of two), mask (none | causal | window),
 * window (1–512), seed. data-settled (AttnCell) once drawn, data-t the T shown,
 * data-computed-in="worker" | "main-thread".
 */
import { css, html } from 'lit';
import { AttnFigure } from '../../cells/base/figure-base.js';
import { bytes, Coalescer, labStyles, markWhere, workerEngine } from '../common/worker-lab.js';

const CODE = `import torch
import torch.nn.functional as F

T, E = {{T}}, 64
q, k, v = torch.randn(T, E), torch.randn(T, E), torch.randn(T, E)
i, j = torch.arange(T)[:, None], torch.arange(T)[None, :]
masks = {'none': None, 'causal': j <= i, 'window': (i - j).abs() <= {{window}}}
mask = masks[{{mask}}]                      # True = may attend
scores = q @ k.T / E ** 0.5
if mask is not None:
    scores = scores.masked_fill(~mask, float('-inf'))
weights = scores.softmax(-1)                # (T, T): T * T * 4 bytes in float32
out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)   # same output, fused
print(weights.element_size() * weights.nelement(), 'bytes of weights')`;

export const HEATMAP_SIZES = [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
const E = 64;

export class AttnScaleHeatmap extends AttnFigure {
  static stateFields = {
    t: { type: 'enum', default: '256', values: HEATMAP_SIZES.map(String) },
    mask: { type: 'enum', default: 'causal', values: ['none', 'causal', 'window'] },
    window: { type: 'integer', default: 8, min: 1, max: 512 },
    seed: { type: 'integer', default: 0, min: 0, max: 1000000 },
  };

  static properties = {
    ...super.properties,
    _result: { state: true },
    _error: { state: true },
    _where: { state: true },
    _busy: { state: true },
  };

  static styles = [
    AttnFigure.baseStyles,
    AttnFigure.figureStyles,
    labStyles,
    css`
      attn-heatmap {
        margin: 0.5rem 0;
      }
    `,
  ];

  defaultLabel = 'Attention weights at sequence length T';

  constructor() {
    super();
    this._result = null;
    this._error = '';
    this._where = 'Waiting to be shown…';
    this._busy = false;
    this._coalescer = new Coalescer();
  }

  get T() {
    return Number(this.t);
  }

  get maskOption() {
    if (this.mask === 'causal') return 'causal';
    if (this.mask === 'window') return { window: this.window };
    return null;
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
    if (this._engine && ['t', 'mask', 'window', 'seed'].some((f) => changed.has(f))) this._compute();
  }

  _compute() {
    this.settleAfter(this._coalescer.run(() => this._computeNow()));
  }

  async _computeNow() {
    const { T, seed, mask } = this;
    const maskOption = this.maskOption;
    this._busy = true;
    try {
      const result = await (async () => {
        const e = this._engine;
        const [q, k, v] = await Promise.all([
          e.randn([T, E], seed),
          e.randn([T, E], seed + 1),
          e.randn([T, E], seed + 2),
        ]);
        const t0 = performance.now();
        const { weights, fullyMaskedRows } = await e.attention(q, k, v, { mask: maskOption, returnWeights: true });
        const ms = performance.now() - t0;
        const memory = await e.memory();
        return { weights, fullyMaskedRows, ms, memory };
      })();
      // Weight on keys the mask forbids (display arithmetic: a sum over the returned weights).
      const { data } = result.weights;
      let masked = 0;
      const w = this.window;
      for (let i = 0; i < T; i++) {
        for (let j = 0; j < T; j++) {
          const allowed = mask === 'none' || (mask === 'causal' ? j <= i : Math.abs(i - j) <= w);
          if (!allowed) masked += data[i * T + j];
        }
      }
      this._result = { ...result, T, mask, masked };
      this._error = '';
    } catch (error) {
      this._error = error.message;
    } finally {
      this._busy = false;
    }
  }

  updated() {
    const r = this._result;
    const check = this.renderRoot.querySelector('attn-check');
    if (!r || !check) return;
    check.value = r.masked;
    const code = this.renderRoot.querySelector('attn-code');
    if (code) code.params = { T: this.T, window: this.window, mask: this.mask };
    this.dataset.t = String(r.T);
  }

  _onT(event) {
    this.beginEdit();
    this.t = String(HEATMAP_SIZES[Number(event.target.value)]);
    this.stateChanged();
  }

  _onMask(event) {
    this.beginEdit();
    this.mask = event.target.value;
    this.stateChanged();
  }

  _onWindow(event) {
    this.beginEdit();
    this.window = Number(event.target.value);
    this.stateChanged();
  }

  describe() {
    const r = this._result;
    if (!r) return 'Not computed yet.';
    return (
      `Attention weights of ${r.T} queries over ${r.T} keys with ${r.mask === 'none' ? 'no mask' : `the ${r.mask} mask`}; ` +
      `they take ${bytes(r.T * r.T * 4)}. Weight on masked keys: ${r.masked}.`
    );
  }

  exportSvgText() {
    return this.renderRoot.querySelector('attn-heatmap').exportSvgText();
  }

  exportRows() {
    const r = this._result;
    return [
      ['T', 'mask', 'window', 'weights bytes', 'worker heap bytes', 'ms'],
      r ? [r.T, r.mask, this.window, r.T * r.T * 4, r.memory.heapBytes, r.ms] : [],
    ];
  }

  exportObject() {
    const r = this._result;
    return { ...this.getState(), weightsBytes: r ? r.T * r.T * 4 : null, heapBytes: r?.memory.heapBytes ?? null };
  }

  renderFigure() {
    const r = this._result;
    const index = HEATMAP_SIZES.indexOf(this.T);
    return html`
      <div class="controls">
        <label for="t">Sequence length T</label>
        <input
          id="t"
          type="range"
          min="0"
          max=${HEATMAP_SIZES.length - 1}
          step="1"
          .value=${String(index)}
          aria-valuetext=${`T = ${this.T}`}
          @input=${this._onT}
        />
        <output for="t" class="t-value">T = ${this.T}</output>
        <label for="mask">Mask</label>
        <select id="mask" .value=${this.mask} @change=${this._onMask}>
          <option value="none" ?selected=${this.mask === 'none'}>none (every key)</option>
          <option value="causal" ?selected=${this.mask === 'causal'}>causal (j ≤ i)</option>
          <option value="window" ?selected=${this.mask === 'window'}>local window (|i − j| ≤ w)</option>
        </select>
        <span></span>
        ${
          this.mask === 'window'
            ? html`<label for="w">Window w</label>
                <input
                  id="w"
                  type="range"
                  min="1"
                  max="64"
                  step="1"
                  .value=${String(this.window)}
                  @input=${this._onWindow}
                />
                <output for="w">w = ${this.window}</output>`
            : ''
        }
      </div>
      ${
        r
          ? html`<attn-heatmap
                label=${`Attention weights, T = ${r.T}, mask: ${r.mask}`}
                .values=${r.weights}
                .min=${0}
                .max=${r.T <= 32 ? 1 : null}
              ></attn-heatmap>
              <p class="readout memory">
                Weights: ${r.T} × ${r.T} × 4 bytes =
                <span class="mono weights-bytes" data-value=${r.T * r.T * 4}>${bytes(r.T * r.T * 4)}</span>; the
                worker's wasm heap:
                <span class="mono heap-bytes" data-value=${r.memory.heapBytes}>${bytes(r.memory.heapBytes)}</span>
                (a high-water mark: wasm memory never shrinks); computed in ${r.ms.toFixed(0)} ms.
              </p>`
          : html`<p class="readout">Computing…</p>`
      }
      <p class="where">${this._busy ? 'Computing… ' : ''}${this._where}</p>
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      <attn-check label="total weight on masked keys" threshold="0" comparison="eq"></attn-check>
      <attn-code label="PyTorch: the weights and the fused call" .template=${CODE}></attn-code>
    `;
  }
}

customElements.define('attn-scale-heatmap', AttnScaleHeatmap);
