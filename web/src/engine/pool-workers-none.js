/**
 * The pool's workers inside the engine's own worker bundle (vite.config.js): none. A worker does
 * not start a pool of workers; the page does.
 */
export const workerOptions = {};
export const cores = () => 1;
export const callerComputes = false;
export function startWorker() {
  throw new Error('a pool is made by the page, not inside the engine worker');
}
