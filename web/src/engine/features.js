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
