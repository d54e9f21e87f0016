/**
 * The wasm builds as the npm package loads them in browsers and workers, bundled or not (package.json
 * "imports": #wasm-builds, "default"): each .wasm found with `new URL('…', import.meta.url)`, which
 * Vite and webpack 5 follow with no configuration (they copy the file and rewrite the URL; Rollup
 * and esbuild with an asset plugin) and which works unbundled too. No bundler-specific import.
 * wasm-loader.js instantiates it. The JS core ('js': wasm2js, for pages that refuse WebAssembly) is
 * a dynamic import, which bundlers split into a chunk fetched only by such pages.
 */
import { loadJsCore } from './js-core.js';
import { loadWasmBuild } from './wasm-loader.js';

// One JS loader for both: the two links differ only in their .wasm (scripts/build.mjs checks it).
const factory = () => import('../../../build/wasm-simd/module/attnbook-wasm.web.mjs');
const urls = {
  simd: () => new URL('../../../build/wasm-simd/module/attnbook-wasm.web.wasm', import.meta.url).href,
  scalar: () => new URL('../../../build/wasm-scalar/module/attnbook-wasm.web.wasm', import.meta.url).href,
};

const jsCore = () => import('../../../build/wasm-scalar/module/attnbook-js.web.mjs');

/** @param {'simd' | 'scalar' | 'js'} name @returns {Promise<() => Promise<object>>} the module factory */
export const loadBuild = (name) => (name === 'js' ? loadJsCore(jsCore) : loadWasmBuild(name, factory, urls[name]()));
