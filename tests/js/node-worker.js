// web/src/engine/worker.js inside a Node worker thread, for tests: the worker's `self` is this
// thread's global, its messages those of parentPort (structured clone, ArrayBuffers transferred).
// Start it with nodeWorker() below, which gives the Worker-like object createWorkerEngine() takes.
import { Worker, isMainThread, parentPort } from 'node:worker_threads';

/** A Worker running engine/worker.js, as createWorkerEngine() uses one (addEventListener, postMessage). */
export function nodeWorker() {
  const worker = new Worker(new URL(import.meta.url));
  return {
    addEventListener(type, listener) {
      if (type === 'message') worker.on('message', (data) => listener({ data }));
      if (type === 'error') worker.on('error', (error) => listener({ message: error.message }));
    },
    postMessage: (message, transfer) => worker.postMessage(message, transfer),
    terminate: () => worker.terminate(),
  };
}

if (!isMainThread) {
  globalThis.self = globalThis;
  globalThis.addEventListener = (type, listener) => {
    if (type === 'message') parentPort.on('message', (data) => listener({ data }));
  };
  globalThis.postMessage = (message, transfer) => parentPort.postMessage(message, transfer);
  await import('../../web/src/engine/worker.js');
}
