/**
 * The wasm builds as browsers and workers load them: ES module factories
 * (ENVIRONMENT=web,worker) bundled by Vite, each with its .wasm beside it.
 * Chosen through package.json "imports" (#wasm-builds, "default").
 *
 * Vite turns each `.wasm?url` import into either a file URL (the site) or a
 * data: URL (the single file and the embeddable widgets inline every asset:
 * the SIMD wasm as it is, the scalar one gzipped; see vite.config.js).
 * The factory gets an instantiateWasm hook, so Emscripten's own loader never
 * runs: a URL is fetched and compiled while it streams; a data: URL is decoded
 * and compiled here at once, never fetched, as fetch(data:) is refused under a
 * strict CSP (connect-src 'self').
 */
import simdWasmUrl from '../../../build/wasm-simd/module/attnbook-wasm.web.wasm?url';
import scalarWasmUrl from '../../../build/wasm-scalar/module/attnbook-wasm.web.wasm?url';
import { AttentionError } from './errors.js';
import { fromBase64, gunzipIfNeeded } from './gzip.js';

// One JS loader for both: the two links differ only in their .wasm (scripts/build.mjs checks that the
// loaders are byte-identical), so bundles carry it once.
const factory = () => import('../../../build/wasm-simd/module/attnbook-wasm.web.mjs');
const builds = {
  simd: { factory, wasmUrl: simdWasmUrl },
  scalar: { factory, wasmUrl: scalarWasmUrl },
};

/** @param {'simd' | 'scalar'} name @returns {Promise<() => Promise<object>>} the module factory */
export async function loadBuild(name) {
  const { factory, wasmUrl } = builds[name];
  const createModule = (await factory()).default;
  return () =>
    new Promise((resolve, reject) => {
      const fail = (error) =>
        reject(new AttentionError(`could not load the ${name} wasm build: ${error?.message ?? error}`));
      const instantiateWasm = (imports, receiveInstance) => {
        let ready;
        try {
          ready = instantiateInlined(wasmUrl, imports);
        } catch (error) {
          fail(error);
          return {};
        }
        if (ready) {
          receiveInstance(ready.instance, ready.module);
          return ready.instance.exports;
        }
        instantiate(wasmUrl, imports).then(({ instance, module }) => receiveInstance(instance, module), fail);
        return {}; // the exports arrive later, through receiveInstance
      };
      createModule({ instantiateWasm }).then(resolve, reject);
    });
}

/**
 * An inlined wasm (a data: URL), compiled and instantiated at once, or null when
 * `url` is not a data: URL or this browser refuses to compile it synchronously
 * here (older ones allow only tiny modules on the main thread; then the
 * asynchronous path takes it). At once because this is the first lesson's
 * critical path: V8 compiles each function when it is first called, so
 * compiling is only decoding and checking (a few milliseconds), while an
 * asynchronous compile's result waits behind the page's first frame before
 * the cells get the engine.
 * @returns {WebAssembly.WebAssemblyInstantiatedSource | null}
 */
function instantiateInlined(url, imports) {
  if (!url.startsWith('data:')) return null;
  let module;
  try {
    module = new WebAssembly.Module(gunzipIfNeeded(decodeDataUrl(url)));
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
  return { module, instance: new WebAssembly.Instance(module, imports) };
}

/**
 * Compiles and instantiates the wasm at `url`, asynchronously.
 * @param {string} url a data: URL, or an http(s)/relative URL of the same origin
 * @param {WebAssembly.Imports} imports
 * @returns {Promise<WebAssembly.WebAssemblyInstantiatedSource>}
 */
async function instantiate(url, imports) {
  if (url.startsWith('data:')) return WebAssembly.instantiate(gunzipIfNeeded(decodeDataUrl(url)), imports);
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  // Streaming compilation needs the server to say application/wasm; otherwise read it whole.
  const type = response.headers.get('Content-Type') ?? '';
  if (typeof WebAssembly.instantiateStreaming === 'function' && type.split(';')[0].trim() === 'application/wasm') {
    return WebAssembly.instantiateStreaming(response, imports);
  }
  return WebAssembly.instantiate(await response.arrayBuffer(), imports);
}

/** The bytes of a base64 data: URL. @param {string} url @returns {Uint8Array} */
function decodeDataUrl(url) {
  const comma = url.indexOf(',');
  if (comma < 0 || !url.slice(0, comma).endsWith(';base64')) throw new Error('the wasm data: URL is not base64');
  return fromBase64(url.slice(comma + 1));
}
