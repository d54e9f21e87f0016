/**
 * The wasm builds as browsers and workers load them: ES module factories
 * (ENVIRONMENT=web,worker, wasm inlined), bundled by Vite. Chosen through
 * package.json "imports" (#wasm-builds, "default").
 */
const builds = {
  simd: () => import('../../../build/wasm-simd/module/attnbook-wasm.web.mjs'),
  scalar: () => import('../../../build/wasm-scalar/module/attnbook-wasm.web.mjs'),
};

/** @param {'simd' | 'scalar'} name @returns {Promise<() => Promise<object>>} the module factory */
export async function loadBuild(name) {
  return (await builds[name]()).default;
}
