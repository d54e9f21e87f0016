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
 * pool.attention has attention()'s contract and result. A large call is split by query rows into
 * parts (they start at multiples of the kernels' block of 4 rows, and causal and window masks are
 * told where their rows start with rowOffset), so each row is computed exactly as the
 * single-thread call of the same build computes it: the output, weights and logits are bitwise
 * equal, and fullyMaskedRows is the sum over the parts. Parts are cut by work, not rows (a causal
 * mask makes later rows dearer), and a call is split only while each part keeps at least
 * MIN_PART_FLOP of work (about 1.5 ms on one core); a smaller call runs whole, on the calling
 * thread where that computes (below), else on one worker. Every part is one attention() call,
 * which packs and checks all of k and v: a part costs about PART_OVERHEAD_ROWS rows' work more,
 * so calls are cut into few parts. Two ways, one result:
 *
 * - shared (Node; pool-shared.js): the caller copies q, k and v once into a SharedArrayBuffer
 *   (the last call's, when no worker still holds it), posts it to threads − 1 workers and computes
 *   parts itself: a head part per thread, sized by how fast each worker was in the last calls
 *   against the caller (slot.ratio: another program on a worker's core makes it slower), then
 *   small tail parts that every thread takes from one counter as it comes free (sharedRanges). No
 *   message per part, no copy of k and v per worker. The caller never waits long on a worker: a
 *   part not yet started, held for twice what was expected, or failed, it computes itself. The
 *   call runs on the calling thread: its promise is settled when pool.attention returns.
 * - messages (browsers, which must not hold up a page's frames): each worker gets a copy of its
 *   rows of q (and of a mask's rows) and of the whole k and v (the caller's arrays are never
 *   transferred): one part per worker, or PARTS_PER_THREAD per worker for a long call, each worker
 *   taking the next part when it is done.
 *
 * The workers (and, shared, the caller's engine) run a few small calls when the pool starts
 * (warmUp), so that V8 has tiered the kernels up before the first real call.
 * Scratch bytes are the sum over the parts (each part allocates its own buffers).
 *
 * Errors are attention()'s: a call whose part fails is run again whole (on the caller, or on one
 * worker), so the message names indices of the whole problem. A worker that fails (an error
 * outside a call, its wasm trapping, the thread exiting) or that terminateWorker() ends is
 * replaced by a fresh one; the calls it held reject with an AttentionError saying so (the shared
 * way's calls do not: the caller computes what that worker did not), and the next call works.
 * dispose() ends every worker; calls after it reject. How a call is cut into parts: pool-split.js.
 */
import { AttentionError, describe } from './errors.js';
import {
  BALANCE_FLOP,
  broadcastLead,
  HEAP_ELEMENTS,
  joinRows,
  keysOfRow,
  MAX_SPLIT_ELEMENTS,
  MIN_PART_FLOP,
  PARTS_PER_THREAD,
  PART_OVERHEAD_ROWS,
  partOptions,
  product,
  readOptions,
  sliceRows,
  sharedRanges,
  splitRows,
  threadCount,
} from './pool-split.js';
import { callerParts, fillJob, NEXT, openJob, released, sharedJob, warmUp } from './pool-shared.js';
import { toTensor } from './tensor.js';
import { withDefaultText } from './text-default.js';
import { TRAINER_HANDLE_MEMBERS } from './trainer-handle.js';
import { createWorkerEngine } from './worker-client.js';
import { callerComputes, cores, startWorker, workerOptions } from '#pool-workers';

/** The most a worker's pace is taken to differ from the caller's (slot.ratio), either way. */
const MAX_RATIO = 4;

/** The largest shared buffer (bytes) a pool keeps for its next call (pool-shared.js). */
const SPARE_BYTES = 64 * 2 ** 20;

/** A pool of engine workers: create it with attn.createPool() (index.js) or createPool(). */
export class Pool {
  #slots = [];
  #simd;
  #core;
  #disposed = false;

  #minPartFlop;
  #minPartMs;
  #local;
  #wired = false; // whether the helpers are joined to the leader (on the first createTrainer)
  #trainers = new Set(); // for each live trainer: what marks it lost with worker 0
  #shared; // whether calls run the shared-memory way, the caller computing too (pool-shared.js)
  #calls = 0; // ids of the pool's own requests to its workers (poolWarmUp)
  #spare = null; // the last shared call's buffer (pool-shared.js), for the next call once released

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
    this.#minPartFlop = minPartFlop;
    this.#minPartMs = minPartMs;
    this.#local = local;
    this.#core = core;
    this.#shared = Boolean(shared && local && typeof SharedArrayBuffer === 'function');
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
    if (this.#shared) warmUp(this.#local);
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
   * trainers share their steps with it (trainer-parallel.js); for i = 0, every worker to it.
   */
  #join(i) {
    if (this.#disposed) return;
    if (i === 0) {
      // it leads (and shares a step only while a part takes minPartMs: trainer-parallel.js)
      this.#slots[0].worker.postMessage({ method: 'helper', index: 0, port: null, minPartMs: this.#minPartMs });
      for (let h = 1; h < this.#slots.length; h++) this.#join(h);
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
   * attention(q, k, v, options), split by query rows across the workers (see the file's comment).
   * @returns {Promise<{ output: object, weights?: object, logits?: object, fullyMaskedRows: number, scratchBytes: number }>}
   */
  async attention(q, k, v, options) {
    if (this.#disposed) throw new AttentionError('attention: this pool was disposed');
    const whole = () => this.#on((engine) => engine.attention(q, k, v, options));
    let tq, tk, tv;
    try {
      [tq, tk, tv] = [toTensor(q, 'q'), toTensor(k, 'k'), toTensor(v, 'v')];
    } catch {
      return whole(); // the worker reports it, as attention() does
    }
    // a tensor no 32-bit wasm heap can hold: the caller's own engine refuses it at once, rather
    // than copying gigabytes to a worker to hear the same MemoryError
    if (this.#local && Math.max(tq.data.length, tk.data.length, tv.data.length) >= HEAP_ELEMENTS) {
      return this.#local.attention(q, k, v, options);
    }
    if (tq.shape.length < 2 || tk.shape.length < 2 || tv.shape.length < 2) return whole();
    const [L, E] = tq.shape.slice(-2);
    const S = tk.shape.at(-2);
    const Ev = tv.shape.at(-1);
    const batches = Math.max(
      product(tq.shape.slice(0, -2)),
      product(tk.shape.slice(0, -2)),
      product(tv.shape.slice(0, -2)),
    );
    const read = readOptions(options);
    if (!read) return whole();
    // beyond what one call may hold (the workers' wasm heaps are 32-bit): the worker says so
    const rows = read.rest.returnWeights || read.rest.returnLogits ? Math.max(E, Ev, S) : Math.max(E, Ev);
    if (batches * L * rows > MAX_SPLIT_ELEMENTS) return whole();
    const keys = keysOfRow(read.fields, S, read.rowOffset);
    const threads = this.#slots.length;
    if (threads === 1) return whole();
    const rowFlop = (i) => 2 * batches * keys(i) * (E + Ev);
    if (this.#shared) {
      const lead = broadcastLead([tq.shape, tk.shape, tv.shape].map((s) => s.slice(0, -2)));
      if (!lead) return whole(); // the worker says why
      const rowOverhead = PART_OVERHEAD_ROWS * 2 * batches * S * (E + Ev);
      return this.#attentionShared({ q, k, v, options, tq, tk, tv, read, lead, L, S, Ev, rowFlop, rowOverhead });
    }
    let ranges = splitRows(L, rowFlop, threads, this.#minPartFlop);
    // a long call: more parts than workers, so that a core slowed by other programs does less of it
    if (ranges.length === threads && 2 * batches * L * S * (E + Ev) >= BALANCE_FLOP) {
      ranges = splitRows(L, rowFlop, threads * PARTS_PER_THREAD, this.#minPartFlop);
    }
    if (ranges.length < 2) return whole();
    const opts = partOptions(read, L, ranges);
    // one runner per worker takes the next part whenever its last one is done, so a core that is
    // slowed down (by other programs) does less of the call instead of holding it up
    const parts = new Array(ranges.length);
    let next = 0;
    let failed = false; // once a part fails, the other runners take no more parts
    const used = new Set();
    const runner = async () => {
      while (!failed && next < ranges.length) {
        const p = next++;
        const [r0, r1] = ranges[p];
        try {
          parts[p] = await this.#on((engine) => engine.attention(sliceRows(tq, r0, r1), tk, tv, opts[p]), used);
        } catch (error) {
          failed = true;
          throw error;
        }
        used.clear(); // after the first round, any idle worker
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(threads, ranges.length) }, runner));
    } catch (error) {
      if (error?.trapped || /^attention: (pool worker|this pool)/.test(error?.message)) throw error;
      return whole(); // the same error, naming the whole problem's indices
    }
    const result = {
      output: joinRows(
        parts.map((r) => r.output),
        ranges,
        L,
      ),
      fullyMaskedRows: parts.reduce((n, r) => n + r.fullyMaskedRows, 0),
      scratchBytes: parts.reduce((n, r) => n + r.scratchBytes, 0),
    };
    for (const name of ['weights', 'logits']) {
      if (parts[0][name])
        result[name] = joinRows(
          parts.map((r) => r[name]),
          ranges,
          L,
        );
    }
    return result;
  }

  /**
   * pool.attention the shared-memory way (pool-shared.js): this thread and up to threads − 1 of
   * the workers compute parts; this thread gathers the result. A call too small to split runs on
   * this thread alone (where a worker would cost a message each way and copies for nothing).
   */
  #attentionShared({ q, k, v, options, tq, tk, tv, read, lead, L, S, Ev, rowFlop, rowOverhead }) {
    const helpers = this.#slots
      .filter((s) => !s.dead && s.engine)
      .sort((a, b) => a.busy - b.busy || a.ratio - b.ratio)
      .slice(0, this.#slots.length - 1);
    // head parts in proportion to how fast each thread has been (slot.ratio: how much slower than
    // this thread that worker was in the last calls)
    const speeds = [1, ...helpers.map((s) => 1 / s.ratio)];
    const { ranges, heads } = sharedRanges(L, rowFlop, speeds, this.#minPartFlop, rowOverhead);
    // too small to split (or no worker loaded): this thread alone, as attention() would run it
    if (heads < 2) return this.#local.attention(q, k, v, options);
    const used = helpers.slice(0, heads - 1);
    const names = ['output'];
    if (read.rest.returnWeights) names.push('weights');
    if (read.rest.returnLogits) names.push('logits');
    // the last call's buffer again once no worker holds it: a fresh one costs the first touch of
    // its pages (0.5 ms at L = S = 1024), more than copying the inputs into it
    const buffer = (bytes) => {
      const spare = this.#spare;
      if (spare && spare.byteLength >= bytes && released(spare)) return spare;
      const fresh = new SharedArrayBuffer(bytes);
      this.#spare = bytes <= SPARE_BYTES ? fresh : null;
      return fresh;
    };
    const partFlop = ranges.map(([r0, r1]) => {
      let flop = 0;
      for (let i = r0; i < r1; i++) flop += rowFlop(i);
      return flop;
    });
    const opts = partOptions(read, L, ranges);
    const job = sharedJob({ q: tq, k: tk, v: tv, ranges, heads, opts, partFlop, lead, L, S, Ev, names }, buffer);
    const views = openJob(job);
    // the workers first, so that they wake while this thread copies the inputs and starts on its
    // part; nothing waits for their answer (they count themselves off in the buffer), so a loop of
    // awaited calls, which never lets the event loop take messages, holds nothing per call
    used.forEach((slot, j) => slot.worker.postMessage({ method: 'poolParts', job, thread: j + 1 }));
    fillJob(views, { q: tq, k: tk, v: tv }, used.length);
    const result = {};
    for (const name of names) {
      const { shape } = job.outputs[name];
      result[name] = { data: new Float32Array(product(shape)), shape };
    }
    let figures;
    try {
      const ratios = [1, ...used.map((s) => s.ratio)];
      figures = callerParts(this.#local, job, views, { q: tq, k: tk, v: tv }, result, ratios);
    } catch (error) {
      Atomics.store(views.control, NEXT, ranges.length); // the workers take no more tail parts
      if (typeof WebAssembly === 'object' && error instanceof WebAssembly.RuntimeError) throw error;
      return this.#local.attention(q, k, v, options); // the error again, naming the whole call's indices
    }
    // what this call showed of each worker's pace, half the weight of the next estimate
    used.forEach((slot, j) => {
      const seen = figures.ratios[j + 1];
      if (seen) slot.ratio = Math.min(MAX_RATIO, Math.max(1 / MAX_RATIO, Math.sqrt(slot.ratio * seen)));
    });
    return { ...result, fullyMaskedRows: figures.fullyMaskedRows, scratchBytes: figures.scratchBytes };
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
