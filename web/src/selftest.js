// The "check this browser" page: the engine on the main thread and in a Web
// Worker, each against known answers, trainers in the worker (progress, cancel, two trainers
// independent), and a pool of two workers (engine/pool.js): attention split, and a trainer's steps shared. Each row gets data-status pass or fail.
import { loadAttention, simdSupported } from './engine/index.js';
import { createWorkerEngine } from './engine/worker-client.js';

const SEED_LOGITS = [1.2, 4.5, 2, 0.8];
const EXPECTED = [0.0322492, 0.8743615, 0.071772, 0.0216173];
const table = document.getElementById('checks');

function report(name, ok, detail) {
  const row = table.insertRow();
  row.dataset.status = ok ? 'pass' : 'fail';
  row.insertCell().textContent = name;
  row.insertCell().textContent = `${ok ? 'pass' : 'FAIL'} — ${detail}`;
}

const close = (a, b) => a.length === b.length && Array.from(a).every((x, i) => Math.abs(x - b[i]) < 1e-5);

async function check(name, run) {
  try {
    const [ok, detail] = await run();
    report(name, ok, detail);
  } catch (error) {
    report(name, false, error.message);
  }
}

await check('WebAssembly SIMD', async () => [
  true,
  simdSupported() ? 'supported' : 'not supported: the scalar build runs',
]);
await check('engine on the main thread', async () => {
  const attn = await loadAttention();
  const w = attn.softmax(SEED_LOGITS).data;
  return [
    close(w, EXPECTED),
    `softmax = [${Array.from(w, (x) => x.toFixed(4)).join(', ')}] (${attn.simd ? 'SIMD' : 'scalar'})`,
  ];
});
await check('engine in a Web Worker', async () => {
  const engine = await createWorkerEngine(
    new Worker(new URL('./engine/worker.js', import.meta.url), { type: 'module' }),
  );
  try {
    const w = (await engine.softmax(SEED_LOGITS)).data;
    const q = await engine.randn([1, 64, 16], 1);
    const { output, fullyMaskedRows } = await engine.attention(q, q, q, { mask: 'causal' });
    const first = Array.from(output.data.slice(0, 16));
    const ok = close(w, EXPECTED) && fullyMaskedRows === 0 && close(first, Array.from(q.data.slice(0, 16)));
    let rejected = false;
    await engine.softmax([1, NaN]).catch((error) => (rejected = error.name === 'AttentionError'));
    return [
      ok && rejected,
      `softmax and causal attention agree; bad input rejected: ${rejected} (${engine.simd ? 'SIMD' : 'scalar'})`,
    ];
  } finally {
    engine.terminate();
  }
});
await check('trainers in a Web Worker', async () => {
  const engine = await createWorkerEngine(
    new Worker(new URL('./engine/worker.js', import.meta.url), { type: 'module' }),
  );
  try {
    // a: a long step cancelled by its signal after two progress reports; b: trains meanwhile
    const [a, b] = await Promise.all([
      engine.createTrainer({ task: 'reverse', seed: 1 }),
      engine.createTrainer({ task: 'retrieval2d', seed: 1 }),
    ]);
    const controller = new AbortController();
    const progress = [];
    const cancelled = a
      .step(100000, {
        signal: controller.signal,
        onProgress: (p) => progress.push(p) === 2 && controller.abort(),
      })
      .then(
        () => 'resolved',
        (error) => error.kind,
      );
    const short = await b.step(20);
    const kind = await cancelled;
    const { step } = await a.step(0);
    const reference = (await loadAttention()).createTrainer({ task: 'retrieval2d', seed: 1 });
    reference.step(20);
    const same = JSON.stringify(await b.exportState()) === JSON.stringify(reference.exportState());
    reference.dispose();
    await Promise.all([a.dispose(), b.dispose()]);
    const ok = kind === 'Cancelled' && step === progress.at(-1)?.step && short.step === 20 && same;
    return [
      ok,
      `a cancelled (${kind}) at step ${step} after ${progress.length} progress reports; b trained meanwhile to step ${short.step}, ${same ? 'bitwise as' : 'NOT as'} on the main thread`,
    ];
  } finally {
    engine.terminate();
  }
});
await check('a pool of two Web Workers', async () => {
  const attn = await loadAttention();
  const pool = await attn.createPool({ threads: 2 });
  try {
    const q = attn.randn([1024, 64], 7);
    const [k, v] = [attn.randn([1024, 64], 8), attn.randn([1024, 64], 9)];
    const want = attn.attention(q, k, v, { mask: 'causal' });
    const got = await pool.attention(q, k, v, { mask: 'causal' });
    const same = got.output.data.every((x, i) => Object.is(x, want.output.data[i]));
    let rejected = '';
    await pool.attention([[1, NaN]], [[1, 2]], [[1, 2]]).catch((error) => (rejected = error.message));
    return [
      pool.threads === 2 && same && got.fullyMaskedRows === 0 && rejected === 'attention: q[0, 1] is NaN',
      `${pool.threads} workers; causal attention at L = S = 1024 ${same ? 'bitwise equal to' : 'DIFFERS from'} the main thread's; bad input: ${rejected}`,
    ];
  } finally {
    pool.dispose();
  }
});
await check('a trainer shared by a pool of two Web Workers', async () => {
  const attn = await loadAttention();
  const pool = await attn.createPool({ threads: 2, minPartMs: 0 }); // share every step, however small
  try {
    const options = { task: 'sort', seed: 2 };
    const pooled = await pool.createTrainer(options);
    let workers = 0;
    await pooled.step(30, { onProgress: (p) => (workers = p.workers) });
    const alone = attn.createTrainer(options);
    alone.step(30);
    const same = JSON.stringify(await pooled.exportState()) === JSON.stringify(alone.exportState());
    alone.dispose();
    await pooled.dispose();
    return [
      workers === 2 && same,
      `30 steps of sort on ${workers} workers, ${same ? 'bitwise as' : 'NOT as'} on the main thread`,
    ];
  } finally {
    pool.dispose();
  }
});
document.body.dataset.done = 'true';
