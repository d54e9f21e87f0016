/**
 * Data-parallel training across a pool's workers (pool.js createTrainer / loadTrainer). No DOM.
 *
 * The pool's worker 0 (the leader) holds the trainer; every other worker is a helper, joined to
 * the leader by a MessageChannel of its own, so the steps never pass through the page. A float32
 * step's batch is cut into micro-batches of 8 sequences (core: attn/train/trainer.hpp,
 * "Micro-batches"), whose gradients the core adds in order, part 0 first. Each step the leader:
 *   1. draws the batch and converts the weights to float32 (trainer[PARTS]().begin()),
 *   2. sends each helper the weights, the head mask, the batch and its share of the parts,
 *   3. computes the first share itself, then adds the helpers' parts as they come,
 *   4. steps the optimiser on the sum (finish()).
 * The sum is the same whoever computed which part, so the weights are bitwise those of
 * trainer.step() on one thread, for any number of workers: a permalink replays the same
 * everywhere. A step fails cleanly (abort(): the trainer stays at the last completed step) when a
 * helper reports an error or is lost (the pool tells the leader, helperLost()).
 */
import { AttentionError } from './errors.js';
import { PARTS } from './trainer.js';

/** Sequences per micro-batch of a float32 step: the core's kMicroBatchSize (attn/train/trainer.hpp). */
export const MICRO_BATCH = 8;

/**
 * A trainer's steps are shared only while one part of a step (8 sequences) takes at least this
 * long on the leader: below it the messages cost more than the helpers save (bench/pool.bench.mjs:
 * the reverse task's defaults, about 0.2 ms a part, ran at 0.68× on 2 threads). The first step of
 * a trainer runs on the leader alone and measures it. Where parts run never changes a bit.
 */
export const MIN_PART_MS = 1;

/**
 * Whether a step is shared: there are helpers, the trainer is float32, its batch has more than
 * one part, and a part of its last step took at least minPartMs (unknown before its first step).
 * @param {{ helpers: number, precision: string, parts: number, partMs?: number, minPartMs: number }} step
 */
export const shareStep = ({ helpers, precision, parts, partMs, minPartMs }) =>
  helpers > 0 && precision === 'float32' && parts > 1 && partMs !== undefined && partMs >= minPartMs;

/** Part workers a helper keeps, one per model shape (the oldest is freed beyond this). */
const KEPT_SHAPES = 4;

/** Calls `listener(data)` for every message on a MessagePort (Web or Node worker_threads). */
function listen(port, listener) {
  if (typeof port.on === 'function') port.on('message', listener);
  else port.onmessage = ({ data }) => listener(data);
}

/**
 * The helper's side: answers the leader's part requests on `port` with this worker's engine.
 * @param {MessagePort} port @param {() => Promise<object>} getEngine
 */
export function serveParts(port, getEngine) {
  const workers = new Map(); // JSON of a trainer config -> its part worker
  listen(port, async ({ id, config, weights, headEnabled, tokens, targets, count, length, weight, parts }) => {
    try {
      const key = JSON.stringify(config);
      let worker = workers.get(key);
      if (!worker) {
        worker = (await getEngine())[PARTS](config);
        workers.set(key, worker);
        if (workers.size > KEPT_SHAPES) {
          const [oldest] = workers.keys();
          workers.get(oldest).dispose();
          workers.delete(oldest);
        }
      }
      worker.load(weights, headEnabled);
      const results = parts.map((index) => ({
        index,
        ...worker.gradient(tokens, targets, count, length, index, weight),
      }));
      port.postMessage(
        { id, parts: results },
        results.map((r) => r.gradient.buffer),
      );
    } catch (error) {
      port.postMessage({ id, error: { message: error.message, kind: error.kind ?? 'Error' } });
    }
  });
}

/** The leader's side: its helpers by pool index, each a port with the requests awaiting an answer. */
export class Helpers {
  #helpers = new Map(); // pool index -> { port, pending: Map(id -> { resolve, reject }) }
  #next = 0;
  #losses = 0; // helpers lost so far
  #lastLoss = ''; // the last one: "pool worker i stopped during the step: why"

  /** Whether this worker leads a pool (set() was called): its trainers' steps go through stepper(). */
  leads = false;
  /** The least time a part must take for a step to be shared (MIN_PART_MS; the pool may set it). */
  minPartMs = MIN_PART_MS;
  #partMs = new WeakMap(); // trainer -> ms one part of its last step took on this worker

  /**
   * Joins (or, with port null, drops) the helper at pool index `index`; either way, this worker
   * leads. minPartMs, when given, replaces MIN_PART_MS.
   */
  set(index, port, minPartMs) {
    this.leads = true;
    if (minPartMs !== undefined) this.minPartMs = minPartMs;
    this.lose(index, 'it was replaced');
    if (!port) return;
    const helper = { port, pending: new Map() };
    listen(port, ({ id, parts, error }) => {
      const call = helper.pending.get(id);
      if (!call) return;
      helper.pending.delete(id);
      if (error) call.reject(new AttentionError(error.message, { kind: error.kind }));
      else call.resolve(parts);
    });
    this.#helpers.set(index, helper);
  }

  /** The helper at `index` is gone (`why`): its requests reject, later steps go without it. */
  lose(index, why) {
    const helper = this.#helpers.get(index);
    if (!helper) return;
    this.#helpers.delete(index);
    this.#losses++;
    this.#lastLoss = `pool worker ${index} stopped during the step: ${why}`;
    const error = new AttentionError(this.#lastLoss);
    helper.pending.forEach((call) => call.reject(error));
    helper.pending.clear();
    try {
      helper.port.close();
    } catch {
      // closed already
    }
  }

  /** How many helpers are joined. */
  get size() {
    return this.#helpers.size;
  }

  /**
   * How one step(count) call runs its steps, chunk by chunk (runSteps' stepMany; its `workers`
   * says how many shared the last step): each step shared among the helpers when shareStep says
   * so, else one thread's step(). A helper lost while the call runs fails it at its next step (so
   * a call never goes on quietly with fewer workers than it began with).
   * @param {import('./trainer.js').Trainer} trainer
   * @returns {(n: number) => Promise<{ step: number, loss: number }>}
   */
  stepper(trainer) {
    const losses = this.#losses;
    const stepMany = async (n) => {
      let result = trainer.step(0);
      for (let s = 0; s < n; s++) {
        if (this.#losses !== losses) {
          throw new AttentionError(`step: ${this.#lastLoss}; the trainer is at step ${result.step}`);
        }
        const parts = Math.ceil(trainer.config.batchSize / MICRO_BATCH);
        const parallel = shareStep({
          helpers: this.#helpers.size,
          precision: trainer.config.precision,
          parts,
          partMs: this.#partMs.get(trainer),
          minPartMs: this.minPartMs,
        });
        if (parallel) result = await this.#step(trainer, stepMany);
        else {
          const started = performance.now();
          result = trainer.step(1);
          this.#partMs.set(trainer, (performance.now() - started) / parts);
          stepMany.workers = 1;
        }
      }
      return result;
    };
    stepMany.workers = 1;
    return stepMany;
  }

  async #step(trainer, report) {
    const steps = trainer[PARTS]();
    const plan = steps.begin();
    try {
      const helpers = [...this.#helpers.values()];
      const workers = Math.min(helpers.length + 1, plan.parts);
      report.workers = workers;
      const share = (w) => [Math.floor((w * plan.parts) / workers), Math.floor(((w + 1) * plan.parts) / workers)];
      const { tokens, targets, count, length, weights, weight, headEnabled } = plan;
      const common = { config: trainer.config, headEnabled, tokens, targets, count, length, weight };
      const replies = [];
      for (let w = 1; w < workers; w++) {
        const [first, end] = share(w);
        const parts = Array.from({ length: end - first }, (_, i) => first + i);
        // each helper gets a copy of the weights of its own, transferred (a memcpy, not a clone)
        const own = w === workers - 1 ? weights : weights.slice();
        replies.push(this.#ask(helpers[w - 1], { ...common, weights: own, parts }, [own.buffer]));
      }
      const [first, end] = share(0);
      const started = performance.now();
      for (let i = first; i < end; i++) steps.compute(i);
      this.#partMs.set(trainer, (performance.now() - started) / (end - first));
      for (const parts of await Promise.all(replies)) {
        for (const { index, gradient, loss } of parts) steps.add(index, gradient, loss);
      }
      return steps.finish();
    } catch (error) {
      steps.abort();
      const at = trainer.step(0).step;
      throw new AttentionError(`step: ${error.message.replace(/^step: /, '')}; the trainer is at step ${at}`, {
        kind: error.kind ?? 'Error',
      });
    }
  }

  #ask(helper, message, transfer) {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      helper.pending.set(id, { resolve, reject });
      helper.port.postMessage({ id, ...message }, transfer);
    });
  }
}
