// The type declarations name the API that runs: the one method list (engine/methods.js) is
// exactly the methods of the engine (loadAttention) and of the worker client
// (createWorkerEngine), every one is declared in index.d.ts (the jobs in
// worker-client.d.ts), and nothing declared is missing from the code.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { Attention, Trainer, loadAttention } from 'attnbook';
import { JOBS } from '../../web/src/engine/jobs.js';
import { JOB_METHODS, METHODS, PAGE_METHODS } from '../../web/src/engine/methods.js';
import { TRAINER_HANDLE_MEMBERS } from '../../web/src/engine/trainer-handle.js';
import { localTrainers } from '../../web/src/engine/trainer-jobs.js';
import { createWorkerEngine } from '../../web/src/engine/worker-client.js';

const engineDir = new URL('../../web/src/engine/', import.meta.url);

/** The member names declared in `interface <name> … { … }` of a .d.ts text (methods and properties). */
function declaredMembers(text, name) {
  const start = text.search(new RegExp(`export (?:interface|class) ${name}\\b[^{]*\\{`));
  assert.ok(start >= 0, `interface ${name} is declared`);
  const body = text.slice(text.indexOf('{', start) + 1);
  let depth = 1;
  let end = 0;
  while (depth > 0 && end < body.length) {
    if (body[end] === '{') depth += 1;
    if (body[end] === '}') depth -= 1;
    end += 1;
  }
  const members = new Set();
  // Top-level members only: lines indented by exactly two spaces.
  for (const match of body.slice(0, end - 1).matchAll(/^ {2}(?:readonly )?([A-Za-z_$][\w$]*)\??[(:]/gm)) {
    members.add(match[1]);
  }
  return members;
}

/** A stand-in for a Worker running worker.js: answers 'load' and nothing else. */
function fakeWorker() {
  const listeners = [];
  return {
    addEventListener: (type, listener) => type === 'message' && listeners.push(listener),
    postMessage: ({ method, id }) => {
      if (method === 'load')
        queueMicrotask(() => listeners.forEach((l) => l({ data: { id, result: { simd: true } } })));
    },
    terminate() {},
  };
}

test('methods.js lists exactly the methods of the Attention class and the jobs of jobs.js', () => {
  const methods = Object.getOwnPropertyNames(Attention.prototype).filter((n) => n !== 'constructor');
  assert.deepEqual([...METHODS, ...PAGE_METHODS].sort(), methods.sort());
  assert.deepEqual([...JOB_METHODS].sort(), Object.keys(JOBS).sort());
});

test('index.d.ts declares the methods of methods.js, in its order, and the simd and build fields', async () => {
  const declared = declaredMembers(await readFile(new URL('index.d.ts', engineDir), 'utf8'), 'Attention');
  assert.deepEqual([...declared], ['simd', 'build', ...METHODS, ...PAGE_METHODS]);
});

test('index.d.ts declares exactly the members an engine from loadAttention() has', async () => {
  const attn = await loadAttention();
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(attn)).filter((n) => n !== 'constructor');
  const members = [...methods, ...Object.keys(attn)]; // and its own fields (simd, build)
  const declared = declaredMembers(await readFile(new URL('index.d.ts', engineDir), 'utf8'), 'Attention');
  assert.deepEqual([...declared].sort(), members.sort());
});

test('worker-client.d.ts and index.d.ts declare exactly what createWorkerEngine() returns', async () => {
  const engine = await createWorkerEngine(fakeWorker());
  const attention = declaredMembers(await readFile(new URL('index.d.ts', engineDir), 'utf8'), 'Attention');
  const worker = declaredMembers(await readFile(new URL('worker-client.d.ts', engineDir), 'utf8'), 'WorkerEngine');
  // WorkerEngine extends Promised<Omit<Attention, 'simd' | 'build'>> and declares them itself.
  const declared = new Set([...[...attention].filter((m) => !PAGE_METHODS.includes(m)), ...worker]);
  assert.deepEqual([...declared].sort(), Object.keys(engine).sort());
  for (const method of [...METHODS, ...JOB_METHODS]) assert.equal(typeof engine[method], 'function', method);
});

test('index.d.ts declares exactly the members of a Trainer', async () => {
  const attn = await loadAttention();
  const trainer = attn.createTrainer({ task: 'retrieval2d' });
  const methods = Object.getOwnPropertyNames(Trainer.prototype).filter((n) => n !== 'constructor');
  const members = [...methods, ...Object.keys(trainer)]; // and its own fields (config, task)
  trainer.dispose();
  const declared = declaredMembers(await readFile(new URL('index.d.ts', engineDir), 'utf8'), 'Trainer');
  assert.deepEqual([...declared].sort(), members.sort());
});

test("worker-client.d.ts's WorkerTrainer declares exactly a trainer handle's members (worker and stand-in)", async () => {
  const declared = declaredMembers(await readFile(new URL('worker-client.d.ts', engineDir), 'utf8'), 'WorkerTrainer');
  assert.deepEqual([...declared].sort(), [...TRAINER_HANDLE_MEMBERS].sort());
  const attn = await loadAttention();
  const handle = await localTrainers(async () => attn).createTrainer({ task: 'retrieval2d' });
  assert.deepEqual(Object.keys(handle).sort(), [...TRAINER_HANDLE_MEMBERS].sort());
  await handle.dispose();
});
