/**
 * How the pool (pool.js) starts its workers in Node: worker threads running worker-node.js, each
 * wrapped as the Worker-like object worker-client.js takes (addEventListener, postMessage,
 * terminate). A thread that exits without being told to reports an 'error', as a failed Web
 * Worker does. The threads keep Node running until the pool's dispose() ends them. Chosen through package.json "imports" (#pool-workers, "node").
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** Options for createWorkerEngine(): none (the thread loads the wasm itself). */
export const workerOptions = {};

/**
 * Whether pool.attention may compute a share on the calling thread (pool-shared.js): in Node, yes;
 * the thread has no page to keep responsive, and Atomics.wait may block it.
 */
export const callerComputes = true;

/** The cores this machine offers. */
export const cores = () => availableParallelism();

/** @returns {{ addEventListener(type: string, listener: Function): void, postMessage(message: unknown, transfer?: Transferable[]): void, terminate(): void }} */
export function startWorker() {
  const worker = new Worker(new URL('./worker-node.js', import.meta.url));
  const listeners = { message: [], error: [] };
  let ended = false;
  const fail = (message) => {
    if (ended) return;
    ended = true;
    for (const listener of listeners.error) listener({ message });
  };
  worker.on('message', (data) => listeners.message.forEach((listener) => listener({ data })));
  worker.on('error', (error) => fail(error.message));
  worker.on('exit', (code) => fail(`the worker thread exited with code ${code}`));
  return {
    addEventListener(type, listener) {
      listeners[type]?.push(listener);
    },
    postMessage: (message, transfer) => worker.postMessage(message, transfer),
    terminate() {
      ended = true;
      worker.terminate();
    },
  };
}
