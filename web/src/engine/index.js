/**
 * attnbook engine: a small typed API over the attention core compiled to
 * WebAssembly. No DOM; works in Node 20, browsers and Web Workers.
 *
 *   import { loadAttention } from 'attnbook';
 *   const attn = await loadAttention();            // { simd: 'auto' | true | false }
 *   attn.softmax([1.2, 4.5, 2, 0.8], { temperature: 1 });
 *   // -> { data: Float32Array [0.0322, 0.8744, 0.0718, 0.0216], shape: [4] }
 *
 * Every bad input throws an AttentionError; the module stays usable after it.
 */
import { loadBuild } from '#wasm-builds';
import { AttentionError, describe } from './errors.js';
import { simdSupported } from './features.js';
import { toTensor } from './tensor.js';

export { AttentionError, simdSupported };

/**
 * Loads the wasm module and returns the engine.
 * @param {{ simd?: 'auto' | boolean }} [options] which build: SIMD128, scalar, or the best this runtime supports
 * @returns {Promise<Attention>}
 */
export async function loadAttention({ simd = 'auto' } = {}) {
  if (simd !== 'auto' && typeof simd !== 'boolean') {
    throw new AttentionError(`loadAttention: simd must be 'auto', true or false, got ${describe(simd)}`, {
      kind: 'TypeError',
    });
  }
  if (simd === true && !simdSupported()) {
    throw new AttentionError('loadAttention: this runtime has no WebAssembly SIMD; use { simd: false } or "auto"');
  }
  const useSimd = simd === 'auto' ? simdSupported() : simd;
  const factory = await loadBuild(useSimd ? 'simd' : 'scalar');
  return new Attention(await factory());
}

/** The engine: one loaded wasm module. Create it with loadAttention(). */
export class Attention {
  #module;

  /** @param {object} module an instantiated attnbook wasm module */
  constructor(module) {
    this.#module = module;
    /** Whether this engine runs the SIMD128 build. */
    this.simd = module.buildInfo().simd;
  }

  /**
   * Softmax over the last axis: exp((x − max)/τ) / Σ exp((x − max)/τ).
   * τ = 0 gives the hard argmax (ties share equally), τ = Infinity uniform weights;
   * −Infinity logits are masked (weight 0).
   * @param {import('./tensor.js').Tensor | number[] | number[][] | Float32Array} logits (..., n)
   * @param {{ temperature?: number }} [options]
   * @returns {import('./tensor.js').Tensor} weights (..., n), each row summing to 1
   */
  softmax(logits, { temperature = 1 } = {}) {
    const x = toTensor(logits, 'logits');
    checkNumber(temperature, 'temperature');
    return unwrap(this.#module.softmax(x.data, x.shape, temperature));
  }
}

function checkNumber(value, name) {
  if (typeof value !== 'number') {
    throw new AttentionError(`${name} must be a number, got ${describe(value)}`, { kind: 'TypeError' });
  }
}

// The bindings return a result or { error, kind }; the latter becomes an AttentionError.
function unwrap(result) {
  if (result && typeof result.error === 'string') {
    throw new AttentionError(result.error, { kind: result.kind });
  }
  return result;
}
