/**
 * The wasm builds as Node loads them: CommonJS factories (ENVIRONMENT=node,
 * wasm inlined). Chosen through package.json "imports" (#wasm-builds, "node").
 */
import { AttentionError } from './errors.js';

const builds = {
  simd: () => import('../../../build/wasm-simd/module/attnbook-wasm.node.cjs'),
  scalar: () => import('../../../build/wasm-scalar/module/attnbook-wasm.node.cjs'),
};

/** @param {'simd' | 'scalar'} name @returns {Promise<() => Promise<object>>} the module factory */
export async function loadBuild(name) {
  try {
    return (await builds[name]()).default;
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND') {
      throw new AttentionError(`the ${name} wasm build is missing (build/wasm-${name}); run "npm run build"`);
    }
    throw error;
  }
}
