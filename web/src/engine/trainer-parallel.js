/**
 * Data-parallel training across a pool's workers (pool.js createTrainer / loadTrainer). No DOM.
 *
 * The pool's worker 0 (the leader) holds the trainer; every other worker is a helper, joined to
 * the leader by a MessageChannel of its own, so the steps never pass through the page. A shared
 * step(n) runs on replicas, as data-parallel training does: each helper holds a copy of the
 * trainer (loadTrainer of the leader's exportState, sent whenever the helper's copy is not at the
 * leader's state), and every replica runs the same n steps in lockstep. A float32 step's batch is
 * cut into micro-batches of 8 sequences (core: attn/train/trainer.hpp, "Micro-batches"), and each
 * step every replica:
 *   1. opens it (trainer[PARTS]().begin(): the same batch, from the same data stream),
 *   2. computes its own share of the parts and sends each one's gradient to the others as soon as
 *      it is done (helpers send theirs to the leader, which passes them on to the other helpers),
 *   3. adds the others' parts as they come (the core sums all of them in order, part 0 first),
 *   4. steps its own AdamW on the sum (finish()).
 * Only gradients travel, never weights. The sum is the same whoever computed which part, so every
 * replica's weights are bitwise those of trainer.step() on one thread, for any number of workers:
 * a permalink replays the same everywhere. A step fails cleanly (abort(): the leader's trainer
 * stays at the last completed step) when a helper reports an error or is lost (the pool tells the
 * leader, lose()); the helpers' copies are then stale, and the next shared call sends them the
 * state again.
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

/** Trainer copies a helper keeps (the oldest is freed beyond this). */
const KEPT_REPLICAS = 4;

/** Calls `listener(data)` for every message on a MessagePort (Web or Node worker_threads). */
function listen(port, listener) {
  if (typeof port.on === 'function') port.on('message', listener);
  else port.onmessage = ({ data }) => listener(data);
}

/** Messages awaited one at a time, in the order they came; close(error) rejects what is and will be awaited. */
class Inbox {
  #queue = [];
  #waiting = null;
  #closed = null;

  push(message) {
    if (this.#closed) return;
    if (this.#waiting) {
      this.#waiting.resolve(message);
      this.#waiting = null;
    } else this.#queue.push(message);
  }

  next() {
    if (this.#queue.length) return Promise.resolve(this.#queue.shift());
    if (this.#closed) return Promise.reject(this.#closed);
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  close(error) {
    this.#closed ??= error;
    this.#queue = [];
    this.#waiting?.reject(error);
    this.#waiting = null;
  }
}

/** Posts a part's gradient to each port: a copy of its own to all but the last, which gets the original. */
function sendPart(ports, message) {
  ports.forEach((port, p) => {
    const gradient = p === ports.length - 1 ? message.gradient : message.gradient.slice();
    port.postMessage({ ...message, gradient }, [gradient.buffer]);
  });
}

/**
 * The helper's side: keeps copies of the leader's trainers and runs their shared steps with this
 * worker's engine. Messages from the leader on `port`:
 *   { op: 'sync', key, state }   copy `key` is loadTrainer(state) from now on
 *   { op: 'steps', key, id, at, count, shares, worker }   call `id`: `count` steps of copy `key`,
 *       which must be at step `at`, computing parts shares[worker] = [first, end) of each
 *   { op: 'part', id, step, index, gradient, loss }   a part another worker computed for call `id`
 *   { op: 'abort', id }   call `id` ended early: its open step is dropped, and so is the copy
 *   { op: 'drop', key }   the leader's trainer is gone
 * and to the leader: { id, step, index, gradient, loss } for each part computed here, or
 * { id, key, error: { message, kind, trapped } } (the copy is dropped: the next call sends it again).
 * trapped: this worker's wasm failed (a RuntimeError), so its engine is not to be trusted: after
 * telling the leader, the helper calls onTrap(message), and the pool replaces the worker.
 * @param {MessagePort} port @param {() => Promise<object>} getEngine @param {(why: string) => void} [onTrap]
 */
export function serveReplicas(port, getEngine, onTrap = () => {}) {
  const replicas = new Map(); // key -> a Trainer, the copy of the leader's
  const inboxes = new Map(); // call id -> the other workers' parts for it
  const failures = new Map(); // key -> why its copy could not be made
  let work = Promise.resolve(); // sync, steps and drop, one after the other
  const drop = (key) => {
    const replica = replicas.get(key);
    replicas.delete(key);
    failures.delete(key);
    try {
      replica?.dispose();
    } catch {
      // a copy whose wasm trapped may not dispose; the worker is replaced then
    }
  };

  async function steps({ key, id, at, count, shares, worker }) {
    const inbox = inboxes.get(id);
    const replica = replicas.get(key);
    if (!replica && failures.has(key)) throw failures.get(key);
    const now = replica?.step(0).step;
    if (now !== at) {
      throw new AttentionError(`step: a pool worker's copy of the trainer is at step ${now ?? 'none'}, not ${at}`);
    }
    const parts = replica[PARTS]();
    const [first, end] = shares[worker];
    for (let s = 0; s < count; s++) {
      const { parts: total } = parts.begin();
      try {
        for (let i = first; i < end; i++) {
          const { gradient, loss } = parts.compute(i);
          port.postMessage({ id, step: s, index: i, gradient, loss }, [gradient.buffer]);
        }
        for (let n = total - (end - first); n > 0; n--) {
          const part = await inbox.next();
          parts.add(part.index, part.gradient, part.loss);
        }
        parts.finish();
      } catch (error) {
        parts.abort();
        throw error;
      }
    }
  }

  listen(port, (message) => {
    const { op, id, key } = message;
    if (op === 'part') {
      inboxes.get(id)?.push(message);
      return;
    }
    if (op === 'abort') {
      inboxes.get(id)?.close(new AttentionError('step: the call was ended by the leader'));
      return;
    }
    // before its parts can come
    if (op === 'steps') inboxes.set(id, new Inbox());
    work = work
      .then(async () => {
        if (op === 'drop') drop(key);
        else if (op === 'sync') {
          drop(key);
          try {
            replicas.set(key, (await getEngine()).loadTrainer(message.state));
          } catch (error) {
            failures.set(key, error); // the steps that follow report it
          }
          if (replicas.size > KEPT_REPLICAS) drop(replicas.keys().next().value);
        } else if (op === 'steps') {
          try {
            await steps(message);
          } catch (error) {
            const trapped = trappedError(error);
            port.postMessage({ id, key, error: { message: error.message, kind: error.kind ?? 'Error', trapped } });
            drop(key); // no longer the leader's state
            if (trapped) onTrap(error.message);
          } finally {
            inboxes.delete(id);
          }
        }
      })
      .catch(() => {}); // (nothing above throws; the chain must outlive anything that would)
  });
}

/** Whether `error` is the wasm's own failure (a trap: RuntimeError), after which its engine is not to be trusted. */
const trappedError = (error) => typeof WebAssembly === 'object' && error instanceof WebAssembly.RuntimeError;

/** The leader's side: its helpers by pool index, and the shared calls running. */
export class Helpers {
  #helpers = new Map(); // pool index -> { port }
  #calls = new Map(); // call id -> { inbox: the helpers' parts, helpers: Set of the helpers in it }
  #next = 0;
  #losses = 0; // helpers lost so far
  #lastLoss = ''; // the last one: "pool worker i stopped during the step: why"
  #keys = new WeakMap(); // trainer -> its key on the helpers
  #nextKey = 1;
  #revisions = new WeakMap(); // trainer -> how often it changed otherwise than by a step
  #synced = new Map(); // key -> Map(helper -> "step/revision" its copy is at)

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
    const helper = { port };
    listen(port, (message) => {
      if (message.error) this.#synced.get(message.key)?.delete(helper);
      // its wasm trapped: it is gone from now on (the pool replaces the worker, which joins anew)
      if (message.error?.trapped && this.#helpers.get(index) === helper) {
        this.lose(index, `its wasm trapped (${message.error.message})`);
      }
      const call = this.#calls.get(message.id);
      if (!call) return;
      if (message.error) call.inbox.close(new AttentionError(message.error.message, { kind: message.error.kind }));
      else call.inbox.push({ ...message, helper });
    });
    this.#helpers.set(index, helper);
  }

  /** The helper at `index` is gone (`why`): the calls it is in reject, later steps go without it. */
  lose(index, why) {
    const helper = this.#helpers.get(index);
    if (!helper) return;
    this.#helpers.delete(index);
    this.#losses++;
    this.#lastLoss = `pool worker ${index} stopped during the step: ${why}`;
    const error = new AttentionError(this.#lastLoss);
    for (const call of this.#calls.values()) if (call.helpers.has(helper)) call.inbox.close(error);
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

  /** `trainer` changed otherwise than by a step (setHeadEnabled): the helpers' copies of it are stale. */
  changed(trainer) {
    this.#revisions.set(trainer, (this.#revisions.get(trainer) ?? 0) + 1);
  }

  /** `trainer` is disposed: the helpers free their copies of it. */
  forget(trainer) {
    const key = this.#keys.get(trainer);
    if (key === undefined) return;
    this.#synced.delete(key);
    for (const { port } of this.#helpers.values()) port.postMessage({ op: 'drop', key });
  }

  /**
   * How one step(count) call runs its steps, chunk by chunk (runSteps' stepMany; its `workers`
   * says how many shared the last step): shared among the helpers when shareStep says so, else
   * one thread's step(). A helper lost while the call runs fails it (so a call never goes on
   * quietly with fewer workers than it began with).
   * @param {import('./trainer.js').Trainer} trainer
   * @returns {(n: number) => Promise<{ step: number, loss: number }>}
   */
  stepper(trainer) {
    const losses = this.#losses;
    const stepMany = async (n) => {
      if (this.#losses !== losses) {
        throw new AttentionError(`step: ${this.#lastLoss}; the trainer is at step ${trainer.step(0).step}`);
      }
      const parts = Math.ceil(trainer.config.batchSize / MICRO_BATCH);
      if (this.#partMs.get(trainer) === undefined) {
        // its first step, on the leader alone: how long a part takes
        const started = performance.now();
        const result = trainer.step(1);
        this.#partMs.set(trainer, (performance.now() - started) / parts);
        stepMany.workers = 1;
        if (--n === 0) return result;
      }
      const shared = shareStep({
        helpers: this.#helpers.size,
        precision: trainer.config.precision,
        parts,
        partMs: this.#partMs.get(trainer),
        minPartMs: this.minPartMs,
      });
      if (shared) return this.#steps(trainer, n, parts, stepMany);
      stepMany.workers = 1;
      return trainer.step(n);
    };
    stepMany.workers = 1;
    return stepMany;
  }

  /** `count` steps of `trainer` (of `parts` parts each) shared with the helpers, in lockstep. */
  async #steps(trainer, count, parts, report) {
    const helpers = [...this.#helpers.values()].slice(0, parts - 1);
    const workers = helpers.length + 1;
    report.workers = workers;
    const shares = Array.from({ length: workers }, (_, w) => [
      Math.floor((w * parts) / workers),
      Math.floor(((w + 1) * parts) / workers),
    ]);
    if (!this.#keys.has(trainer)) this.#keys.set(trainer, this.#nextKey++);
    const key = this.#keys.get(trainer);
    if (!this.#synced.has(key)) this.#synced.set(key, new Map());
    const synced = this.#synced.get(key);
    const revision = this.#revisions.get(trainer) ?? 0;
    const at = trainer.step(0).step;
    const id = this.#next++;
    const call = { inbox: new Inbox(), helpers: new Set(helpers) };
    this.#calls.set(id, call);
    let state;
    helpers.forEach((helper, h) => {
      if (synced.get(helper) !== `${at}/${revision}`) {
        state ??= trainer.exportState();
        helper.port.postMessage({ op: 'sync', key, state });
      }
      synced.delete(helper); // until the call ends well
      helper.port.postMessage({ op: 'steps', key, id, at, count, shares, worker: h + 1 });
    });
    const steps = trainer[PARTS]();
    const ports = helpers.map((h) => h.port);
    try {
      let result;
      for (let s = 0; s < count; s++) {
        const { parts: total } = steps.begin();
        try {
          const [first, end] = shares[0];
          const started = performance.now();
          for (let i = first; i < end; i++) {
            const { gradient, loss } = steps.compute(i);
            sendPart(ports, { op: 'part', id, step: s, index: i, gradient, loss });
          }
          this.#partMs.set(trainer, (performance.now() - started) / (end - first));
          // the helpers' parts, as they come: each passed on to the other helpers, then added here
          for (let n = total - (end - first); n > 0; n--) {
            const { helper, index, gradient, loss } = await call.inbox.next();
            const others = ports.filter((port) => port !== helper.port);
            if (others.length) sendPart(others, { op: 'part', id, step: s, index, gradient: gradient.slice(), loss });
            steps.add(index, gradient, loss);
          }
          result = steps.finish();
        } catch (error) {
          steps.abort();
          throw error;
        }
      }
      for (const helper of helpers) synced.set(helper, `${result.step}/${revision}`);
      return result;
    } catch (error) {
      for (const port of ports) {
        try {
          port.postMessage({ op: 'abort', id });
        } catch {
          // a lost helper's port is closed
        }
      }
      throw new AttentionError(
        `step: ${error.message.replace(/^step: /, '')}; the trainer is at step ${trainer.step(0).step}`,
        { kind: error.kind ?? 'Error' },
      );
    } finally {
      this.#calls.delete(id);
    }
  }
}
