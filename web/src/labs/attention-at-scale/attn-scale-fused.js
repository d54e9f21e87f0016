/**
 * <attn-scale-fused t="1024">
 *
 * Attention at sequence lengths up to 16,384 with the fused kernel, which never
 * keeps the T × T weights (engine.attention without returnWeights): one head,
 * E = 64, random q, k, v, no mask. Runs as a job in the page's Web Worker
 * (fusedAttention in engine/jobs.js: the query rows in blocks, progress after
 * each block; moving the slider again cancels the run in progress). Shows the
 * time, GFLOP/s, the wasm heap of the module that ran it (engine.memory(), a
 * high-water mark) next to the T·T·4 bytes the weights would have needed.
 * Check: that heap stays within 64 MiB at every T.
 *
 * State (permalink): t (256–16384, a power of two).
 * data-settled (AttnCell) after each finished run (data-t: its T), data-computed-in.
 */
import { html } from 'lit';
import { AttnFigure } from '../../cells/base/figure-base.js';
import { bytes, labStyles, markWhere, workerEngine } from '../common/worker-lab.js';

export const FUSED_SIZES = [256, 512, 1024, 2048, 4096, 8192, 16384];
export const HEAP_LIMIT = 64 * 1024 * 1024;

export class AttnScaleFused extends AttnFigure {
  static stateFields = {
    t: { type: 'enum', default: '1024', values: FUSED_SIZES.map(String) },
  };

  static properties = {
    ...super.properties,
    _result: { state: true },
    _error: { state: true },
    _where: { state: true },
    _progress: { state: true },
  };

  static styles = [AttnFigure.baseStyles, AttnFigure.figureStyles, labStyles];

  defaultLabel = 'The fused kernel at long sequence lengths: time and memory';

  constructor() {
    super();
    this._result = null;
    this._error = '';
    this._where = 'Waiting to be shown…';
    this._progress = null;
  }

  get T() {
    return Number(this.t);
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
      this.settleAfter(this._run());
    } catch (error) {
      this.fail(new Error(`the attention core could not be loaded: ${error.message}`));
    }
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._engine?.cancel('fusedAttention');
  }

  willUpdate(changed) {
    if (this._engine && changed.has('t')) this.settleAfter(this._run());
  }

  async _run() {
    const T = this.T;
    this._progress = { done: 0, steps: T, T };
    try {
      const result = await this._engine.fusedAttention(
        { T, seed: 1 },
        { onProgress: (p) => (this._progress = { ...p, T }) },
      );
      this._result = result;
      this._progress = null;
      this._error = '';
    } catch (error) {
      if (error.kind === 'Cancelled') return; // a newer run took over
      this._progress = null;
      this._error = error.message;
    }
  }

  updated() {
    const r = this._result;
    const check = this.renderRoot.querySelector('attn-check');
    if (!r || !check) return;
    check.value = r.heapBytes / 2 ** 20;
    if (!this._progress) {
      this.dataset.t = String(r.T);
    }
  }

  _onT(event) {
    this.beginEdit();
    this.t = String(FUSED_SIZES[Number(event.target.value)]);
    this.stateChanged();
  }

  describe() {
    const r = this._result;
    if (!r) return 'Not run yet.';
    return (
      `Fused attention at T = ${r.T} took ${r.ms.toFixed(0)} ms (${r.gflops.toFixed(2)} GFLOP/s); its wasm heap is ` +
      `${bytes(r.heapBytes)}, where the weights alone would need ${bytes(r.weightsBytes)}.`
    );
  }

  exportSvgText() {
    const text = this.describe().replace(/[<&>]/g, '');
    return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="720" height="40"><text x="8" y="24" font-family="sans-serif" font-size="13">${text}</text></svg>\n`;
  }

  exportRows() {
    const r = this._result;
    return [
      ['T', 'E', 'simd', 'ms', 'GFLOP/s', 'heap bytes', 'weights bytes'],
      r ? [r.T, r.dim, r.simd, r.ms, r.gflops, r.heapBytes, r.weightsBytes] : [],
    ];
  }

  exportObject() {
    const r = this._result;
    return r ? { ...r, firstRow: Array.from(r.firstRow) } : null;
  }

  renderFigure() {
    const r = this._result;
    const p = this._progress;
    return html`
      <div class="controls">
        <label for="t">Sequence length T</label>
        <input
          id="t"
          type="range"
          min="0"
          max=${FUSED_SIZES.length - 1}
          step="1"
          .value=${String(FUSED_SIZES.indexOf(this.T))}
          aria-valuetext=${`T = ${this.T}`}
          @input=${this._onT}
        />
        <output for="t" class="t-value">T = ${this.T}</output>
      </div>
      ${
        p
          ? html`<p class="progress-line">
              <label for="progress">Running T = ${p.T}: query rows ${p.done} of ${p.steps}</label><br />
              <progress id="progress" max=${p.steps} .value=${p.done}></progress>
            </p>`
          : ''
      }
      ${
        r
          ? html`<table>
              <thead>
                <tr>
                  <th scope="col">T</th>
                  <th scope="col">time</th>
                  <th scope="col">GFLOP/s</th>
                  <th scope="col">wasm heap kept</th>
                  <th scope="col">weights would need (T·T·4)</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <td class="mono">${r.T}</td>
                  <td class="mono">${r.ms.toFixed(0)} ms</td>
                  <td class="mono">${r.gflops.toFixed(2)}</td>
                  <td class="mono heap-bytes" data-value=${r.heapBytes}>${bytes(r.heapBytes)}</td>
                  <td class="mono weights-bytes" data-value=${r.weightsBytes}>${bytes(r.weightsBytes)}</td>
                </tr>
              </tbody>
            </table>`
          : ''
      }
      <p class="where">${this._where}; ${r?.simd === false ? 'scalar build (no SIMD here)' : 'SIMD build'}</p>
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      <attn-check
        label="wasm heap of the fused kernel (MiB)"
        threshold=${HEAP_LIMIT / 2 ** 20}
        comparison="le"
      ></attn-check>
    `;
  }
}

customElements.define('attn-scale-fused', AttnScaleFused);
