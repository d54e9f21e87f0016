/**
 * How the pool (pool.js) starts its workers in a browser: as the page starts its engine worker
 * (page-worker.js: a module worker file in the site, a blob: worker in the single file and the
 * widgets). Chosen through package.json "imports" (#pool-workers, "default").
 */
export { startWorker, workerOptions } from './page-worker.js';

/** The cores this device offers (navigator.hardwareConcurrency; 1 when it does not say). */
export const cores = () => globalThis.navigator?.hardwareConcurrency || 1;

/** Whether pool.attention may compute on the calling thread: not on a page, whose frames it would hold up. */
export const callerComputes = false;
