/**
 * What the trainer labs' sessions share (learning-to-attend's TrainerSession, heads-that-copy's
 * CopySession), as a base class without the DOM: the engine's trainer handle, kept in the page's
 * pool of workers (its steps shared among the cores, bit for bit one core's weights) or, where no
 * pool can start or the lab computes on the main thread, in the lab's engine; how many workers
 * shared the last steps; one queue for sequences of calls on the trainer (locked()); freeing it.
 * Also the retraining progress line both labs show. Not an element (the registration globs take
 * only attn-*.js files).
 */
import { html } from 'lit';
import { getPool } from '../../runtime.js';

export class PooledTrainer {
  /** @param {{ changed: () => void }} host  told when something it shows changed outside a run */
  constructor({ changed }) {
    this.changed = changed;
    this.trainer = null;
    this.key = null; // the configuration the trainer was made for
    this.workers = 0; // how many workers shared the last steps
    this._pool = null; // the page's pool, when it holds the trainer
    this._queue = Promise.resolve();
  }

  /**
   * Runs `work` after the work queued before it: sequences of calls that switch heads on and off
   * must not interleave (the engine queues single calls, not sequences).
   */
  locked(work) {
    const run = this._queue.then(work, work);
    this._queue = run.catch(() => {});
    return run;
  }

  /** Frees the trainer (the session can open another). */
  async dispose() {
    const t = this.trainer;
    this.trainer = null;
    this.key = null;
    await t?.dispose().catch(() => {});
  }

  /** Where trainers are made: the page's pool of workers, or `engine` when there is none. */
  async _host(engine) {
    const { pool } = engine.inWorker ? await getPool() : { pool: null };
    this._pool = pool;
    this.workers = pool ? 1 : 0;
    return pool ?? engine;
  }

  /** Notes how many workers shared the steps a progress report `p` covers. */
  _sharedBy(p) {
    if (!this._pool || p.workers === undefined || p.workers === this.workers) return;
    this.workers = p.workers;
    this.changed();
  }
}

/** A lab's line while it retrains a fresh model to its permalink's step: TrainingRun's progress. */
export function retrainingProgress(lab) {
  const p = lab.run.progress;
  if (!p) return '';
  return html`<p>
    <label for="progress">Retraining to step ${lab.steps}: ${p.done} of ${p.count} steps</label>
    <progress id="progress" max=${p.count} .value=${p.done}></progress>
  </p>`;
}
