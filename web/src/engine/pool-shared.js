/**
 * The shared-memory way of one pool.attention call (pool.js): where SharedArrayBuffer exists and
 * the calling thread may compute (Node), the caller copies q, k and v once into a
 * SharedArrayBuffer, posts the call to the workers, and computes parts itself. Every thread, the
 * caller and the workers, takes the next part from one counter in that buffer (Atomics.add), so
 * a thread the machine slows down, or a worker that wakes late, does less of the call and the
 * others more; no message is sent per part. A worker writes its parts' rows into the buffer and
 * marks each part done; the caller writes its own straight into the result.
 *
 * Once no part is left to take, the caller waits for the parts workers hold, each until about
 * twice what it would take the caller (SLOW_PART, from when the worker took it), and computes a
 * part still not done itself. The same rows of the same build give the same bits whoever computes
 * them, so the caller never waits long on a worker that the machine has stopped, that failed or
 * that was ended (a worker merely slowed, to half the caller's pace, it waits for). A part that
 * fails (a bad value in q, say) is computed by the caller too, whose error pool.js reports for
 * the whole call.
 *
 * Layout of the buffer (offsets in bytes, each 8-aligned):
 *   control  Int32[2 + parts]   [0] next part to take, [1] inputs ready (0/1), [2 + p] part p's
 *                               state: PENDING (not done), DONE (its rows are in the buffer), FAILED
 *   claimed  Float64[parts]     when part p was taken (timeOrigin + now, ms), 0 until then
 *   stats    Float64[2 · parts] part p's fullyMaskedRows and scratchBytes
 *   q, k, v  Float32            the caller's tensors
 *   outputs  Float32            output (lead, L, Ev), weights and logits (lead, L, S) if asked for
 */

/** Part states (control[2 + p]). */
export const PENDING = 0;
export const DONE = 1;
export const FAILED = 2;

/** How long the caller waits for a part a worker holds: SLOW_PART · the caller's own time for it, plus SLOW_PART_MS. */
export const SLOW_PART = 2;
export const SLOW_PART_MS = 1;

const now = () => performance.timeOrigin + performance.now();
const align8 = (n) => Math.ceil(n / 8) * 8;

/**
 * The buffer of one call and its description for the workers (structured-cloned; the buffer is
 * shared, not copied).
 * @param {{ q: object, k: object, v: object, ranges: Array<[number, number]>, opts: object[], lead: number[], L: number, S: number, Ev: number, names: string[] }} call
 */
export function sharedJob({ q, k, v, ranges, opts, lead, L, S, Ev, names }) {
  const parts = ranges.length;
  const batch = lead.reduce((a, b) => a * b, 1);
  let bytes = 0;
  const place = (length) => {
    const at = bytes;
    bytes = align8(bytes + length * 4);
    return at;
  };
  const control = place(2 + parts);
  const claimed = bytes;
  bytes += 8 * parts;
  const stats = bytes;
  bytes += 16 * parts;
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
  const buffer = new SharedArrayBuffer(bytes);
  return { buffer, control, claimed, stats, inputs, outputs, ranges, opts, L };
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
    control: new Int32Array(buffer, job.control, 2 + parts),
    claimed: new Float64Array(buffer, job.claimed, parts),
    stats: new Float64Array(buffer, job.stats, 2 * parts),
    inputs: Object.fromEntries(Object.entries(job.inputs).map(([n, t]) => [n, tensor(t)])),
    outputs: Object.fromEntries(Object.entries(job.outputs).map(([n, t]) => [n, tensor(t)])),
  };
}

/** Copies the caller's q, k and v into the job's buffer and marks it ready for the workers. */
export function fillJob(views, { q, k, v }) {
  views.inputs.q.data.set(q.data);
  views.inputs.k.data.set(k.data);
  views.inputs.v.data.set(v.data);
  Atomics.store(views.control, 1, 1);
  Atomics.notify(views.control, 1);
}

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

/**
 * A worker's side (worker.js): waits for the inputs, then takes parts until none is left, writing
 * each one's rows and figures into the buffer. Stops at the first part that fails (marked FAILED;
 * the caller computes it again and reports its error); rethrows a trap of the wasm itself.
 * @returns {number} the parts it computed
 */
export function workOnParts(engine, job) {
  const views = openJob(job);
  const { control, claimed, stats, inputs, outputs } = views;
  const parts = job.ranges.length;
  while (Atomics.load(control, 1) === 0) Atomics.wait(control, 1, 0, 1000);
  let done = 0;
  for (;;) {
    const p = Atomics.add(control, 0, 1);
    if (p >= parts) return done;
    claimed[p] = now();
    let result;
    try {
      result = computePart(engine, job, inputs.q, inputs.k, inputs.v, p);
    } catch (error) {
      Atomics.store(control, 2 + p, FAILED);
      Atomics.notify(control, 2 + p);
      if (typeof WebAssembly === 'object' && error instanceof WebAssembly.RuntimeError) throw error;
      return done;
    }
    const [r0, r1] = job.ranges[p];
    for (const name of Object.keys(outputs)) putRows(result[name], outputs[name], r0, r1, job.L);
    stats[2 * p] = result.fullyMaskedRows;
    stats[2 * p + 1] = result.scratchBytes;
    Atomics.store(control, 2 + p, DONE);
    Atomics.notify(control, 2 + p);
    done++;
  }
}

/**
 * The caller's side: takes parts until none is left, computing each into `result` (plain arrays
 * of the whole call's shapes), then gathers the workers' parts from the buffer, computing any
 * part that failed or that a worker holds for too long. Throws the error of a part that fails here.
 * @returns {{ fullyMaskedRows: number, scratchBytes: number, mine: number, taken: number }} mine:
 *   parts this thread computed; taken: of those, parts a worker had taken first
 */
export function callerParts(engine, job, views, { q, k, v }, result) {
  const { control, claimed, stats, outputs } = views;
  const parts = job.ranges.length;
  const flop = job.partFlop;
  let fullyMaskedRows = 0;
  let scratchBytes = 0;
  let msPerFlop = 0; // the caller's own pace in this call
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
    msPerFlop = mineMs / mineFlop;
    const [r0, r1] = job.ranges[p];
    for (const name of Object.keys(outputs)) putRows(r[name], result[name], r0, r1, job.L);
    fullyMaskedRows += r.fullyMaskedRows;
    scratchBytes += r.scratchBytes;
    doneHere[p] = 1;
    mine++;
  };
  for (;;) {
    const p = Atomics.add(control, 0, 1);
    if (p >= parts) break;
    compute(p);
  }
  for (let p = 0; p < parts; p++) {
    if (doneHere[p]) continue;
    let state = Atomics.load(control, 2 + p);
    const seen = now();
    while (state === PENDING) {
      const since = claimed[p] || seen;
      const wait = since + SLOW_PART * flop[p] * (msPerFlop || 1e-7) + SLOW_PART_MS - now();
      if (wait <= 0) break;
      Atomics.wait(control, 2 + p, PENDING, wait);
      state = Atomics.load(control, 2 + p);
    }
    if (state === DONE) {
      const [r0, r1] = job.ranges[p];
      for (const name of Object.keys(outputs)) {
        putRows(rowsOf(outputs[name], r0, r1), result[name], r0, r1, job.L);
      }
      fullyMaskedRows += stats[2 * p];
      scratchBytes += stats[2 * p + 1];
    } else {
      compute(p); // failed, or held too long: the same bits from this thread
      taken++;
    }
  }
  return { fullyMaskedRows, scratchBytes, mine, taken };
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
