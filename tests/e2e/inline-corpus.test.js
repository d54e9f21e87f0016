// The text task's default corpus in the builds that inline everything (dist/attnbook.html and the
// widgets carry it gzipped: vite.config.js textCorpusGzip, engine/text-default-gzip.js). An engine
// bundled by vite.config.js's embed mode (tests/fixtures/inline-engine.js) is opened from file://
// in Chromium: DEFAULT_TEXT is null until loadAttention has inflated it, then engine/text-corpus.js's
// string; createTrainer({ task: 'text' }) trains on it bit for bit as in Node; and a page whose only
// engine is a worker's (runtime.js getWorkerEngine, which never loads the page's engine) fills the
// corpus into the worker's trainer all the same.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { loadAttention } from 'attnbook';
import { build } from 'vite';
import viteConfig from '../../vite.config.js';
import { DEFAULT_TEXT } from '../../web/src/engine/text-corpus.js';
import { root } from '../fixtures/build-site.mjs';
import { launch, watch } from './browser.js';

let browser;
let dir;
let expected; // Node's: the loss of 3 steps of the default text trainer, seed 1
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'attnbook-inline-corpus-'));
  const config = viteConfig({ mode: 'embed', command: 'build' });
  await build({
    ...config,
    configFile: false,
    root: path.join(root, 'web'),
    logLevel: 'silent',
    build: {
      ...config.build,
      outDir: dir,
      lib: {
        ...config.build.lib,
        entry: path.join(root, 'tests', 'fixtures', 'inline-engine.js'),
        name: 'inlineEngine',
      },
    },
  });
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><title>inline</title><script src="attn-widgets.js"></script>\n',
  );
  const attn = await loadAttention({ simd: true });
  const trainer = attn.createTrainer({ task: 'text', seed: 1 });
  expected = trainer.step(3).loss;
  trainer.dispose();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function open() {
  const page = await browser.context.newPage();
  const { problems } = watch(page);
  await page.goto(pathToFileURL(path.join(dir, 'index.html')).href);
  await page.waitForFunction(() => globalThis.inlineEngine);
  return { page, problems };
}

test('loadAttention inflates the corpus; the text task trains on it as in Node', async () => {
  const { page, problems } = await open();
  const seen = await page.evaluate(async () => {
    const { engine, corpusAtStart } = globalThis.inlineEngine;
    const attn = await engine.loadAttention();
    const trainer = attn.createTrainer({ task: 'text', seed: 1 });
    const { loss } = trainer.step(3);
    const same = trainer.config.text === engine.DEFAULT_TEXT;
    trainer.dispose();
    return { corpusAtStart, text: engine.DEFAULT_TEXT, build: attn.build, loss, same };
  });
  assert.equal(seen.corpusAtStart, null, 'nothing inflated before loadAttention');
  assert.equal(seen.text, DEFAULT_TEXT);
  assert.equal(seen.build, 'simd');
  assert.ok(seen.same, 'the trainer read DEFAULT_TEXT');
  assert.equal(seen.loss, expected, 'bit for bit as in Node');
  assert.deepEqual(problems, []);
  await page.close();
});

test("a page whose only engine is a worker's gives the worker's text trainer the corpus", async () => {
  const { page, problems } = await open();
  const seen = await page.evaluate(async () => {
    const { engine, getWorkerEngine } = globalThis.inlineEngine;
    const worker = await getWorkerEngine();
    const trainer = await worker.createTrainer({ task: 'text', seed: 1 });
    const { loss } = await trainer.step(3);
    const config = await trainer.config;
    await trainer.dispose();
    return {
      inWorker: worker.inWorker,
      loss,
      same: config.text === engine.DEFAULT_TEXT,
      length: engine.DEFAULT_TEXT?.length,
    };
  });
  assert.ok(seen.inWorker, 'trained in a Web Worker');
  assert.equal(seen.length, DEFAULT_TEXT.length);
  assert.ok(seen.same, "the worker's trainer read DEFAULT_TEXT");
  assert.equal(seen.loss, expected, 'bit for bit as in Node');
  assert.deepEqual(problems, []);
  await page.close();
});
