// The worker pool (web/src/engine/pool.js) in Node, on worker threads: pool.attention is bitwise
// equal to the single-thread attention() of the same build for every mask kind and shape of the
// API tests, split across workers both ways (shared memory, as in Node, and messages, as in a
// browser); the bad-input rows give the same AttentionErrors through the pool; a worker ended
// mid-call rejects that call and the next one works; the caller's arrays stay intact; dispose ends
// it. How rows are split is checked on its own (splitRows, keysOfRow); the shared way's parts,
// small calls and lost workers in pool-shared.test.js.
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { AttentionError, loadAttention } from '../../web/src/engine/index.js';
import { createPool } from '../../web/src/engine/pool.js';
import { keysOfRow, MIN_PART_FLOP, ROW_BLOCK, splitRows, workersFor } from '../../web/src/engine/pool-split.js';
import { API_ROWS } from '../bad-input/matrix.js';
import { assertSame, bitwise, tensor } from './pool-helpers.js';

const attn = await loadAttention();

test('workersFor: the workers a call keeps busy, 1 when it is too small to split', () => {
  assert.equal(
    workersFor(1024, () => 1e6, 2),
    2,
  );
  assert.equal(
    workersFor(1024, () => 1e6, 8),
    8,
  );
  assert.equal(
    workersFor(1024, () => 10, 8),
    1,
    'too little work',
  );
  assert.equal(
    workersFor(6, () => 1e9, 4),
    2,
    'two blocks of rows: two parts at most',
  );
  assert.equal(
    workersFor(1024, () => 10, 8, 1),
    8,
    'a smaller minPartFlop splits it',
  );
});

test('splitRows: parts start at multiples of the block, cover every row once, share the work, keep MIN_PART_FLOP', () => {
  const flat = () => 1e6;
  assert.deepEqual(splitRows(1024, flat, 1), [[0, 1024]]);
  assert.deepEqual(splitRows(1024, flat, 2), [
    [0, 512],
    [512, 1024],
  ]);
  assert.deepEqual(splitRows(3, flat, 4), [[0, 3]], 'one block: no split');
  assert.deepEqual(
    splitRows(1024, () => 10, 8),
    [[0, 1024]],
    'too little work: no split',
  );
  for (const [L, threads] of [
    [1000, 3],
    [157, 2],
    [4096, 7],
    [9, 8],
  ]) {
    const ranges = splitRows(L, flat, threads, 1);
    assert.equal(ranges[0][0], 0);
    assert.equal(ranges.at(-1)[1], L);
    ranges.forEach(([r0, r1], p) => {
      assert.equal(r0 % ROW_BLOCK, 0, `L=${L}: part ${p} starts at a block`);
      assert.ok(r1 > r0);
      if (p > 0) assert.equal(r0, ranges[p - 1][1], 'contiguous');
    });
    assert.ok(ranges.length <= threads);
  }
  // causal: later rows cost more, so the first part takes more rows
  const causal = keysOfRow({ mask: 'causal' }, 4096, 0);
  const [[, cut]] = splitRows(4096, (i) => causal(i) * 1e4, 2);
  assert.ok(cut > 2700 && cut < 3100, `the causal cut is near 4096/√2 (${cut})`);
  assert.equal(keysOfRow({ mask: 'window', window: 3, causal: false }, 100, 0)(0), 4);
  assert.equal(keysOfRow({ mask: 'window', window: 3, causal: true }, 100, 10)(0), 4);
  assert.equal(keysOfRow({ mask: 'none' }, 100, 0)(7), 100);
  assert.ok(MIN_PART_FLOP >= 1e6);
});

/** Calls of every mask kind and shape (and nested arrays), with what each is. */
function splitCases() {
  const cases = [];
  const masks = (L, S) => [
    null,
    'causal',
    { window: 5 },
    { window: 5, causal: true },
    { data: tensor([L, S], 3).data.map((x) => (x > -0.6 ? 1 : 0)), shape: [L, S] },
    { data: tensor([1, S], 4).data.map((x) => (x > 0 ? 1 : 0)), shape: [1, S] },
    { data: tensor([S], 5).data.map((x) => (x > 0 ? 1 : 0)), shape: [S] },
    { additive: { data: tensor([L, S], 6).data.map((x) => (x > 0.8 ? -Infinity : x)), shape: [L, S] } },
    { additive: tensor([S], 7) },
    // rows with no allowed key: counted across the parts
    { data: new Float32Array(L * S).map((_, i) => (Math.floor(i / S) % 7 === 3 ? 0 : 1)), shape: [L, S] },
  ];
  for (const [qs, ks, vs] of [
    [
      [37, 8],
      [37, 8],
      [37, 6],
    ],
    [
      [2, 64, 16],
      [2, 50, 16],
      [2, 50, 16],
    ],
    [
      [2, 1, 29, 6],
      [4, 33, 6],
      [33, 5],
    ],
    [
      [103, 32],
      [1, 103, 32],
      [103, 32],
    ],
  ]) {
    const [L, S] = [qs.at(-2), ks.at(-2)];
    const [q, k, v] = [tensor(qs, 1), tensor(ks, 2), tensor(vs, 9)];
    for (const mask of masks(L, S)) {
      for (const extra of [{}, { returnWeights: true }, { returnLogits: true, temperature: 0.5 }]) {
        cases.push({
          q,
          k,
          v,
          options: { mask, ...extra },
          what: `q ${qs} k ${ks} v ${vs} mask ${JSON.stringify(mask)?.slice(0, 40)} ${JSON.stringify(extra)}`,
        });
      }
    }
    cases.push({ q, k, v, options: { temperature: 0 }, what: `q ${qs}: τ = 0` });
    cases.push({ q, k, v, options: { temperature: Infinity, mask: 'causal' }, what: `q ${qs}: τ = ∞` });
    cases.push({ q, k, v, options: { mask: 'causal', rowOffset: 5 }, what: `q ${qs}: the caller's rowOffset` });
    cases.push({ q, k, v, options: undefined, what: `q ${qs}: no options` });
  }
  // nested arrays, as a learner passes them
  const nested = (t) =>
    Array.from({ length: t.shape[0] }, (_, i) => Array.from(t.data.subarray(i * t.shape[1], (i + 1) * t.shape[1])));
  const [nq, nk] = [tensor([21, 4], 11), tensor([21, 4], 12)];
  cases.push({ q: nested(nq), k: nested(nk), v: nested(nk), options: { mask: 'causal' }, what: 'nested arrays' });
  return cases;
}

for (const way of ['shared', 'messages']) {
  // 'shared': the caller and the workers take parts from one counter in shared memory, as in Node
  // (pool-shared.js); 'messages': each worker gets its parts by message, as in a browser
  describe(`a pool of 3 worker threads that splits even small calls (${way})`, () => {
    let pool;
    before(async () => {
      pool =
        way === 'shared'
          ? await attn.createPool({ threads: 3, minPartFlop: 1 })
          : await createPool({ threads: 3, minPartFlop: 1, simd: attn.simd, local: attn, shared: false });
    });
    after(() => pool?.dispose());

    test('threads, and every mask kind and shape gives the single-thread result bit for bit', async () => {
      assert.equal(pool.threads, 3);
      const cases = splitCases();
      for (const { q, k, v, options, what } of cases) {
        assertSame(await pool.attention(q, k, v, options), attn.attention(q, k, v, options), what);
      }
      console.log(`# ${cases.length} calls, each split across the pool, bitwise equal to attention()`);
    });

    test("the bad-input rows of attention give attention()'s errors through the pool", async () => {
      const rows = API_ROWS.filter((r) => r.fn === 'attention');
      assert.ok(rows.length >= 20, `${rows.length} rows`);
      for (const r of rows) {
        const args = r.args(attn);
        await assert.rejects(
          pool.attention(...args),
          (error) => {
            assert.ok(error instanceof AttentionError, `${r.cls} ${r.what}: an AttentionError (${error})`);
            assert.equal(error.kind, r.kind, `${r.cls} ${r.what}: kind`);
            assert.match(error.message, r.message, `${r.cls} ${r.what}`);
            return true;
          },
          `${r.cls} ${r.what}`,
        );
      }
      // a bad value in a part names its index in the whole problem, not in the part
      const q = tensor([64, 8], 1);
      q.data[50 * 8 + 3] = NaN;
      await assert.rejects(
        pool.attention(q, tensor([64, 8], 2), tensor([64, 8], 3)),
        /^AttentionError: attention: q\[50, 3\] is NaN/,
      );
      await assert.rejects(
        pool.attention(q, tensor([64, 8], 2), tensor([64, 8], 3)),
        (e) => e.message === 'attention: q[50, 3] is NaN',
      );
      // and the pool keeps working
      const [a, b, c] = [tensor([64, 8], 1), tensor([64, 8], 2), tensor([64, 8], 3)];
      assertSame(await pool.attention(a, b, c), attn.attention(a, b, c), 'after the errors');
    });

    test("the caller's arrays stay intact (copied to the workers, never transferred)", async () => {
      const [q, k, v] = [tensor([40, 8], 1), tensor([40, 8], 2), tensor([40, 8], 3)];
      const copies = [q, k, v].map((t) => Float32Array.from(t.data));
      await pool.attention(q, k, v, { mask: 'causal' });
      [q, k, v].forEach((t, i) => {
        assert.equal(t.data.length, copies[i].length, 'not detached');
        assert.ok(bitwise(t.data, copies[i]), 'unchanged');
      });
    });
  });
}

test("createPool's options are checked; 'auto' is one worker per core; calls after dispose reject", async () => {
  for (const [threads, message] of [
    [0, /threads must be 'auto' or a whole number from 1 to 64, got number 0/],
    [1.5, /got number 1.5/],
    [65, /got number 65/],
    ['many', /got the string "many"/],
  ]) {
    await assert.rejects(attn.createPool({ threads }), (e) => e instanceof AttentionError && message.test(e.message));
  }
  await assert.rejects(attn.createPool('auto'), /createPool: options must be an object such as \{ threads: 'auto' \}/);
  await assert.rejects(attn.createPool({ minPartFlop: 0 }), /minPartFlop must be a number >= 1, got number 0/);
  const auto = await attn.createPool();
  assert.equal(auto.threads, Math.min(64, availableParallelism()));
  const [q, k, v] = [tensor([8, 4], 1), tensor([8, 4], 2), tensor([8, 4], 3)];
  assertSame(await auto.attention(q, k, v), attn.attention(q, k, v), "'auto'");
  auto.dispose();
  await assert.rejects(auto.attention(q, k, v), /attention: this pool was disposed/);
});

test('a worker ended mid-call (the message way): that call rejects at once, a new worker takes its place, the next call works', async () => {
  const pool = await createPool({ threads: 2, simd: attn.simd, local: attn, shared: false });
  try {
    const [q, k, v] = [tensor([2048, 64], 1), tensor([2048, 64], 2), tensor([2048, 64], 3)];
    const call = pool.attention(q, k, v); // large enough to split: both workers busy
    pool.terminateWorker(0);
    await assert.rejects(call, (e) => {
      assert.ok(e instanceof AttentionError);
      assert.match(
        e.message,
        /^attention: pool worker 0 stopped during the call: it was terminated; a new worker replaces it/,
      );
      return true;
    });
    assertSame(await pool.attention(q, k, v), attn.attention(q, k, v), 'the next call, on the new worker');
    assert.throws(() => pool.terminateWorker(2), /terminateWorker: the pool has workers 0 to 1, not number 2/);
  } finally {
    pool.dispose();
  }
});
