// The worker pool (web/src/engine/pool.js) in Node, on worker threads: pool.attention is bitwise
// equal to the single-thread attention() of the same build for every mask kind and shape of the
// API tests (split across workers, and run whole on one worker where a call is small); the
// bad-input rows give the same AttentionErrors through the pool; a worker ended mid-call rejects
// that call and the next one works; the caller's arrays stay intact; dispose ends it. How rows are
// split is checked on its own (splitRows, keysOfRow).
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { AttentionError, loadAttention } from '../../web/src/engine/index.js';
import { createPool } from '../../web/src/engine/pool.js';
import {
  callerParts,
  DONE,
  FAILED,
  fillJob,
  NEXT,
  openJob,
  sharedJob,
  STATE,
  workOnParts,
} from '../../web/src/engine/pool-shared.js';
import {
  broadcastLead,
  keysOfRow,
  MIN_PART_FLOP,
  partOptions,
  readOptions,
  ROW_BLOCK,
  sharedRanges,
  splitRows,
  TAIL_OVERHEAD,
  TAIL_SHARE,
  workersFor,
} from '../../web/src/engine/pool-split.js';
import { API_ROWS } from '../bad-input/matrix.js';

const attn = await loadAttention();

/** A tensor of `shape` with values from a fixed generator (seed), in [−1, 1). */
function tensor(shape, seed) {
  const data = new Float32Array(shape.reduce((a, b) => a * b, 1));
  let x = seed >>> 0;
  for (let i = 0; i < data.length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    data[i] = x / 2 ** 31 - 1;
  }
  return { data, shape };
}

const bitwise = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

function assertSame(got, want, what) {
  assert.deepEqual(got.output.shape, want.output.shape, `${what}: output shape`);
  assert.ok(bitwise(got.output.data, want.output.data), `${what}: output bit for bit`);
  assert.equal(got.fullyMaskedRows, want.fullyMaskedRows, `${what}: fully masked rows`);
  for (const name of ['weights', 'logits']) {
    assert.equal(Boolean(got[name]), Boolean(want[name]), `${what}: ${name} given`);
    if (want[name]) {
      assert.deepEqual(got[name].shape, want[name].shape, `${what}: ${name} shape`);
      assert.ok(bitwise(got[name].data, want[name].data), `${what}: ${name} bit for bit`);
    }
  }
}

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

test('sharedRanges: a head part per thread in proportion to its speed, then tail parts (one per thread at least, or none)', () => {
  const flat = () => 1e6;
  const overhead = 25 * 1e6; // what one more part costs: 25 rows' work
  assert.equal(TAIL_SHARE, 1 / 8);
  assert.equal(TAIL_OVERHEAD, 0.015);
  assert.deepEqual(
    sharedRanges(1024, flat, [1, 1], 1, overhead),
    {
      ranges: [
        [0, 512],
        [512, 1024],
      ],
      heads: 2,
    },
    'tail parts would cost more than 1.5 % of the work: none',
  );
  assert.deepEqual(
    sharedRanges(1024, flat, [1, 0.5], 1, overhead).ranges,
    [
      [0, 684],
      [684, 1024],
    ],
    'a worker half as fast as the caller gets half as much',
  );
  assert.deepEqual(
    sharedRanges(4096, flat, [1, 1], 1, overhead),
    {
      ranges: [
        [0, 1792],
        [1792, 3584],
        [3584, 3840],
        [3840, 4096],
      ],
      heads: 2,
    },
    'the head parts share seven eighths of the work; two tail parts cost 1.2 % more',
  );
  const long = sharedRanges(16384, flat, [1, 1], 1, overhead);
  assert.equal(long.ranges.length, 2 + 8, 'at most 4 tail parts per thread');
  assert.deepEqual(sharedRanges(4096, flat, [1, 1, 1], 1, 0).ranges.length, 3 + 12, 'no overhead: as many as may be');
  assert.deepEqual(sharedRanges(3, flat, [1, 1, 1, 1], 1, 0), { ranges: [[0, 3]], heads: 1 }, 'one block: no split');
  assert.deepEqual(
    sharedRanges(1024, () => 10, [1, 1]),
    { ranges: [[0, 1024]], heads: 1 },
    'too little work',
  );
  assert.equal(sharedRanges(1024, flat, [1, 1, 1], 4e8, 0).heads, 2, 'work for two parts of minPartFlop only');
  for (const [L, speeds, rowFlop] of [
    [4096, [1, 1], flat],
    [4096, [1, 0.3, 2], (i) => (i + 1) * 1e4],
    [157, [1, 1], flat],
    [9, [1, 1, 1, 1, 1, 1, 1, 1], flat],
    [2048, [1, 1, 1, 1, 1], (i) => (i + 1) * 1e4],
  ]) {
    const { ranges, heads } = sharedRanges(L, rowFlop, speeds, 1, 0);
    assert.equal(heads, Math.min(speeds.length, Math.ceil(L / ROW_BLOCK)));
    assert.equal(ranges[0][0], 0);
    assert.equal(ranges.at(-1)[1], L);
    ranges.forEach(([r0, r1], p) => {
      assert.equal(r0 % ROW_BLOCK, 0, `L=${L}: part ${p} starts at a block`);
      assert.ok(r1 > r0, `L=${L}: part ${p} is not empty`);
      if (p > 0) assert.equal(r0, ranges[p - 1][1], 'contiguous');
    });
  }
  // causal: the head parts hold equal work, so the first holds more rows
  const causal = keysOfRow({ mask: 'causal' }, 4096, 0);
  const [[, cut]] = sharedRanges(4096, (i) => causal(i) * 1e4, [1, 1], 1, 0).ranges;
  assert.ok(cut > 2600 && cut < 2800, `the causal cut is near 4096·√(7/16) (${cut})`);
  assert.deepEqual(broadcastLead([[2, 1], [3], []]), [2, 3]);
  assert.deepEqual(broadcastLead([[], [], []]), []);
  assert.equal(broadcastLead([[2], [3], []]), null);
});

test('the shared way: the caller computes a part its worker holds too long, has not started or failed; gathers the rest', () => {
  const [q, k, v] = [tensor([256, 16], 1), tensor([200, 16], 2), tensor([200, 8], 3)];
  const ranges = [
    [0, 64],
    [64, 128],
    [128, 192],
    [192, 256],
  ];
  const OWNER = STATE + ranges.length; // control[OWNER + p]: who took part p (t + 1)
  for (const options of [{ mask: 'causal', returnWeights: true }, undefined]) {
    const want = attn.attention(q, k, v, options);
    const names = ['output', ...(options?.returnWeights ? ['weights'] : [])];
    const make = () => {
      const opts = partOptions(readOptions(options), 256, ranges);
      const partFlop = ranges.map(([r0, r1]) => (r1 - r0) * 200 * 48);
      const call = { q, k, v, ranges, heads: 2, opts, partFlop, lead: [], L: 256, S: 200, Ev: 8, names };
      const job = sharedJob(call);
      const views = openJob(job);
      fillJob(views, { q, k, v });
      const result = Object.fromEntries(
        names.map((n) => [n, { data: new Float32Array(want[n].data.length), shape: want[n].shape }]),
      );
      const gather = () => {
        const figures = callerParts(attn, job, views, { q, k, v }, result, [1, 1]);
        assertSame({ ...result, fullyMaskedRows: figures.fullyMaskedRows }, want, JSON.stringify(options));
        return figures;
      };
      return { job, views, gather };
    };
    // worker 1 started its head part (1) and holds it; it took tail part 2 and failed it
    let { views, gather } = make();
    Atomics.store(views.control, OWNER + 1, 2);
    views.claimed[1] = performance.timeOrigin + performance.now();
    assert.equal(Atomics.add(views.control, NEXT, 1), 2, 'the tail parts come after the 2 head parts');
    Atomics.store(views.control, OWNER + 2, 2);
    Atomics.store(views.control, STATE + 2, FAILED);
    let figures = gather();
    assert.deepEqual([figures.mine, figures.taken], [4, 2], 'the caller computed every part, two of them taken over');
    assert.deepEqual(figures.ratios, [null, 4], 'worker 1 held a part too long');
    // worker 1 has not started: the caller takes its head part at once
    ({ views, gather } = make());
    figures = gather();
    assert.deepEqual([figures.mine, figures.taken, figures.ratios[1]], [4, 1, 4]);
    // worker 1 (here, this thread) computed its head part and the tail parts: the caller gathers them
    let job;
    ({ job, views, gather } = make());
    assert.equal(workOnParts(attn, job, 1), 3);
    assert.ok([1, 2, 3].every((p) => views.control[STATE + p] === DONE && views.control[OWNER + p] === 2));
    figures = gather();
    assert.deepEqual([figures.mine, figures.taken], [1, 0]);
    assert.ok(figures.ratios[1] > 0, 'how fast worker 1 was');
    assert.ok(figures.scratchBytes > 0);
  }
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

test('a long call, split into head and tail parts, on 2 threads: bit for bit, with and without a mask', async () => {
  const pool = await attn.createPool({ threads: 2 });
  try {
    // 4096 query rows against 512 keys: each part costs about 25 rows more, so there are tail parts
    const [q, k, v] = [tensor([4096, 16], 1), tensor([512, 16], 2), tensor([512, 16], 3)];
    const { ranges } = sharedRanges(4096, () => 2 * 512 * 32, [1, 1], MIN_PART_FLOP, 25 * 2 * 512 * 32);
    assert.equal(ranges.length, 4, 'two head parts and two tail parts');
    for (const options of [undefined, { mask: 'causal' }, { returnWeights: true, mask: { window: 100 } }]) {
      for (let i = 0; i < 2; i++) {
        assertSame(await pool.attention(q, k, v, options), attn.attention(q, k, v, options), JSON.stringify(options));
      }
    }
  } finally {
    pool.dispose();
  }
});

test('the shared way: a call too small to split runs whole on one worker, not on the calling thread; a call that splits computes there too', async () => {
  // the caller's engine, counting the calls it computes (warmUp's and the parts')
  let here = 0;
  const local = {
    attention: (...args) => {
      here++;
      return attn.attention(...args);
    },
  };
  const pool = await createPool({ threads: 2, simd: attn.simd, local, shared: true });
  try {
    const small = [tensor([64, 16], 1), tensor([64, 16], 2), tensor([64, 16], 3)];
    const rowFlop = () => 2 * 64 * 32;
    assert.equal(sharedRanges(64, rowFlop, [1, 1], MIN_PART_FLOP).heads, 1, 'too small to split');
    here = 0;
    for (const options of [undefined, { mask: 'causal' }, { returnWeights: true }]) {
      const [q, k, v] = small;
      assertSame(await pool.attention(q, k, v, options), attn.attention(q, k, v, options), JSON.stringify(options));
    }
    assert.equal(here, 0, 'the small calls ran on a worker');
    const large = [tensor([1024, 64], 1), tensor([1024, 64], 2), tensor([1024, 64], 3)];
    assertSame(await pool.attention(...large), attn.attention(...large), 'L = S = 1024');
    assert.ok(here >= 1, 'the caller computed a part of the call that splits');
  } finally {
    pool.dispose();
  }
});

test('the shared way: with a worker ended just before, or every worker busy, the call still gives the right result', async () => {
  const pool = await attn.createPool({ threads: 2 });
  try {
    const [q, k, v] = [tensor([1024, 64], 1), tensor([1024, 64], 2), tensor([1024, 64], 3)];
    const want = attn.attention(q, k, v);
    pool.terminateWorker(1); // its replacement is still loading during the call
    assertSame(await pool.attention(q, k, v), want, 'a worker just ended');
    pool.terminateWorker(0);
    pool.terminateWorker(1);
    assertSame(await pool.attention(q, k, v), want, 'no worker loaded: the caller alone');
    assertSame(await pool.attention(q, k, v), want, 'and the next call');
  } finally {
    pool.dispose();
  }
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
