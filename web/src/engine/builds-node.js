/**
 * The wasm builds as Node loads them: CommonJS factories (ENVIRONMENT=node,
 * wasm inlined), and the JS core (the scalar build compiled to JavaScript by wasm2js).
 * Chosen through package.json "imports" (#wasm-builds, "node").
 */
import { AttentionError } from './errors.js';

const builds = {
  simd: () => import('../../../build/wasm-simd/module/attnbook-wasm.node.cjs'),
  scalar: () => import('../../../build/wasm-scalar/module/attnbook-wasm.node.cjs'),
  js: () => import('../../../build/wasm-scalar/module/attnbook-js.node.cjs'),
};

/** @param {'simd' | 'scalar' | 'js'} name @returns {Promise<() => Promise<object>>} the module factory */
export async function loadBuild(name) {
  try {
    return (await builds[name]()).default;
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND') {
      const what = name === 'js' ? 'JS core (build/wasm-scalar)' : `${name} wasm build (build/wasm-${name})`;
      throw new AttentionError(`the ${what} is missing; run "npm run build"`);
    }
    throw error;
  }
}
