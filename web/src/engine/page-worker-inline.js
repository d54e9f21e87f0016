/**
 * How the single file and the embeddable widgets start the engine's Web Worker:
 * worker.js bundled (with the wasm) into a classic script inlined in this bundle,
 * started from a blob: URL (Vite's `?worker&inline`). vite.config.js uses this
 * file in place of page-worker.js in those builds. The worker carries no wasm of its
 * own: it gets the page's (the same data: URLs builds-web.js loads) in its 'load'
 * message, as workerOptions.wasmUrls.
 */
import simdWasmUrl from '../../../build/wasm-simd/module/attnbook-wasm.web.wasm?url';
import scalarWasmUrl from '../../../build/wasm-scalar/module/attnbook-wasm.web.wasm?url';
import InlineWorker from './worker.js?worker&inline';

/** Whether the worker comes from a blob: URL (the page's CSP must allow blob: workers). */
export const fromBlob = true;

/** Options for createWorkerEngine(): the wasm builds, handed to the worker. */
export const workerOptions = { wasmUrls: { simd: simdWasmUrl, scalar: scalarWasmUrl } };

/** @returns {Worker} a worker running worker.js */
export function startWorker() {
  return new InlineWorker();
}
