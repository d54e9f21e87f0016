/**
 * The JS core's stand-in in the engine worker of the single file and the widgets (vite.config.js):
 * they carry one copy, on the page. Where WebAssembly is refused this worker cannot load, and the
 * page computes on the main thread (web/src/runtime.js falls back when the worker fails to load).
 */
export const missing =
  'this Web Worker carries no JS core (the single file and the widgets keep their one copy on the page) and this page refuses WebAssembly';
