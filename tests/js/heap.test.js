// The wasm heap does not grow over many valid and invalid calls: every C++
// allocation made for a call, including on error paths, is freed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AttentionError, loadAttention } from 'attnbook';

test('10,000 mixed valid and invalid calls leave the heap as they found it', async () => {
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
  const rounds = Math.ceil(10000 / calls.length);
  for (let i = 0; i < rounds; i++) round();
  const after = attn.memory();
  console.log(
    `heap: ${before.heapBytes} -> ${after.heapBytes} bytes; in use ${before.inUseBytes} -> ${after.inUseBytes}`,
  );
  assert.equal(after.heapBytes, before.heapBytes, 'wasm memory grew');
  assert.equal(after.inUseBytes, before.inUseBytes, 'bytes in use changed: something leaks');
});
