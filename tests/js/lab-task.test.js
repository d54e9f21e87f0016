// LabTask (web/src/cells/base/lab-task.js), the lifecycle every lab shares, on a stand-in host in
// Node: it loads the engine, runs only when the arguments change, keeps the last valid result with
// the error in plain words, runs async work one at a time keeping only the newest request, and
// ignores a run cancelled by a newer one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LabTask } from '../../web/src/cells/base/lab-task.js';

/** The part of an AttnCell that LabTask uses, recording what it was asked. */
class Host {
  constructor(state) {
    this.state = state;
    this.controllers = [];
    this.pending = [];
    this.updates = 0;
    this.failed = null;
    this.visible = Promise.resolve();
    this.dataset = {};
  }
  addController(controller) {
    this.controllers.push(controller);
  }
  requestUpdate() {
    this.updates += 1;
  }
  settleAfter(work) {
    this.pending.push(work);
    return work;
  }
  fail(error) {
    this.failed = error;
  }
  /** Lit's order: connected, then (per update) hostUpdate before render. */
  async connect() {
    this.controllers.forEach((c) => c.hostConnected());
    await Promise.all(this.pending);
  }
  update() {
    this.controllers.forEach((c) => c.hostUpdate());
  }
}

const deferred = () => {
  let resolve, reject;
  const promise = new Promise((a, b) => ((resolve = a), (reject = b)));
  return { promise, resolve, reject };
};

test('a main-thread task loads the engine and runs only when its arguments change', async () => {
  const host = new Host({ logits: [1, 2, 3] });
  const calls = [];
  const task = new LabTask(host, {
    args: () => [host.state.logits],
    run: ([logits], { engine }) => {
      calls.push(logits);
      return Array.from(engine.softmax(logits).data);
    },
  });
  assert.equal(host.controllers[0], task);
  host.update(); // before the engine is there: nothing runs
  assert.equal(calls.length, 0);
  await host.connect();
  assert.ok(task.engine, 'the engine is loaded');
  host.update();
  assert.equal(calls.length, 1);
  assert.ok(Math.abs(task.value.reduce((a, b) => a + b, 0) - 1) < 1e-6);
  host.update();
  assert.equal(calls.length, 1, 'same arguments: no new run');
  host.state.logits = [0, 0];
  host.update();
  assert.deepEqual(task.value, [0.5, 0.5]);
  assert.equal(calls.length, 2);
});

test('a failed run keeps the last valid result and says why in the lab’s words; Retry runs again', async () => {
  const host = new Host({ x: 1 });
  let broken = false;
  const task = new LabTask(host, {
    args: () => [host.state.x],
    run: ([x]) => {
      if (broken) throw new Error(`weights[1] is ${x}`);
      return x * 2;
    },
    explain: (error) => `The weights must not be negative (${error.message}).`,
  });
  await host.connect();
  host.update();
  assert.equal(task.value, 2);
  broken = true;
  host.state.x = -0.2;
  host.update();
  assert.equal(task.value, 2, 'the last valid result stays');
  assert.equal(task.error, 'The weights must not be negative (weights[1] is -0.2).');
  broken = false;
  const before = host.updates;
  task.retry();
  assert.ok(host.updates > before, 'Retry asks for an update');
  host.update();
  assert.equal(task.value, -0.4);
  assert.equal(task.error, '');
});

test('async runs go one at a time and only the newest waiting request runs next', async () => {
  const host = new Host({ t: 1 });
  const started = [];
  const runs = new Map();
  const task = new LabTask(host, {
    engine: 'main',
    args: () => [host.state.t],
    run: ([t]) => {
      started.push(t);
      const d = deferred();
      runs.set(t, d);
      return d.promise;
    },
  });
  await host.connect();
  host.pending = [];
  host.update(); // t = 1 starts
  for (const t of [2, 3, 4]) {
    host.state.t = t;
    host.update(); // 1 is running: each newer request replaces the waiting one
  }
  assert.deepEqual(started, [1]);
  assert.equal(host.pending.length, 1, 'the host waits for the run');
  runs.get(1).resolve('one');
  await host.pending[0];
  assert.equal(task.value, 'one');
  assert.deepEqual(started, [1, 4], 'only the newest waiting request ran next');
  runs.get(4).resolve('four');
  await host.pending[1];
  assert.equal(task.value, 'four');
  assert.equal(task.progress, null);
});

test('a run cancelled by a newer one is not an error, and progress reports reach the host', async () => {
  const host = new Host({ t: 1 });
  let report;
  const task = new LabTask(host, {
    args: () => [host.state.t],
    run: async ([t], { progress }) => {
      report = progress;
      if (t === 2) throw Object.assign(new Error('cancelled'), { kind: 'Cancelled' });
      return t;
    },
  });
  await host.connect();
  host.update();
  await host.pending.at(-1);
  assert.equal(task.value, 1);
  report({ done: 1, steps: 4 });
  assert.deepEqual(task.progress, { done: 1, steps: 4 });
  host.state.t = 2;
  host.update();
  await host.pending.at(-1);
  assert.equal(task.error, '');
  assert.equal(task.value, 1);
});

test('a worker task says where it computes (Node has no Web Worker: the main thread, and why)', async () => {
  const host = new Host({});
  const task = new LabTask(host, { engine: 'worker', args: () => [], run: () => 1 });
  assert.equal(task.where, 'Waiting to be shown…');
  await host.connect();
  assert.equal(host.dataset.computedIn, task.engine.inWorker ? 'worker' : 'main-thread');
  assert.match(task.where, /^computed (in a Web Worker|on the main thread \(.+\))/);
  assert.equal(host.failed, null);
});

test('Retry is offered for a failure that running again could mend, not for refused input', async () => {
  const host = new Host({ kind: 'ValueError' });
  const task = new LabTask(host, {
    args: () => [host.state.kind],
    run: ([kind]) => {
      throw Object.assign(new Error('no'), { kind });
    },
  });
  await host.connect();
  host.update();
  assert.equal(task.retryable, false, 'the engine refused the input');
  host.state.kind = 'MemoryError';
  host.update();
  assert.equal(task.retryable, true, 'out of memory: worth another try');
});

test('memoLast runs again only when its arguments (or the engine) change', async () => {
  const { memoLast } = await import('../../web/src/cells/base/lab-task.js');
  let runs = 0;
  const limits = memoLast((engine, logits) => {
    runs += 1;
    return { engine, sum: logits.reduce((a, b) => a + b, 0) };
  });
  const engine = {};
  assert.equal(limits(engine, [1, 2]).sum, 3);
  assert.equal(limits(engine, [1, 2]).sum, 3);
  assert.equal(runs, 1, 'the same logits: kept');
  assert.equal(limits(engine, [1, 3]).sum, 4);
  assert.equal(runs, 2, 'other logits: run again');
  limits({}, [1, 3]);
  assert.equal(runs, 3, 'another engine: run again');
});

test('the softmax lab computes only what depends on τ when τ moves: four engine calls', async () => {
  const { computeAtTemperature, computeLimits, computeSoftmaxLab } =
    await import('../../web/src/labs/softmax-temperature/softmax-lab-model.js');
  const { memoLast } = await import('../../web/src/cells/base/lab-task.js');
  const { loadAttention } = await import('../../web/src/engine/index.js');
  const real = await loadAttention();
  let calls = 0;
  const engine = new Proxy(real, {
    get(target, name) {
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? (...a) => (calls++, value.apply(target, a)) : value;
    },
  });
  const limits = memoLast(computeLimits);
  const run = (tau) => ({
    ...computeAtTemperature(engine, [1.2, 4.5, 2, 0.8], tau),
    ...limits(engine, [1.2, 4.5, 2, 0.8]),
  });
  const first = run(1);
  assert.equal(calls, 8, 'the first run: at τ and at both limits');
  calls = 0;
  const second = run(2);
  assert.equal(calls, 4, 'a move of τ: softmax, its reference, entropy and effective positions');
  assert.deepEqual(
    { ...second, weights: Array.from(second.weights) },
    (({ weights, ...r }) => ({ ...r, weights: Array.from(weights) }))(computeSoftmaxLab(real, [1.2, 4.5, 2, 0.8], 2)),
  );
  assert.equal(first.coldGap, second.coldGap);
});
