/**
 * Loading a wasm build in a browser or a worker, however its .wasm is reached: a URL (a file of
 * the site, or of a bundled app) or a data: URL (the single file and the widgets inline it). No DOM.
 * builds-web.js (the project's own Vite builds) and builds-url.js (the npm package) give it
 * their URLs.
 *
 * The factory gets an instantiateWasm hook, so Emscripten's own loader never runs: a URL is
 * fetched and compiled while it streams; a data: URL is decoded and compiled here at once, never
 * fetched, as fetch(data:) is refused under a strict CSP (connect-src 'self').
 */
import { fromBase64 } from './base64.js';
import { AttentionError } from './errors.js';

/**
 * The module factory of wasm build `name`, its .wasm at `wasmUrl`.
 * @param {'simd' | 'scalar'} name
 * @param {() => Promise<{ default: Function }>} factory imports the Emscripten ES module
 * @param {string} wasmUrl
 * @param {(bytes: Uint8Array) => Uint8Array} [inflate] applied to a data: URL's bytes (gzip)
 * @returns {Promise<() => Promise<object>>}
 */
export async function loadWasmBuild(name, factory, wasmUrl, inflate = (bytes) => bytes) {
  const createModule = (await factory()).default;
  return () =>
    new Promise((resolve, reject) => {
      const fail = (error) =>
        reject(new AttentionError(`could not load the ${name} wasm build: ${error?.message ?? error}`));
      const instantiateWasm = (imports, receiveInstance) => {
        let ready;
        try {
          ready = instantiateInlined(wasmUrl, imports, inflate);
        } catch (error) {
          fail(error);
          return {};
        }
        if (ready) {
          receiveInstance(ready.instance, ready.module);
          return ready.instance.exports;
        }
        instantiate(wasmUrl, imports, inflate).then(({ instance, module }) => receiveInstance(instance, module), fail);
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
function instantiateInlined(url, imports, inflate) {
  if (!url.startsWith('data:')) return null;
  let module;
  try {
    module = new WebAssembly.Module(inflate(decodeDataUrl(url)));
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
async function instantiate(url, imports, inflate) {
  if (url.startsWith('data:')) return WebAssembly.instantiate(inflate(decodeDataUrl(url)), imports);
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
