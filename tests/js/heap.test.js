// The wasm heap does not grow over many valid and invalid calls: every C++
// allocation made for a call, including on error paths, is freed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AttentionError, loadAttention } from 'attnbook';

test('100,000 mixed valid and invalid calls of every function leave the heap as they found it', async () => {
  const attn = await loadAttention();
  const q = attn.randn([2, 5, 8], 1);
  const bad = { data: Float32Array.from(q.data, (x, i) => (i === 7 ? NaN : x)), shape: [2, 5, 8] };
  const calls = [
    () => attn.attention(q, q, q, { mask: 'causal', returnWeights: true }),
    () => attn.attention(q, q, bad),
    () => attn.softmax([1.2, 4.5, 2, 0.8], { temperature: 0.25 }),
    () => attn.softmax([1, NaN]),
    () => attn.convexCombination([0.5, 0.6], [[1], [2]]),
    () => attn.dirichlet([1, 1, 1], 20, 3),
    () => attn.splitHeads(q, 3),
    () => attn.splitHeads(q, 5),
    () => attn.mergeHeads(attn.splitHeads(q, 4)),
    () => attn.attentionReference(q, q, q, { mask: { window: 1 } }),
    () => attn.attention(q, q, q, { temperature: -1 }),
    () => attn.attention(q, q, q, { mask: [[true]] }),
    () =>
      attn.rowStochasticReport([
        [0.5, 0.5],
        [1, 0],
      ]),
    () => attn.rowStochasticReport([[Infinity]]),
    () => attn.randn([3, 4], 7),
    () => attn.randn([3, -4], 7),
    () =>
      attn.convexHull([
        [1, 1],
        [1.5, 4],
        [5, 4.5],
        [4, 0.5],
      ]),
    () =>
      attn.pointsInHull(
        [[2, 2]],
        [
          [0, 0],
          [1, 0],
          [0, 1],
        ],
      ),
    () => attn.convexHull([[1, NaN]]),
    () => attn.entropy([[0.25, 0.25, 0.5]]),
    () => attn.effectivePositions([[1, 0]]),
    () => attn.entropy([]),
    () => attn.dirichlet([0, 1], 2, 1),
  ];
  const round = () => {
    for (const call of calls) {
      try {
        call();
      } catch (error) {
        if (!(error instanceof AttentionError)) throw error;
      }
    }
  };
  for (let i = 0; i < 20; i++) round(); // warm-up: allocator free lists settle
  const before = attn.memory();
  const rounds = Math.ceil(100000 / calls.length);
  for (let i = 0; i < rounds; i++) round();
  const after = attn.memory();
  console.log(
    `${rounds * calls.length} calls; heap: ${before.heapBytes} -> ${after.heapBytes} bytes; in use ${before.inUseBytes} -> ${after.inUseBytes}`,
  );
  assert.equal(after.heapBytes, before.heapBytes, 'wasm memory grew');
  assert.equal(after.inUseBytes, before.inUseBytes, 'bytes in use changed: something leaks');
});

test('10,000 trainer calls (create, step, predict, export, load, dispose, and bad ones) leave the heap as they found it', async () => {
  const attn = await loadAttention();
  let seed = 0;
  const round = () => {
    const calls = [];
    const t = attn.createTrainer({ task: 'retrieval2d', seed: seed++, batchSize: 4 });
    let u;
    calls.push(
      () => t.step(1),
      () => t.predict(t.sample(seed).input),
      () => t.evaluate({ samples: 4, seed }),
      () => {
        u = attn.loadTrainer(t.exportState());
      },
      () => u.step(2),
      () => u.parameters(),
      () => u.setHeadEnabled(0, 0, false),
      () => u.predict([0, 2, 4]),
      () => {
        // every kind of block: two layers, MLP, LayerNorm
        const w = attn.createTrainer({
          task: 'sort',
          seed,
          layers: 2,
          dModel: 8,
          mlp: true,
          layerNorm: true,
          batchSize: 2,
        });
        w.step(1);
        w.predict(w.sample(seed).input);
        w.dispose();
      },
      () => attn.createTrainer({ task: 'reverse', heads: 3 }),
      () => attn.createTrainer({ task: 'copy' }),
      () => attn.createTrainer({ task: 'reverse', dModel: 4096 }),
      () => attn.createTrainer({ task: 'lookup', batchSize: 0 }),
      () => t.predict([9, 0, 0]),
      () => t.predict([0, 0]),
      () => t.step(-1),
      () => u.setHeadEnabled(3, 0, true),
      () => attn.loadTrainer({ ...t.exportState(), weights: [1, 2, 3] }),
      () => attn.loadTrainer({ ...t.exportState(), data: { ...t.exportState().data, increment: '2' } }),
      () => attn.loadTrainer({ ...t.exportState(), m: t.exportState().m.map(() => NaN) }),
      () => t.dispose(),
      () => u.dispose(),
      () => t.step(1), // disposed
    );
    let count = 1; // createTrainer
    for (const call of calls) {
      count++;
      try {
        call();
      } catch (error) {
        if (!(error instanceof AttentionError)) throw error;
      }
    }
    return count;
  };
  for (let i = 0; i < 20; i++) round(); // warm-up: the task table, allocator free lists
  const before = attn.memory();
  const started = performance.now();
  let calls = 0;
  while (calls < 10000) calls += round();
  const seconds = (performance.now() - started) / 1000;
  const after = attn.memory();
  console.log(
    `${calls} trainer calls in ${seconds.toFixed(1)} s; heap: ${before.heapBytes} -> ${after.heapBytes} bytes; in use ${before.inUseBytes} -> ${after.inUseBytes}`,
  );
  assert.equal(after.heapBytes, before.heapBytes, 'wasm memory grew');
  assert.equal(after.inUseBytes, before.inUseBytes, 'bytes in use changed: something leaks');
});
