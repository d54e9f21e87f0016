/**
 * The main-thread side of worker.js: every engine method as a promise.
 *
 *   const engine = await createWorkerEngine(new Worker(url, { type: 'module' }));
 *   const { output } = await engine.attention(q, k, v, { mask: 'causal' });
 *   engine.terminate();
 *
 * The caller creates the Worker (bundlers need to see `new Worker(new URL(...))`
 * or their worker import syntax to bundle it). Errors reject with AttentionError.
 */
import { AttentionError } from './errors.js';

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
    pending.delete(data.id);
    if (data.error) call.reject(new AttentionError(data.error.message, { kind: data.error.kind }));
    else call.resolve(data.result);
  });
  worker.addEventListener('error', (event) => {
    const error = new AttentionError(`the engine worker failed: ${event.message ?? 'unknown error'}`);
    pending.forEach((call) => call.reject(error));
    pending.clear();
  });
  const send = (message) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });

  const { simd } = await send({ method: 'load', options });
  const call =
    (method) =>
    (...args) =>
      send({ method, args });
  return {
    simd,
    softmax: call('softmax'),
    attention: call('attention'),
    attentionReference: call('attentionReference'),
    convexCombination: call('convexCombination'),
    rowStochasticReport: call('rowStochasticReport'),
    splitHeads: call('splitHeads'),
    mergeHeads: call('mergeHeads'),
    randn: call('randn'),
    dirichlet: call('dirichlet'),
    convexHull: call('convexHull'),
    pointsInHull: call('pointsInHull'),
    entropy: call('entropy'),
    effectivePositions: call('effectivePositions'),
    scalingStatistics: call('scalingStatistics'),
    memory: call('memory'),
    terminate: () => worker.terminate(),
  };
}
