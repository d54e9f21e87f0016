// npm run dev: a live preview of the lessons while you write them. Vite's dev server over web/ on
// 127.0.0.1: saving a web/lessons/*.md file (or anything under web/src) reloads the page. It builds
// no site; the engine's two wasm modules are all it needs from a build (build/wasm-simd/module/ and
// build/wasm-scalar/module/). When they are missing (a fresh checkout) it builds those two modules
// first, and only them (a minute or two, once); after `npm run build` it starts in about a second.
//   PORT                    the port (default 5173, or the next free one; 0 picks any free port)
//   --cache-dir <folder>    Vite's dependency cache (default node_modules/.vite); a fresh folder
//                           makes Vite scan and pre-bundle the dependencies again (the dev test does)
// It prints "attnbook live preview at <URL>" once it listens, then Vite's lines ("page reload …").
// Ctrl+C stops it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createServer } from 'vite';
import { root, step } from './lib.mjs';

/** What the dev server loads from build/ (web/src/engine/builds-web.js imports them). */
const wasmModules = [
  'build/wasm-simd/module/attnbook-wasm.web.mjs',
  'build/wasm-simd/module/attnbook-wasm.web.wasm',
  'build/wasm-scalar/module/attnbook-wasm.web.wasm',
];

const portText = process.env.PORT;
const port = Number(portText || 5173);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a whole number from 0 to 65535, got "${portText}"`);
  process.exit(1);
}
const cacheFlag = process.argv.indexOf('--cache-dir');
const cacheDir = cacheFlag > 0 ? path.resolve(process.argv[cacheFlag + 1] ?? '') : undefined;

try {
  const missing = wasmModules.filter((file) => !existsSync(path.join(root, file)));
  if (missing.length > 0) {
    step(`building the engine's wasm modules first (missing: ${missing.join(', ')})`);
    const { buildPresets } = await import('./build.mjs');
    await buildPresets(['wasm-simd', 'wasm-scalar'], { target: 'attnbook_web' });
  }
  const server = await createServer({
    configFile: path.join(root, 'vite.config.js'),
    logLevel: 'info', // vite.config.js keeps builds quiet; here "page reload" lines say a save was seen
    clearScreen: false,
    ...(cacheDir ? { cacheDir } : {}),
    // A PORT asked for is that port or an error; the default moves on to the next free one.
    server: { host: '127.0.0.1', port, strictPort: Boolean(portText) },
  });
  await server.listen();
  const url = server.resolvedUrls?.local[0];
  console.log(`\n  attnbook live preview at ${url}`);
  console.log(`  a lesson:                ${url}#/convex-combinations (any id of web/lessons/<id>.md)`);
  console.log('  Save a lesson and the page reloads. Press Ctrl+C to stop.\n');
} catch (error) {
  console.error(`\nnpm run dev failed: ${error.message}`);
  process.exit(1);
}
