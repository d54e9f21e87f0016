/**
 * <attn-scale-benchmark tmax="256">
 *
 * A live benchmark of one head of attention (L = S = T, E = 64, no mask):
 * the wasm SIMD build against the wasm scalar build (both the fused kernel) and
 * a plain-JavaScript loop (engine/plain-attention.js), at T = 32, 64, … up to
 * tmax. Runs as a job in the page's Web Worker (benchmark in engine/jobs.js),
 * started by the Run button, with a progress bar and Cancel; running again
 * supersedes the run in progress. Shows a table (median time, GFLOP/s counting
 * 4·T²·E operations, the time ratio to the previous T, which tends to 4 as the
 * cost grows with T², and the largest difference from the plain-JS output) and a
 * log–log chart of time against T.
 *
 * State (permalink): tmax (64–2048, a power of two). Sets data-status on itself:
 * idle | running | done | cancelled | failed; data-computed-in.
 */
import { css, html } from 'lit';
import { svgDocument } from '../../charts/export.js';
import { createLineChart, logDomain } from '../../charts/line-chart.js';
import { AttnFigure } from '../../cells/base/figure-base.js';
import { labStyles, markWhere, workerEngine } from '../common/worker-lab.js';

const MAX_SIZES = [64, 128, 256, 512, 1024, 2048];
const CONTENDERS = [
  { id: 'simd', name: 'wasm SIMD', className: 'series-1' },
  { id: 'scalar', name: 'wasm scalar', className: 'series-0', dashed: true },
  { id: 'js', name: 'plain JS', className: 'series-2', dashed: true },
];

const CODE = `import time
import torch
import torch.nn.functional as F

torch.set_num_threads(1)                    # one thread, like the wasm build
E = 64
for T in {{sizes}}:
    q, k, v = (torch.randn(T, E) for _ in range(3))
    F.scaled_dot_product_attention(q, k, v) # warm-up
    times = []
    for _ in range(15):
        t0 = time.perf_counter()
        F.scaled_dot_product_attention(q, k, v)
        times.append(time.perf_counter() - t0)
    ms = sorted(times)[len(times) // 2] * 1e3
    print(T, f'{ms:.3f} ms', f'{4 * T * T * E / (ms * 1e6):.2f} GFLOP/s')`;

const sizesUpTo = (max) => {
  const sizes = [];
  for (let T = 32; T <= max; T *= 2) sizes.push(T);
  return sizes;
};

export class AttnScaleBenchmark extends AttnFigure {
  static stateFields = {
    tmax: { type: 'enum', default: '256', values: MAX_SIZES.map(String) },
  };

  static properties = {
    ...super.properties,
    _rows: { state: true },
    _progress: { state: true },
    _error: { state: true },
    _where: { state: true },
  };

  static styles = [
    AttnFigure.baseStyles,
    AttnFigure.figureStyles,
    labStyles,
    css`
      .buttons {
        display: flex;
        gap: 0.5rem;
        flex-wrap: wrap;
        margin: 0.5rem 0;
      }
      .chart {
        max-width: 34rem;
      }
    `,
  ];

  defaultLabel = 'Benchmark: wasm SIMD, wasm scalar and plain JS attention';

  constructor() {
    super();
    this._rows = [];
    this._progress = null;
    this._error = '';
    this._where = '';
    this._chart = null;
    this._runs = 0;
  }

  connectedCallback() {
    super.connectedCallback();
    this.dataset.status ??= 'idle';
  }

  get maxT() {
    return Number(this.tmax);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._engine?.cancel('benchmark');
  }

  async _run() {
    try {
      this._engine ??= await workerEngine();
      this._where = markWhere(this, this._engine);
    } catch (error) {
      this._error = `the attention core could not be loaded: ${error.message}`;
      return;
    }
    const run = ++this._runs;
    const sizes = sizesUpTo(this.maxT);
    this._rows = [];
    this._error = '';
    this._progress = { done: 0, steps: sizes.length * CONTENDERS.length, row: null };
    this.dataset.status = 'running';
    try {
      const { rows } = await this._engine.benchmark(
        { sizes, dim: 64, contenders: CONTENDERS.map((c) => c.id) },
        {
          onProgress: (p) => {
            if (run !== this._runs) return;
            this._progress = p;
            this._rows = [...this._rows, p.row];
          },
        },
      );
      if (run !== this._runs) return;
      this._rows = rows;
      this._progress = null;
      this.dataset.status = 'done';
    } catch (error) {
      if (run !== this._runs) return; // a newer run superseded this one
      if (error.kind === 'Cancelled') {
        this._progress = null;
        this.dataset.status = 'cancelled';
        return;
      }
      this._progress = null;
      this._error = error.message;
      this.dataset.status = 'failed';
    }
  }

  _cancel() {
    this._runs++;
    this._engine?.cancel('benchmark');
    this._progress = null;
    this.dataset.status = 'cancelled';
  }

  _onMax(event) {
    this.beginEdit();
    this.tmax = event.target.value;
    this.stateChanged();
  }

  /** rows of one contender, by T. */
  _series(id) {
    return this._rows.filter((r) => r.contender === id && r.ms !== null);
  }

  updated() {
    const code = this.renderRoot.querySelector('attn-code');
    if (code) code.params = { sizes: sizesUpTo(this.maxT) };
    const box = this.renderRoot.querySelector('.chart');
    if (!box) return;
    const timed = this._rows.filter((r) => r.ms !== null);
    if (timed.length === 0) {
      box.replaceChildren();
      this._chart = null;
      return;
    }
    const sizes = sizesUpTo(this.maxT);
    const [lo, hi] = logDomain(Math.min(...timed.map((r) => r.ms)), Math.max(...timed.map((r) => r.ms)));
    const key = `${sizes.at(-1)}:${lo}:${hi}`;
    if (!this._chart || this._chart.key !== key || !box.contains(this._chart.chart.svg)) {
      box.replaceChildren();
      this._chart = {
        key,
        chart: createLineChart(box, {
          title: 'Time per attention call against T (log–log)',
          xLabel: 'sequence length T',
          yLabel: 'ms per call',
          xLog: true,
          yLog: true,
          xDomain: [sizes[0], sizes.at(-1)],
          yDomain: [lo, hi],
          series: CONTENDERS,
          format: (v) => (v >= 1 ? String(v) : v.toPrecision(1)),
        }),
      };
    }
    this._chart.chart.update(CONTENDERS.map((c) => this._series(c.id).map((r) => [r.T, r.ms])));
  }

  describe() {
    if (this._rows.length === 0) return 'The benchmark has not run yet.';
    return this._rows
      .filter((r) => r.ms !== null)
      .map((r) => `${r.label} at T = ${r.T}: ${r.ms.toFixed(2)} ms, ${r.gflops.toFixed(2)} GFLOP/s`)
      .join('; ');
  }

  exportSvgText() {
    if (!this._chart) throw new Error('run the benchmark first');
    return svgDocument(this._chart.chart.svg);
  }

  exportRows() {
    return [
      ['T', 'contender', 'ms', 'GFLOP/s', 'reps', 'max |diff| vs plain JS'],
      ...this._rows.map((r) => [r.T, r.label, r.ms ?? '', r.gflops ?? '', r.reps, r.maxAbsDiff ?? '']),
    ];
  }

  exportObject() {
    return { dim: 64, rows: this._rows };
  }

  _table() {
    const previous = (r) => this._rows.find((x) => x.contender === r.contender && x.T === r.T / 2 && x.ms !== null);
    return html`<table class="results">
      <caption class="sr-only">
        Benchmark results
      </caption>
      <thead>
        <tr>
          <th scope="col">T</th>
          <th scope="col">contender</th>
          <th scope="col">ms per call</th>
          <th scope="col">GFLOP/s</th>
          <th scope="col">× time of T/2</th>
          <th scope="col">max |diff| vs JS</th>
        </tr>
      </thead>
      <tbody>
        ${this._rows.map((r) => {
          const before = previous(r);
          return html`<tr
            data-t=${r.T}
            data-contender=${r.contender}
            data-ms=${r.ms ?? ''}
            data-gflops=${r.gflops ?? ''}
          >
            <td class="mono">${r.T}</td>
            <td>${r.label}</td>
            <td class="mono">${r.ms === null ? r.error : r.ms < 1 ? r.ms.toFixed(3) : r.ms.toFixed(1)}</td>
            <td class="mono">${r.gflops === null ? '' : r.gflops.toFixed(2)}</td>
            <td class="mono">${before ? `×${(r.ms / before.ms).toFixed(1)}` : ''}</td>
            <td class="mono">${r.maxAbsDiff === null ? '' : r.maxAbsDiff.toExponential(1)}</td>
          </tr>`;
        })}
      </tbody>
    </table>`;
  }

  renderFigure() {
    const p = this._progress;
    const running = Boolean(p);
    return html`
      <div class="controls">
        <label for="max">Largest T</label>
        <select id="max" .value=${this.tmax} @change=${this._onMax}>
          ${MAX_SIZES.map((T) => html`<option value=${T} ?selected=${String(T) === this.tmax}>${T}</option>`)}
        </select>
        <span class="note">sizes ${sizesUpTo(this.maxT).join(', ')}</span>
      </div>
      <div class="buttons">
        <button type="button" class="run" @click=${() => this.settleAfter(this._run())}>
          ${running ? 'Restart benchmark' : 'Run benchmark'}
        </button>
        <button type="button" class="cancel" ?disabled=${!running} @click=${() => this._cancel()}>Cancel</button>
      </div>
      ${
        running
          ? html`<p>
              <label for="progress"
                >Step ${p.done} of ${p.steps}${p.row ? `: ${p.row.label} at T = ${p.row.T} done` : ''}</label
              ><br />
              <progress id="progress" max=${p.steps} .value=${p.done}></progress>
            </p>`
          : ''
      }
      ${this._rows.length ? this._table() : html`<p class="note">Press Run: it takes a few seconds.</p>`}
      <div class="chart"></div>
      ${this._where ? html`<p class="where">${this._where}</p>` : ''}
      ${this._error ? html`<p class="error" role="alert">${this._error}</p>` : ''}
      <attn-code label="PyTorch: the same measurement on your machine" .template=${CODE}></attn-code>
    `;
  }
}

customElements.define('attn-scale-benchmark', AttnScaleBenchmark);
