/**
 * A pool of engine workers, each with its own wasm instance (Web Workers in a browser,
 * worker_threads in Node: #pool-workers), so that one call can use every core. It needs no
 * SharedArrayBuffer (which a page has only when cross-origin isolated, as file://, course sites
 * and iframes cannot be); where one exists and the calling thread may compute (Node), it uses it.
 *
 *   const pool = await attn.createPool({ threads: 'auto' }); // or a number; 'auto' = the cores
 *   pool.threads;                                          // how many workers it runs
 *   const { output } = await pool.attention(q, k, v, { mask: 'causal' });
 *   pool.dispose();
 *
 * This file keeps the workers: it starts them, runs calls on them, replaces the ones it loses, and
 * holds the pool's trainers (createTrainer: steps shared among the workers by trainer-parallel.js).
 * pool.attention has attention()'s contract and result; how a call is split across the workers
 * (and the caller, in Node) is pool-attention.js. The workers (and, in Node, the caller's engine)
 * run a few small calls when the pool starts (warmUp), so that V8 has tiered the kernels up
 * before the first real call.
 *
 * Errors are attention()'s. A worker that fails (an error outside a call, its wasm trapping, the
 * thread exiting) or that terminateWorker() ends is replaced by a fresh one; the calls it held
 * reject with an AttentionError saying so (the shared way's calls do not: the caller computes what
 * that worker did not), and the next call works. dispose() ends every worker; calls after it reject.
 */
import { AttentionError, describe } from './errors.js';
import { PoolAttention } from './pool-attention.js';
import { MIN_PART_FLOP, threadCount } from './pool-split.js';
import { withDefaultText } from './text-default.js';
import { TRAINER_HANDLE_MEMBERS } from './trainer-handle.js';
import { createWorkerEngine } from './worker-client.js';
import { callerComputes, cores, startWorker, workerOptions } from '#pool-workers';

/** A pool of engine workers: create it with attn.createPool() (index.js) or createPool(). */
export class Pool {
  #slots = [];
  #simd;
  #core;
  #disposed = false;
  #attention; // how pool.attention runs (pool-attention.js)
  #minPartMs;
  #wired = false; // whether the helpers are joined to the leader (on the first createTrainer)
  #trainers = new Set(); // for each live trainer: what marks it lost with worker 0
  #calls = 0; // ids of the pool's own requests to its workers (poolWarmUp)

  /**
   * @param {number} threads @param {boolean} simd the build every worker loads (the caller's)
   * @param {number} minPartFlop the least work a part of a split call keeps (MIN_PART_FLOP)
   * @param {object} [local] the caller's engine, which refuses tensors too large for any worker
   * @param {'auto' | 'wasm' | 'js'} [core] the core every worker loads (loadAttention's option: the caller's)
   * @param {boolean} [shared] whether the caller computes too, its inputs shared (with `local`, where SharedArrayBuffer exists)
   */
  constructor(
    threads,
    simd,
    minPartFlop = MIN_PART_FLOP,
    local = null,
    minPartMs = undefined,
    core = 'auto',
    shared = callerComputes,
  ) {
    /** How many workers the pool runs. */
    this.threads = threads;
    this.#simd = simd;
    this.#minPartMs = minPartMs;
    this.#core = core;
    this.#attention = new PoolAttention({
      slots: () => this.#slots,
      on: (run, exclude) => this.#on(run, exclude),
      local,
      minPartFlop,
      shared,
    });
  }

  /** Starts the workers; resolves once every one has loaded its engine. */
  async start() {
    this.#slots = Array.from({ length: this.threads }, () => null);
    try {
      await Promise.all(this.#slots.map((_, i) => this.#launch(i)));
    } catch (error) {
      this.dispose();
      throw new AttentionError(`createPool: a worker could not start: ${error.message}`);
    }
    // V8 compiles the kernels with its optimising tier only once they have run a while: a few small
    // calls now, so that the first real call does not run in the baseline tier (pool-shared.js)
    this.#attention.warmUpCaller();
    await Promise.all(
      this.#slots.map((slot) =>
        this.#onSlot(slot, () => this.#request(slot, { method: 'poolWarmUp' }), { fn: 'createPool' }).catch(() => {}),
      ),
    );
    return this;
  }

  /** Posts one of the pool's own requests to a worker (worker.js: poolWarmUp); resolves to its result. */
  #request(slot, message) {
    const call = ++this.#calls;
    return new Promise((resolve, reject) => {
      slot.requests.set(call, { resolve, reject });
      slot.worker.postMessage({ ...message, call });
    });
  }

  /** Worker i, started afresh (its slot holds the promise of it while it loads). */
  #launch(i) {
    const worker = startWorker();
    const slot = { worker, engine: null, busy: 0, calls: new Set(), dead: false, requests: new Map(), ratio: 1 };
    // before the client's own listener, so the calls reject with the pool's message
    worker.addEventListener('error', (event) => this.#lost(slot, `it failed (${event.message ?? 'unknown error'})`));
    // a helper whose copy of a trainer trapped says so (worker.js serveReplicas)
    worker.addEventListener('message', ({ data }) => typeof data?.lost === 'string' && this.#lost(slot, data.lost));
    // the answers to the pool's own requests (#request)
    worker.addEventListener('message', ({ data }) => {
      const request = data?.poolCall !== undefined && slot.requests.get(data.poolCall);
      if (!request) return;
      slot.requests.delete(data.poolCall);
      if (!data.error) return request.resolve(data.result);
      const error = new AttentionError(data.error.message, { kind: data.error.kind });
      if (data.error.trapped) error.trapped = true;
      request.reject(error);
    });
    slot.ready = createWorkerEngine(worker, { ...workerOptions, simd: this.#simd, core: this.#core }).then((engine) => {
      slot.engine = engine;
      return slot;
    });
    this.#slots[i] = slot;
    return slot.ready;
  }

  /** A worker is gone: its calls reject, a fresh worker takes its slot. */
  #lost(slot, why) {
    if (slot.dead) return;
    slot.dead = true;
    const i = this.#slots.indexOf(slot);
    for (const call of slot.calls) {
      const lostTrainer = call.trainer ? '; the trainer it held is lost: create or load it again' : '';
      const next = call.trainer ? '' : ', so the next call can run';
      call.reject(
        new AttentionError(
          `${call.fn}: pool worker ${i} stopped during the call: ${why}${lostTrainer}; a new worker replaces it${next}`,
        ),
      );
    }
    slot.calls.clear();
    slot.requests.clear();
    try {
      slot.worker.terminate();
    } catch {
      // already gone
    }
    if (i > 0 && this.#wired) {
      this.#slots[0].worker.postMessage({ method: 'helperLost', index: i, why });
    }
    if (i === 0) this.#trainers.forEach((lose) => lose());
    // a worker that had started, or that terminateWorker() ended, is replaced; one that failed by
    // itself while starting is not (it would fail again and again), and its slot stays dead
    if (!this.#disposed && i >= 0 && (slot.engine || slot.terminated)) {
      this.#launch(i).then(
        () => this.#wired && this.#join(i),
        () => {},
      );
    }
  }

  /**
   * Joins worker i to the leader (worker 0) by a MessageChannel of its own, so the leader's
   * trainers share their steps with it (trainer-parallel.js); for i = 0, every loaded worker to
   * it. A worker still loading joins once it has loaded (#lost): joined by both, it would join
   * twice, and its second joining fails a step the leader has under way ("it was replaced").
   */
  #join(i) {
    if (this.#disposed) return;
    if (i === 0) {
      // it leads (and shares a step only while a part takes minPartMs: trainer-parallel.js)
      this.#slots[0].worker.postMessage({ method: 'helper', index: 0, port: null, minPartMs: this.#minPartMs });
      for (let h = 1; h < this.#slots.length; h++) if (this.#slots[h].engine && !this.#slots[h].dead) this.#join(h);
      return;
    }
    const channel = new MessageChannel();
    this.#slots[i].worker.postMessage({ method: 'serveReplicas', port: channel.port2 }, [channel.port2]);
    this.#slots[0].worker.postMessage({ method: 'helper', index: i, port: channel.port1 }, [channel.port1]);
  }

  /** Runs `run(engine)` on the least busy live worker; rejects if that worker is lost meanwhile. */
  async #on(run, exclude = new Set()) {
    if (this.#disposed) throw new AttentionError('attention: this pool was disposed');
    const live = this.#slots.filter((s) => !s.dead && !exclude.has(s));
    const any = live.length ? live : this.#slots.filter((s) => !s.dead);
    if (!any.length)
      throw new AttentionError('attention: no pool worker is running (their replacements could not start)');
    const slot = any.reduce((a, b) => (b.busy < a.busy ? b : a));
    exclude.add(slot);
    return this.#onSlot(slot, run, { fn: 'attention' });
  }

  /**
   * Runs `run(engine)` on worker `slot`; rejects (naming `fn`) if that worker is lost meanwhile.
   * @param {object} slot @param {(engine: object) => Promise<any>} run @param {{ fn: string, trainer?: boolean }} what
   */
  async #onSlot(slot, run, { fn, trainer = false }) {
    slot.busy++;
    try {
      return await new Promise((resolve, reject) => {
        const call = { resolve, reject, fn, trainer };
        slot.calls.add(call); // from now on, losing the worker rejects this call
        const settle = (done) => (value) => slot.calls.delete(call) && done(value);
        slot.ready.then(() => {
          if (!slot.calls.has(call)) return; // lost while it loaded: rejected already
          run(slot.engine).then(settle(resolve), (error) => {
            if (error?.trapped) this.#lost(slot, `its wasm trapped (${error.message})`);
            settle(reject)(error);
          });
        }, settle(reject));
      });
    } finally {
      slot.busy--;
    }
  }

  /**
   * attention(q, k, v, options), with attention()'s contract and result, split by query rows
   * across the workers where that pays (pool-attention.js).
   * @returns {Promise<{ output: object, weights?: object, logits?: object, fullyMaskedRows: number, scratchBytes: number }>}
   */
  async attention(q, k, v, options) {
    if (this.#disposed) throw new AttentionError('attention: this pool was disposed');
    return this.#attention.attention(q, k, v, options);
  }

  /**
   * A trainer whose float32 steps are shared among the pool's workers (trainer-parallel.js): the
   * same handle as the worker engine's createTrainer gives (trainer-handle.js: every method a
   * promise, step(count, { onProgress, signal })), and bitwise the same weights as
   * attn.createTrainer(options) after the same steps, for any number of threads. Its steps are
   * cut into micro-batches of 8 sequences, so a batch of 32 keeps up to 4 workers busy. Worker 0
   * holds it: if that worker is lost, so is the trainer (its calls reject and say so); a lost
   * helper fails the step it was in (the trainer stays at the last completed step) and is replaced.
   * @param {object} options createTrainer's options
   */
  createTrainer(options) {
    return this.#trainer('createTrainer', withDefaultText(options));
  }

  /** loadTrainer(state) in the pool: as createTrainer, continuing from an exported state. */
  loadTrainer(state) {
    return this.#trainer('loadTrainer', state);
  }

  async #trainer(method, arg) {
    if (this.#disposed) throw new AttentionError(`${method}: this pool was disposed`);
    if (!this.#wired) {
      this.#wired = true;
      await Promise.all(this.#slots.map((slot) => slot.ready));
      this.#join(0);
    }
    const leader = this.#slots[0];
    const handle = await this.#onSlot(leader, (engine) => engine[method](arg), { fn: method });
    let lost = false;
    const lose = () => {
      lost = true;
    };
    this.#trainers.add(lose);
    const guarded = { ...handle };
    // every method but dispose and cancel (which must reach the worker however it fares) runs as a
    // call on worker 0, so losing it rejects the call
    for (const name of TRAINER_HANDLE_MEMBERS.filter(
      (m) => typeof handle[m] === 'function' && m !== 'dispose' && m !== 'cancel',
    )) {
      guarded[name] = (...args) => {
        if (this.#disposed) return Promise.reject(new AttentionError(`${name}: this pool was disposed`));
        if (lost) {
          return Promise.reject(
            new AttentionError(`${name}: this trainer was lost with pool worker 0; create or load it again`),
          );
        }
        return this.#onSlot(leader, () => handle[name](...args), { fn: name, trainer: true });
      };
    }
    guarded.dispose = () => {
      this.#trainers.delete(lose);
      return lost || this.#disposed ? Promise.resolve(undefined) : handle.dispose();
    };
    return guarded;
  }

  /**
   * Ends worker i at once (a runaway call, or a test of what a crash does): the calls it held
   * reject with an AttentionError, and a fresh worker takes its place.
   * @param {number} i
   */
  terminateWorker(i) {
    const slot = this.#slots[i];
    if (!slot)
      throw new AttentionError(
        `terminateWorker: the pool has workers 0 to ${this.#slots.length - 1}, not ${describe(i)}`,
      );
    slot.terminated = true;
    this.#lost(slot, 'it was terminated');
  }

  /** Ends every worker; calls after it reject. */
  dispose() {
    this.#disposed = true;
    for (const slot of this.#slots) {
      if (!slot) continue;
      slot.dead = true;
      for (const call of slot.calls)
        call.reject(new AttentionError(`${call.fn}: this pool was disposed during the call`));
      slot.calls.clear();
      try {
        slot.worker.terminate();
      } catch {
        // already gone
      }
    }
  }
}

/**
 * A pool of `threads` workers running the given build. minPartFlop (default MIN_PART_FLOP, at
 * least 1) is the least work a part of a split call keeps: tests lower it to split small calls;
 * local, the caller's engine (attn.createPool passes itself), refuses tensors too large for any heap.
 * minPartMs (default MIN_PART_MS of trainer-parallel.js, >= 0) is the least time one part of a
 * training step must take for the step to be shared: tests set 0 to share every step.
 * core ('auto', 'wasm' or 'js': loadAttention's option) is the core every worker loads: the caller's.
 * @param {{ threads?: 'auto' | number, simd?: boolean, core?: 'auto' | 'wasm' | 'js', minPartFlop?: number, minPartMs?: number, local?: object }} [options]
 * @returns {Promise<Pool>}
 */
export async function createPool({
  threads = 'auto',
  simd,
  core = 'auto',
  minPartFlop = MIN_PART_FLOP,
  minPartMs,
  local = null,
  shared = callerComputes,
} = {}) {
  if (typeof minPartFlop !== 'number' || !(minPartFlop >= 1)) {
    throw new AttentionError(`createPool: minPartFlop must be a number >= 1, got ${describe(minPartFlop)}`, {
      kind: 'ValueError',
    });
  }
  if (minPartMs !== undefined && (typeof minPartMs !== 'number' || !(minPartMs >= 0))) {
    throw new AttentionError(`createPool: minPartMs must be a number >= 0, got ${describe(minPartMs)}`, {
      kind: 'ValueError',
    });
  }
  return new Pool(threadCount(threads, cores()), simd, minPartFlop, local, minPartMs, core, shared).start();
}
