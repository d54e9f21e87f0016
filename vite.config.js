// Two builds of the same front end (web/):
//   vite build                 -> dist/site/      static site, relative URLs (works under any sub-path)
//   vite build --mode single   -> dist/.single/   one HTML file with every script, style and the wasm
//                                                 inlined; scripts/build.mjs moves it to dist/attnbook.html
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

export default defineConfig(({ mode }) => {
  const single = mode === 'single';
  return {
    root: 'web',
    base: './',
    publicDir: false,
    logLevel: 'warn',
    plugins: single ? [viteSingleFile({ removeViteModuleLoader: true })] : [],
    worker: { format: 'es' },
    build: {
      outDir: single ? '../dist/.single' : '../dist/site',
      // The site has the lessons and a "check this browser" page; the single file only the lessons.
      rollupOptions: single ? {} : { input: { index: 'web/index.html', selftest: 'web/selftest.html' } },
      emptyOutDir: true,
      target: 'es2022',
      chunkSizeWarningLimit: 2048,
      assetsInlineLimit: single ? Number.MAX_SAFE_INTEGER : 4096,
    },
  };
});
