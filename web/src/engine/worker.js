/**
 * The engine inside a Web Worker, so heavy calls never stall the page.
 * Messages in:  { id, method, args }   (method: a public method of the engine, or a job)
 *               { id, method: 'load', options }   loads the engine ({ simd, core }) -> { simd, build }
 *               { method: 'cancel', target }      cancels the job with id `target`
 *               { id, method: 'createTrainer' | 'loadTrainer', args: [options | state] }
 *                 -> { trainer: its id, config, task }
 *               { id, method: 'trainer', trainer, op, args }   a method of that trainer (op: step,
 *                 evaluate, sample, predict, setHeadEnabled, parameters, exportState, dispose)
 *               { method: 'serveReplicas', port }   this worker runs copies of the pool leader's trainers on port
 *               { method: 'poolParts', job, thread }   parts of a pool's attention call in shared
 *                 memory, as its thread `thread` (pool-shared.js): no answer (the buffer holds the
 *                 parts), { lost: why } if this worker failed outside a part (its wasm trapped)
 *               { method: 'poolWarmUp', call }   warmUp(engine) -> { poolCall: call, result } or
 *                 { poolCall, error }
 *               { method: 'helper', index, port, minPartMs? }   (the pool's leader) pool worker
 *                 `index` helps on port (null: no more); { method: 'helperLost', index, why }: it is gone
 *               (trainer-parallel.js)
 * Messages out: { id, result } or { id, error: { message, kind, trapped } } (trapped: the wasm
 *               raised a RuntimeError), { lost: why } when a helper's wasm trapped (the pool replaces it),
 *               and for jobs (jobs.js: benchmark, fusedAttention) { id, progress } after every step,
 *               for a trainer's step { id, progress: { done, count, step, loss } } after every chunk.
 * A job started while an older job of the same method runs supersedes it: the
 * older one ends with an error of kind 'Cancelled'. Jobs yield between steps, so
 * other requests are answered while one runs. A trainer's step (trainer-jobs.js) runs in chunks
 * and is cancelled only by its own id: trainers never supersede or cancel each other.
 * Typed arrays in results are transferred, not copied. Start it with
 * createWorkerEngine() from worker-client.js.
 */
import { AttentionError } from './errors.js';
import { JOB_METHODS, METHODS } from './methods.js';

// The engine and the jobs are imported on the first message: the inline builds (the single
// file, the widgets) hand their wasm to the worker in the 'load' message (options.wasmUrls,
// read through self.__attnbookWasmUrls by the module vite.config.js puts in place of the
// .wasm imports), rather than carrying a second copy of it inside the worker.
let modules;
const load = () =>
  (modules ??= Promise.all([
    import('./index.js'),
    import('./jobs.js'),
    import('./trainer-jobs.js'),
    import('./trainer-parallel.js'),
  ]));

const methods = new Set(METHODS);
const jobMethods = new Set(JOB_METHODS);

let engine;
let jobEngines;
let trainers; // the TrainerHost (trainer-jobs.js) of this worker's trainers
const getEngine = async () => (engine ??= await (await load())[0].loadAttention());
let helpers; // the Helpers (trainer-parallel.js) that share this worker's trainers' steps
const getHelpers = async () => (helpers ??= new (await load())[3].Helpers());
const getTrainers = async () => (trainers ??= new (await load())[2].TrainerHost(getEngine, await getHelpers()));
const cancelled = new Set(); // ids of jobs asked to stop
const runningJobs = new Map(); // method -> id of its newest job

function transferables(value, found = []) {
  if (ArrayBuffer.isView(value)) found.push(value.buffer);
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => transferables(v, found));
  return found;
}

async function runJob(id, method, options) {
  const older = runningJobs.get(method);
  if (older !== undefined) cancelled.add(older);
  runningJobs.set(method, id);
  const context = {
    progress: (info) => self.postMessage({ id, progress: info }),
    cancelled: () => cancelled.has(id),
  };
  try {
    const [, { JobEngines, JOBS }] = await load();
    jobEngines ??= new JobEngines();
    return await JOBS[method](jobEngines, options, context);
  } finally {
    cancelled.delete(id);
    if (runningJobs.get(method) === id) runningJobs.delete(method);
  }
}

self.addEventListener('message', async ({ data }) => {
  const { id, method, args = [], options, target } = data ?? {};
  if (method === 'cancel') {
    cancelled.add(target);
    return;
  }
  if (method === 'serveReplicas') {
    // a copy's wasm trapped: the pool (pool.js) replaces this worker
    const onTrap = (why) => self.postMessage({ lost: `its wasm trapped (${why})` });
    (await load())[3].serveReplicas(data.port, getEngine, onTrap);
    return;
  }
  if (method === 'poolParts') {
    // a pool's call in shared memory (pool-shared.js): its head part, then tail parts until none is
    // left; the buffer says what was done, so nothing is answered unless this worker is broken
    try {
      (await import('#pool-shared')).workOnParts(await getEngine(), data.job, data.thread);
    } catch (error) {
      self.postMessage({ lost: `it failed on a part (${error.message})` });
    }
    return;
  }
  if (method === 'poolWarmUp') {
    try {
      self.postMessage({ poolCall: data.call, result: (await import('#pool-shared')).warmUp(await getEngine()) });
    } catch (error) {
      self.postMessage({ poolCall: data.call, error: { message: error.message, kind: error.kind ?? 'Error' } });
    }
    return;
  }
  if (method === 'helper' || method === 'helperLost') {
    const joined = await getHelpers();
    if (method === 'helper') joined.set(data.index, data.port, data.minPartMs);
    else joined.lose(data.index, data.why);
    return;
  }
  try {
    if (method === 'load') {
      const { wasmUrls, ...engineOptions } = options ?? {};
      if (wasmUrls) self.__attnbookWasmUrls = wasmUrls;
      const [{ loadAttention }] = await load();
      engine = await loadAttention(engineOptions);
      self.postMessage({ id, result: { simd: engine.simd, build: engine.build } });
      return;
    }
    if (jobMethods.has(method)) {
      const result = await runJob(id, method, args[0]);
      self.postMessage({ id, result }, transferables(result));
      return;
    }
    if (method === 'createTrainer' || method === 'loadTrainer') {
      self.postMessage({ id, result: await (await getTrainers())[method](args[0]) });
      return;
    }
    if (method === 'trainer') {
      const context = {
        progress: (info) => self.postMessage({ id, progress: info }),
        cancelled: () => cancelled.has(id),
      };
      let result;
      try {
        result = await (await getTrainers()).run(data.trainer, data.op, args, context);
      } finally {
        cancelled.delete(id);
      }
      self.postMessage({ id, result }, transferables(result));
      return;
    }
    if (!methods.has(method)) throw new AttentionError(`the worker has no method ${JSON.stringify(method)}`);
    const result = (await getEngine())[method](...args);
    self.postMessage({ id, result }, transferables(result));
  } catch (error) {
    // trapped: the wasm itself failed (a RuntimeError), so this worker's engine is not to be trusted
    const trapped = typeof WebAssembly === 'object' && error instanceof WebAssembly.RuntimeError;
    self.postMessage({ id, error: { message: error.message, kind: error.kind ?? 'Error', trapped } });
  }
});
