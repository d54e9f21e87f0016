// The JS core (build/wasm-scalar/module/attnbook-js.web.mjs: the C++ core compiled to JavaScript
// by wasm2js, for pages whose Content-Security-Policy refuses WebAssembly) and the rule for the
// builds that cannot fetch it as a chunk of its own (vite.config.js): the single file and the
// widgets inline it only while it fits JS_CORE_BUDGET gzipped.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from './lib.mjs';

/** The most the JS core may weigh, gzipped, to go into dist/attnbook.html and attn-widgets.js. */
export const JS_CORE_BUDGET = 300 * 1024;

export const jsCoreFile = path.join(root, 'build', 'wasm-scalar', 'module', 'attnbook-js.web.mjs');

/** The JS core's size gzipped (level 9), in bytes; null when it is not built. */
export function jsCoreGzipBytes() {
  return existsSync(jsCoreFile) ? gzipSync(readFileSync(jsCoreFile), { level: 9 }).length : null;
}

/** Whether the builds without chunks inline the JS core: it is built and fits JS_CORE_BUDGET. */
export const inlinesJsCore = () => (jsCoreGzipBytes() ?? Infinity) <= JS_CORE_BUDGET;
