/**
 * The wasm builds as the project's own Vite builds load them (vite.config.js points #wasm-builds
 * here): ES module factories (ENVIRONMENT=web,worker), each with its .wasm beside it.
 * The npm package's browsers and bundlers take builds-url.js instead (package.json "imports").
 *
 * Vite turns each `.wasm?url` import into either a file URL (the site) or a data: URL (the single
 * file and the embeddable widgets inline every asset: the SIMD wasm as it is, the scalar one
 * gzipped, which is inflated here; see vite.config.js). wasm-loader.js instantiates either.
 * The JS core ('js': wasm2js, for pages that refuse WebAssembly) is a dynamic import: a chunk of its
 * own in the site, inlined in the single file and the widgets, or js-core-none.js where a build
 * leaves it out (vite.config.js).
 */
import simdWasmUrl from '../../../build/wasm-simd/module/attnbook-wasm.web.wasm?url';
import scalarWasmUrl from '../../../build/wasm-scalar/module/attnbook-wasm.web.wasm?url';
import { gunzipIfNeeded } from './gzip.js';
import { loadJsCore } from './js-core.js';
import { loadWasmBuild } from './wasm-loader.js';

// One JS loader for both: the two links differ only in their .wasm (scripts/build.mjs checks that the
// loaders are byte-identical), so bundles carry it once.
const factory = () => import('../../../build/wasm-simd/module/attnbook-wasm.web.mjs');
const urls = { simd: simdWasmUrl, scalar: scalarWasmUrl };

const jsCore = () => import('../../../build/wasm-scalar/module/attnbook-js.web.mjs');

/** @param {'simd' | 'scalar' | 'js'} name @returns {Promise<() => Promise<object>>} the module factory */
export const loadBuild = (name) =>
  name === 'js' ? loadJsCore(jsCore) : loadWasmBuild(name, factory, urls[name], gunzipIfNeeded);
