// The pool's shared-memory way (web/src/engine/pool-shared.js, as pool.attention runs in Node): how
// a call is cut into head and tail parts (sharedRanges); the caller's side gathering, taking over
// and recomputing parts (callerParts, with workOnParts run on this thread); and on worker threads,
// a long call with tail parts, a call too small to split (whole on one worker) and calls with
// workers lost or still loading, each bit for bit the single-thread call.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
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
  TAIL_OVERHEAD,
  TAIL_SHARE,
} from '../../web/src/engine/pool-split.js';
import { assertSame, tensor } from './pool-helpers.js';

const attn = await loadAttention();

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
