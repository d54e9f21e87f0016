// npm run build: the C++ core natively and to wasm (SIMD and scalar), then the
// static site (dist/site/), the offline single file (dist/attnbook.html) and the
// embeddable widgets (dist/embed/attn-widgets.js, also copied into the site), and the site as
// SCORM 1.2 and 2004 packages (dist/scorm/, scripts/scorm.mjs).
import { copyFile, mkdir, readFile, rm, rename, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { emccEnv, mustRun, presets, root, step } from './lib.mjs';
import { writeScormPackages } from './scorm.mjs';

export const singleFile = path.join(root, 'dist', 'attnbook.html');
export const widgetsFile = path.join(root, 'dist', 'embed', 'attn-widgets.js');

export async function build({ web = false } = {}) {
  // --web: only the Vite builds (and the gzipped wasm copies), reusing the wasm modules in build/.
  for (const preset of web ? [] : presets) {
    step(`building the C++ core and tests (${preset})`);
    await mustRun('cmake', ['--preset', preset], { quiet: true, env: emccEnv });
    await mustRun('cmake', ['--build', '--preset', preset], { env: emccEnv });
  }
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
  step('packing the site for LMSs (dist/scorm/attnbook-scorm12.zip, attnbook-scorm2004.zip)');
  await writeScormPackages();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  build({ web: process.argv.includes('--web') }).then(
    () => console.log(`\nbuilt: dist/site/, ${singleFile}, ${widgetsFile} and dist/scorm/`),
    (error) => {
      console.error(`\nbuild failed: ${error.message}`);
      process.exit(1);
    },
  );
}
