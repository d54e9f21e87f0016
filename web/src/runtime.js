/**
 * The page's engines, each loaded on first use and shared by every element:
 *
 * - getEngine(): the wasm engine on the main thread, for lesson-sized updates
 *   (a drag, a slider step: microseconds, answered synchronously). A load that
 *   failed is started again by the next call.
 * - getWorkerEngine(): the same engine in a Web Worker, for heavy work (large
 *   matrices, many random draws, benchmarks), so input never stalls. Every method
 *   returns a promise; long jobs (benchmark, fusedAttention) report progress and
 *   a newer one supersedes an older one (see engine/worker-client.js); createTrainer and
 *   loadTrainer resolve to trainer handles whose step runs in chunks with progress and cancel
 *   (engine/trainer-handle.js).
 *   If no worker can start (no Worker support, a Content-Security-Policy without
 *   blob: workers for the inline builds, a worker that fails to load), it is the
 *   main-thread engine behind the same promise API, with inWorker = false and
 *   fallbackReason saying why (no console error: the CSP is read, not tripped).
 * - getPool(): a pool of workers, one per core (engine/pool.js), for calls that use every core.
 */
import { METHODS, loadAttention } from './engine/index.js';
import { JobEngines, JOBS } from './engine/jobs.js';
import { localTrainers } from './engine/trainer-jobs.js';
import { fromBlob, startWorker, workerOptions } from './engine/page-worker.js';
import { createWorkerEngine } from './engine/worker-client.js';
import { pageAllows } from './page-policy.js';

let enginePromise;
let workerPromise;

/** @returns {Promise<import('./engine/index.js').Attention>} */
export function getEngine() {
  enginePromise ??= loadAttention().catch((error) => {
    enginePromise = undefined; // the next call (a cell's Retry) loads it again
    throw error;
  });
  return enginePromise;
}

/**
 * The engine in the page's Web Worker (or its main-thread stand-in).
 * @returns {Promise<object>} every Attention method as a promise, the jobs, and
 *   { inWorker: boolean, fallbackReason?: string, simd: boolean, build: 'simd' | 'scalar' | 'js' }
 */
export function getWorkerEngine() {
  workerPromise ??= startWorkerEngine();
  return workerPromise;
}

let poolPromise;

/**
 * The page's pool of workers (engine/pool.js: one per core, attention split across them), made on
 * first use. Resolves to { pool } or, where no worker may start (the reasons getWorkerEngine falls
 * back for), { pool: null, why }.
 * @returns {Promise<{ pool: import('./engine/pool.js').Pool | null, why?: string }>}
 */
export function getPool() {
  poolPromise ??= (async () => {
    const blocker = await workerBlocker();
    if (blocker) return { pool: null, why: blocker };
    try {
      return { pool: await (await getEngine()).createPool({ threads: 'auto' }) };
    } catch (error) {
      return { pool: null, why: error.message };
    }
  })();
  return poolPromise;
}

/** A short text for the UI: where the heavy work runs, and by the JS core where WebAssembly is refused. */
export function whereComputed(engine) {
  const core = engine.build === 'js' ? ' by the JS core (this page refuses WebAssembly: more slowly)' : '';
  return engine.inWorker
    ? `computed in a Web Worker${core}`
    : `computed on the main thread${core} (${engine.fallbackReason}); the page may pause during long runs`;
}

const START_TIMEOUT_MS = 20000;

async function startWorkerEngine() {
  const blocker = await workerBlocker();
  if (blocker) return mainThreadEngine(blocker);
  let worker;
  try {
    worker = startWorker();
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('it did not answer')), START_TIMEOUT_MS);
    });
    const engine = await Promise.race([createWorkerEngine(worker, workerOptions), timeout]).finally(() =>
      clearTimeout(timer),
    );
    return engine;
  } catch (error) {
    worker?.terminate();
    return mainThreadEngine(`the Web Worker could not start: ${error.message}`);
  }
}

/** Why a worker cannot start here, or '' when it can (asked once: the page's policy does not change). */
let blockerPromise;
const workerBlocker = () => (blockerPromise ??= findWorkerBlocker());

async function findWorkerBlocker() {
  if (typeof Worker !== 'function') return 'this browser has no Web Workers';
  if (!fromBlob) return ''; // a same-origin worker file: allowed wherever the page's own scripts are
  // a worker from a blob: URL is governed by worker-src, else child-src, script-src, default-src
  return (await pageAllows(['worker-src', 'child-src', 'script-src', 'default-src'], 'blob:'))
    ? ''
    : "this page's Content-Security-Policy does not allow blob: workers (worker-src blob:)";
}

/** The main-thread engine behind the worker engine's promise API. */
async function mainThreadEngine(reason) {
  const engine = await getEngine();
  const jobEngines = new JobEngines();
  const newest = new Map(); // job method -> token of its newest run
  const wrapped = { inWorker: false, fallbackReason: reason, simd: engine.simd, build: engine.build };
  for (const method of METHODS) wrapped[method] = async (...args) => engine[method](...args);
  for (const method of Object.keys(JOBS)) {
    wrapped[method] = async (options, { onProgress = null } = {}) => {
      const token = {};
      newest.set(method, token);
      const context = { progress: (info) => onProgress?.(info), cancelled: () => newest.get(method) !== token };
      return JOBS[method](jobEngines, options, context);
    };
  }
  Object.assign(
    wrapped,
    localTrainers(async () => engine),
  ); // trainers as the worker holds them
  wrapped.cancel = (method) => newest.set(method, {});
  wrapped.terminate = () => {};
  return wrapped;
}
