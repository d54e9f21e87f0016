// Three builds of the same front end (web/):
//   vite build                 -> dist/site/      static site, relative URLs (works under any sub-path)
//   vite build --mode single   -> dist/.single/   one HTML file with every script, style and the wasm
//                                                 inlined; scripts/build.mjs moves it to dist/attnbook.html
//   vite build --mode embed    -> dist/embed/     attn-widgets.js: one classic script (IIFE) with every
//                                                 attn-* element and the wasm inlined, for any page
// and a dev server for previewing lessons while writing them: npm run dev (scripts/dev.mjs), no build.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import { asciiHtml } from './scripts/ascii-html.mjs';
import { inlinesJsCore } from './scripts/js-core.mjs';
import lessonsPlugin from './scripts/vite-lessons-plugin.mjs';
import serviceWorkerPlugin from './scripts/vite-sw-plugin.mjs';
import templateWhitespace from './scripts/vite-template-whitespace.mjs';
import trainedWeights from './scripts/vite-trained-plugin.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

// Every page of the site: web/*.html and the component galleries in web/gallery/*.html, as absolute
// paths: the dev server's dependency scan reads them from the root (web/), not from this folder, and
// a relative "web/…" failed there ("failed to resolve rolldownOptions.input value").
function sitePages() {
  const pages = {};
  for (const dir of ['web', 'web/gallery']) {
    const folder = path.join(here, dir);
    const files = existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.html')) : [];
    for (const f of files) pages[`${dir}/${f}`.slice(4, -5).replace('/', '-')] = path.join(folder, f);
  }
  return pages;
}

// Builds that inline the wasm (the single file, the widgets) take the scalar fallback's gzipped
// copy (attnbook-wasm.web.wasm.gz, written by scripts/build.mjs; builds-web.js inflates it with
// fflate): a third of the bytes. The SIMD build, which nearly every browser takes, goes in as it is:
// the bytes gzip would save take the browser about as long to read as inflating them takes.
const gzippedWasm = { find: /^(.*wasm-scalar\/module\/attnbook-wasm\.web\.wasm)\?url$/, replacement: '$1.gz?url' };

// The engine's Web Worker (web/src/runtime.js getWorkerEngine): the site bundles it as a module worker
// file (engine/page-worker.js); the single file and the widgets cannot have separate files, so they
// inline it as a classic script started from a blob: URL (engine/page-worker-inline.js, `?worker&inline`).
const inlineWorker = { find: /^(.*)\/page-worker\.js$/, replacement: '$1/page-worker-inline.js' };
// That worker takes the wasm from the page (engine/page-worker-inline.js sends the data: URLs in
// its 'load' message) instead of a second inlined copy: its .wasm imports read them from a global.
const wasmFromPage = {
  name: 'attnbook-wasm-from-page',
  enforce: 'pre',
  resolveId(id) {
    if (/attnbook-wasm\.web\.wasm(\.gz)?\?url$/.test(id))
      return `\0wasm-from-page:${/wasm-simd/.test(id) ? 'simd' : 'scalar'}`;
    return null;
  },
  load(id) {
    if (!id.startsWith('\0wasm-from-page:')) return null;
    return `export default self.__attnbookWasmUrls.${id.split(':')[1]};`;
  },
};
// The single file has no files beside it: the icon goes in as a data: URL (the site keeps a file,
// which a strict CSP allows without img-src data:).
const inlineIcon = {
  name: 'attnbook-inline-icon',
  enforce: 'post',
  generateBundle(_, bundle) {
    for (const [name, chunk] of Object.entries(bundle)) {
      if (!name.endsWith('.html') || chunk.type !== 'asset') continue;
      chunk.source = String(chunk.source).replace(/href="\.\/([^"]*\.svg)"/g, (link, file) => {
        const icon = Object.values(bundle).find((c) => c.type === 'asset' && c.fileName.endsWith(file));
        return icon ? `href="data:image/svg+xml,${encodeURIComponent(String(icon.source).trim())}"` : link;
      });
    }
  },
};
// The single file is written in ASCII only (scripts/ascii-html.mjs): it decodes and compiles faster.
const asciiOnly = {
  name: 'attnbook-ascii-only',
  enforce: 'post',
  generateBundle: {
    order: 'post', // after vite-plugin-singlefile inlined the scripts and styles
    handler(_, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'asset' && chunk.fileName.endsWith('.html')) chunk.source = asciiHtml(String(chunk.source));
      }
    },
  },
};
// The engine's worker bundle does not start workers of its own: the pool's way of starting them
// (#pool-workers, engine/pool.js) is a stub there, so the worker does not bundle itself again. Nor
// does it carry the text task's default corpus (#text-corpus, engine/trainer.js): the page fills
// it in before a createTrainer reaches a worker (worker-client.js, pool.js), so the builds hold
// one copy.
const workerStandIns = { '#pool-workers': 'pool-workers-none.js', '#text-corpus': 'text-corpus-none.js' };
// The builds that inline everything (the single file, the widgets) carry that one copy gzipped, as
// base64 (32 KB for its 77 KB): the page's engine takes engine/text-default-gzip.js for
// ./text-default.js, which inflates the virtual module made here of engine/text-corpus.js. Only
// their page's bundle: a plugin, not an alias, so their worker bundles keep text-corpus-none.js.
const textCorpusGzip = {
  name: 'attnbook-text-corpus-gzip',
  enforce: 'pre',
  resolveId(id) {
    if (id === 'virtual:attnbook-text-corpus-gzip') return '\0text-corpus-gzip';
    return /(^|\/)text-default\.js$/.test(id)
      ? new URL('./web/src/engine/text-default-gzip.js', import.meta.url).pathname
      : null;
  },
  async load(id) {
    if (id !== '\0text-corpus-gzip') return null;
    const { DEFAULT_TEXT } = await import('./web/src/engine/text-corpus.js');
    return `export default ${JSON.stringify(gzipSync(DEFAULT_TEXT, { level: 9 }).toString('base64'))};`;
  },
};
const noPoolInWorker = {
  name: 'attnbook-no-pool-in-worker',
  enforce: 'pre',
  resolveId(id) {
    const file = workerStandIns[id];
    return file ? new URL(`./web/src/engine/${file}`, import.meta.url).pathname : null;
  },
};
// The project's own builds take their wasm through `?url` imports (engine/builds-web.js: file URLs
// in the site, data: URLs in the single file and the widgets); the npm package's engine, reached
// through package.json "imports", takes builds-url.js (`new URL(…, import.meta.url)`).
const projectWasm = {
  name: 'attnbook-project-wasm',
  enforce: 'pre',
  resolveId(id) {
    return id === '#wasm-builds' ? new URL('./web/src/engine/builds-web.js', import.meta.url).pathname : null;
  },
};
// The JS core (build/wasm-scalar/module/attnbook-js.web.mjs: the C++ core compiled to JavaScript by
// wasm2js, for pages whose CSP refuses WebAssembly; engine/builds-web.js imports it dynamically). The
// site keeps it in a chunk of its own, fetched only by such pages. The single file and the widgets
// have no chunks: they inline it (its module runs only when needed) when it fits 300 KB gzipped
// (scripts/js-core.mjs), and otherwise take engine/js-core-none.js, whose message says this build has none.
// Their inline worker never carries a second copy: where the page refuses wasm the worker fails to
// load its engine, and the page computes on the main thread (web/src/runtime.js).
const noJsCore = (file) => new URL(`./web/src/engine/${file}`, import.meta.url).pathname;
/**
 * @param {() => boolean} include whether the JS core goes in
 * @param {string} [standIn] the file that takes its place otherwise (its `missing` says why)
 */
const jsCore = (include, standIn = 'js-core-none.js') => ({
  name: 'attnbook-js-core',
  enforce: 'pre',
  resolveId(id) {
    return /attnbook-js\.web\.mjs$/.test(id) && !include() ? noJsCore(standIn) : null;
  },
});
const inlineJsCore = () => {
  let fits; // measured once per build
  return jsCore(() => (fits ??= inlinesJsCore()));
};

const classicWorker = {
  format: 'iife',
  plugins: () => [projectWasm, wasmFromPage, noPoolInWorker, jsCore(() => false, 'js-core-none-worker.js')],
  rolldownOptions: { output: { codeSplitting: false } },
};

// The embeddable widgets: a library build of web/src/embed.js as one IIFE, nothing split off.
const embedConfig = {
  root: 'web',
  base: './',
  publicDir: false,
  logLevel: 'warn',
  plugins: [projectWasm, inlineJsCore(), textCorpusGzip, lessonsPlugin(), templateWhitespace(), trainedWeights()], // lessons: for any .md import (the widgets leave out attn-app, their user)
  resolve: { alias: [gzippedWasm, inlineWorker] },
  worker: classicWorker,
  build: {
    outDir: '../dist/embed',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
    assetsInlineLimit: Number.MAX_SAFE_INTEGER, // the wasm too, as data: URLs (decoded, never fetched)
    lib: {
      entry: 'src/embed.js',
      formats: ['iife'],
      name: 'attnWidgets',
      fileName: () => 'attn-widgets.js',
    },
    rolldownOptions: { output: { codeSplitting: false } }, // dynamic imports (the wasm builds) inlined
  },
};

// The dev server (npm run dev, scripts/dev.mjs) has no dist/site/embed/attn-widgets.js for
// embed-example.html, which scripts/build.mjs copies there: it serves the last build's widgets
// (dist/embed/attn-widgets.js), or says how to make them.
const devWidgets = {
  name: 'attnbook-dev-widgets',
  apply: 'serve',
  configureServer(server) {
    server.middlewares.use('/embed/attn-widgets.js', (_, response) => {
      const file = path.join(here, 'dist', 'embed', 'attn-widgets.js');
      if (existsSync(file)) {
        response.setHeader('Content-Type', 'text/javascript');
        response.end(readFileSync(file));
      } else {
        response.statusCode = 404;
        response.end('// dist/embed/attn-widgets.js is not built: run node scripts/build.mjs --web\n');
      }
    });
  },
};

// What the dev server may serve: this checkout, and node_modules where it really is. A checkout whose
// node_modules links to another's (scripts/bootstrap allows it) otherwise had the KaTeX fonts refused
// ("outside of Vite serving allow list", 403).
const devAllow = [here, ...[path.join(here, 'node_modules')].filter(existsSync).map((dir) => realpathSync(dir))];

export default defineConfig(({ mode }) => {
  if (mode === 'embed') return embedConfig;
  const single = mode === 'single';
  // The site build (the default mode, `production`) also gets sw.js, the offline service worker.
  const offline = mode === 'production' ? [serviceWorkerPlugin()] : [];
  return {
    root: 'web',
    base: './',
    publicDir: false,
    logLevel: 'warn',
    // Lessons: web/lessons/*.md -> { meta, html, headings } with KaTeX rendered at build time.
    plugins: [
      projectWasm,
      templateWhitespace(),
      trainedWeights(),
      lessonsPlugin({ compress: single }),
      ...(single
        ? [inlineJsCore(), textCorpusGzip, viteSingleFile({ removeViteModuleLoader: true }), inlineIcon, asciiOnly]
        : []),
      ...offline,
      devWidgets,
    ],
    worker: single ? classicWorker : { format: 'es', plugins: () => [projectWasm, noPoolInWorker] },
    resolve: { alias: single ? [gzippedWasm, inlineWorker] : [] },
    server: { fs: { allow: devAllow } },
    build: {
      outDir: single ? '../dist/.single' : '../dist/site',
      // The site has every page; the single file only the lessons (index.html).
      rollupOptions: single ? {} : { input: sitePages() },
      emptyOutDir: true,
      target: 'es2022',
      chunkSizeWarningLimit: 2048,
      // The site keeps fonts and the icon as files: data: URLs would need font-src/img-src data: in a CSP.
      assetsInlineLimit: single
        ? Number.MAX_SAFE_INTEGER
        : (file) => (/\.(woff2?|ttf|svg)$/.test(file) ? false : undefined),
    },
  };
});
