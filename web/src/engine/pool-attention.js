/**
 * How a pool (pool.js) runs one pool.attention call: whole on one worker, or split by query rows
 * into parts. The parts start at multiples of the kernels' block of 4 rows, and causal and window
 * masks are told where their rows start with rowOffset, so each row is computed exactly as the
 * single-thread call of the same build computes it: the output, weights and logits are bitwise
 * equal, and fullyMaskedRows is the sum over the parts. Parts are cut by work, not rows (a causal
 * mask makes later rows dearer), and a call is split only while each part keeps at least
 * MIN_PART_FLOP of work (about 1.5 ms on one core): where splitting cannot pay, the call runs
 * whole on one worker (the least busy), in Node as in a browser. Every part is one attention()
 * call, which packs and checks all of k and v: a part costs about PART_OVERHEAD_ROWS rows' work
 * more, so calls are cut into few parts. Two ways, one result:
 *
 * - shared (Node; pool-shared.js): the caller copies q, k and v once into a SharedArrayBuffer
 *   (the last call's, when no worker still holds it), posts it to threads − 1 workers and computes
 *   parts itself: a head part per thread, sized by how fast each worker was in the last calls
 *   against the caller (slot.ratio: another program on a worker's core makes it slower), then
 *   small tail parts that every thread takes from one counter as it comes free (sharedRanges). No
 *   message per part, no copy of k and v per worker. The caller never waits long on a worker: a
 *   part not yet started, held for twice what was expected, or failed, it computes itself. A
 *   split call runs on the calling thread: its promise is settled when pool.attention returns.
 *   While no worker has loaded (each one lost and its replacement starting), the caller computes
 *   the whole call rather than wait for one.
 * - messages (browsers, which must not hold up a page's frames): each worker gets a copy of its
 *   rows of q (and of a mask's rows) and of the whole k and v (the caller's arrays are never
 *   transferred): one part per worker, or PARTS_PER_THREAD per worker for a long call, each worker
 *   taking the next part when it is done.
 *
 * Scratch bytes are the sum over the parts (each part allocates its own buffers). A call whose
 * part fails is run again whole (on the caller, or on one worker), so the error names indices of
 * the whole problem. How a call is cut into parts: pool-split.js.
 */
import {
  BALANCE_FLOP,
  broadcastLead,
  HEAP_ELEMENTS,
  joinRows,
  keysOfRow,
  MAX_SPLIT_ELEMENTS,
  PARTS_PER_THREAD,
  PART_OVERHEAD_ROWS,
  partOptions,
  product,
  readOptions,
  sliceRows,
  sharedRanges,
  splitRows,
} from './pool-split.js';
import { callerParts, fillJob, NEXT, openJob, released, sharedJob, warmUp } from '#pool-shared';
import { toTensor } from './tensor.js';

/** The most a worker's pace is taken to differ from the caller's (slot.ratio), either way. */
const MAX_RATIO = 4;

/** The largest shared buffer (bytes) a pool keeps for its next call (pool-shared.js). */
const SPARE_BYTES = 64 * 2 ** 20;

/** A pool's attention calls: one per Pool (pool.js), which hands it what it needs of the workers. */
export class PoolAttention {
  #slots;
  #on;
  #local;
  #minPartFlop;
  #spare = null; // the last shared call's buffer (pool-shared.js), for the next call once released

  /**
   * @param {{ slots: () => object[], on: (run: (engine: object) => Promise<any>, exclude?: Set<object>) => Promise<any>, local: object | null, minPartFlop: number, shared: boolean }} pool
   *   slots: the pool's worker slots; on: runs `run(engine)` on the least busy live worker (not in
   *   `exclude`); local: the caller's engine; shared: whether the caller may compute too
   */
  constructor({ slots, on, local, minPartFlop, shared }) {
    this.#slots = slots;
    this.#on = on;
    this.#local = local;
    this.#minPartFlop = minPartFlop;
    /** Whether calls run the shared-memory way, the caller computing too (pool-shared.js). */
    this.shared = Boolean(shared && local && typeof SharedArrayBuffer === 'function');
  }

  /**
   * V8 compiles the kernels with its optimising tier only once they have run a while: where the
   * caller computes parts, a few small calls on its engine now (pool-shared.js warmUp), so that the
   * first real call does not run in the baseline tier.
   */
  warmUpCaller() {
    if (this.shared) warmUp(this.#local);
  }

  /**
   * attention(q, k, v, options), split by query rows across the workers (see the file's comment).
   * @returns {Promise<{ output: object, weights?: object, logits?: object, fullyMaskedRows: number, scratchBytes: number }>}
   */
  async attention(q, k, v, options) {
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
    const threads = this.#slots().length;
    if (threads === 1) return whole();
    const rowFlop = (i) => 2 * batches * keys(i) * (E + Ev);
    if (this.shared) {
      const lead = broadcastLead([tq.shape, tk.shape, tv.shape].map((s) => s.slice(0, -2)));
      if (!lead) return whole(); // the worker says why
      const rowOverhead = PART_OVERHEAD_ROWS * 2 * batches * S * (E + Ev);
      return this.#attentionShared({ q, k, v, options, tq, tk, tv, read, lead, L, S, Ev, rowFlop, rowOverhead, whole });
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
   * the workers compute parts; this thread gathers the result. A call too small to split runs
   * whole on one worker (`whole`); while no worker has loaded, on this thread.
   */
  #attentionShared({ q, k, v, options, tq, tk, tv, read, lead, L, S, Ev, rowFlop, rowOverhead, whole }) {
    const slots = this.#slots();
    const helpers = slots
      .filter((s) => !s.dead && s.engine)
      .sort((a, b) => a.busy - b.busy || a.ratio - b.ratio)
      .slice(0, slots.length - 1);
    // every worker lost and its replacement still loading: this thread, rather than wait for one
    if (!helpers.length) return this.#local.attention(q, k, v, options);
    // head parts in proportion to how fast each thread has been (slot.ratio: how much slower than
    // this thread that worker was in the last calls)
    const speeds = [1, ...helpers.map((s) => 1 / s.ratio)];
    const { ranges, heads } = sharedRanges(L, rowFlop, speeds, this.#minPartFlop, rowOverhead);
    // too small to split (less than two parts' MIN_PART_FLOP, or one block of rows): one worker
    if (heads < 2) return whole();
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
}
