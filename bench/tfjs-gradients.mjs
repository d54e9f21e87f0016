// TensorFlow.js's gradient functions for Node. @tensorflow/tfjs-core's Node bundle
// (dist/tf-core.node.js) registers no gradients: the @tensorflow/tfjs union package does,
// by importing tfjs-core's ES module build, dist/register_all_gradients.js. That build uses
// extensionless relative imports and its package declares no "type": "module", so Node cannot
// load it as is. registerTfjsGradients() adds a module hook that resolves those imports (".js"
// appended) as ES modules, then imports it. The gradients register themselves in tfjs's global
// registry and run their ops on the one global engine the Node bundle created (tfjs shares its
// engine, registries and Tensor class across copies through globalThis).
import { register } from 'node:module';

const DIST = '/@tensorflow/tfjs-core/dist/';
const isEsmDist = (url) => url.includes(DIST) && !url.endsWith('/tf-core.node.js');

/** Module hook: extensionless relative imports inside tfjs-core's dist/ get ".js". */
export async function resolve(specifier, context, nextResolve) {
  let result;
  if (context.parentURL && isEsmDist(context.parentURL) && specifier.startsWith('.') && !specifier.endsWith('.js')) {
    result = await nextResolve(`${specifier}.js`, context);
  } else {
    result = await nextResolve(specifier, context);
  }
  return isEsmDist(result.url) ? { ...result, format: 'module' } : result;
}

/** Registers every tfjs-core gradient (once per process). */
export async function registerTfjsGradients() {
  register(import.meta.url);
  await import('@tensorflow/tfjs-core/dist/register_all_gradients.js');
}
