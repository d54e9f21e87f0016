// The JS core (issue 37): the C++ core compiled to JavaScript by wasm2js, which the engine loads
// where WebAssembly may not be compiled. In Node (builds-node.js: attnbook-js.node.cjs):
// - loadAttention({ core: 'js' }) runs it (engine.build 'js', no SIMD); a SIMD JS core is refused;
// - it gives the wasm scalar build's results bit for bit (the same C++ and scalar kernels: attention
//   fused and with weights under every mask, softmax at τ = 0 / ∞, randn, a trainer's steps) and the
//   float64 reference's within the numerics contract (1e-6), as the SIMD build does;
// - bad input raises the same AttentionError, and the core stays usable;
// - the single file and the widgets hold it exactly when it fits the 300 KB gzip budget
//   (scripts/js-core.mjs), once (their inline worker has no copy); the site keeps it out of every
//   chunk but its own.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AttentionError, loadAttention } from 'attnbook';
import { JS_CORE_BUDGET, jsCoreGzipBytes } from '../../scripts/js-core.mjs';
import { maxAbsDiff } from './reference.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The wasm2js WebAssembly stand-in at the top of the JS core: present once wherever it is bundled. */
const JS_CORE_MARK = /\{Memory:function\(/g;

let js;
let scalar;
let simd;
before(async () => {
  [js, scalar, simd] = await Promise.all([
    loadAttention({ core: 'js' }),
    loadAttention({ simd: false }),
    loadAttention({ simd: true }),
  ]);
});

const bitwise = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

test("loadAttention({ core: 'js' }) runs the JS core, without SIMD; a SIMD JS core is refused", async () => {
  assert.equal(js.build, 'js');
  assert.equal(js.simd, false);
  assert.equal(scalar.build, 'scalar');
  assert.equal(simd.build, 'simd');
  await assert.rejects(loadAttention({ core: 'js', simd: true }), { name: 'AttentionError', message: /no SIMD/ });
  await assert.rejects(loadAttention({ core: 'asm' }), { name: 'AttentionError', kind: 'TypeError' });
});

test('attention: the scalar build bit for bit, the float64 reference within 1e-6, every mask', () => {
  const [q, k, v] = [js.randn([2, 19, 16], 1), js.randn([2, 23, 16], 2), js.randn([2, 23, 7], 3)];
  assert.ok(bitwise(q.data, scalar.randn([2, 19, 16], 1).data), 'randn draws the same stream');
  for (const mask of [null, 'causal', { window: 3, causal: true }]) {
    for (const returnWeights of [false, true]) {
      const options = { mask, returnWeights, temperature: 0.7 };
      const [a, b, c] = [js, scalar, simd].map((engine) => engine.attention(q, k, v, options));
      const ref = js.attentionReference(q, k, v, options);
      const what = `mask ${JSON.stringify(mask)}, weights ${returnWeights}`;
      assert.ok(bitwise(a.output.data, b.output.data), `${what}: output equals the scalar build's`);
      if (returnWeights) assert.ok(bitwise(a.weights.data, b.weights.data), `${what}: weights`);
      assert.equal(a.fullyMaskedRows, b.fullyMaskedRows);
      assert.ok(maxAbsDiff(a.output.data, ref.output.data) <= 1e-6, `${what}: within 1e-6 of float64`);
      assert.ok(maxAbsDiff(a.output.data, c.output.data) <= 2e-6, `${what}: within 2e-6 of the SIMD build`);
    }
  }
});

test('softmax at τ = 1, 0 and ∞, and the scores, as the scalar build gives them', () => {
  const logits = [1.2, 4.5, 2, 0.8, 4.5, -Infinity];
  for (const temperature of [1, 0, Infinity]) {
    assert.ok(bitwise(js.softmax(logits, { temperature }).data, scalar.softmax(logits, { temperature }).data));
  }
  assert.deepEqual(
    Array.from(js.softmax([1.2, 4.5, 2, 0.8]).data, (x) => +x.toFixed(4)),
    [0.0322, 0.8744, 0.0718, 0.0216],
  );
  assert.deepEqual(
    js.scores(
      [[1, 2]],
      [
        [3, 4],
        [5, 6],
      ],
      { scale: 1 },
    ).data,
    new Float32Array([11, 17]),
  );
});

test('bad input: the same AttentionError as the wasm build, and the JS core stays usable', () => {
  const call = (engine) => () => engine.softmax([1, NaN, 2]);
  assert.throws(call(js), AttentionError);
  const message = (engine) => {
    try {
      call(engine)();
    } catch (error) {
      return [error.message, error.kind];
    }
  };
  assert.deepEqual(message(js), message(scalar));
  assert.equal(js.softmax([0, 0]).data[0], 0.5);
});

test("a trainer's steps: the scalar build's losses bit for bit", () => {
  const losses = (engine) => {
    const trainer = engine.createTrainer({ task: 'reverse', seed: 3 });
    try {
      return [1, 2, 3].map(() => trainer.step(2).loss);
    } finally {
      trainer.dispose();
    }
  };
  assert.deepEqual(losses(js), losses(scalar));
});

test('the single file and the widgets hold the JS core once when it fits 300 KB gzipped; the site, in its own chunks', async () => {
  const gzipped = jsCoreGzipBytes();
  assert.ok(gzipped > 0, 'the JS core is built');
  const inlined = gzipped <= JS_CORE_BUDGET;
  for (const file of ['dist/attnbook.html', 'dist/embed/attn-widgets.js']) {
    const marks = (await readFile(path.join(root, file), 'utf8')).match(JS_CORE_MARK)?.length ?? 0;
    assert.equal(marks, inlined ? 1 : 0, `${file}: ${gzipped} B gzipped, budget ${JS_CORE_BUDGET} B`);
  }
  const assets = path.join(root, 'dist', 'site', 'assets');
  for (const name of (await readdir(assets)).filter((f) => f.endsWith('.js'))) {
    const marks = (await readFile(path.join(assets, name), 'utf8')).match(JS_CORE_MARK)?.length ?? 0;
    assert.equal(marks, /^attnbook-js\.web-/.test(name) ? 1 : 0, `${name} holds the JS core only if it is its chunk`);
  }
});
