// npm run build: the C++ core natively and to wasm (SIMD and scalar), then the
// static site (dist/site/), the offline single file (dist/attnbook.html) and the
// embeddable widgets (dist/embed/attn-widgets.js, also copied into the site), and the site as
// SCORM 1.2 and 2004 packages: the course and every lesson (dist/scorm/, scripts/scorm.mjs), and
// every lesson as a Jupyter notebook with its teacher's notebook (dist/notebooks/, scripts/notebooks.mjs).
//   node scripts/build.mjs --web   the front end only (every step after CMake), reusing the wasm
//                                  modules already in build/: seconds instead of minutes
// A build folder whose CMakeCache.txt was made for another checkout (this one moved or copied)
// is configured afresh (scripts/cmake-configure.mjs).
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, rename, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configurePreset } from './cmake-configure.mjs';
import { emccEnv, mustRun, presets, root, step } from './lib.mjs';
import { writeNotebooks } from './notebooks.mjs';
import { writeScormPackages } from './scorm.mjs';

export const singleFile = path.join(root, 'dist', 'attnbook.html');
export const widgetsFile = path.join(root, 'dist', 'embed', 'attn-widgets.js');

/**
 * Configures and builds CMake presets (default: all of the build's), or only `target` of each.
 * A build folder configured for another checkout (this one moved or copied) starts afresh.
 * @param {string[]} [list] @param {{ target?: string }} [options]
 */
export async function buildPresets(list = presets, { target } = {}) {
  for (const preset of list) {
    step(target ? `building ${target} (${preset})` : `building the C++ core and tests (${preset})`);
    await configurePreset(preset, { env: emccEnv });
    await mustRun('cmake', ['--build', '--preset', preset, ...(target ? ['--target', target] : [])], { env: emccEnv });
  }
}

export async function build({ web = false } = {}) {
  // --web: only the Vite builds (and the gzipped wasm copies), reusing the wasm modules in build/.
  if (web) {
    const missing = ['wasm-simd', 'wasm-scalar']
      .map((p) => path.join('build', p, 'module', 'attnbook-wasm.web.wasm'))
      .concat(path.join('build', 'wasm-scalar', 'module', 'attnbook-js.web.mjs')) // the JS core (wasm2js)
      .filter((file) => !existsSync(path.join(root, file)));
    if (missing.length > 0)
      throw new Error(`--web reuses the wasm in build/: ${missing.join(', ')} missing; run npm run build`);
  } else await buildPresets();
  // The single file and the widgets inline the wasm gzipped (vite.config.js): write those copies,
  // with --web too (a wasm rebuilt by cmake alone would otherwise meet a stale copy and the loader
  // of the new one: "buildInfo is not a function").
  for (const preset of ['wasm-simd', 'wasm-scalar']) {
    const wasm = path.join(root, 'build', preset, 'module', 'attnbook-wasm.web.wasm');
    await writeFile(`${wasm}.gz`, gzipSync(await readFile(wasm), { level: 9 }));
  }
  // web/src/engine/builds-web.js bundles one JS loader for both wasm builds: they must not differ.
  const loaders = ['wasm-simd', 'wasm-scalar'].map((p) =>
    path.join(root, 'build', p, 'module', 'attnbook-wasm.web.mjs'),
  );
  const [simdLoader, scalarLoader] = await Promise.all(loaders.map((file) => readFile(file)));
  if (!simdLoader.equals(scalarLoader))
    throw new Error(`${loaders.join(' and ')} differ: builds-web.js assumes one loader`);
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  step('building the static site (dist/site)');
  await mustRun(process.execPath, [vite, 'build']);
  step('building the offline single file (dist/attnbook.html)');
  await mustRun(process.execPath, [vite, 'build', '--mode', 'single']);
  await rename(path.join(root, 'dist', '.single', 'index.html'), singleFile);
  await rm(path.join(root, 'dist', '.single'), { recursive: true, force: true });
  step('building the embeddable widgets (dist/embed/attn-widgets.js)');
  await mustRun(process.execPath, [vite, 'build', '--mode', 'embed']);
  // The site's embed-example.html loads it as ./embed/attn-widgets.js, a classic script Vite leaves
  // alone (vite-ignore): the site is built first, so the copy lands in the finished dist/site.
  await mkdir(path.join(root, 'dist', 'site', 'embed'), { recursive: true });
  await copyFile(widgetsFile, path.join(root, 'dist', 'site', 'embed', 'attn-widgets.js'));
  step('packing the site for LMSs (dist/scorm/: the course and each lesson, SCORM 1.2 and 2004)');
  await writeScormPackages();
  // after the packing: the LMS packages carry the lessons, each with its Download notebook button
  step('writing every lesson as a Jupyter notebook, and the teacher’s (dist/notebooks/, in Chromium)');
  await writeNotebooks();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  build({ web: process.argv.includes('--web') }).then(
    () => console.log(`\nbuilt: dist/site/, ${singleFile}, ${widgetsFile}, dist/scorm/ and dist/notebooks/`),
    (error) => {
      console.error(`\nbuild failed: ${error.message}`);
      process.exit(1);
    },
  );
}
