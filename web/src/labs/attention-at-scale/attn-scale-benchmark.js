/**
 * <attn-scale-benchmark tmax="256">
 *
 * A live benchmark of one head of attention (L = S = T, E = 64, no mask): the wasm SIMD build
 * against the wasm scalar build (both the fused kernel) and a plain-JavaScript loop
 * (engine/plain-attention.js), at T = 32, 64, … up to tmax, and the SIMD build on every core (the
 * page's pool of workers, runtime.js getPool; a line says how many it used). Runs as a job in the
 * page's Web Worker (benchmark in engine/jobs.js), then the every-core row from the page
 * (poolBenchmark), started by the Run button, with a progress bar and Cancel;
 * running again supersedes the run in progress. The figure: a log–log chart of time against T.
 * Beside it: the largest T, Run and Cancel, the progress. Below: the table (median time, GFLOP/s
 * counting 4·T²·E operations, the time ratio to the previous T, which tends to 4 as the cost
 * grows with T², and the largest difference from the plain-JS output; scale-benchmark-model.js).
 *
 * State (permalink): tmax (64–2048, a power of two). Sets data-status on itself:
 * idle | running | done | cancelled | failed; data-computed-in.
 */
import { html } from 'lit';
import { AttnLab } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { lineChartStyles, tableStyles } from '../../cells/base/styles.js';
import { svgDocument } from '../../charts/export.js';
import '../../charts/attn-line-chart.js';
import { poolBenchmark } from '../../engine/jobs.js';
import { getEngine, getPool } from '../../runtime.js';
import {
  BENCHMARK_CODE,
  benchmarkRows,
  chartAxes,
  CONTENDERS,
  coresNote,
  describeBenchmark,
  explainBenchmark,
  JOB_CONTENDERS,
  MAX_SIZES,
  poolRows,
  seriesOf,
  sizesUpTo,
  timed,
} from './scale-benchmark-model.js';
import { BENCHMARK_HOOD, benchmarkProgress, resultsTable } from './scale-benchmark-parts.js';
import { benchmarkStyles } from './scale-styles.js';

const msText = (v) => (v >= 1 ? String(v) : v.toPrecision(1));

export class AttnScaleBenchmark extends AttnLab {
  static stateFields = {
    tmax: { type: 'enum', default: '256', values: MAX_SIZES.map(String) },
  };

  static properties = { ...super.properties, _request: { state: true }, _cores: { state: true } };

  static styles = [AttnLab.labStyles, tableStyles, lineChartStyles, benchmarkStyles];

  defaultLabel = 'Benchmark: wasm SIMD on one core and on every core, wasm scalar and plain JS attention';

  constructor() {
    super();
    this._rows = [];
    this._runs = 0; // the newest run's token: rows of an older one are dropped
    this._cores = null; // { threads, why }: the pool the every-core rows ran on
    this._request = { n: 0, on: false, tmax: this.tmax }; // Run asks for run n; Cancel turns it off
    this.task = new LabTask(this, {
      engine: 'worker',
      args: () => [this._request.n, this._request.on],
      run: ([n, on], { engine, progress }) => (n > 0 && on ? this._bench(engine, progress) : this._rows),
      explain: explainBenchmark,
    });
  }

  connectedCallback() {
    super.connectedCallback();
    this.dataset.status ??= 'idle';
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.task.engine?.cancel('benchmark');
  }

  get running() {
    return this.dataset.status === 'running';
  }

  async _bench(engine, progress) {
    const token = ++this._runs;
    const sizes = sizesUpTo(Number(this._request.tmax));
    this._rows = [];
    this.dataset.status = 'running';
    progress({ done: 0, steps: sizes.length * CONTENDERS.length, row: null });
    try {
      const onProgress = (p) => {
        if (token !== this._runs) return;
        this._rows = [...this._rows, p.row];
        progress(p);
      };
      const { rows } = await engine.benchmark({ sizes, dim: 64, contenders: JOB_CONTENDERS }, { onProgress });
      if (token !== this._runs) return this._rows;
      this._rows = rows;
      // every core: the page's pool of workers, timed here (the page owns the pool)
      const { pool, why } = await getPool();
      this._cores = { threads: pool?.threads ?? 0, why };
      if (pool && token === this._runs) {
        const context = {
          progress: ({ row }) => {
            if (token !== this._runs) return;
            this._rows = [...this._rows, ...poolRows(this._rows, [row])];
            progress({ done: this._rows.length, steps: sizes.length * CONTENDERS.length, row });
          },
          cancelled: () => token !== this._runs,
        };
        await poolBenchmark(pool, await getEngine(), { sizes, dim: 64 }, context);
      }
      if (token === this._runs) this.dataset.status = 'done';
      return this._rows;
    } catch (error) {
      if (token === this._runs && error.kind !== 'Cancelled') this.dataset.status = 'failed';
      throw error;
    }
  }

  _run() {
    if (this.running) {
      this._runs++; // the running one's last rows are not this run's
      this.task.engine?.cancel('benchmark');
    }
    this.dataset.status = 'running';
    this._request = { n: this._request.n + 1, on: true, tmax: this.tmax };
  }

  _cancel() {
    this._runs++;
    this.task.engine?.cancel('benchmark');
    this.dataset.status = 'cancelled';
    this._request = { ...this._request, on: false };
  }

  _onMax(event) {
    this.beginEdit();
    this.tmax = event.target.value;
    this.stateChanged();
  }

  describe() {
    return describeBenchmark(this._rows);
  }

  exportSvgText() {
    const chart = this.renderRoot.querySelector('attn-line-chart');
    if (!chart) throw new Error('run the benchmark first');
    return svgDocument(chart.svg);
  }

  exportRows() {
    return benchmarkRows(this._rows);
  }

  exportObject() {
    return { dim: 64, rows: this._rows };
  }

  renderFigure() {
    const p = this.running ? this.task.progress : null;
    const drawn = timed(this._rows).length > 0;
    const axes = drawn && chartAxes(this._rows, Math.max(...this._rows.map((r) => r.T), Number(this._request.tmax)));
    const figure = drawn
      ? html`<attn-line-chart
          class="chart"
          label="Time per attention call against T (log–log)"
          x-label="sequence length T"
          y-label="ms per call"
          x-log
          y-log
          .xDomain=${axes.xDomain}
          .yDomain=${axes.yDomain}
          .series=${CONTENDERS}
          .format=${msText}
          .data=${seriesOf(this._rows)}
        ></attn-line-chart>`
      : html`<p class="note">Press Run: the chart fills in as each size is timed.</p>`;
    const controls = html`
      <label for="max">Largest T</label>
      <select id="max" .value=${this.tmax} @change=${this._onMax}>
        ${MAX_SIZES.map((T) => html`<option value=${T} ?selected=${String(T) === this.tmax}>${T}</option>`)}
      </select>
      <p class="note">sizes ${sizesUpTo(Number(this.tmax)).join(', ')}</p>
      <div class="buttons">
        <button type="button" class="run" @click=${() => this._run()}>
          ${this.running ? 'Restart benchmark' : 'Run benchmark'}
        </button>
        <button type="button" class="cancel" ?disabled=${!this.running} @click=${() => this._cancel()}>Cancel</button>
      </div>
      ${p ? benchmarkProgress(p) : ''}
      <p class="note where">${this.task.where}</p>
      ${
        this._cores
          ? html`<p class="note cores">
              ${coresNote(
                timed(this._rows).filter((r) => r.contender === 'pool'),
                this._cores.threads,
                this._cores.why,
              )}
            </p>`
          : ''
      }
    `;
    const code = html`<attn-code
      label="PyTorch: the same measurement on your machine"
      .template=${BENCHMARK_CODE}
      .params=${{ sizes: sizesUpTo(Number(this.tmax)) }}
    ></attn-code>`;
    return this.renderLab({
      figure,
      controls,
      after: this._rows.length ? resultsTable(this._rows) : '',
      code,
      hood: BENCHMARK_HOOD,
    });
  }
}

customElements.define('attn-scale-benchmark', AttnScaleBenchmark);
