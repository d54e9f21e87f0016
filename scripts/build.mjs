// npm run build: the C++ core natively and to wasm (SIMD and scalar), then the
// static site (dist/site/) and the offline single file (dist/attnbook.html).
import { rm, rename } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { emccEnv, mustRun, presets, root, step } from './lib.mjs';

export const singleFile = path.join(root, 'dist', 'attnbook.html');

export async function build() {
  for (const preset of presets) {
    step(`building the C++ core and tests (${preset})`);
    await mustRun('cmake', ['--preset', preset], { quiet: true, env: emccEnv });
    await mustRun('cmake', ['--build', '--preset', preset], { env: emccEnv });
  }
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  step('building the static site (dist/site)');
  await mustRun(process.execPath, [vite, 'build']);
  step('building the offline single file (dist/attnbook.html)');
  await mustRun(process.execPath, [vite, 'build', '--mode', 'single']);
  await rename(path.join(root, 'dist', '.single', 'index.html'), singleFile);
  await rm(path.join(root, 'dist', '.single'), { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  build().then(
    () => console.log(`\nbuilt: dist/site/ and ${singleFile}`),
    (error) => {
      console.error(`\nbuild failed: ${error.message}`);
      process.exit(1);
    },
  );
}
