/**
 * `attnbook/worker`: the engine's worker (worker.js; in Node, worker-node.js for worker_threads).
 * Import it from a worker file of your app and drive it with createWorkerEngine from
 * 'attnbook/worker-client'. It exports nothing.
 */
export {};
