/**
 * engine/worker.js inside a Node worker thread (pool-workers-node.js starts it): the worker's
 * `self` is this thread's global, its messages those of parentPort (structured clone, ArrayBuffers
 * transferred), as in a Web Worker.
 */
import { isMainThread, parentPort } from 'node:worker_threads';

if (!isMainThread) {
  globalThis.self = globalThis;
  globalThis.addEventListener = (type, listener) => {
    if (type === 'message') parentPort.on('message', (data) => listener({ data }));
  };
  globalThis.postMessage = (message, transfer) => parentPort.postMessage(message, transfer);
  await import('./worker.js');
}
