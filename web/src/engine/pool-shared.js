/**
 * The shared-memory way of one pool.attention call (pool.js): where SharedArrayBuffer exists and
 * the calling thread may compute (Node), the caller copies q, k and v once into a
 * SharedArrayBuffer, posts the call to the workers, and computes parts itself.
 *
 * The parts (pool-split.js sharedRanges): first a head part per thread, thread t's own (the
 * caller is thread 0), sized by how fast each thread has been (a worker that shares its core with
 * another program gets less), then a few small tail parts that every thread takes from one
 * counter in the buffer (Atomics.add) as it comes free, so that what the estimate missed evens
 * out. No message is sent per part. A worker writes its parts' rows into the buffer and marks
 * each part done; the caller writes its own straight into the result.
 *
 * Once no part is left to take, the caller gathers the workers' parts. A head part its worker has
 * not started yet (the worker is busy, or slow to wake) the caller takes and computes itself; one
 * a worker holds it waits for until about twice the time expected of that worker (SLOW_PART,
 * from when the worker took it), then computes it itself. The same rows of the same build give
 * the same bits whoever computes them, so the caller never waits long on a worker that the
 * machine has stopped, that failed or that was ended. A part that fails (a bad value in q, say) is
 * computed by the caller too, whose error pool.js reports for the whole call.
 *
 * Layout of the buffer (offsets in bytes, each 8-aligned):
 *   control   Int32[STATE + 2 · parts]   [NEXT] the next tail part to take, [READY] inputs copied
 *             (0/1), [HOLDERS] workers that have yet to finish with the buffer, [STATE + p] part
 *             p's state: PENDING (not done), DONE (its rows are in the buffer) or FAILED, and
 *             [OWNER + p] who took part p: 0 no one yet, t + 1 thread t
 *   claimed   Float64[parts]       when part p was started (timeOrigin + now, ms), 0 until then
 *   finished  Float64[parts]       when a worker finished part p
 *   stats     Float64[2 · parts]   part p's fullyMaskedRows and scratchBytes
 *   q, k, v   Float32              the caller's tensors
 *   outputs   Float32              output (lead, L, Ev), weights and logits (lead, L, S) if asked for
 */

/** Where control holds what (above); OWNER + p is at STATE + parts + p (owner()). */
export const NEXT = 0;
export const READY = 1;
export const HOLDERS = 2;
export const STATE = 3;

/** Part states (control[STATE + p]). */
export const PENDING = 0;
export const DONE = 1;
export const FAILED = 2;

/**
 * How long the caller waits for a part a worker has started: SLOW_PART times what it expects of
 * that worker, plus SLOW_PART_MS.
 */
export const SLOW_PART = 2;
export const SLOW_PART_MS = 1;

const now = () => performance.timeOrigin + performance.now();
const align8 = (n) => Math.ceil(n / 8) * 8;
const owner = (job, p) => STATE + job.ranges.length + p;

/**
 * The layout of one call's buffer and its description for the workers (structured-cloned; the
 * buffer is shared, not copied). `heads`: how many head parts (one per thread) lead `ranges`;
 * the rest are tail parts. `buffer(bytes)` gives the SharedArrayBuffer, of `bytes` or more: a
 * new one, or one of an earlier call that no worker holds any longer (whose header this clears).
 * @param {{ q: object, k: object, v: object, ranges: Array<[number, number]>, heads: number, opts: object[], partFlop: number[], lead: number[], L: number, S: number, Ev: number, names: string[] }} call
 * @param {(bytes: number) => SharedArrayBuffer} [buffer]
 */
export function sharedJob(
  { q, k, v, ranges, heads, opts, partFlop, lead, L, S, Ev, names },
  buffer = (n) => new SharedArrayBuffer(n),
) {
  const parts = ranges.length;
  const batch = lead.reduce((a, b) => a * b, 1);
  let bytes = 0;
  const place = (count, size = 4) => {
    const at = bytes;
    bytes = align8(bytes + count * size);
    return at;
  };
  const control = place(STATE + 2 * parts);
  const claimed = place(parts, 8);
  const finished = place(parts, 8);
  const stats = place(2 * parts, 8);
  const header = bytes;
  const inputs = {};
  for (const [name, t] of [
    ['q', q],
    ['k', k],
    ['v', v],
  ]) {
    inputs[name] = { at: place(t.data.length), shape: t.shape };
  }
  const outputs = {};
  for (const name of names) {
    const C = name === 'output' ? Ev : S;
    outputs[name] = { at: place(batch * L * C), shape: [...lead, L, C] };
  }
  const shared = buffer(bytes);
  new Uint8Array(shared, 0, header).fill(0);
  new Int32Array(shared, control, STATE)[NEXT] = heads; // tail parts are taken from the counter
  return { buffer: shared, control, claimed, finished, stats, inputs, outputs, ranges, heads, opts, partFlop, L };
}

/** Typed views of a job's buffer. */
export function openJob(job) {
  const { buffer, ranges } = job;
  const parts = ranges.length;
  const tensor = ({ at, shape }) => ({
    data: new Float32Array(
      buffer,
      at,
      shape.reduce((a, b) => a * b, 1),
    ),
    shape,
  });
  return {
    control: new Int32Array(buffer, job.control, STATE + 2 * parts),
    claimed: new Float64Array(buffer, job.claimed, parts),
    finished: new Float64Array(buffer, job.finished, parts),
    stats: new Float64Array(buffer, job.stats, 2 * parts),
    inputs: Object.fromEntries(Object.entries(job.inputs).map(([n, t]) => [n, tensor(t)])),
    outputs: Object.fromEntries(Object.entries(job.outputs).map(([n, t]) => [n, tensor(t)])),
  };
}

/**
 * Copies the caller's q, k and v into the job's buffer and marks it ready for the workers.
 * `holders`: how many workers the job was posted to (each counts itself off when done with it).
 */
export function fillJob(views, { q, k, v }, holders = 0) {
  Atomics.store(views.control, HOLDERS, holders);
  views.inputs.q.data.set(q.data);
  views.inputs.k.data.set(k.data);
  views.inputs.v.data.set(v.data);
  Atomics.store(views.control, READY, 1);
  Atomics.notify(views.control, READY);
}

/** Whether no worker holds a job's buffer any longer (so another call may use it). */
export const released = (buffer) => Atomics.load(new Int32Array(buffer, 0, STATE), HOLDERS) === 0;

/** Rows [r0, r1) of axis −2 of `t` (…, L, C): a view when there is one leading index, else a copy. */
function rowsOf({ data, shape }, r0, r1) {
  const [L, C] = shape.slice(-2);
  if (data.length === L * C) return { data: data.subarray(r0 * C, r1 * C), shape: [...shape.slice(0, -2), r1 - r0, C] };
  const lead = data.length / (L * C);
  const out = new Float32Array(lead * (r1 - r0) * C);
  for (let b = 0; b < lead; b++) out.set(data.subarray((b * L + r0) * C, (b * L + r1) * C), b * (r1 - r0) * C);
  return { data: out, shape: [...shape.slice(0, -2), r1 - r0, C] };
}

/** Puts a part's tensor (lead, r1 − r0, C) at rows [r0, r1) of `into` (lead, L, C). */
export function putRows(part, into, r0, r1, L) {
  const C = into.shape.at(-1);
  const lead = into.data.length / (L * C);
  const rows = (r1 - r0) * C;
  if (part.data.length !== lead * rows) {
    throw new Error(`pool: a part of shape [${part.shape}] does not fit rows ${r0}..${r1} of [${into.shape}]`);
  }
  for (let b = 0; b < lead; b++) into.data.set(part.data.subarray(b * rows, (b + 1) * rows), (b * L + r0) * C);
}

/** Part p of the call on `engine`: attention() of its rows of q against all of k and v. */
export function computePart(engine, job, q, k, v, p) {
  const [r0, r1] = job.ranges[p];
  return engine.attention(rowsOf(q, r0, r1), k, v, job.opts[p]);
}

/** Takes part p for thread t unless someone has: whether it did. */
const take = (control, job, p, t) => Atomics.compareExchange(control, owner(job, p), 0, t + 1) === 0;

/** The next tail part for thread t, or −1 when none is left. */
function nextTail(control, job, t) {
  const p = Atomics.add(control, NEXT, 1);
  if (p >= job.ranges.length) return -1;
  Atomics.store(control, owner(job, p), t + 1);
  return p;
}

/**
 * A worker's side (worker.js), as thread t (1, 2, …): waits for the inputs, computes its head
 * part (unless the caller has taken it), then tail parts until none is left, writing each one's
 * rows and figures into the buffer. Stops at the first part that fails (marked FAILED; the caller
 * computes it again and reports its error); rethrows a trap of the wasm itself.
 * @returns {number} the parts it computed
 */
export function workOnParts(engine, job, t) {
  const views = openJob(job);
  const { control, claimed, finished, stats, inputs, outputs } = views;
  let done = 0;
  try {
    while (Atomics.load(control, READY) === 0) Atomics.wait(control, READY, 0, 1000);
    for (let p = t < job.heads && take(control, job, t, t) ? t : nextTail(control, job, t); p >= 0;) {
      claimed[p] = now();
      try {
        const result = computePart(engine, job, inputs.q, inputs.k, inputs.v, p);
        const [r0, r1] = job.ranges[p];
        for (const name of Object.keys(outputs)) putRows(result[name], outputs[name], r0, r1, job.L);
        stats[2 * p] = result.fullyMaskedRows;
        stats[2 * p + 1] = result.scratchBytes;
      } catch (error) {
        Atomics.store(control, STATE + p, FAILED);
        Atomics.notify(control, STATE + p);
        if (typeof WebAssembly === 'object' && error instanceof WebAssembly.RuntimeError) throw error;
        return done;
      }
      finished[p] = now();
      Atomics.store(control, STATE + p, DONE);
      Atomics.notify(control, STATE + p);
      done++;
      p = nextTail(control, job, t);
    }
    return done;
  } finally {
    Atomics.sub(control, HOLDERS, 1);
  }
}

/**
 * The caller's side (thread 0): computes its head part and tail parts until none is left, each
 * into `result` (plain arrays of the whole call's shapes), then gathers the workers' parts from
 * the buffer, computing any part that failed, that its worker had not started, or that a worker
 * holds for too long. `ratios[t]`: how much slower than the caller thread t is expected to be
 * (pool.js learns it). Throws the error of a part that fails here.
 * @returns {{ fullyMaskedRows: number, scratchBytes: number, mine: number, taken: number, pace: number, ratios: Array<number | null> }}
 *   mine: parts this thread computed; taken: of those, parts meant for or started by a worker;
 *   pace: this thread's ms per flop; ratios[t]: how much slower than this thread worker t was in
 *   this call (4 when it did not start its head part in time), null when it computed nothing
 */
export function callerParts(engine, job, views, { q, k, v }, result, ratios = []) {
  const { control, claimed, finished, stats, outputs } = views;
  const parts = job.ranges.length;
  const flop = job.partFlop;
  let fullyMaskedRows = 0;
  let scratchBytes = 0;
  let mineFlop = 0;
  let mineMs = 0;
  const doneHere = new Uint8Array(parts);
  let mine = 0;
  let taken = 0;
  const compute = (p) => {
    const t0 = performance.now();
    const r = computePart(engine, job, q, k, v, p);
    mineMs += performance.now() - t0;
    mineFlop += flop[p];
    const [r0, r1] = job.ranges[p];
    for (const name of Object.keys(outputs)) putRows(r[name], result[name], r0, r1, job.L);
    fullyMaskedRows += r.fullyMaskedRows;
    scratchBytes += r.scratchBytes;
    doneHere[p] = 1;
    mine++;
  };
  if (take(control, job, 0, 0)) compute(0);
  for (let p = nextTail(control, job, 0); p >= 0; p = nextTail(control, job, 0)) compute(p);
  const pace = () => (mineFlop ? mineMs / mineFlop : 1e-7);
  const late = new Set(); // workers whose head part this thread took before they started it
  const stalled = new Set(); // workers that held a part too long
  for (let p = 0; p < parts; p++) {
    if (doneHere[p]) continue;
    if (p < job.heads && take(control, job, p, 0)) {
      late.add(p);
      compute(p); // its worker has not started it: it would still need all of it
      taken++;
      continue;
    }
    let state = Atomics.load(control, STATE + p);
    const seen = now();
    const holder = Atomics.load(control, owner(job, p)) - 1;
    const ratio = ratios[holder] ?? 1;
    while (state === PENDING) {
      const wait = (claimed[p] || seen) + SLOW_PART * flop[p] * pace() * ratio + SLOW_PART_MS - now();
      if (wait <= 0) break;
      Atomics.wait(control, STATE + p, PENDING, wait);
      state = Atomics.load(control, STATE + p);
    }
    if (state === DONE) {
      const [r0, r1] = job.ranges[p];
      for (const name of Object.keys(outputs)) {
        putRows(rowsOf(outputs[name], r0, r1), result[name], r0, r1, job.L);
      }
      fullyMaskedRows += stats[2 * p];
      scratchBytes += stats[2 * p + 1];
    } else {
      if (state === PENDING) stalled.add(holder);
      compute(p); // failed, or held too long: the same bits from this thread
      taken++;
    }
  }
  // how each worker fared against this thread, for the next call's head parts
  const workerMs = new Map();
  for (let p = 0; p < parts; p++) {
    const t = Atomics.load(control, owner(job, p)) - 1;
    if (t < 1 || doneHere[p] || Atomics.load(control, STATE + p) !== DONE) continue;
    const [ms, f] = workerMs.get(t) ?? [0, 0];
    workerMs.set(t, [ms + finished[p] - claimed[p], f + flop[p]]);
  }
  const observed = Array.from({ length: job.heads }, (_, t) => {
    if (late.has(t) || stalled.has(t)) return 4;
    const [ms, f] = workerMs.get(t) ?? [0, 0];
    return t > 0 && f ? ms / f / pace() : null;
  });
  return { fullyMaskedRows, scratchBytes, mine, taken, pace: pace(), ratios: observed };
}

/** Calls that warmUp makes: enough for V8 to compile the kernels with its optimising tier. */
export const WARM_UP_CALLS = 8;

/**
 * A few small attention calls (unmasked and causal, E = Ev = 64), so that V8 tiers the engine's
 * kernels up before the first real call rather than during it (a kernel runs 2–3 times slower in
 * its baseline tier). A pool's workers run it when they start, and so does the caller's engine
 * where it computes parts. @returns {number} the calls made
 */
export function warmUp(engine) {
  const tensor = (rows, seed) => {
    const data = new Float32Array(rows * 64);
    let x = seed;
    for (let i = 0; i < data.length; i++) {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      data[i] = x / 2 ** 31 - 1;
    }
    return { data, shape: [rows, 64] };
  };
  const [q, k, v] = [tensor(64, 1), tensor(256, 2), tensor(256, 3)];
  for (let i = 0; i < WARM_UP_CALLS; i++) {
    engine.attention(q, k, v);
    engine.attention(q, k, v, { mask: 'causal', rowOffset: 192 });
  }
  return 2 * WARM_UP_CALLS;
}
