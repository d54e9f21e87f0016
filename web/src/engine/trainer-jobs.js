/**
 * Trainers away from the caller: the side that holds them. worker.js keeps the page's trainers in
 * a TrainerHost; runtime.js's main-thread stand-in uses the same host through localTrainers(), so
 * both answer alike (trainer-handle.js is the caller's side).
 *
 * step(count) runs in chunks (runSteps): after each chunk it reports { done, count, step, loss }
 * (and, for a pool's trainer, workers: how many workers shared the last step),
 * yields (a macrotask, so other messages, a cancel, another trainer's chunk get through), and asks
 * whether it was cancelled. A cancelled step rejects with an AttentionError of kind 'Cancelled'
 * and leaves the trainer at the last completed step: step(a + b) cut short after a steps is
 * exactly step(a). Chunks grow towards CHUNK_MS of work each, so progress comes a few times a
 * second whatever the model's size; as step(a) + step(b) == step(a + b), the cut changes nothing.
 *
 * Calls on one trainer run one after the other in the order they came (a queue per trainer), so
 * step(100) then evaluate() evaluates after the 100 steps; calls on different trainers interleave
 * between chunks and never cancel each other.
 */
import { AttentionError } from './errors.js';
import { checkStepCount } from './trainer-checks.js';
import { TRAINER_HANDLE_MEMBERS, trainerHandle } from './trainer-handle.js';

/** The work one chunk of steps aims at, in milliseconds. */
export const CHUNK_MS = 50;

/**
 * Yields to the thread's other tasks (messages: a cancel, another trainer's call) and comes back
 * as soon as they are done: setImmediate in Node, a MessageChannel message in a browser. Not
 * setTimeout(0), which waits at least 1 ms, and 4 ms once such waits nest, a chunk's worth of
 * idle cores over a run of chunks.
 */
const pause = (() => {
  if (typeof setImmediate === 'function') return () => new Promise((resolve) => setImmediate(resolve));
  if (typeof MessageChannel !== 'function') return () => new Promise((resolve) => setTimeout(resolve, 0));
  const waiting = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => waiting.shift()?.();
  return () =>
    new Promise((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(null);
    });
})();

const cancelledError = (done, count, step) =>
  new AttentionError(`step: cancelled after ${done} of ${count} steps; the trainer is at step ${step}`, {
    kind: 'Cancelled',
  });

/**
 * trainer.step(count) in chunks, reporting and yielding between them.
 * @param {import('./trainer.js').Trainer} trainer
 * @param {number} count 0 to 100000
 * @param {{ progress(info: { done: number, count: number, step: number, loss: number }): void, cancelled(): boolean }} context
 * @param {(n: number) => { step: number, loss: number } | Promise<{ step: number, loss: number }>} [stepMany]
 *   how n steps run: trainer.step(n), or a pool's data-parallel steps (trainer-parallel.js)
 * @returns {Promise<{ step: number, loss: number }>}
 */
export async function runSteps(trainer, count, { progress, cancelled }, stepMany = (n) => trainer.step(n)) {
  checkStepCount(count);
  let result = trainer.step(0);
  let done = 0;
  let chunk = 1;
  while (done < count) {
    if (cancelled()) throw cancelledError(done, count, result.step);
    const n = Math.min(chunk, count - done);
    const started = performance.now();
    result = await stepMany(n);
    const ms = performance.now() - started;
    done += n;
    const info = { done, count, step: result.step, loss: result.loss };
    if (stepMany.workers !== undefined) info.workers = stepMany.workers; // a pool's: how many shared the steps
    progress(info);
    // the next chunk: about CHUNK_MS of work, growing at most fourfold
    chunk = Math.max(1, Math.min(4 * n, Math.round((n * CHUNK_MS) / Math.max(ms, 0.05))));
    if (done < count) await pause();
  }
  return result;
}

/** The trainer methods a host answers: a handle's, but step (runSteps runs it), dispose and the fields. */
const OPS = new Set(TRAINER_HANDLE_MEMBERS.filter((m) => !['config', 'task', 'step', 'dispose', 'cancel'].includes(m)));

/** The trainers of one engine, by id, each with its queue of calls. */
export class TrainerHost {
  #getEngine;
  #trainers = new Map(); // id -> { trainer, queue }
  #next = 1;

  #helpers;

  /**
   * @param {() => Promise<import('./index.js').Attention>} getEngine
   * @param {import('./trainer-parallel.js').Helpers | null} [helpers] a pool leader's helpers:
   *   its trainers' steps are shared among them
   */
  constructor(getEngine, helpers = null) {
    this.#getEngine = getEngine;
    this.#helpers = helpers;
  }

  /** @returns {Promise<{ trainer: number, config: object, task: object }>} its id, config and task */
  async createTrainer(options) {
    // threads makes a pool of workers, which only the caller's own engine does (attn.createTrainer)
    if (options !== null && typeof options === 'object' && Object.hasOwn(options, 'threads')) {
      throw new AttentionError(
        "createTrainer: threads is not an option here: a trainer in a worker or a pool runs where it is; for threads, use the page's or Node's own engine, attn.createTrainer({ …, threads })",
      );
    }
    return this.#add((await this.#getEngine()).createTrainer(options));
  }

  async loadTrainer(state) {
    return this.#add((await this.#getEngine()).loadTrainer(state));
  }

  #add(trainer) {
    const id = this.#next++;
    this.#trainers.set(id, { trainer, queue: Promise.resolve() });
    return { trainer: id, config: trainer.config, task: trainer.task };
  }

  /** Trainers alive. */
  get size() {
    return this.#trainers.size;
  }

  /**
   * Runs method `op` of trainer `id` after the calls queued before it.
   * @param {number} id @param {string} op @param {unknown[]} args
   * @param {{ progress(info: object): void, cancelled(): boolean }} context (step's)
   */
  run(id, op, args, context) {
    const entry = this.#trainers.get(id);
    if (!entry && op === 'dispose') return Promise.resolve(undefined); // as Trainer.dispose(): twice is harmless
    if (!entry) return Promise.reject(new AttentionError(`${op}: this trainer was disposed`));
    const result = entry.queue.then(() => this.#call(id, entry.trainer, op, args, context));
    entry.queue = result.catch(() => {});
    return result;
  }

  #call(id, trainer, op, args, context) {
    if (op === 'step') {
      return runSteps(
        trainer,
        args[0] === undefined ? 1 : args[0],
        context,
        this.#helpers?.leads ? this.#helpers.stepper(trainer) : undefined,
      );
    }
    if (op === 'dispose') {
      this.#helpers?.forget(trainer);
      trainer.dispose();
      this.#trainers.delete(id);
      return undefined;
    }
    if (!OPS.has(op)) throw new AttentionError(`a trainer has no method ${JSON.stringify(op)}`);
    if (op === 'setHeadEnabled') this.#helpers?.changed(trainer); // the helpers' copies are stale
    return trainer[op](...args);
  }
}

/**
 * createTrainer and loadTrainer for an engine on this thread, returning the same handles as the
 * worker client's (trainer-handle.js): runtime.js's stand-in when no worker can start.
 * @param {() => Promise<import('./index.js').Attention>} getEngine
 */
export function localTrainers(getEngine) {
  const host = new TrainerHost(getEngine);
  const cancelled = new Set(); // ids of step calls asked to stop
  let next = 0;
  const connect = (info) =>
    trainerHandle(info, {
      request(op, args, onProgress) {
        const id = next++;
        const context = { progress: (p) => onProgress?.(p), cancelled: () => cancelled.has(id) };
        const promise = host.run(info.trainer, op, args, context).finally(() => cancelled.delete(id));
        return { id, promise };
      },
      cancel: (id) => cancelled.add(id),
    });
  return {
    createTrainer: async (options) => connect(await host.createTrainer(options)),
    loadTrainer: async (state) => connect(await host.loadTrainer(state)),
  };
}
