/**
 * What builds for browsers take for pool-shared.js (package.json "imports", #pool-shared,
 * "default"): nothing. The shared-memory way runs only where the calling thread may compute parts
 * (pool-workers-node.js callerComputes), which a page's never does (its frames come first), so a
 * browser bundle need not carry it. Calling any of these is a bug: each says so.
 */
const nodeOnly = (name) => () => {
  throw new Error(`${name}: the pool's shared-memory way runs in Node only (pool-shared.js)`);
};

export const NEXT = 0;
export const sharedJob = nodeOnly('sharedJob');
export const openJob = nodeOnly('openJob');
export const fillJob = nodeOnly('fillJob');
export const callerParts = nodeOnly('callerParts');
export const released = nodeOnly('released');
export const warmUp = nodeOnly('warmUp');
export const workOnParts = nodeOnly('workOnParts');
