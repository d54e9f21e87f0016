/**
 * LabTask: the one lifecycle every lab shares, as a Lit reactive controller
 * (modelled on @lit/task's Task: a computation run from the host's current
 * arguments, whose status the host renders).
 *
 *   this.task = new LabTask(this, {
 *     engine: 'main',                                // or 'worker' (runtime.js getWorkerEngine)
 *     args: () => [this.logits, this.temperature],   // the state the result depends on
 *     run: ([logits, tau], { engine }) => ({ … }),   // the result, from the engine (may be async)
 *     explain: (error) => 'plain words',             // optional: the learner's words for an error
 *   });
 *
 * What it owns, so no lab repeats it:
 * - Loading the engine (main thread, or the page's worker, which waits until the lab is first
 *   near the viewport), registered with the host's settledness (AttnCell.settleAfter). A failed
 *   load fails the cell (its Retry loads again).
 * - Running `run` whenever `args()` changes (compared as JSON), in the host's update, before it
 *   renders: a synchronous run is drawn in the same frame; an async one (a worker call) runs one at
 *   a time and, while one runs, only the newest waiting request is kept, so a dragged slider does not
 *   queue a run per step. The host is not settled until the run it asked for is drawn.
 * - Keeping the last valid result (`value`) when a run fails, with the reason in plain words
 *   (`error`), which errorLine() renders, with a Retry button unless the engine refused the input
 *   itself (a ShapeError, ValueError or TypeError would come back the same). A run cancelled by a newer one
 *   (`error.kind === 'Cancelled'`) is not an error.
 * - Progress of long jobs: run's context has progress(p), shown as `task.progress` until the run ends.
 * - Where it ran: for a worker lab, `where` ("computed in a Web Worker", or why not) and the host's
 *   data-computed-in="worker" | "main-thread".
 * Seeds and re-roll are in seeds.js; permalink state is the host's stateFields (AttnCell).
 */
import { html } from 'lit';
import { getEngine, getWorkerEngine, whereComputed } from '../../runtime.js';

const INPUT_ERRORS = new Set(['ShapeError', 'ValueError', 'TypeError']);

/**
 * `fn(engine, ...args)` that runs again only when `args` change (compared as JSON): the part of a
 * lab's result that does not depend on the field just changed is kept, not recomputed.
 *
 *   this._limits = memoLast((engine, logits) => computeLimits(engine, logits));
 *   run: ([logits, tau], { engine }) => ({ ...this._limits(engine, logits), ...computeAt(engine, logits, tau) })
 */
export function memoLast(fn) {
  let last = null;
  return (engine, ...args) => {
    const key = JSON.stringify(args);
    if (last?.engine !== engine || last.key !== key) last = { engine, key, value: fn(engine, ...args) };
    return last.value;
  };
}

export class LabTask {
  /** @param {import('./attn-cell.js').AttnCell} host */
  constructor(host, { engine = 'main', args, run, explain = (error) => error.message }) {
    this.host = host;
    this.kind = engine;
    this.args = args;
    this.runner = run;
    this.explain = explain;
    /** The last valid result (kept when a later run fails). */
    this.value = undefined;
    /** The latest run's failure in plain words, or ''. */
    this.error = '';
    this.retryable = false;
    /** A long job's latest progress report, or null. */
    this.progress = null;
    this.where = engine === 'worker' ? 'Waiting to be shown…' : '';
    this.engine = null;
    this._key = null;
    this._loading = null;
    this._busy = false;
    this._waiting = null;
    host.addController(this);
  }

  hostConnected() {
    this._loading ??= this.host.settleAfter(this._load());
  }

  async _load() {
    if (this.kind === 'worker') await this.host.visible;
    try {
      // the main-thread engine as the host cell sees it (AttnCell.engine), so a page or test can wrap it
      const main = () => (typeof this.host.engine === 'function' ? this.host.engine() : getEngine());
      this.engine = await (this.kind === 'worker' ? getWorkerEngine() : main());
    } catch (error) {
      this._loading = null; // Retry (a reconnect) loads again
      this.host.fail(new Error(`the attention core could not be loaded: ${error.message}`));
      return;
    }
    this.host.dataset.core = this.engine.build; // 'simd' | 'scalar' (wasm) | 'js' (the JS core)
    if (this.kind === 'worker') {
      this.host.dataset.computedIn = this.engine.inWorker ? 'worker' : 'main-thread';
      this.where = whereComputed(this.engine);
    }
    this.host.requestUpdate();
  }

  /** Lit calls this in the host's update, after willUpdate and before render. */
  hostUpdate() {
    if (!this.engine) return;
    const args = this.args();
    const key = JSON.stringify(args);
    if (key === this._key) return;
    this._key = key;
    this._start(args);
  }

  /** Runs again with the current arguments (after an error, or for a new random draw). */
  retry() {
    this._key = null;
    this.error = '';
    this.host.requestUpdate();
  }

  _start(args) {
    if (this._busy) {
      this._waiting = args; // an async run is under way: the newest request waits for it
      return;
    }
    let result;
    try {
      result = this.runner(args, this._context());
    } catch (error) {
      this._failed(error);
      return;
    }
    if (typeof result?.then !== 'function') {
      this.value = result;
      this.error = '';
      return;
    }
    this._busy = true; // an async run: one at a time
    this.host.settleAfter(this._finish(result));
  }

  async _finish(pending) {
    try {
      this.value = await pending;
      this.error = '';
    } catch (error) {
      this._failed(error);
    } finally {
      this.progress = null;
      this._busy = false;
      this.host.requestUpdate();
    }
    const next = this._waiting;
    this._waiting = null;
    if (next) this._start(next);
  }

  _context() {
    return {
      engine: this.engine,
      progress: (p) => {
        this.progress = p;
        this.host.requestUpdate();
      },
    };
  }

  _failed(error) {
    if (error?.kind === 'Cancelled') return;
    this.error = this.explain(error);
    // the engine refusing the input (a shape, a value, a type) gives the same answer again: no Retry
    this.retryable = !INPUT_ERRORS.has(error?.kind);
  }

  /** The error line (role="alert"), with Retry when running again could help; or nothing. */
  errorLine() {
    if (!this.error) return '';
    return html`<p class="lab-error" role="alert">
      ${this.error}
      ${this.retryable ? html`<button type="button" class="retry" @click=${() => this.retry()}>Retry</button>` : ''}
    </p>`;
  }
}
