/**
 * The main-thread side of worker.js: every engine method as a promise.
 *
 *   const engine = await createWorkerEngine(new Worker(url, { type: 'module' }));
 *   const { output } = await engine.attention(q, k, v, { mask: 'causal' });
 *   engine.terminate();
 *
 * The caller creates the Worker (bundlers need to see `new Worker(new URL(...))`
 * or their worker import syntax to bundle it). Errors reject with AttentionError.
 *
 * Long jobs (jobs.js) take (options, { onProgress }) and report each step:
 *   await engine.benchmark({ sizes: [256] }, { onProgress: ({ done, steps }) => … });
 * A newer job of the same method supersedes an older one, which rejects with an
 * AttentionError of kind 'Cancelled'; engine.cancel('benchmark') stops it outright.
 *
 * Trainers live in the worker: engine.createTrainer(options) and engine.loadTrainer(state) resolve
 * to a handle (trainer-handle.js) whose methods are promises; its step(count, { onProgress,
 * signal }) runs in chunks, reports { done, count, step, loss }, and is cancelled by the signal or
 * handle.cancel() (kind 'Cancelled', the trainer left at the last completed step).
 */
import { AttentionError } from './errors.js';
import { JOB_METHODS, METHODS } from './methods.js';
import { withDefaultText } from './text-default.js';
import { trainerHandle } from './trainer-handle.js';

/**
 * @param {Worker} worker running worker.js
 * @param {{ simd?: 'auto' | boolean, core?: 'auto' | 'wasm' | 'js' }} [options] loadAttention's, for the worker's engine
 */
export async function createWorkerEngine(worker, options = {}) {
  let next = 0;
  const pending = new Map();
  worker.addEventListener('message', ({ data }) => {
    const call = pending.get(data.id);
    if (!call) return;
    if (data.progress) {
      call.onProgress?.(data.progress);
      return;
    }
    pending.delete(data.id);
    if (data.error) {
      const error = new AttentionError(data.error.message, { kind: data.error.kind });
      if (data.error.trapped) error.trapped = true; // the worker's wasm failed: the pool replaces it
      call.reject(error);
    } else call.resolve(data.result);
  });
  worker.addEventListener('error', (event) => {
    const error = new AttentionError(`the engine worker failed: ${event.message ?? 'unknown error'}`);
    pending.forEach((call) => call.reject(error));
    pending.clear();
  });
  const jobIds = new Map(); // job method -> id of its newest run
  /** Posts a request; returns its id and the promise of its answer. */
  const post = (message, onProgress) => {
    const id = next++;
    const promise = new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, onProgress });
      worker.postMessage({ ...message, id });
    });
    return { id, promise };
  };
  const send = (message, onProgress) => {
    const { id, promise } = post(message, onProgress);
    if (onProgress !== undefined) jobIds.set(message.method, id);
    return promise;
  };
  // a trainer in the worker, as a handle: its calls go to the worker's TrainerHost, its step's
  // cancel names that one call's id
  const connect = (info) =>
    trainerHandle(info, {
      request: (op, args, onProgress) => post({ method: 'trainer', trainer: info.trainer, op, args }, onProgress),
      cancel: (id) => worker.postMessage({ method: 'cancel', target: id }),
    });

  const { simd, build } = await send({ method: 'load', options });
  const call =
    (method) =>
    (...args) =>
      send({ method, args });
  const job =
    (method) =>
    (options, { onProgress = null } = {}) =>
      send({ method, args: [options] }, onProgress);
  return {
    inWorker: true,
    simd,
    build,
    ...Object.fromEntries(METHODS.map((method) => [method, call(method)])),
    // long jobs (jobs.js)
    ...Object.fromEntries(JOB_METHODS.map((method) => [method, job(method)])),
    // trainers (trainer-handle.js)
    createTrainer: async (options) =>
      connect(await send({ method: 'createTrainer', args: [withDefaultText(options)] })),
    loadTrainer: async (state) => connect(await send({ method: 'loadTrainer', args: [state] })),
    /** Stops the running job of `method` (it rejects with kind 'Cancelled'). */
    cancel: (method) => {
      if (jobIds.has(method)) worker.postMessage({ method: 'cancel', target: jobIds.get(method) });
    },
    terminate: () => worker.terminate(),
  };
}
