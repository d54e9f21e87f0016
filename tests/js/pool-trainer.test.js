// Data-parallel training in the worker pool (pool.createTrainer, web/src/engine/trainer-parallel.js)
// in Node, on worker threads: after the same calls, a pool trainer's state is bit for bit that of
// attn.createTrainer on this thread, for 2 and 3 threads, through a head switched off, a short
// last micro-batch, loadTrainer and a cancelled step; float64 and one-part batches run too. A
// helper or the leader ended mid-step rejects that call cleanly, and the pool goes on (both ended
// at once, too); so does a helper whose wasm traps (its side and the leader's, each over a
// MessageChannel of this thread).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AttentionError, loadAttention } from '../../web/src/engine/index.js';
import { Helpers, MIN_PART_MS, serveReplicas, shareStep } from '../../web/src/engine/trainer-parallel.js';
import { PARTS } from '../../web/src/engine/trainer.js';

const attn = await loadAttention();

const bitwise = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

function assertSameState(got, want, what) {
  assert.equal(got.step, want.step, `${what}: step`);
  assert.deepEqual(got.config, want.config, `${what}: config`);
  assert.deepEqual(got.data, want.data, `${what}: data stream`);
  assert.ok(Object.is(got.lastLoss, want.lastLoss), `${what}: last loss ${got.lastLoss} vs ${want.lastLoss}`);
  for (const field of ['weights', 'm', 'v'])
    assert.ok(bitwise(got[field], want[field]), `${what}: ${field} bit for bit`);
  assert.deepEqual([...got.headEnabled], [...want.headEnabled], `${what}: heads`);
}

// The same calls on a pool trainer and on one here: step 12, switch head 1 of layer 0 off,
// step 9; the losses of every call and the final states must agree.
async function trainBoth(pool, options) {
  const pooled = await pool.createTrainer(options);
  const alone = attn.createTrainer(options);
  try {
    assert.deepEqual(await pooled.step(12), alone.step(12), 'the first 12 steps');
    await pooled.setHeadEnabled(0, 1, false);
    alone.setHeadEnabled(0, 1, false);
    assert.deepEqual(await pooled.step(9), alone.step(9), '9 more with a head off');
    assertSameState(await pooled.exportState(), alone.exportState(), JSON.stringify(options));
    assert.deepEqual(await pooled.evaluate({ samples: 64 }), alone.evaluate({ samples: 64 }));
    return pooled;
  } finally {
    alone.dispose();
  }
}

test('a step is shared only with helpers, in float32, with more than one part that takes MIN_PART_MS', async () => {
  const step = { helpers: 1, precision: 'float32', parts: 4, partMs: 2, minPartMs: MIN_PART_MS };
  assert.equal(MIN_PART_MS, 1);
  assert.equal(shareStep(step), true);
  assert.equal(shareStep({ ...step, helpers: 0 }), false, 'no helpers');
  assert.equal(shareStep({ ...step, precision: 'float64' }), false, 'float64');
  assert.equal(shareStep({ ...step, parts: 1 }), false, 'one part');
  assert.equal(shareStep({ ...step, partMs: undefined }), false, 'not yet measured');
  assert.equal(shareStep({ ...step, partMs: 0.2 }), false, 'too little work a part');
  assert.equal(shareStep({ ...step, partMs: 0.2, minPartMs: 0 }), true, 'minPartMs 0: always');

  // a pool that never shares (minPartMs Infinity) trains alone on worker 0, bit for bit the same
  const pool = await attn.createPool({ threads: 2, minPartMs: Infinity });
  const pooled = await pool.createTrainer({ task: 'sort', seed: 1 });
  const workers = [];
  await pooled.step(20, { onProgress: (p) => workers.push(p.workers) });
  assert.ok(workers.length > 0 && workers.every((w) => w === 1), String(workers));
  const alone = attn.createTrainer({ task: 'sort', seed: 1 });
  alone.step(20);
  assertSameState(await pooled.exportState(), alone.exportState(), 'never shared');
  alone.dispose();
  pool.dispose();
  await assert.rejects(
    attn.createPool({ minPartMs: -1 }),
    /createPool: minPartMs must be a number >= 0, got number -1/,
  );
});

for (const threads of [2, 3]) {
  describe(`a pool of ${threads} trains bit for bit as one thread does`, () => {
    let pool;
    before(async () => {
      pool = await attn.createPool({ threads, minPartMs: 0 }); // every step shared, however small
    });
    after(() => pool.dispose());

    test('sort: 4 micro-batches of 8; reverse: a batch of 20 ends in a micro-batch of 4', async () => {
      assert.equal(pool.threads, threads);
      const shared = await pool.createTrainer({ task: 'sort', seed: 1 });
      const reports = [];
      await shared.step(30, { onProgress: (p) => reports.push(p.workers) });
      assert.equal(reports.at(-1), threads, 'every worker shared the steps');
      await shared.dispose();
      await (await trainBoth(pool, { task: 'sort', seed: 3 })).dispose();
      await (await trainBoth(pool, { task: 'reverse', seed: 2, heads: 2, batchSize: 20 })).dispose();
    });

    test('loadTrainer continues a saved state as the saved trainer would', async () => {
      const alone = attn.createTrainer({ task: 'lookup', seed: 5 });
      alone.step(7);
      const saved = JSON.parse(JSON.stringify(alone.exportState()));
      const pooled = await pool.loadTrainer(saved);
      assert.deepEqual(await pooled.step(11), alone.step(11));
      assertSameState(await pooled.exportState(), alone.exportState(), 'loaded');
      await pooled.dispose();
      alone.dispose();
    });

    test('a float64 trainer and a batch of one micro-batch run on one worker, as here', async () => {
      for (const options of [
        { task: 'reverse', seed: 1, precision: 'float64', batchSize: 16 },
        { task: 'sort', seed: 1, batchSize: 8 },
      ]) {
        const pooled = await pool.createTrainer(options);
        const alone = attn.createTrainer(options);
        assert.deepEqual(await pooled.step(5), alone.step(5));
        assertSameState(await pooled.exportState(), alone.exportState(), JSON.stringify(options));
        await pooled.dispose();
        alone.dispose();
      }
    });
  });
}

describe('a pool trainer as a worker handle: progress, cancel, errors, lost workers', () => {
  let pool;
  before(async () => {
    pool = await attn.createPool({ threads: 2, minPartMs: 0 });
  });
  after(() => pool.dispose());

  test('step reports progress; a cancelled step leaves the trainer at a completed step, still in step', async () => {
    const pooled = await pool.createTrainer({ task: 'sort', seed: 4 });
    const controller = new AbortController();
    const seen = [];
    await assert.rejects(
      pooled.step(100000, {
        signal: controller.signal,
        onProgress: (p) => {
          seen.push(p);
          controller.abort();
        },
      }),
      (e) => e instanceof AttentionError && e.kind === 'Cancelled' && /the trainer is at step \d+/.test(e.message),
    );
    assert.ok(seen.length >= 1 && seen[0].done >= 1, 'progress came before the cancel');
    const { step } = await pooled.step(0);
    assert.ok(step >= seen[0].done);
    const alone = attn.createTrainer({ task: 'sort', seed: 4 });
    alone.step(step);
    assert.deepEqual(await pooled.step(6), alone.step(6));
    assertSameState(await pooled.exportState(), alone.exportState(), 'after the cancel');
    alone.dispose();
    await pooled.dispose();
  });

  test("bad options are createTrainer's errors; createTrainer on one thread points to the pool for threads", async () => {
    for (const options of [{ task: 'juggle' }, { task: 'sort', heads: 3 }, 'sort', { task: 'sort', batchSize: 0 }]) {
      let want;
      try {
        attn.createTrainer(options);
      } catch (error) {
        want = error;
      }
      assert.ok(want instanceof AttentionError, JSON.stringify(options));
      await assert.rejects(
        pool.createTrainer(options),
        (e) => e instanceof AttentionError && e.message === want.message && e.kind === want.kind,
      );
    }
    await assert.rejects(
      pool.createTrainer({ task: 'sort', threads: 2 }),
      /^AttentionError: createTrainer: threads is not an option here: a trainer in a worker or a pool runs where it is/,
    );
  });

  test('attn.createTrainer({ …, threads }) trains in a pool of its own, bit for bit as without threads', async () => {
    const options = { task: 'sort', seed: 8 };
    const pooled = await attn.createTrainer({ ...options, threads: 2 });
    const alone = attn.createTrainer(options);
    assert.deepEqual(await pooled.step(15), alone.step(15));
    assertSameState(await pooled.exportState(), alone.exportState(), 'threads: 2');
    await pooled.dispose(); // ends its pool too
    await assert.rejects(pooled.step(1), /step: this pool was disposed|step: this trainer was disposed/);
    alone.dispose();
    for (const [threads, message] of [
      [0, /^createTrainer: threads must be 'auto' or a whole number from 1 to 64, got number 0$/],
      ['many', /^createTrainer: threads must be 'auto' or a whole number from 1 to 64, got the string "many"$/],
    ]) {
      await assert.rejects(
        attn.createTrainer({ ...options, threads }),
        (e) => e instanceof AttentionError && message.test(e.message),
      );
    }
    await assert.rejects(
      attn.createTrainer({ task: 'juggle', threads: 2 }),
      /^AttentionError: createTrainer: unknown task 'juggle'/,
    );
  });

  test('a helper ended mid-call fails that call cleanly; the trainer and the pool go on', async () => {
    const options = { task: 'sort', seed: 6 };
    const pooled = await pool.createTrainer(options);
    await pooled.step(3); // the helper has its part worker
    let ended = false;
    await assert.rejects(
      pooled.step(100000, {
        onProgress: () => {
          if (!ended) pool.terminateWorker(1);
          ended = true;
        },
      }),
      (e) =>
        e instanceof AttentionError &&
        /^step: pool worker 1 stopped during the step: it was terminated; the trainer is at step \d+$/.test(e.message),
    );
    const { step } = await pooled.step(0);
    const alone = attn.createTrainer(options);
    alone.step(step);
    assertSameState(await pooled.exportState(), alone.exportState(), 'at the last completed step');
    assert.deepEqual(await pooled.step(8), alone.step(8), 'the next call works');
    assertSameState(await pooled.exportState(), alone.exportState(), 'after the next call');
    alone.dispose();
    await pooled.dispose();
  });

  test('the leader ended mid-call loses its trainer, says so, and a new trainer trains', async () => {
    const pooled = await pool.createTrainer({ task: 'sort', seed: 7 });
    let ended = false;
    await assert.rejects(
      pooled.step(100000, {
        onProgress: () => {
          if (!ended) pool.terminateWorker(0);
          ended = true;
        },
      }),
      /^AttentionError: step: pool worker 0 stopped during the call: it was terminated; the trainer it held is lost: create or load it again; a new worker replaces it$/,
    );
    await assert.rejects(
      pooled.evaluate(),
      /evaluate: this trainer was lost with pool worker 0; create or load it again/,
    );
    await pooled.dispose(); // harmless
    const again = await pool.createTrainer({ task: 'sort', seed: 7 });
    const alone = attn.createTrainer({ task: 'sort', seed: 7 });
    assert.deepEqual(await again.step(10), alone.step(10));
    assertSameState(await again.exportState(), alone.exportState(), 'a new trainer after the leader was replaced');
    alone.dispose();
    await again.dispose();
  });

  test('both workers ended at once: the helper that loads last joins the new leader once, and does not fail its steps', async () => {
    // the helper used to be joined twice when the leader loaded first (by the leader's joining and
    // by its own), and its second joining failed the step under way ("it was replaced")
    for (let round = 0; round < 4; round++) {
      pool.terminateWorker(1);
      pool.terminateWorker(0);
      const pooled = await pool.createTrainer({ task: 'sort', seed: 5 });
      const alone = attn.createTrainer({ task: 'sort', seed: 5 });
      assert.deepEqual(await pooled.step(30), alone.step(30), `round ${round}`);
      alone.dispose();
      await pooled.dispose();
    }
  });

  test('after dispose, a pool trainer call rejects and createTrainer rejects', async () => {
    const own = await attn.createPool({ threads: 2 });
    const trainer = await own.createTrainer({ task: 'sort', seed: 1 });
    own.dispose();
    await assert.rejects(own.createTrainer({ task: 'sort' }), /createTrainer: this pool was disposed/);
    await trainer.dispose(); // harmless
  });
});

// (a lost reply would leave a port open and the test waiting: the timeout fails it instead)
describe(
  "a helper whose wasm traps: it says so, and the leader's step fails and goes on without it",
  { timeout: 60_000 },
  () => {
    /** The next message on a Node MessagePort. */
    const nextMessage = (port) => new Promise((resolve) => port.once('message', resolve));

    /** A helper's copy whose parts fail with `error`, and whose dispose traps too. */
    const failingCopy = (error) => ({
      step: () => ({ step: 0 }),
      [PARTS]: () => ({
        begin: () => ({ parts: 2 }),
        compute: () => {
          throw error;
        },
        abort() {},
      }),
      dispose() {
        throw new WebAssembly.RuntimeError('memory access out of bounds');
      },
    });

    for (const [what, error, trapped] of [
      ['a trap (RuntimeError)', new WebAssembly.RuntimeError('unreachable'), true],
      ['an AttentionError', new AttentionError('a part failed', { kind: 'ValueError' }), false],
    ]) {
      test(`the helper's side, for ${what}: the leader hears of it first, and only a trap asks for a new worker`, async () => {
        const { port1: leader, port2: helper } = new MessageChannel();
        const traps = [];
        serveReplicas(
          helper,
          async () => ({ loadTrainer: () => failingCopy(error) }),
          (why) => traps.push(why),
        );
        leader.postMessage({ op: 'sync', key: 1, state: {} });
        leader.postMessage({
          op: 'steps',
          key: 1,
          id: 7,
          at: 0,
          count: 1,
          shares: [
            [0, 1],
            [1, 2],
          ],
          worker: 1,
        });
        const reply = await nextMessage(leader);
        assert.deepEqual(reply, {
          id: 7,
          key: 1,
          error: { message: error.message, kind: error.kind ?? 'Error', trapped },
        });
        // the copy is dropped (its dispose trapped, which is swallowed): the next steps say it is gone
        leader.postMessage({
          op: 'steps',
          key: 1,
          id: 8,
          at: 0,
          count: 1,
          shares: [
            [0, 1],
            [1, 2],
          ],
          worker: 1,
        });
        assert.match((await nextMessage(leader)).error.message, /copy of the trainer is at step none, not 0/);
        assert.deepEqual(traps, trapped ? [error.message] : []);
        leader.close();
      });
    }

    test("the leader's side: the step fails naming the trap, the helper is dropped, the next call runs alone", async () => {
      const trainer = attn.createTrainer({ task: 'sort', seed: 1 });
      const alone = attn.createTrainer({ task: 'sort', seed: 1 });
      const { port1: toHelper, port2: helper } = new MessageChannel();
      const helpers = new Helpers();
      helpers.set(1, toHelper, 0); // minPartMs 0: the second step is shared
      const told = [];
      helper.on('message', (message) => {
        told.push(message.op);
        if (message.op === 'steps') {
          helper.postMessage({
            id: message.id,
            key: message.key,
            error: { message: 'unreachable', kind: 'Error', trapped: true },
          });
        }
      });
      try {
        const steps = helpers.stepper(trainer);
        assert.deepEqual(await steps(1), alone.step(1), 'its first step, on the leader alone');
        await assert.rejects(steps(1), (error) => {
          assert.ok(error instanceof AttentionError);
          assert.equal(
            error.message,
            'step: pool worker 1 stopped during the step: its wasm trapped (unreachable); the trainer is at step 1',
          );
          return true;
        });
        assert.deepEqual(told.slice(0, 2), ['sync', 'steps'], 'the helper was sent its copy and the steps');
        assert.equal(helpers.size, 0, 'the helper is dropped until a new worker joins');
        const next = helpers.stepper(trainer);
        assert.deepEqual(await next(2), alone.step(2), 'the next call, alone, as one thread');
        assert.equal(next.workers, 1);
        assertSameState(trainer.exportState(), alone.exportState(), 'after the trap');
      } finally {
        trainer.dispose();
        alone.dispose();
        helper.close();
      }
    });
  },
);
