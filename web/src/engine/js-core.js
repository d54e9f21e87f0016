/**
 * Loading the JS core: the scalar build compiled to JavaScript by Emscripten's wasm2js (-sWASM=0,
 * wasm/CMakeLists.txt), the same C++ as the wasm builds. index.js loads it where WebAssembly may not
 * be compiled (features.js wasmCompiles: a Content-Security-Policy without 'wasm-unsafe-eval'),
 * through a dynamic import(), so a bundle keeps it in a chunk of its own that only such pages fetch.
 * No DOM. A build that leaves it out (vite.config.js: a core over the single file's budget, or the
 * inline worker) imports js-core-none.js (or js-core-none-worker.js) in its place, whose `missing`
 * says why.
 */
import { AttentionError } from './errors.js';

/**
 * The module factory of the JS core, from its imported ES module.
 * @param {() => Promise<{ default?: () => Promise<object>, missing?: string }>} importCore
 * @returns {Promise<() => Promise<object>>}
 */
export async function loadJsCore(importCore) {
  let imported;
  try {
    imported = await importCore();
  } catch (error) {
    throw new AttentionError(`could not load the JS core: ${error?.message ?? error}`);
  }
  if (imported.missing) throw new AttentionError(imported.missing);
  return imported.default;
}
