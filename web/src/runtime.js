/**
 * The page's one engine instance, loaded on first use and shared by every
 * element (the wasm module is instantiated once per page).
 */
import { loadAttention } from './engine/index.js';

let enginePromise;

/** @returns {Promise<import('./engine/index.js').Attention>} */
export function getEngine() {
  enginePromise ??= loadAttention();
  return enginePromise;
}
