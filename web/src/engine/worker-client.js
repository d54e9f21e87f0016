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
 */
import { AttentionError } from './errors.js';
import { JOB_METHODS, METHODS } from './methods.js';

/**
 * @param {Worker} worker running worker.js
 * @param {{ simd?: 'auto' | boolean }} [options]
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
    if (data.error) call.reject(new AttentionError(data.error.message, { kind: data.error.kind }));
    else call.resolve(data.result);
  });
  worker.addEventListener('error', (event) => {
    const error = new AttentionError(`the engine worker failed: ${event.message ?? 'unknown error'}`);
    pending.forEach((call) => call.reject(error));
    pending.clear();
  });
  const jobIds = new Map(); // job method -> id of its newest run
  const send = (message, onProgress) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject, onProgress });
      if (onProgress !== undefined) jobIds.set(message.method, id);
      worker.postMessage({ ...message, id });
    });

  const { simd } = await send({ method: 'load', options });
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
    ...Object.fromEntries(METHODS.map((method) => [method, call(method)])),
    // long jobs (jobs.js)
    ...Object.fromEntries(JOB_METHODS.map((method) => [method, job(method)])),
    /** Stops the running job of `method` (it rejects with kind 'Cancelled'). */
    cancel: (method) => {
      if (jobIds.has(method)) worker.postMessage({ method: 'cancel', target: jobIds.get(method) });
    },
    terminate: () => worker.terminate(),
  };
}
