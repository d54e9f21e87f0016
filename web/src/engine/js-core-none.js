/**
 * The JS core's stand-in where a build leaves it out (vite.config.js): js-core.js reads `missing`
 * and the engine fails with it, where WebAssembly may not be compiled.
 */
export const missing =
  "this page's Content-Security-Policy refuses WebAssembly (script-src needs 'wasm-unsafe-eval'), and this build of attnbook has no JS core to run instead: allow 'wasm-unsafe-eval', or use the attnbook site build, which has one";
