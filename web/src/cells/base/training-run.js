/**
 * TrainingRun: Train, Pause, Step and Reset for a lab that trains a model, as a Lit reactive
 * controller (the training counterpart of LabTask), so that no lab writes its own training loop.
 *
 *   this.run = new TrainingRun(this, {
 *     advance: (count, { signal, onProgress }) => trainer.step(count, { signal, onProgress }).then((r) => r.step),
 *     measure: (step) => evaluate(step),         // optional: what the lab shows after each block
 *     pace: () => ({ block: 25, minMs: 100 }),   // steps a block, and the least time one takes
 *     stopped: (step) => keep(step),            // optional: a run ended (not by reset), as it ends
 *     position: () => trainer.step,             // optional: the host keeps the model's step
 *   });
 *   run.train(400);  run.pause();  run.stepOnce();  await run.restore(1200);  run.reset();
 *   run.training, run.restoring, run.at, run.progress, run.error, run.value
 *
 * - train(until) runs blocks of `pace().block` steps (the pace is read again before every block,
 *   so a learner can change it while it trains) until `until`, Pause or a failure. After each
 *   block it measures (`measure(step)`, kept in `value`), asks the host to draw, and waits for the
 *   next animation frame and for `minMs` since the block began, so every block is seen. It
 *   resolves when the run stops; it never rejects.
 * - pause() and a disconnected host abort the run's AbortSignal: advance() should stop at once
 *   and reject with an error of kind 'Cancelled' (the engine's trainers do), which is not a
 *   failure. The model stays at the last completed step (`at`); a block that ends after the
 *   abort is not measured.
 * - `at` is the model's step. A host that keeps the step itself (its model, its state) passes
 *   `position`, and `at` reads it: advance() moves it, and a model the host replaces (a file,
 *   another seed) is where the next run starts. Without `position` the run keeps `at` from what
 *   advance() resolves to, and reset() sets it to 0.
 * - restore(steps, { measure }) brings a fresh model to a permalink's step in one go, with
 *   progress ({ done, count }) for the host to show, then measures it unless `measure` is false;
 *   Pause cancels it as well.
 * - A failure of advance() or measure() ends the run with `error` (the learner's words, from
 *   `explain`), keeps `value` as it was, and the next train() clears it.
 * - reset() stops the run and forgets the model's step (the host makes a fresh model).
 * - `stopped(at)` is called when a run (train, step or restore) ends, unless reset() ended it, in
 *   the same turn as `training` becomes false: a host keeping the step in its state (a permalink)
 *   is never seen stopped at an older step.
 * Only one run at a time: train(), stepOnce() and restore() while one runs do nothing.
 */
const frame = () =>
  new Promise((resolve) =>
    typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => resolve()) : setTimeout(resolve, 0),
  );
const sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
const cancelled = (error) => error?.kind === 'Cancelled' || error?.name === 'AbortError';

export class TrainingRun {
  /**
   * @param {import('lit').ReactiveControllerHost} host
   * @param {{ advance: (count: number, o: { signal: AbortSignal, onProgress: (p: object) => void }) => Promise<number> | number,
   *   measure?: (step: number) => unknown, pace?: () => { block: number, minMs?: number },
   *   explain?: (error: Error) => string, stopped?: (step: number) => void, position?: () => number }} options
   */
  constructor(host, { advance, measure = () => undefined, pace = () => ({ block: 1 }), explain, stopped, position }) {
    this.host = host;
    this.advance = advance;
    this.measure = measure;
    this.pace = pace;
    this.explain = explain ?? ((error) => `Training stopped: ${error.message}`);
    this.stopped = stopped ?? (() => {});
    this._position = position ?? null;
    this._at = 0;
    /** Whether a run (train or restore) is under way. */
    this.training = false;
    /** { done, count } while restore() runs, else null. */
    this.progress = null;
    /** Why the last run failed, in the learner's words, or ''. */
    this.error = '';
    /** The last measure's result. */
    this.value = undefined;
    this._controller = null;
    host.addController(this);
  }

  /** The model's step: the host's `position()`, or as the run last reached it. */
  get at() {
    return this._position ? this._position() : this._at;
  }

  /** Where the run reached: kept here only when the host does not keep the step (`position`). */
  set at(step) {
    if (!this._position) this._at = step;
  }

  /** Whether restore() is under way. */
  get restoring() {
    return this.progress !== null;
  }

  hostDisconnected() {
    this.pause();
  }

  /** Stops the run under way (if any) between two steps. */
  pause() {
    this._controller?.abort();
  }

  /** Stops any run and forgets the model's step: the host starts a fresh model. */
  reset() {
    this.pause();
    this._controller = null; // the run under way ends without `stopped`
    this.at = 0;
    this.value = undefined;
    this.error = '';
    this.host.requestUpdate();
  }

  /** One step more. */
  stepOnce() {
    return this.train(this.at + 1);
  }

  /** Trains in blocks until step `until`, Pause or a failure (see the top of this file). */
  train(until = Infinity) {
    return this.#run(async (signal) => {
      while (!signal.aborted && this.at < until) {
        const started = performance.now();
        const { block, minMs = 0 } = this.pace();
        const count = Math.max(1, Math.min(block, until - this.at));
        const step = await this.advance(count, { signal, onProgress: (p) => this.#reached(p) });
        if (signal.aborted) break; // Pause or Reset came first: the host measures the model as it is now
        this.at = step;
        await this.#measure();
        await frame(); // this block is drawn before the next starts
        await sleep(minMs - (performance.now() - started), signal);
      }
    });
  }

  /**
   * Brings the model from its step to `steps` in one call, with progress (a permalink's step), then
   * measures it, unless `measure` is false (a host that measures the restored model its own way).
   */
  restore(steps, { measure = true } = {}) {
    const measured = () => (measure ? this.#measure() : undefined);
    if (steps <= this.at) return this.training ? Promise.resolve() : this.#run(measured);
    return this.#run(async (signal) => {
      const from = this.at;
      this.progress = { done: 0, count: steps - from };
      this.host.requestUpdate();
      const onProgress = (p) => {
        this.#reached(p);
        this.progress = { done: this.at - from, count: steps - from };
        this.host.requestUpdate();
      };
      this.at = await this.advance(steps - from, { signal, onProgress });
      await measured();
    });
  }

  /** A progress report's step ({ step }) is where the model is, even if the call is then cancelled. */
  #reached(p) {
    if (Number.isFinite(p?.step)) this.at = p.step;
  }

  async #measure() {
    this.value = await this.measure(this.at);
    this.host.requestUpdate();
  }

  async #run(work) {
    if (this.training) return;
    const controller = new AbortController();
    this._controller = controller;
    this.training = true;
    this.error = '';
    this.host.requestUpdate();
    try {
      await work(controller.signal);
    } catch (error) {
      if (!cancelled(error)) this.error = this.explain(error);
    } finally {
      const reset = this._controller !== controller;
      if (!reset) this._controller = null;
      if (!reset) this.stopped(this.at);
      this.training = false;
      this.progress = null;
      this.host.requestUpdate();
    }
  }
}
