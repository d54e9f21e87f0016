// The npm package as a user gets it: `npm pack` of this build, installed into a fresh temporary
// project from the tarball with no network (the package has no runtime dependency to fetch), then
//   - what the tarball holds (both wasm builds, the JS core, the widgets, types, licence; no bundler-only import);
//   - README "Use from npm": its Node example prints the softmax of [1.2, 4.5, 2, 0.8];
//   - 'attnbook/widgets' imported in Node (server-side rendering) neither throws nor registers;
//   - the types, under TypeScript's "bundler" and "node16" resolutions, with --strict: a file that
//     uses the API passes, its @ts-expect-error misuses are errors, and a misuse without one fails;
//   - the README's Vite page (plus the engine worker and a pool), built by Vite with no config of its
//     own, served under the strict CSP and opened in Chromium: the numbers, a drawn widget, no
//     console error, no CSP violation.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Parser } from 'acorn';
import { build } from 'vite';
import { cspViolations, launch, recordCspViolations, serveDir, showFigure, watch } from '../e2e/browser.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const SOFTMAX = [0.0322, 0.8744, 0.0718, 0.0216]; // of [1.2, 4.5, 2, 0.8], the issue's figures

let scratch; // the temporary folder: the tarball and the project
let project; // a fresh project with the tarball installed
let packed; // npm pack's report: { filename, size, unpackedSize, files: [{ path, size }] }

/** The code blocks of README's "Use from npm" section, in order, as { lang, code }. */
async function readmeBlocks() {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Use from npm\n');
  assert.ok(start >= 0, 'README.md has a "Use from npm" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, code]) => ({ lang, code }));
}

/** Runs `node` with `args` in the project; resolves to its stdout. */
async function node(args) {
  const { stdout } = await run(process.execPath, args, { cwd: project, timeout: 60_000 });
  return stdout;
}

/** The four numbers of a "0.0322, 0.8744, …" line, each checked against SOFTMAX to ±1e-3. */
function assertSoftmax(text, where) {
  const numbers = String(text).split(',').map(Number);
  assert.equal(numbers.length, 4, `${where}: four numbers, got ${JSON.stringify(text)}`);
  numbers.forEach((x, i) => assert.ok(Math.abs(x - SOFTMAX[i]) <= 1e-3, `${where}: ${x} is not ${SOFTMAX[i]} ± 1e-3`));
}

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'attnbook-package-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: root });
  [packed] = JSON.parse(stdout);
  project = path.join(scratch, 'course');
  await mkdir(project);
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'course', private: true, type: 'module' }, null, 2),
  );
  // --offline: the install must need nothing but the tarball
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(scratch, packed.filename)], {
    cwd: project,
  });
});

after(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/**
 * The packages a module imports by name (not relative, not #imports): the sources of its import
 * and export-from declarations and of import() with a string, read from its syntax tree (a string
 * that merely reads "from '…'", as in the text corpus, is not an import).
 */
function importedNames(source) {
  const names = [];
  const visit = (node) => {
    if (!node || typeof node.type !== 'string') return;
    if (
      /^(Import|ExportNamed|ExportAll)Declaration$|^ImportExpression$/.test(node.type) &&
      node.source?.type === 'Literal'
    ) {
      names.push(node.source.value);
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === 'object') visit(value);
    }
  };
  visit(Parser.parse(source, { ecmaVersion: 'latest', sourceType: 'module' }));
  return names.filter((name) => !/^[.#]/.test(name));
}

test('the tarball holds both wasm builds, the widgets, the types and the licence, and needs no bundler', async () => {
  const files = new Set(packed.files.map((f) => f.path));
  for (const needed of [
    'package.json',
    'README.md',
    'LICENSE',
    'THIRD_PARTY_NOTICES.md',
    'web/src/engine/index.js',
    'web/src/engine/index.d.ts',
    'web/src/engine/worker-client.d.ts',
    'build/wasm-simd/module/attnbook-wasm.node.cjs',
    'build/wasm-scalar/module/attnbook-wasm.node.cjs',
    'build/wasm-simd/module/attnbook-wasm.web.mjs',
    'build/wasm-simd/module/attnbook-wasm.web.wasm',
    'build/wasm-scalar/module/attnbook-wasm.web.wasm',
    'build/wasm-scalar/module/attnbook-js.node.cjs', // the JS core (wasm2js), for pages that refuse wasm
    'build/wasm-scalar/module/attnbook-js.web.mjs',
    'dist/embed/attn-widgets.js',
  ]) {
    assert.ok(files.has(needed), `the package holds ${needed}`);
  }
  // only what a user needs: no sources of the core, tests, lessons or the site
  for (const file of files)
    assert.match(file, /^(web\/src\/(engine\/|widgets\.d\.ts$)|build\/wasm-|dist\/embed\/|[^/]+$)/);
  const installed = path.join(project, 'node_modules', 'attnbook');
  const manifest = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8'));
  assert.equal(manifest.private, undefined, 'the package is publishable');
  assert.equal(manifest.license, 'MIT');
  assert.deepEqual(Object.keys(manifest.dependencies ?? {}), [], 'no runtime dependency to fetch');
  assert.match(await readFile(path.join(installed, 'LICENSE'), 'utf8'), /MIT License/);
  // no bundler-specific imports (Vite's ?url, ?worker, ?inline) in what the package runs
  const engine = path.join(installed, 'web', 'src', 'engine');
  for (const name of (await readdir(engine)).filter((f) => f.endsWith('.js'))) {
    const file = await readFile(path.join(engine, name), 'utf8');
    // the code, without its comments (which show imports of 'attnbook' as examples)
    const source = file.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    assert.doesNotMatch(
      source,
      /['"][^'"\n]*\?(url|worker|inline|raw)\b[^'"\n]*['"]/,
      `${name} imports no ?url or ?worker`,
    );
    for (const specifier of importedNames(file)) {
      assert.match(specifier, /^node:/, `${name} imports only Node built-ins by name, not ${specifier}`);
    }
  }
});

test("README's Node example prints the softmax of [1.2, 4.5, 2, 0.8]", async () => {
  const [example] = (await readmeBlocks()).filter((b) => b.lang === 'js');
  assert.match(example.code, /from 'attnbook'/);
  await writeFile(path.join(project, 'example.mjs'), example.code);
  const [softmax, attention] = (await node(['example.mjs'])).trim().split('\n');
  assertSoftmax(softmax, 'the Node example');
  assert.equal(attention, "[ 1, 2 ] [ '1.660', '2.660' ]", 'the attention line as README says');
});

test("'attnbook/widgets' imported in Node neither throws nor registers anything", async () => {
  const check = [
    "await import('attnbook/widgets');",
    "await import('attnbook/widgets.js');",
    'console.log(typeof customElements, typeof HTMLElement, typeof attnWidgets);',
    "console.log(import.meta.resolve('attnbook/widgets.js'));",
  ].join('\n');
  await writeFile(path.join(project, 'ssr.mjs'), check);
  const [globals, resolved] = (await node(['ssr.mjs'])).trim().split('\n');
  assert.equal(globals, 'undefined undefined undefined', 'no DOM shimmed, no global left behind');
  // the classic script a course page copies is the embed build itself
  const file = await readFile(fileURLToPath(resolved));
  assert.ok(file.equals(await readFile(path.join(root, 'dist', 'embed', 'attn-widgets.js'))));
});

/** TypeScript over `files` with --strict under `resolution`; resolves to { code, output }. */
async function typecheck(resolution, files) {
  const config = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'es2022',
      lib: ['es2022', 'dom'],
      module: resolution === 'bundler' ? 'esnext' : 'node16',
      moduleResolution: resolution,
      types: [],
    },
    files,
  };
  const name = `tsconfig.${resolution}.${files.length}.json`;
  await writeFile(path.join(project, name), JSON.stringify(config, null, 2));
  try {
    const { stdout } = await run(process.execPath, [tsc, '-p', name], { cwd: project, timeout: 120_000 });
    return { code: 0, output: stdout };
  } catch (error) {
    return { code: error.code, output: `${error.stdout}${error.stderr}` };
  }
}

const USES = `import { loadAttention, AttentionError, type Tensor, type Attention } from 'attnbook';
import { createWorkerEngine, type WorkerEngine } from 'attnbook/worker-client';
import 'attnbook/widgets';

const attn: Attention = await loadAttention({ simd: 'auto' });
const p: Tensor = attn.softmax([1.2, 4.5, 2, 0.8], { temperature: 0.5 });
const first: number = p.data[0];
const { output, fullyMaskedRows } = attn.attention([[1, 0]], [[1, 0]], [[2, 3]], { mask: 'causal' });
const rows: number = output.shape[0] + fullyMaskedRows;
const pool = await attn.createPool({ threads: 2 });
const threads: number = pool.threads;
const engine: WorkerEngine = await createWorkerEngine(new Worker(new URL('./w.js', import.meta.url)));
const q: Tensor = await engine.softmax([1, 2]);
try {
  attn.softmax([Number.NaN]);
} catch (error) {
  if (error instanceof AttentionError) console.log(error.kind);
}
console.log(first, rows, threads, q);

// misuses, each of which the types must refuse
// @ts-expect-error softmax takes numbers, not a string
attn.softmax('1,2,3');
// @ts-expect-error temperature is a number
attn.softmax([1, 2], { temperature: 'hot' });
// @ts-expect-error there is no such mask
attn.attention([[1]], [[1]], [[1]], { mask: 'diagonal' });
// @ts-expect-error a Tensor's data is a Float32Array, not a string
const text: string = p.data;
// @ts-expect-error threads is 'auto' or a number
await attn.createPool({ threads: 'many' });
// @ts-expect-error a worker engine's calls are promises
const now: Tensor = engine.softmax([1, 2]);
console.log(text, now);
`;

for (const resolution of ['bundler', 'node16']) {
  test(`the types under moduleResolution "${resolution}" and --strict: uses pass, misuses fail`, async () => {
    await writeFile(path.join(project, 'uses.ts'), USES);
    const uses = await typecheck(resolution, ['uses.ts']);
    assert.equal(uses.code, 0, `tsc on uses.ts:\n${uses.output}`);
    // the same misuse without its directive is an error (so the check above is live, not `any`)
    await writeFile(
      path.join(project, 'misuse.ts'),
      "import { loadAttention } from 'attnbook';\nconst attn = await loadAttention();\nattn.softmax('1,2,3');\n",
    );
    const misuse = await typecheck(resolution, ['uses.ts', 'misuse.ts']);
    assert.notEqual(misuse.code, 0, 'tsc refuses misuse.ts');
    assert.match(misuse.output, /misuse\.ts\(3,14\): error TS2345/);
    assert.doesNotMatch(misuse.output, /uses\.ts/, 'and nothing else');
  });
}

test("README's Vite page renders the widget and computes in the page, a worker and a pool, under the strict CSP", async () => {
  const blocks = await readmeBlocks();
  const html = blocks.find((b) => b.lang === 'html').code;
  const main = blocks.filter((b) => b.lang === 'js')[1].code;
  assert.match(main, /import 'attnbook\/widgets'/);
  const site = path.join(project, 'site');
  await mkdir(site);
  await writeFile(
    path.join(site, 'index.html'),
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A course page</title></head>
<body>
${html}<output id="worker"></output> <output id="pool"></output>
<script type="module" src="./more.js"></script>
</body>
</html>
`,
  );
  await writeFile(path.join(site, 'main.js'), main);
  // README's worker pattern, and the pool (whose workers the package starts itself)
  await writeFile(path.join(site, 'engine-worker.js'), "import 'attnbook/worker';\n");
  await writeFile(
    path.join(site, 'more.js'),
    `import { loadAttention } from 'attnbook';
import { createWorkerEngine } from 'attnbook/worker-client';

const show = (id, data) => (document.getElementById(id).textContent = Array.from(data, (x) => x.toFixed(4)).join(', '));
const engine = await createWorkerEngine(new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' }));
show('worker', (await engine.softmax([1.2, 4.5, 2, 0.8])).data);
const pool = await (await loadAttention()).createPool({ threads: 2 });
const { output } = await pool.attention([[1, 0]], [[1, 0], [0, 1]], [[1, 2], [3, 4]]);
show('pool', output.data);
document.body.dataset.pool = String(pool.threads);
`,
  );
  // a user's Vite: no config file of its own
  await build({ root: site, configFile: false, logLevel: 'error', build: { outDir: 'dist' } });
  // the browser's own request: no 404, and no data: icon, which the strict CSP refuses
  await writeFile(path.join(site, 'dist', 'favicon.ico'), '');
  const server = await serveDir(path.join(site, 'dist')); // with the strict CSP header
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    await recordCspViolations(page);
    const { problems } = watch(page);
    await page.goto(new URL('index.html', server.url).href);
    await page.locator('body[data-pool]').waitFor();
    assertSoftmax(await page.locator('#softmax').textContent(), 'the page');
    assertSoftmax(await page.locator('#worker').textContent(), 'the worker');
    assert.equal(await page.locator('#pool').textContent(), '1.6605, 2.6605'); // README's attention, on 2 workers
    assert.equal(await page.locator('body').getAttribute('data-pool'), '2');
    const widget = await showFigure(page, 'attn-softmax-temperature');
    // the widget drew the engine's softmax as its bars
    const bars = await widget
      .locator('rect.bar')
      .evaluateAll((rects) => rects.map((rect) => rect.getAttribute('data-value')).join(','));
    assertSoftmax(bars, 'the widget');
    assert.deepEqual(problems, []);
    assert.deepEqual(await cspViolations(page), []);
  } finally {
    await browser.close();
    await server.close();
  }
});
