/**
 * <attn-scale-fused t="4096">
 *
 * Attention at sequence lengths up to 16,384 with the fused kernel, which never keeps the T × T
 * weights (engine.attention without returnWeights): one head, E = 64, random q, k, v, no mask.
 * Runs as a job in the page's Web Worker (fusedAttention in engine/jobs.js: the query rows in
 * blocks, progress after each block; moving the slider again cancels the run in progress).
 * The figure: two bars, the memory the kernel allocated per call (the core's scratchBytes: keys
 * repacked for the kernel and one tile of scores; it grows with T) against the T·T·4 bytes the
 * weights would need (they grow with T²), with how many times smaller it is; the time and
 * GFLOP/s; then the same call on every core (the page's pool of workers, runtime.js getPool),
 * with how many workers it used and how much faster it ran. Beside it: T on a log₂ slider, the
 * progress of a run.
 * Verified: the wasm memory of the module that ran it stays within 64 MiB at every T; the kernel's
 * memory per call is below the weights' (scale-fused-model.js).
 *
 * State (permalink): t (256–16384, a power of two). An AttnLab: Reset, Export,
 * data-settled after each finished run (data-t: its T), data-computed-in.
 */
import { html } from 'lit';
import { AttnLab } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { tex } from '../../cells/base/math.js';
import { sizeSliderStyles } from '../../cells/base/size-slider.js';
import { tableStyles } from '../../cells/base/styles.js';
import { cancelledError } from '../../engine/errors.js';
import { workersFor } from '../../engine/pool-split.js';
import { getPool } from '../../runtime.js';
import { lengthSlider } from './length-slider.js';
import { formatBytes, weightsBytes } from './memory-model.js';
import {
  BLOCK_ROWS,
  describeFused,
  explainFused,
  FUSED_SIZES,
  fusedRows,
  fusedSvg,
  HEAP_LIMIT,
} from './scale-fused-model.js';
import { memoryView } from './scale-fused-parts.js';

/** Which core computed it, in the lab's words (the job's `build`). */
const BUILD_WORDS = {
  simd: 'SIMD build',
  scalar: 'scalar build (no SIMD here)',
  js: 'the JS core (WebAssembly is refused here)',
};
import { fusedStyles } from './scale-styles.js';

export { FUSED_SIZES, HEAP_LIMIT };

/**
 * Query rows per pool.attention call on every core: larger than the job's blocks, as each call
 * copies k and v to the workers (4 MiB each at T = 16,384), so fewer calls copy less.
 */
const POOL_BLOCK_ROWS = 4096;

export class AttnScaleFused extends AttnLab {
  static stateFields = {
    t: { type: 'enum', default: '4096', values: FUSED_SIZES.map(String) },
  };

  static styles = [AttnLab.labStyles, sizeSliderStyles, tableStyles, fusedStyles];

  defaultLabel = 'Fused attention at long sequence lengths: its memory against the weights';

  constructor() {
    super();
    this.task = new LabTask(this, {
      engine: 'worker',
      args: () => [this.T],
      run: async ([T], { engine, progress }) => {
        const r = await engine.fusedAttention(
          { T, seed: 1, block: BLOCK_ROWS },
          { onProgress: (p) => progress({ ...p, T }) },
        );
        return { ...r, everyCore: await this._everyCore(engine, r, progress) };
      },
      explain: explainFused,
    });
  }

  get T() {
    return Number(this.t);
  }

  /**
   * The same call on every core: the job's inputs (the worker draws them again: randn, seeds 1–3)
   * through the page's pool of workers (runtime.js getPool), block by block with progress; a new T
   * cancels it. Resolves to { threads, workers, ms, gflops, speedup, bitwise } ({ threads: 0, why }
   * where no worker may start).
   */
  async _everyCore(engine, r, progress) {
    const { T, dim } = r;
    const { pool, why } = await getPool();
    if (!pool) return { threads: 0, why };
    const [q, k, v] = await Promise.all([1, 2, 3].map((seed) => engine.randn([T, dim], seed)));
    let ms = 0;
    let first = null;
    for (let r0 = 0; r0 < T; r0 += POOL_BLOCK_ROWS) {
      if (this.T !== T) throw cancelledError('a new T replaced it');
      const r1 = Math.min(T, r0 + POOL_BLOCK_ROWS);
      const t0 = performance.now();
      const { output } = await pool.attention(
        { data: q.data.subarray(r0 * dim, r1 * dim), shape: [r1 - r0, dim] },
        k,
        v,
      );
      ms += performance.now() - t0;
      first ??= output.data.slice(0, r.firstRow.length);
      progress({ done: r1, steps: T, T, phase: 'every core' });
    }
    const rowFlop = () => 4 * T * dim; // 2 · S · (E + Ev) per query row
    return {
      threads: pool.threads,
      workers: workersFor(Math.min(T, POOL_BLOCK_ROWS), rowFlop, pool.threads),
      ms,
      gflops: r.gflops * (r.ms / ms),
      speedup: r.ms / ms,
      bitwise: first.every((x, i) => Object.is(x, r.firstRow[i])),
    };
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.task.engine?.cancel('fusedAttention');
  }

  updated() {
    const r = this.task.value;
    if (r && !this.task.progress) this.dataset.t = String(r.T);
  }

  _setT(T) {
    this.task.engine?.cancel('fusedAttention'); // a run in progress gives way to the new T
    this.beginEdit();
    this.t = String(T);
    this.stateChanged();
  }

  describe() {
    return describeFused(this.task.value);
  }

  exportSvgText() {
    return fusedSvg(this.task.value);
  }

  exportRows() {
    return fusedRows(this.task.value);
  }

  exportObject() {
    const r = this.task.value;
    return r ? { ...r, firstRow: Array.from(r.firstRow) } : null;
  }

  renderFigure() {
    const r = this.task.value;
    const p = this.task.progress;
    const figure = r ? memoryView(r) : html`<p class="readout">Running fused attention…</p>`;
    const controls = html`
      ${lengthSlider(FUSED_SIZES, this.T, (T) => this._setT(T))}
      ${
        p
          ? html`<p class="progress-line">
              <label for="progress"
                >Running ${tex`T = ${p.T.toLocaleString('en')}`}${p.phase ? `, ${p.phase}` : ''}: query rows ${p.done}
                of ${p.steps}</label
              >
              <progress id="progress" max=${p.steps} .value=${p.done}></progress>
            </p>`
          : ''
      }
      <p class="hint">
        Fused attention's memory grows with ${tex`T`}, the weights' with ${tex`T^2`}: each doubling of ${tex`T`} doubles
        the blue bar and quadruples the red one.
      </p>
      <p class="note where">${this.task.where}${r ? `; ${BUILD_WORDS[r.build] ?? BUILD_WORDS.scalar}` : ''}</p>
    `;
    const checks = html`
      <attn-check
        label="the most memory the program that ran it ever held (MiB)"
        threshold=${HEAP_LIMIT / 2 ** 20}
        comparison="le"
        .value=${r ? r.heapBytes / 2 ** 20 : undefined}
      ></attn-check>
      <attn-check
        label="memory per call of fused attention / bytes of the weights"
        threshold="1"
        comparison="le"
        .value=${r ? r.scratchBytes / weightsBytes(r.T) : undefined}
      ></attn-check>
    `;
    const hood = r
      ? html`<p>
          The job cuts the ${r.T.toLocaleString('en')} query rows into blocks of ${BLOCK_ROWS} and calls the core's
          fused kernel once per block (${r.calls} calls). Each call reports the bytes of working memory it allocated and
          freed (scratchBytes): the keys repacked in panels of 8 for the SIMD128 loop, ${tex`T \cdot E \cdot 4`} bytes,
          and one 4 × 128 tile of scores; never a ${tex`T \times T`} buffer. The inputs and the output are the same with
          or without the weights, so they are not counted on either side. The module's whole wasm heap is
          <span class="mono heap-bytes" data-value=${r.heapBytes}>${formatBytes(r.heapBytes)}</span>: a high-water mark
          that starts at 16 MiB and never shrinks, so it says little about one call, but the check keeps it within 64
          MiB at every T. The module runs separately from the page's other calculations.
        </p>`
      : '';
    return this.renderLab({ figure, controls, checks, hood });
  }
}

customElements.define('attn-scale-fused', AttnScaleFused);
