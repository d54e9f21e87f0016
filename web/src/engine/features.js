/**
 * Runtime feature detection for choosing a wasm build.
 */

// (module (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt)): valid only where SIMD128 is.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

/** True when this JS runtime's WebAssembly supports the SIMD128 proposal. */
export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

// (module): the smallest module, 8 bytes. Compiling it, not validating it: a Content-Security-Policy
// without 'wasm-unsafe-eval' lets WebAssembly.validate through but refuses every compilation
// ("Wasm code generation disallowed by embedder").
const EMPTY_MODULE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
let compiles;

/**
 * True when this runtime may compile WebAssembly: false where there is none, or where the page's
 * Content-Security-Policy refuses it (script-src without 'wasm-unsafe-eval'). Asked once per realm
 * (a page, a worker): the policy does not change. Where it refuses, the browser reports one CSP
 * violation for this probe, and the engine loads the JS core instead (index.js).
 */
export function wasmCompiles() {
  if (compiles === undefined) {
    try {
      compiles = new WebAssembly.Module(EMPTY_MODULE) instanceof WebAssembly.Module;
    } catch {
      compiles = false;
    }
  }
  return compiles;
}
