/**
 * Which core loadAttention() loads (index.js), from its options: 'simd' or 'scalar' (WebAssembly)
 * or 'js' (the JS core: the same C++ compiled to JavaScript by wasm2js, for runtimes that may not
 * compile WebAssembly, features.js wasmCompiles), and loading it (loadCore). Options it cannot
 * honour are AttentionErrors that say which to use instead. No DOM.
 */
import { loadBuild } from '#wasm-builds';
import { AttentionError, describe } from './errors.js';
import { simdSupported, wasmCompiles } from './features.js';
import { optionsObject } from './options.js';
import { loadDefaultText } from './text-default.js';

/**
 * The core loadAttention's `options` ask for, instantiated: { module, build }. Meanwhile the text
 * task's default corpus, where a build inflates it (text-default-gzip.js).
 */
export async function loadCore(options) {
  const build = buildToLoad(options);
  const [module] = await Promise.all([loadBuild(build).then((factory) => factory()), loadDefaultText()]);
  return { module, build };
}

/**
 * @param {{ simd?: 'auto' | boolean, core?: 'auto' | 'wasm' | 'js' } | undefined} options loadAttention's
 * @returns {'simd' | 'scalar' | 'js'}
 */
export function buildToLoad(options) {
  const { simd = 'auto', core = 'auto' } = optionsObject(options, 'loadAttention', "{ simd: 'auto' }");
  if (simd !== 'auto' && typeof simd !== 'boolean') {
    throw new AttentionError(`loadAttention: simd must be 'auto', true or false, got ${describe(simd)}`, {
      kind: 'TypeError',
    });
  }
  if (core !== 'auto' && core !== 'wasm' && core !== 'js') {
    throw new AttentionError(`loadAttention: core must be 'auto', 'wasm' or 'js', got ${describe(core)}`, {
      kind: 'TypeError',
    });
  }
  return chooseBuild(simd, core);
}

/** Which build loadAttention loads: 'simd' | 'scalar' (wasm) or 'js' (the JS core). */
function chooseBuild(simd, core) {
  if (core === 'js') {
    if (simd === true)
      throw new AttentionError("loadAttention: the JS core has no SIMD; use { simd: 'auto' } or false");
    return 'js';
  }
  if (!wasmCompiles()) {
    const why = 'this runtime may not compile WebAssembly';
    if (core === 'wasm' || simd === true) {
      throw new AttentionError(
        `loadAttention: ${why} (a Content-Security-Policy needs script-src 'wasm-unsafe-eval'); use { core: 'auto' } for the JS core`,
      );
    }
    return 'js';
  }
  if (simd === true && !simdSupported()) {
    throw new AttentionError('loadAttention: this runtime has no WebAssembly SIMD; use { simd: false } or "auto"');
  }
  return (simd === 'auto' ? simdSupported() : simd) ? 'simd' : 'scalar';
}
