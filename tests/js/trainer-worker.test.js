// Trainers away from the caller: createTrainer / loadTrainer of the worker client, driving the real
// engine/worker.js in a Node worker thread (engine/pool-workers-node.js), and of runtime.js's main-thread
// stand-in (trainer-jobs.js localTrainers), which must answer alike. step(count) runs in chunks
// with progress { done, count, step, loss }, is cancelled by an AbortSignal or handle.cancel()
// (kind 'Cancelled', the trainer left at the last completed step), and two trainers never cancel
// each other; the results are bitwise those of a trainer on this thread.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AttentionError, loadAttention } from 'attnbook';
import { localTrainers } from '../../web/src/engine/trainer-jobs.js';
import { TRAINER_HANDLE_MEMBERS } from '../../web/src/engine/trainer-handle.js';
import { createWorkerEngine } from '../../web/src/engine/worker-client.js';
import { startWorker as nodeWorker } from '../../web/src/engine/pool-workers-node.js';

let attn; // the engine on this thread: the reference results
before(async () => {
  attn = await loadAttention();
});

/** Resolves to the rejection of `promise` (failing if it resolves). */
async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected a rejection');
}

/** A trainer on this thread after `count` steps: its state. */
function reference(options, count) {
  const t = attn.createTrainer(options);
  t.step(count);
  const state = t.exportState();
  t.dispose();
  return state;
}

const modes = {
  'the worker client (engine/worker.js in a worker thread)': async () => {
    const engine = await createWorkerEngine(nodeWorker());
    return { engine, close: () => engine.terminate() };
  },
  "runtime.js's main-thread stand-in (localTrainers)": async () => {
    const engine = await loadAttention();
    return { engine: { ...localTrainers(async () => engine), memory: async () => engine.memory() }, close() {} };
  },
};

for (const [mode, start] of Object.entries(modes)) {
  describe(mode, () => {
    let engine;
    let close;
    before(async () => {
      ({ engine, close } = await start());
    });
    after(() => close());

    test('createTrainer: a handle with the Trainer methods as promises, config and task', async () => {
      const t = await engine.createTrainer({ task: 'reverse', seed: 1 });
      assert.deepEqual(Object.keys(t).sort(), [...TRAINER_HANDLE_MEMBERS].sort());
      const local = attn.createTrainer({ task: 'reverse', seed: 1 });
      assert.deepEqual(t.config, local.config);
      assert.deepEqual(t.task, local.task);
      assert.deepEqual(await t.sample(4), local.sample(4));
      assert.deepEqual(await t.step(2), local.step(2));
      const input = local.sample(4).input;
      const [remote, here] = [await t.predict(input), local.predict(input)];
      assert.deepEqual(remote.output, here.output);
      assert.deepEqual(remote.attention.shape, here.attention.shape);
      assert.deepEqual(Array.from(remote.attention.data), Array.from(here.attention.data));
      assert.deepEqual(await t.evaluate({ samples: 16 }), local.evaluate({ samples: 16 }));
      await t.setHeadEnabled(0, 1, false);
      local.setHeadEnabled(0, 1, false);
      assert.deepEqual(await t.exportState(), local.exportState());
      const params = await t.parameters();
      assert.deepEqual(Object.keys(params), Object.keys(local.parameters()));
      assert.ok(params['embed.token'].data instanceof Float32Array);
      local.dispose();
      await t.dispose();
    });

    test('step reports progress after each chunk and ends where one call on this thread ends', async () => {
      const t = await engine.createTrainer({ task: 'sort', seed: 2 });
      const progress = [];
      const result = await t.step(40, { onProgress: (p) => progress.push(p) });
      assert.equal(result.step, 40);
      assert.ok(progress.length >= 2, `${progress.length} progress reports`);
      for (const [i, p] of progress.entries()) {
        assert.deepEqual(Object.keys(p), ['done', 'count', 'step', 'loss']);
        assert.equal(p.count, 40);
        assert.equal(p.step, p.done);
        if (i > 0) assert.ok(p.done > progress[i - 1].done);
      }
      assert.equal(progress.at(-1).done, 40);
      assert.equal(progress.at(-1).loss, result.loss);
      const state = await t.exportState();
      assert.deepEqual(state, reference({ task: 'sort', seed: 2 }, 40), 'chunks change nothing: bitwise step(40)');
      await t.dispose();
    });

    test('calls on one trainer run in order: evaluate() sent during step() sees every step', async () => {
      const t = await engine.createTrainer({ task: 'reverse', seed: 3 });
      const [stepped, evaluation, state] = await Promise.all([
        t.step(25),
        t.evaluate({ samples: 32 }),
        t.exportState(),
      ]);
      assert.equal(stepped.step, 25);
      assert.equal(state.step, 25);
      const local = attn.loadTrainer(state);
      assert.deepEqual(evaluation, local.evaluate({ samples: 32 }));
      local.dispose();
      await t.dispose();
    });

    test('an AbortSignal cancels a step between chunks: Cancelled, the trainer at the last completed step', async () => {
      const t = await engine.createTrainer({ task: 'reverse', seed: 4 });
      const controller = new AbortController();
      const progress = [];
      const running = t.step(100000, {
        signal: controller.signal,
        onProgress: (p) => {
          progress.push(p);
          if (progress.length === 2) controller.abort();
        },
      });
      const error = await rejection(running);
      assert.ok(error instanceof AttentionError, String(error));
      assert.equal(error.kind, 'Cancelled');
      const last = progress.at(-1);
      assert.match(
        error.message,
        new RegExp(`^step: cancelled after ${last.done} of 100000 steps; the trainer is at step ${last.step}$`),
      );
      const state = await t.exportState();
      assert.equal(state.step, last.step, 'no step after the last one reported');
      assert.deepEqual(state, reference({ task: 'reverse', seed: 4 }, last.step));
      // it goes on as if never interrupted
      assert.deepEqual(await t.step(3), { step: last.step + 3, loss: (await t.step(0)).loss });
      assert.deepEqual(await t.exportState(), reference({ task: 'reverse', seed: 4 }, last.step + 3));
      // a signal aborted before the call: nothing runs
      const early = await rejection(t.step(5, { signal: AbortSignal.abort() }));
      assert.equal(early.kind, 'Cancelled');
      assert.equal((await t.step(0)).step, last.step + 3);
      await t.dispose();
    });

    test('two trainers never cancel each other; one trains while the other runs', async () => {
      const [a, b] = await Promise.all([
        engine.createTrainer({ task: 'reverse', seed: 5 }),
        engine.createTrainer({ task: 'retrieval2d', seed: 5 }),
      ]);
      let aProgress = 0;
      let nextProgress = () => {}; // resolves the promise of a's next progress report, when one waits
      const long = a.step(100000, {
        onProgress: () => {
          aProgress++;
          nextProgress();
        },
      });
      const short = await b.step(30); // runs between a's chunks
      assert.equal(short.step, 30);
      assert.deepEqual(await b.exportState(), reference({ task: 'retrieval2d', seed: 5 }, 30));
      assert.ok(aProgress >= 1, 'a went on meanwhile');
      // b's signal and b.cancel() leave a alone
      const controller = new AbortController();
      const bLong = b.step(100000, { signal: controller.signal });
      controller.abort();
      assert.equal((await rejection(bLong)).kind, 'Cancelled');
      const before = aProgress;
      const reported = new Promise((resolve) => (nextProgress = resolve));
      b.cancel();
      await reported; // a still runs after b was cancelled: it reports again
      assert.ok(aProgress > before, 'a still runs after b was cancelled');
      a.cancel();
      const error = await rejection(long);
      assert.equal(error.kind, 'Cancelled');
      const aStep = (await a.step(0)).step;
      assert.ok(aStep > 0 && aStep < 100000);
      assert.deepEqual(await b.step(1), { step: (await b.exportState()).step, loss: (await b.step(0)).loss });
      await Promise.all([a.dispose(), b.dispose()]);
    });

    test('loadTrainer: a state from this thread continues there exactly', async () => {
      const state = reference({ task: 'lookup', seed: 6 }, 4);
      const t = await engine.loadTrainer(JSON.parse(JSON.stringify(state)));
      await t.step(3);
      assert.deepEqual(await t.exportState(), reference({ task: 'lookup', seed: 6 }, 7));
      await t.dispose();
    });

    test('errors reject with the AttentionError; dispose frees the memory; a disposed trainer says so', async () => {
      const before = await engine.memory();
      const t = await engine.createTrainer({ task: 'sort', seed: 7, layers: 2 });
      const bad = [
        [() => t.step(1.5), 'ValueError', /^step: count is 1\.5; it must be a whole number from 0 to 100000/],
        [() => t.step(1, 'fast'), 'TypeError', /^step: options must be an object such as \{ onProgress, signal \}/],
        [() => t.step(1, { onProgress: 3 }), 'TypeError', /^step: onProgress must be a function, got number 3$/],
        [() => t.predict([1, 2, 3]), 'ShapeError', /^predict: input has 3 tokens; sort inputs have 7$/],
        [() => t.setHeadEnabled(2, 0, true), 'ShapeError', /^setHeadEnabled: layer 2 is out of range/],
        [
          () => engine.createTrainer({ task: 'sort', heads: 3 }),
          'ShapeError',
          /^createTrainer: heads \(3\) must divide dModel/,
        ],
        [() => engine.loadTrainer({ format: 'x' }), 'ValueError', /^loadTrainer: state\.format is the string "x"/],
      ];
      for (const [call, kind, message] of bad) {
        const error = await rejection(call());
        assert.ok(error instanceof AttentionError);
        assert.equal(error.kind, kind, error.message);
        assert.match(error.message, message);
      }
      assert.equal((await t.step(2)).step, 2, 'usable after the errors');
      await t.dispose();
      assert.equal((await engine.memory()).inUseBytes, before.inUseBytes, 'memory back after dispose');
      for (const [method, args] of [
        ['step', [1]],
        ['evaluate', []],
        ['exportState', []],
      ]) {
        const error = await rejection(t[method](...args));
        assert.equal(error.message, `${method}: this trainer was disposed`);
      }
      assert.equal(await t.dispose(), undefined, 'dispose twice is harmless, as on this thread');
    });
  });
}
