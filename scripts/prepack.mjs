// npm pack / npm publish (the "prepack" script): the package ships built files (the wasm builds
// and the widgets bundle, listed in package.json "files"); refuses to pack when any is missing,
// rather than making a package whose engine fails on import.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './lib.mjs';

const { files } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const built = files.filter((f) => /^(build|dist)\//.test(f));
const missing = built.filter((f) => !existsSync(path.join(root, f)));
if (missing.length) {
  console.error(
    `npm pack: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing; run "npm run build" first`,
  );
  process.exit(1);
}
