/**
 * The engine's method names: the one list that the Attention class (index.js), the worker
 * (worker.js), its client (worker-client.js), the page's main-thread stand-in (runtime.js) and
 * the type test (tests/js/types.test.js) all read. A method added to the class is added here,
 * in index.d.ts and in the bad-input matrix; the tests fail until all four agree.
 * No imports: the worker client reads this list without loading the wasm engine.
 */

/** The synchronous methods of an Attention engine, in the order index.d.ts declares them. */
export const METHODS = Object.freeze([
  'softmax',
  'softmaxReference',
  'scores',
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
  'trainingTasks',
  'createTrainer',
  'loadTrainer',
  'memory',
]);

/**
 * Methods of the Attention class that only the caller's own engine has, not the worker: createPool
 * (async) starts workers, which the engine's worker does not do (a pool is made by the page, or by
 * Node's main thread). index.d.ts declares them after METHODS.
 */
export const PAGE_METHODS = Object.freeze(['createPool']);

/** The long jobs (jobs.js JOBS): they take (options, { onProgress }) and can be cancelled. */
export const JOB_METHODS = Object.freeze(['benchmark', 'fusedAttention']);
