/**
 * How the single file and the embeddable widgets start the engine's Web Worker:
 * worker.js bundled (with the wasm) into a classic script inlined in this bundle,
 * started from a blob: URL (Vite's `?worker&inline`). vite.config.js uses this
 * file in place of page-worker.js in those builds.
 */
import InlineWorker from './worker.js?worker&inline';

/** Whether the worker comes from a blob: URL (the page's CSP must allow blob: workers). */
export const fromBlob = true;

/** @returns {Worker} a worker running worker.js */
export function startWorker() {
  return new InlineWorker();
}
