/**
 * How a page starts the engine's Web Worker: the site build bundles worker.js as
 * a module worker file of its own, served from the site's origin ('self').
 * vite.config.js swaps this file for page-worker-inline.js in the builds that
 * cannot have separate files (the single file, the embeddable widgets).
 */

/** Whether the worker comes from a blob: URL (the page's CSP must allow blob: workers). */
export const fromBlob = false;

/** Options for createWorkerEngine(): none (the worker loads the wasm files itself). */
export const workerOptions = {};

/** @returns {Worker} a worker running worker.js */
export function startWorker() {
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
}
