// TrainingRun (web/src/cells/base/training-run.js), the one training loop of the training labs, on
// a stand-in host and model in Node: blocks of the pace, Pause through the AbortSignal (the model
// stays at the last completed step), restore to a permalink's step with progress, failures in the
// learner's words, one run at a time, a disconnected host stops the run, and a host that keeps the
// step itself (position).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TrainingRun } from '../../web/src/cells/base/training-run.js';

/** A host that counts update requests, and a model whose steps take a turn of the event loop each. */
function setUp({ pace = { block: 5 }, fail = null } = {}) {
  const host = {
    updates: 0,
    controllers: [],
    addController(c) {
      this.controllers.push(c);
    },
    requestUpdate() {
      this.updates += 1;
    },
  };
  const model = { step: 0, calls: [] };
  const advance = async (count, { signal, onProgress }) => {
    model.calls.push(count);
    for (let i = 0; i < count; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) {
        const error = new Error(`step: cancelled; the trainer is at step ${model.step}`);
        error.kind = 'Cancelled';
        throw error;
      }
      if (fail && model.step === fail) throw new Error('the wasm ran out of memory');
      model.step += 1;
      onProgress({ step: model.step });
    }
    return model.step;
  };
  const run = new TrainingRun(host, { advance, measure: (step) => ({ step }), pace: () => pace });
  return { host, model, run };
}

test('train runs blocks of the pace up to the goal, measuring after each block', async () => {
  const { host, model, run } = setUp({ pace: { block: 4 } });
  await run.train(10);
  assert.deepEqual(model.calls, [4, 4, 2]);
  assert.equal(run.at, 10);
  assert.deepEqual(run.value, { step: 10 });
  assert.equal(run.training, false);
  assert.ok(host.updates >= 4, 'the host is asked to draw every block');
});

test('pause stops between two steps; the model stays at the last completed step and goes on from there', async () => {
  const { model, run } = setUp({ pace: { block: 1000 } });
  const training = run.train(5000);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(run.training, true);
  while (model.step < 3) await new Promise((resolve) => setImmediate(resolve));
  run.pause();
  await training;
  assert.equal(run.training, false);
  assert.equal(run.error, '', 'a pause is not a failure');
  assert.equal(run.at, model.step, 'the run knows where the model stopped');
  assert.ok(run.at > 0 && run.at < 1000);
  const before = run.at;
  await run.stepOnce();
  assert.equal(run.at, before + 1);
});

test('one run at a time: train while training does nothing', async () => {
  const { model, run } = setUp({ pace: { block: 3 } });
  const first = run.train(6);
  const second = run.train(100);
  await Promise.all([first, second]);
  assert.equal(run.at, 6);
  assert.deepEqual(model.calls, [3, 3]);
});

test('restore reaches a permalink step in one call, reporting progress', async () => {
  const { host, model, run } = setUp();
  const seen = [];
  const origin = host.requestUpdate.bind(host);
  host.requestUpdate = () => {
    if (run.progress) seen.push(run.progress.done);
    origin();
  };
  await run.restore(50);
  assert.deepEqual(model.calls, [50]);
  assert.equal(run.at, 50);
  assert.equal(run.progress, null);
  assert.ok(seen.includes(0) && seen.includes(50) && seen.length > 10, `progress ${seen.slice(0, 5)}…`);
  assert.deepEqual(run.value, { step: 50 });
});

test('a failure ends the run with the reason in plain words; the next train clears it', async () => {
  const { run } = setUp({ pace: { block: 4 }, fail: 6 });
  await run.train(20);
  assert.equal(run.error, 'Training stopped: the wasm ran out of memory');
  assert.equal(run.at, 6, 'the steps completed before the failure count');
  assert.deepEqual(run.value, { step: 4 }, 'the last measure is kept');
  run.advance = async (count) => run.at + count;
  await run.train(8);
  assert.equal(run.error, '');
  assert.equal(run.at, 8);
});

test('a disconnected host stops the run; reset forgets the step', async () => {
  const { host, run } = setUp({ pace: { block: 1000 } });
  const training = run.train(10000);
  await new Promise((resolve) => setImmediate(resolve));
  host.controllers.forEach((c) => c.hostDisconnected());
  await training;
  assert.equal(run.training, false);
  run.reset();
  assert.equal(run.at, 0);
  assert.equal(run.value, undefined);
});

test('stopped(at) comes as a run ends, in the same turn as training ends; not after reset', async () => {
  const stops = [];
  const { run } = setUp({ pace: { block: 2 } });
  run.stopped = (at) => stops.push({ at, training: run.training });
  await run.train(4);
  assert.deepEqual(stops, [{ at: 4, training: true }], 'called before training reads false');
  const training = run.train(10000);
  await new Promise((resolve) => setImmediate(resolve));
  run.pause();
  await training;
  assert.equal(stops.length, 2);
  assert.equal(stops[1].at, run.at, 'a paused run reports where the model stopped');
  const again = run.train(10000);
  await new Promise((resolve) => setImmediate(resolve));
  run.reset();
  await again;
  assert.equal(stops.length, 2, 'a reset run does not report a step');
  assert.equal(run.at, 0);
});

test('with position, the host keeps the step: a model it replaces is where the next run starts', async () => {
  const host = { controllers: [], addController: (c) => host.controllers.push(c), requestUpdate() {} };
  const model = { step: 0, calls: [] };
  const advance = async (count) => {
    model.calls.push([model.step, count]);
    await new Promise((resolve) => setImmediate(resolve));
    model.step += count;
    return model.step;
  };
  const run = new TrainingRun(host, { advance, pace: () => ({ block: 5 }), position: () => model.step });
  await run.train(10);
  assert.deepEqual(model.calls, [
    [0, 5],
    [5, 5],
  ]);
  model.step = 40; // the host loads a saved model
  assert.equal(run.at, 40, 'at reads the host position');
  await run.train(45);
  assert.deepEqual(model.calls.at(-1), [40, 5], 'the run goes on from the loaded model');
  await run.restore(60);
  assert.equal(run.at, 60);
  run.reset();
  assert.equal(run.at, 60, 'reset leaves the step to the host that keeps it');
});

test('restore with { measure: false } reaches the step without measuring', async () => {
  const measured = [];
  const host = { controllers: [], addController: (c) => host.controllers.push(c), requestUpdate() {} };
  let step = 0;
  const run = new TrainingRun(host, {
    advance: async (count) => (step += count),
    measure: (at) => measured.push(at),
    position: () => step,
  });
  await run.restore(30, { measure: false });
  assert.equal(run.at, 30);
  assert.deepEqual(measured, []);
  await run.restore(50);
  assert.deepEqual(measured, [50], 'measured by default');
});
