/**
 * The engine inside a Web Worker, so heavy calls never stall the page.
 * Messages in:  { id, method, args }   (method: a public method of the engine)
 * Messages out: { id, result } or { id, error: { message, kind } }
 * Typed arrays in results are transferred, not copied. Start it with
 * createWorkerEngine() from worker-client.js.
 */
import { AttentionError, loadAttention } from './index.js';

const METHODS = new Set([
  'softmax',
  'attention',
  'attentionReference',
  'convexCombination',
  'rowStochasticReport',
  'splitHeads',
  'mergeHeads',
  'randn',
  'dirichlet',
  'convexHull',
  'pointsInHull',
  'entropy',
  'effectivePositions',
  'scalingStatistics',
  'memory',
]);

let engine;

function transferables(value, found = []) {
  if (ArrayBuffer.isView(value)) found.push(value.buffer);
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => transferables(v, found));
  return found;
}

self.addEventListener('message', async ({ data }) => {
  const { id, method, args = [], options } = data ?? {};
  try {
    if (method === 'load') {
      engine = await loadAttention(options);
      self.postMessage({ id, result: { simd: engine.simd } });
      return;
    }
    if (!METHODS.has(method)) throw new AttentionError(`the worker has no method ${JSON.stringify(method)}`);
    engine ??= await loadAttention();
    const result = engine[method](...args);
    self.postMessage({ id, result }, transferables(result));
  } catch (error) {
    self.postMessage({ id, error: { message: error.message, kind: error.kind ?? 'Error' } });
  }
});
