// Vite plugin (site build only): emits the service worker web/sw.js as sw.js at
// the root of dist/site, with the precache list and its version filled in.
//
//   FILES    every file the build emits (pages, scripts, styles, fonts, the wasm
//            modules, the worker), as URLs relative to sw.js, plus './' (the
//            site's root URL, which serves index.html); sorted
//   VERSION  the first 16 hex digits of a SHA-256 over each file's name and
//            contents, so any change to any file gives a new cache
//
// generateBundle (order 'post', after every other plugin has emitted its files)
// builds the list from the bundle and emits sw.js; writeBundle then checks that
// every file in the output folder is on the list, so a file written some other
// way stops the build instead of silently missing offline.
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

const TEMPLATE = new URL('../web/sw.js', import.meta.url);
const SW_FILE = 'sw.js';
const VERSION_LINE = "const VERSION = 'development';";
const FILES_LINE = 'const FILES = [];';

/** Fills the precache list and version into the service worker's source. */
export function fillServiceWorker(source, files, version) {
  if (!source.includes(VERSION_LINE) || !source.includes(FILES_LINE)) {
    throw new Error(`web/sw.js must contain the lines ${VERSION_LINE} and ${FILES_LINE}`);
  }
  return source
    .replace(VERSION_LINE, `const VERSION = ${JSON.stringify(version)};`)
    .replace(FILES_LINE, `const FILES = ${JSON.stringify(files, null, 2)};`);
}

/** SHA-256 over [name, contents] of each file, in name order; 16 hex digits. */
export function versionOf(entries) {
  const hash = createHash('sha256');
  for (const [name, contents] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    hash.update(`${name}\0${contents.length}\0`);
    hash.update(contents);
  }
  return hash.digest('hex').slice(0, 16);
}

export default function serviceWorkerPlugin() {
  let outDir = '';
  let listed = new Set();
  return {
    name: 'attnbook-service-worker',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const entries = Object.values(bundle)
          .filter((item) => item.fileName !== SW_FILE && !item.fileName.endsWith('.map'))
          .map((item) => [item.fileName, item.type === 'chunk' ? item.code : item.source]);
        const files = ['./', ...entries.map(([name]) => name).sort()];
        listed = new Set(files);
        const source = fillServiceWorker(await readFile(TEMPLATE, 'utf8'), files, versionOf(entries));
        this.emitFile({ type: 'asset', fileName: SW_FILE, source });
      },
    },
    async writeBundle() {
      const written = await readdir(outDir, { recursive: true, withFileTypes: true });
      const missing = written
        .filter((entry) => entry.isFile())
        .map((entry) =>
          path
            .relative(outDir, path.join(entry.parentPath ?? entry.path, entry.name))
            .split(path.sep)
            .join('/'),
        )
        .filter((name) => name !== SW_FILE && !name.endsWith('.map') && !listed.has(name));
      if (missing.length) this.error(`files written to ${outDir} but not precached by sw.js: ${missing.join(', ')}`);
    },
  };
}
