// Training: optimiser steps per second of each task's default model, time to 97 % on the toy
// tasks and time to copying in context on the text task.
//
// The model and the tasks are attnbook's (core/include/attn/train/{model,tasks,text}.hpp): a small
// decoder-only transformer trained with AdamW on answer-token cross-entropy. Each task's sizes
// and hyper-parameters are read at run time from attn.trainingTasks(), and the same numbers go
// to every contender, so they train the same model on batches of the same shape:
//   attnbook SIMD     attn.createTrainer({ task, seed }).step(n) on loadAttention({ simd: true })
//   attnbook scalar   the same on loadAttention({ simd: false })
//   TF.js wasm        bench/train-tfjs.mjs: TensorFlow.js 4.22, wasm backend (SIMD binary, one
//                     thread), tfjs's own gradients, AdamW written out
//   PyTorch           bench/train_torch.py under /usr/bin/python3 (Debian's python3-torch),
//                     torch.set_num_threads(1), torch.optim.AdamW
// Each draws its own task data (same layouts and shapes, not the same numbers), inside the timed
// step as attnbook's step does. Each runs the same work (PLAN): 100 warm-up steps (V8 tiers wasm
// up late, torch's first iterations are slow), then 9 timed samples of 40 steps; the median
// steps/s is reported, with the loss of the first and last step and a greedy evaluation
// afterwards (so one sees that every peer learns, i.e. does the same work correctly).
// Contenders run one after the other per task (never at the same time), side by side in one run.
//
// The text task (issue 38 §5): next-character prediction over DEFAULT_TEXT (2 layers, attention
// only, context 64, batch 32), every position scored, so its row also shows characters per
// second (steps/s × batch × 64). The peers get the corpus (TF.js in process, PyTorch in its
// request on stdin), encode and split it by attnbook's rule (the last tenth held out) and draw
// each batch as attnbook does: even windows 65 characters of the training text from a uniform
// start, odd ones a random span of 8..33 letters written again and again. Its losses are in bits
// per character (nats / ln 2) in every column, as attnbook's step() and evaluate() report them;
// the toy tasks' are in nats. Its targets: ÷ TF.js ≥ 3× and ÷ PyTorch on OpenBLAS (--torch-blas)
// ≥ 1×.
//
// Before timing, a same-model check: the loss of attnbook's weights (after a few steps) on some of
// its examples, recomputed by the TF.js and PyTorch models, must agree to float32 rounding. (For
// text, attnbook's loss of a t.sample window comes from a copy of the trainer whose whole text is
// that window, since evaluate() reads held-out windows.)
//
// Then time to 97 %: per toy task and seed 1..5, attnbook SIMD with the defaults, t.step(100) then
// t.evaluate() until the greedy answer-token accuracy is ≥ 0.97; seconds of step() (single
// thread) and wall seconds with the evaluations, within a cap per run and a total budget. The
// text task has no accuracy target; instead time to copying (COPYING): per seed 1..5,
// t.step(100) then t.copyingProbe() until copiesInContext, seconds of step() and steps, then the
// held-out bits per character of t.evaluate() beside task.unigramBits.
//
// Prints the tables and the ratios attnbook SIMD ÷ TF.js (target ≥ 3×), ÷ PyTorch (≥ 1×; for
// text ÷ PyTorch on OpenBLAS instead) and ÷ scalar; writes bench/results/train.json.
//
//   node bench/train.bench.mjs [--tasks reverse,text] [--no-converge] [--torch-blas <dir>]
// --torch-blas adds a column: PyTorch with LD_LIBRARY_PATH=<dir>, a folder holding another
// libblas.so.3 (Debian's torch calls the reference netlib BLAS unless another is installed).
// --no-converge skips both time to 97 % and time to copying.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TEXT, loadAttention } from 'attnbook';
import { loadTfjs } from './attention.bench.mjs';
import { registerTfjsGradients } from './tfjs-gradients.mjs';
import { createTfTrainer } from './train-tfjs.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');

/** The same work for every contender: warm-up steps, then timed samples. */
export const PLAN = { warmupSteps: 100, warmupCall: 10, samples: 9, stepsPerSample: 40 };
/** Time to 97 %: step(every) then evaluate() until accuracy ≥ target, per seed, within caps. */
export const CONVERGE = {
  seeds: [1, 2, 3, 4, 5],
  target: 0.97,
  every: 100,
  maxSteps: 20000,
  maxSecondsPerRun: 15,
  budgetSeconds: 90,
};
/**
 * Time to copying (the text task, which has no accuracy target): step(every) then copyingProbe()
 * until copiesInContext, per seed, within caps; held-out bits/char from evaluate() at that point.
 */
export const COPYING = {
  seeds: [1, 2, 3, 4, 5],
  every: 100,
  maxSteps: 4000,
  maxSecondsPerRun: 240,
  budgetSeconds: 900,
};
const EVAL = { samples: 256, seed: 12345 };
/** Same-model check: attnbook's weights after `steps` steps, its loss on `examples` examples. */
const CHECK = { steps: 20, examples: 32, tolerance: 1e-4 };
const PYTHON = '/usr/bin/python3'; // Debian's interpreter, where python3-torch lives
const TORCH_SCRIPT = path.join(here, 'train_torch.py');
const TARGETS = [
  { versus: 'tfjs', label: 'TF.js wasm', atLeast: 3 },
  { versus: 'torch', label: 'PyTorch 1 thread', atLeast: 1 },
  { versus: 'scalar', label: 'attnbook scalar', atLeast: null },
];
/**
 * The text task's targets (issue 38 §5): ÷ TF.js wasm ≥ 3× and ÷ PyTorch on OpenBLAS, one thread,
 * ≥ 1×, i.e. the --torch-blas column; PyTorch as installed (netlib BLAS) gets its ratio without one.
 */
const TEXT_TARGETS = { tfjs: 3, torch: null, scalar: null, torchBlas: 1 };
const COLUMNS = [
  { id: 'simd', label: 'attnbook SIMD' },
  { id: 'scalar', label: 'attnbook scalar' },
  { id: 'tfjs', label: 'TF.js wasm' },
  { id: 'torch', label: 'PyTorch 1 thr' },
];
/**
 * --torch-blas <dir>: PyTorch once more with LD_LIBRARY_PATH=<dir> (a folder holding another
 * libblas.so.3, e.g. OpenBLAS's, one thread), as an extra column without a target.
 */
const TORCH_BLAS = {
  column: { id: 'torchBlas', label: 'PyTorch+BLAS' },
  target: { versus: 'torchBlas', label: 'PyTorch, --torch-blas', atLeast: null },
};

/** The ratios a task's row shows, with its targets: the text task's differ (TEXT_TARGETS). */
function targetsOf(taskId, torchBlas) {
  const targets = torchBlas ? [...TARGETS, TORCH_BLAS.target] : TARGETS;
  return taskId === 'text' ? targets.map((t) => ({ ...t, atLeast: TEXT_TARGETS[t.versus] })) : targets;
}

/** Characters (scored positions) one step trains on: batch × answer length, for the text task. */
const charactersPerStep = (task) => task.defaults.batchSize * task.answerLength;

const fmtSeconds = (s) => s.toFixed(s < 0.1 ? 3 : 2);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Times a trainer with step(count) → { loss } and evaluate(options) → { loss, accuracy }: the
 * warm-up in calls of PLAN.warmupCall steps, then the samples. Returns the median steps/s.
 */
export function timeTrainer(trainer, plan = PLAN) {
  const firstLoss = trainer.step(1).loss;
  for (let done = 1; done < plan.warmupSteps; done += plan.warmupCall) {
    trainer.step(Math.min(plan.warmupCall, plan.warmupSteps - done));
  }
  const samples = [];
  let lastLoss;
  for (let s = 0; s < plan.samples; s++) {
    const t = performance.now();
    lastLoss = trainer.step(plan.stepsPerSample).loss;
    samples.push((plan.stepsPerSample * 1000) / (performance.now() - t));
  }
  return {
    available: true,
    stepsPerSecond: median(samples),
    samples,
    steps: plan.warmupSteps + plan.samples * plan.stepsPerSample,
    firstLoss,
    lastLoss,
    evaluation: trainer.evaluate(EVAL),
  };
}

/**
 * The PyTorch peer for one task, in its own process; { available: false, reason } if it cannot run.
 * The text task's corpus goes with the request, on the child's stdin.
 */
export function runTorch(task, { plan = PLAN, blasDir = null, text = DEFAULT_TEXT } = {}) {
  const request = {
    tasks: [task],
    timing: { warmupSteps: plan.warmupSteps, samples: plan.samples, stepsPerSample: plan.stepsPerSample },
    seed: 1,
    evalSamples: EVAL.samples,
    ...(task.id === 'text' ? { corpus: text } : {}),
  };
  const env = blasDir
    ? { ...process.env, LD_LIBRARY_PATH: blasDir, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1' }
    : process.env;
  const child = spawnSync(PYTHON, [TORCH_SCRIPT], {
    input: JSON.stringify(request),
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    env,
  });
  if (child.error || child.status !== 0) {
    const why = child.error?.message ?? child.stderr.trim().split('\n').slice(-1)[0];
    return { available: false, reason: `${PYTHON} ${path.basename(TORCH_SCRIPT)} failed: ${why}` };
  }
  const out = JSON.parse(child.stdout);
  const result = { ...out.results[0] };
  delete result.id;
  return {
    available: true,
    ...result,
    config: { torch: out.torch, python: out.python, threads: out.threads, blas: out.blas, interpreter: PYTHON },
  };
}

/** The engine of one build, or why it is not available. */
async function engine(load, simd) {
  try {
    const attn = await load({ simd });
    if (typeof attn.trainingTasks !== 'function' || typeof attn.createTrainer !== 'function') {
      return { available: false, reason: 'not available in this build (attn.trainingTasks / createTrainer missing)' };
    }
    return { available: true, attn, simd: attn.simd };
  } catch (error) {
    return { available: false, reason: error.message };
  }
}

function attnbookRun(eng, task) {
  if (!eng.available) return { available: false, reason: eng.reason };
  let trainer;
  try {
    trainer = eng.attn.createTrainer({ task: task.id, seed: 1 });
    return { ...timeTrainer(trainer), config: trainer.config };
  } catch (error) {
    return { available: false, error: error.message };
  } finally {
    trainer?.dispose();
  }
}

function tfjsRun(tfjs, task) {
  if (!tfjs.available) return { available: false, reason: tfjs.reason };
  let trainer;
  try {
    trainer = createTfTrainer(tfjs.tf, task, { seed: 1, text: DEFAULT_TEXT });
    return { ...timeTrainer(trainer), parameters: trainer.parameters };
  } catch (error) {
    return { available: false, error: error.message };
  } finally {
    trainer?.dispose();
  }
}

/** Steps/s of every contender for one task, one after the other. */
export function benchTask(task, { simd, scalar, tfjs, torchBlas = null }, log = console.log) {
  const results = {};
  log(`  ${task.id}: same model in all three (loss of attnbook's weights) ...`);
  const check = sameModelCheck(simd, tfjs, task);
  log(`  ${task.id}: attnbook SIMD ...`);
  results.simd = attnbookRun(simd, task);
  log(`  ${task.id}: attnbook scalar ...`);
  results.scalar = attnbookRun(scalar, task);
  log(`  ${task.id}: TF.js wasm ...`);
  results.tfjs = tfjsRun(tfjs, task);
  log(`  ${task.id}: PyTorch, one thread ...`);
  results.torch = runTorch(task);
  if (torchBlas) {
    log(`  ${task.id}: PyTorch, one thread, LD_LIBRARY_PATH=${torchBlas} ...`);
    results.torchBlas = runTorch(task, { blasDir: torchBlas });
  }
  const text = task.id === 'text';
  if (text) {
    for (const r of Object.values(results)) {
      if (r.available) r.charactersPerSecond = r.stepsPerSecond * charactersPerStep(task);
    }
  }
  const ratios = targetsOf(task.id, torchBlas).map((t) => {
    const ours = results.simd;
    const other = results[t.versus];
    if (!ours.available || !other.available) return { ...t, ratio: null, met: null };
    const ratio = ours.stepsPerSecond / other.stepsPerSecond;
    return { ...t, ratio, met: t.atLeast == null ? null : ratio >= t.atLeast };
  });
  return {
    task: task.id,
    batchSize: task.defaults.batchSize,
    ...(text ? { charactersPerStep: charactersPerStep(task) } : {}),
    lossUnit: text ? 'bits per character' : 'nats',
    results,
    ratios,
    check,
  };
}

/** Time to CONVERGE.target accuracy for attnbook SIMD, per seed. */
export function timeToAccuracy(attn, task, budget, log = console.log) {
  const runs = [];
  for (const seed of CONVERGE.seeds) {
    if (budget.left() <= 0) {
      runs.push({ seed, skipped: `total budget of ${CONVERGE.budgetSeconds} s used up` });
      continue;
    }
    const trainer = attn.createTrainer({ task: task.id, seed });
    let trainMs = 0;
    let steps = 0;
    let accuracy = 0;
    const wall = performance.now();
    try {
      while (accuracy < CONVERGE.target && steps < CONVERGE.maxSteps && trainMs < CONVERGE.maxSecondsPerRun * 1000) {
        const t = performance.now();
        trainer.step(CONVERGE.every);
        trainMs += performance.now() - t;
        steps += CONVERGE.every;
        accuracy = trainer.evaluate().accuracy;
      }
    } finally {
      trainer.dispose();
    }
    const wallMs = performance.now() - wall;
    budget.spend(wallMs);
    const reached = accuracy >= CONVERGE.target;
    runs.push({ seed, reached, steps, trainSeconds: trainMs / 1000, wallSeconds: wallMs / 1000, accuracy });
    log(
      `  ${task.id} seed ${seed}: ${reached ? 'reached' : 'NOT reached'} ${(100 * accuracy).toFixed(1)} % ` +
        `after ${steps} steps, ${fmtSeconds(trainMs / 1000)} s training`,
    );
  }
  const done = runs.filter((r) => r.reached);
  return {
    task: task.id,
    runs,
    reached: done.length,
    medianTrainSeconds: done.length === runs.length ? median(done.map((r) => r.trainSeconds)) : null,
    maxTrainSeconds: done.length === runs.length ? Math.max(...done.map((r) => r.trainSeconds)) : null,
  };
}

/**
 * Time to copying in context for the text task: attnbook SIMD with the defaults, per seed,
 * step(COPYING.every) then copyingProbe() until copiesInContext (issue 38's criterion), within the
 * caps; the seconds of step() (one thread; the probes are not counted), and then the held-out
 * loss (bits per character) and next-character accuracy of evaluate().
 */
export function timeToCopying(attn, task, log = console.log) {
  const runs = [];
  let left = COPYING.budgetSeconds * 1000;
  let unigramBits = null;
  let heldOut = null;
  for (const seed of COPYING.seeds) {
    if (left <= 0) {
      runs.push({ seed, skipped: `total budget of ${COPYING.budgetSeconds} s used up` });
      continue;
    }
    const trainer = attn.createTrainer({ task: task.id, seed });
    ({ unigramBits, heldOut } = trainer.task);
    let trainMs = 0;
    let steps = 0;
    let probe = null;
    const wall = performance.now();
    let evaluation;
    try {
      while (!probe?.copiesInContext && steps < COPYING.maxSteps && trainMs < COPYING.maxSecondsPerRun * 1000) {
        const t = performance.now();
        trainer.step(COPYING.every);
        trainMs += performance.now() - t;
        steps += COPYING.every;
        probe = trainer.copyingProbe();
      }
      evaluation = trainer.evaluate(EVAL);
    } finally {
      trainer.dispose();
    }
    const wallMs = performance.now() - wall;
    left -= wallMs;
    const reached = probe.copiesInContext;
    runs.push({ seed, reached, steps, trainSeconds: trainMs / 1000, wallSeconds: wallMs / 1000, probe, evaluation });
    log(
      `  ${task.id} seed ${seed}: ${reached ? 'copies in context' : 'does NOT copy in context'} after ${steps} steps, ` +
        `${fmtSeconds(trainMs / 1000)} s training; held-out ${evaluation.loss.toFixed(3)} bits/char`,
    );
  }
  const done = runs.filter((r) => r.reached);
  const all = done.length === runs.length;
  return {
    task: task.id,
    unigramBits,
    heldOut,
    runs,
    reached: done.length,
    medianSteps: all ? median(done.map((r) => r.steps)) : null,
    medianTrainSeconds: all ? median(done.map((r) => r.trainSeconds)) : null,
    maxTrainSeconds: all ? Math.max(...done.map((r) => r.trainSeconds)) : null,
  };
}

/**
 * attnbook's own loss on one of its text examples. Its evaluate() reads held-out windows, not
 * t.sample's, so a copy of the trainer (exportState → loadTrainer) whose whole text is that one
 * window of T + 1 characters evaluates it: nothing is held out from so short a text, and its only
 * window is the text itself. The copy must have the same alphabet (vocab) as the trainer.
 */
function textExampleLoss(attn, state, trainer, { input, answer }) {
  const window = trainer.decode([...input, ...answer]);
  const copy = attn.loadTrainer({ ...state, config: { ...state.config, text: window } });
  try {
    if (copy.task.alphabet !== trainer.task.alphabet || copy.task.heldOut !== 0) {
      throw new Error(`same-model check: the window ${JSON.stringify(window)} changes the alphabet`);
    }
    return copy.evaluate({ samples: 1, seed: 1 }).loss;
  } finally {
    copy.dispose();
  }
}

/**
 * attnbook's parameters() in the peers' form: each layer's per-head W_Q, W_K, W_V (D, D/H) side by
 * side as the column blocks of one (D, D) matrix; every other tensor as it is.
 */
export function peerWeights(parameters, heads) {
  const out = {};
  for (const [name, t] of Object.entries(parameters)) {
    const m = /^(layer\d+)\.head(\d+)\.(W_[QKV])$/.exec(name);
    if (!m) {
      out[name] = { shape: t.shape, data: Array.from(t.data) };
      continue;
    }
    const [, layer, head, which] = m;
    const [D, dh] = t.shape;
    const key = `${layer}.${which}`;
    out[key] ??= { shape: [D, dh * heads], data: new Array(D * dh * heads).fill(0) };
    for (let r = 0; r < D; r++) {
      for (let j = 0; j < dh; j++) out[key].data[r * dh * heads + Number(head) * dh + j] = t.data[r * dh + j];
    }
  }
  return out;
}

/**
 * The same model in all three: attnbook SIMD after CHECK.steps steps gives its weights and
 * CHECK.examples examples (t.sample(s) for seeds 1..n, whose losses t.evaluate({ samples: 1, seed: s })
 * reports; for text, plain windows, whose losses textExampleLoss reports); TF.js and PyTorch
 * compute the loss of those weights on those examples. Losses in the task's unit (bits for text).
 */
export function sameModelCheck(simd, tfjs, task) {
  if (!simd.available) return { available: false, reason: simd.reason };
  const t = simd.attn.createTrainer({ task: task.id, seed: 1 });
  try {
    if (typeof t.parameters !== 'function' || typeof t.sample !== 'function') {
      return { available: false, reason: 'not available in this build (trainer.parameters / sample missing)' };
    }
    t.step(CHECK.steps);
    const state = task.id === 'text' ? t.exportState() : null;
    const examples = [];
    let attnbook = 0;
    for (let s = 1; s <= CHECK.examples; s++) {
      const example = t.sample(s);
      examples.push({ input: Array.from(example.input), answer: Array.from(example.answer) });
      const loss = state ? textExampleLoss(simd.attn, state, t, example) : t.evaluate({ samples: 1, seed: s }).loss;
      attnbook += loss / CHECK.examples;
    }
    const weights = peerWeights(t.parameters(), task.defaults.heads);
    const losses = { attnbook };
    if (tfjs.available) {
      const peer = createTfTrainer(tfjs.tf, task, { seed: 1, text: DEFAULT_TEXT });
      try {
        peer.setWeights(weights);
        losses.tfjs = peer.loss(examples);
      } finally {
        peer.dispose();
      }
    }
    const child = spawnSync(PYTHON, [TORCH_SCRIPT], {
      input: JSON.stringify({ check: { task, weights, examples } }),
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    if (!child.error && child.status === 0) losses.torch = JSON.parse(child.stdout).loss;
    const diffs = Object.values(losses).map((x) => Math.abs(x - attnbook));
    const maxAbsDiff = Math.max(...diffs);
    return { available: true, losses, maxAbsDiff, agrees: maxAbsDiff <= CHECK.tolerance * Math.max(1, attnbook) };
  } catch (error) {
    return { available: false, error: error.message };
  } finally {
    t.dispose();
  }
}

const fmtRate = (r) =>
  r.available ? r.stepsPerSecond.toFixed(r.stepsPerSecond < 100 ? 1 : 0) : r.error ? 'ERROR' : 'n/a';
const fmtLoss = (x) => (x == null ? '—' : x < 0.01 ? x.toExponential(1) : x.toFixed(3));

/**
 * The report as text: steps/s and ratios, characters/s of the text task, the learning check, the
 * same-model check, time to 97 %, time to copying (text), the contenders.
 */
export function report({ rows, converge, copying = null, tasks, simd, scalar, tfjs, torchBlas = null }) {
  const columns = torchBlas ? [...COLUMNS, TORCH_BLAS.column] : COLUMNS;
  const targets = torchBlas ? [...TARGETS, TORCH_BLAS.target] : TARGETS;
  const lines = [];
  const w = 16;
  const cell = (text) => String(text).padStart(w);
  if (rows.length === 0) {
    return `training: nothing measured. Every contender takes its tasks from attn.trainingTasks(); tasks: ${tasks.source}`;
  }
  lines.push(
    `training, each task's defaults: optimiser steps per second, median of ${PLAN.samples} samples × ` +
      `${PLAN.stepsPerSample} steps after ${PLAN.warmupSteps} warm-up steps, one thread each`,
  );
  lines.push(
    `${'task'.padEnd(12)}${'batch'.padStart(6)}${columns.map((c) => cell(c.label)).join('')}` +
      `${targets.map((t) => cell(`SIMD/${t.versus}`)).join('')}`,
  );
  for (const row of rows) {
    const ratios = row.ratios.map((r) =>
      cell(r.ratio == null ? 'n/a' : `${r.ratio.toFixed(2)}×${r.met == null ? '' : r.met ? ' met' : ' NOT MET'}`),
    );
    lines.push(
      `${row.task.padEnd(12)}${String(row.batchSize).padStart(6)}` +
        `${columns.map((c) => cell(fmtRate(row.results[c.id]))).join('')}${ratios.join('')}`,
    );
  }
  const targetText = (id) =>
    targetsOf(id, torchBlas)
      .filter((t) => t.atLeast)
      .map((t) => `SIMD/${t.versus} ≥ ${t.atLeast}×`)
      .join(', ');
  const textRows = rows.filter((r) => r.task === 'text');
  const targetParts = [];
  if (rows.length > textRows.length) targetParts.push(targetText('reverse'));
  if (textRows.length) {
    targetParts.push(
      `text: ${targetText('text')}${torchBlas ? '' : ', SIMD/torchBlas ≥ 1×'} ` +
        '(torchBlas: PyTorch on OpenBLAS, one thread, the --torch-blas column)',
    );
  }
  lines.push(`targets: ${targetParts.join('; ')}`);
  if (textRows.length && !torchBlas) {
    lines.push('text: SIMD ÷ PyTorch on OpenBLAS not measured; run with --torch-blas <dir> (bench/README.md)');
  }

  for (const row of textRows) {
    lines.push(
      '',
      `${row.task}: characters per second (steps/s × batch ${row.batchSize} × ${row.charactersPerStep / row.batchSize} ` +
        'positions, every position scored; the ratios are those of steps/s)',
    );
    lines.push(`${'task'.padEnd(12)}${''.padStart(6)}${columns.map((c) => cell(c.label)).join('')}`);
    const chars = (r) => (r.available ? Math.round(r.charactersPerSecond) : r.error ? 'ERROR' : 'n/a');
    lines.push(`${row.task.padEnd(12)}${''.padStart(6)}${columns.map((c) => cell(chars(row.results[c.id]))).join('')}`);
  }

  lines.push(
    '',
    'learning check: loss of the first → last timed step; greedy answer-token accuracy afterwards ' +
      '(text: loss in bits per character, accuracy of the next character at every position of held-out windows)',
  );
  lines.push(`${'task'.padEnd(12)}${columns.map((c) => cell(c.label).padStart(26)).join('')}`);
  for (const row of rows) {
    const cells = columns.map((c) => {
      const r = row.results[c.id];
      if (!r.available) return (r.error ? 'ERROR' : 'n/a').padStart(26);
      const acc = `${(100 * r.evaluation.accuracy).toFixed(1)} %`;
      return `${fmtLoss(r.firstLoss)} → ${fmtLoss(r.lastLoss)}, ${acc}`.padStart(26);
    });
    lines.push(`${row.task.padEnd(12)}${cells.join('')}`);
  }

  lines.push(
    '',
    `same model: loss of attnbook SIMD's weights after ${CHECK.steps} steps on ${CHECK.examples} of its examples ` +
      `(t.sample, t.evaluate), recomputed by each peer; tolerance ${CHECK.tolerance} (× the loss when above 1); ` +
      "losses in nats, text in bits per character (the peers' nats / ln 2)",
  );
  lines.push(`${'task'.padEnd(12)}${['attnbook', 'TF.js wasm', 'PyTorch', 'max |Δ|'].map(cell).join('')}`);
  for (const row of rows) {
    const c = row.check;
    if (!c.available) {
      lines.push(`${row.task.padEnd(12)}  ${c.error ? `ERROR: ${c.error}` : `n/a: ${c.reason}`}`);
      continue;
    }
    const loss = (x) => cell(x == null ? 'n/a' : x.toFixed(6));
    lines.push(
      `${row.task.padEnd(12)}${loss(c.losses.attnbook)}${loss(c.losses.tfjs)}${loss(c.losses.torch)}` +
        `${cell(`${c.maxAbsDiff.toExponential(1)} ${c.agrees ? 'ok' : 'MISMATCH'}`)}`,
    );
  }

  lines.push(
    '',
    `time to ${CONVERGE.target * 100} % greedy answer-token accuracy, attnbook SIMD, defaults: ` +
      `step(${CONVERGE.every}) then evaluate(), seconds of step() per seed (cap ${CONVERGE.maxSteps} steps or ` +
      `${CONVERGE.maxSecondsPerRun} s a run); the toy tasks (text has no accuracy target: time to copying below)`,
  );
  if (!converge) {
    lines.push('  not measured (--no-converge)');
  } else if (!converge.available) {
    lines.push(`  n/a: ${converge.reason}`);
  } else if (converge.tasks.length === 0) {
    lines.push('  no toy task in this run');
  } else {
    for (const c of converge.tasks) {
      const seeds = c.runs.map((r) =>
        r.skipped
          ? `s${r.seed} skipped`
          : `s${r.seed} ${r.reached ? '' : '>'}${fmtSeconds(r.trainSeconds)} s/${r.steps}${r.reached ? '' : ` (${(100 * r.accuracy).toFixed(0)} %)`}`,
      );
      const summary =
        c.medianTrainSeconds == null
          ? `${c.reached}/${c.runs.length} reached`
          : `median ${fmtSeconds(c.medianTrainSeconds)} s, max ${fmtSeconds(c.maxTrainSeconds)} s`;
      lines.push(`  ${c.task.padEnd(12)} ${summary.padEnd(30)} ${seeds.join('  ')}`);
    }
    lines.push('  (each seed: training seconds / steps; the evaluations are not counted)');
  }

  if (textRows.length || copying) {
    lines.push(
      '',
      `time to copying in context, text task, attnbook SIMD, defaults: step(${COPYING.every}) then ` +
        `copyingProbe() until copiesInContext, seconds of step() per seed (cap ${COPYING.maxSteps} steps or ` +
        `${COPYING.maxSecondsPerRun} s a run); then evaluate(): held-out loss in bits per character`,
    );
    if (!copying) {
      lines.push('  not measured (--no-converge)');
    } else if (!copying.available) {
      lines.push(`  n/a: ${copying.reason}`);
    } else {
      const head = [
        'seed',
        'steps',
        'step() s',
        '2nd copy',
        '1st copy',
        'knocked out',
        'prev/ind',
        'held-out',
        'accuracy',
      ];
      const widths = [6, 7, 10, 10, 10, 13, 10, 12, 10];
      const tableRow = (values) => values.map((v, i) => String(v).padStart(widths[i])).join('');
      lines.push(tableRow(head));
      const pct = (x) => `${(100 * x).toFixed(1)} %`;
      for (const r of copying.runs) {
        if (r.skipped) {
          lines.push(`${String(r.seed).padStart(widths[0])}  skipped: ${r.skipped}`);
          continue;
        }
        const p = r.probe;
        lines.push(
          tableRow([
            r.seed,
            `${r.reached ? '' : '>'}${r.steps}`,
            fmtSeconds(r.trainSeconds),
            pct(p.secondCopyAccuracy),
            pct(p.firstCopyAccuracy),
            pct(p.knockedOutAccuracy),
            `${p.previousTokenHeads}/${p.inductionHeads}`,
            `${r.evaluation.loss.toFixed(3)} b/c`,
            pct(r.evaluation.accuracy),
          ]),
        );
      }
      const summary =
        copying.medianTrainSeconds == null
          ? `${copying.reached}/${copying.runs.length} copy in context`
          : `all ${copying.runs.length} copy in context: median ${copying.medianSteps} steps, ` +
            `${fmtSeconds(copying.medianTrainSeconds)} s of step(), max ${fmtSeconds(copying.maxTrainSeconds)} s`;
      lines.push(`  ${summary}`);
      lines.push(
        `  unigram entropy of the training text (task.unigramBits): ${copying.unigramBits.toFixed(3)} bits per ` +
          `character; held out: the last ${copying.heldOut} characters`,
      );
      lines.push(
        '  (> : stopped by its cap; the probes and evaluations are not counted; 2nd / 1st copy: next-character ' +
          'accuracy on the second / first copy of a random string written twice; knocked out: the 2nd copy ' +
          'without the previous-token heads; prev/ind: previous-token / induction heads)',
      );
    }
  }

  lines.push('', 'contenders');
  lines.push(`  tasks               ${tasks.source}`);
  for (const [label, eng] of [
    ['attnbook SIMD', simd],
    ['attnbook scalar', scalar],
  ]) {
    lines.push(`  ${label.padEnd(19)} ${eng.available ? `loadAttention({ simd: ${eng.simd} })` : eng.reason}`);
  }
  if (tfjs.available) {
    const t = tfjs.config;
    lines.push(
      `  ${'TF.js wasm'.padEnd(19)} @tensorflow/tfjs-core ${t.version.core} + tfjs-backend-wasm ${t.version.wasm}: ` +
        `${t.binary} (SIMD ${t.simd ? 'on' : 'OFF'}), ${t.threads} thread; one-hot embeddings, AdamW by hand`,
    );
  } else {
    lines.push(`  ${'TF.js wasm'.padEnd(19)} ${tfjs.reason}`);
  }
  const torch = rows.map((r) => r.results.torch).find((r) => r.available);
  const torchWhy = rows.map((r) => r.results.torch).find((r) => !r.available)?.reason ?? 'not run';
  lines.push(
    `  ${'PyTorch'.padEnd(19)} ${torch ? `torch ${torch.config.torch}, Python ${torch.config.python} (${torch.config.interpreter}), ${torch.config.threads} thread` : torchWhy}`,
  );
  if (torch) lines.push(`  ${''.padEnd(19)} BLAS it calls: ${torch.config.blas.join(', ') || 'none mapped'}`);
  const other = rows.map((r) => r.results.torchBlas).find((r) => r?.available);
  if (torchBlas) {
    lines.push(
      `  ${'PyTorch+BLAS'.padEnd(19)} the same with LD_LIBRARY_PATH=${torchBlas}, OPENBLAS_NUM_THREADS=1; ` +
        `BLAS it calls: ${other?.config.blas.join(', ') || 'n/a'}`,
    );
  }
  for (const row of rows) {
    for (const c of columns) {
      const r = row.results[c.id];
      if (r.error) lines.push(`  ${c.label.padEnd(19)} ERROR on ${row.task}: ${r.error}`);
    }
  }
  return lines.join('\n');
}

/**
 * Tasks from attn.trainingTasks(), which every contender then uses; the text task as a trainer on
 * DEFAULT_TEXT describes it (its heldOut and unigramBits; the peers check their split against it).
 */
function chooseTasks(simd, only) {
  if (!simd.available) return { list: [], source: `none (attnbook SIMD: ${simd.reason})` };
  const withCorpus = (task) => {
    if (task.id !== 'text') return task;
    const t = simd.attn.createTrainer({ task: 'text', seed: 1 });
    try {
      return { ...task, ...t.task };
    } finally {
      t.dispose();
    }
  };
  const list = simd.attn
    .trainingTasks()
    .filter((t) => !only || only.includes(t.id))
    .map(withCorpus);
  return { list, source: `attn.trainingTasks() of the SIMD build: ${list.map((t) => t.id).join(', ')}` };
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** The whole benchmark; `load` is loadAttention (another engine may be passed in). */
export async function main({ load = loadAttention, argv = process.argv.slice(2) } = {}) {
  const started = performance.now();
  const loadBefore = os.loadavg();
  if (loadBefore[0] > 1) {
    console.log(
      `note: load average ${loadBefore[0].toFixed(2)} on ${os.cpus().length} CPUs: other work may inflate timings`,
    );
  }
  const only = argv.includes('--tasks') ? argv[argv.indexOf('--tasks') + 1].split(',') : null;
  const torchBlas = argv.includes('--torch-blas') ? path.resolve(argv[argv.indexOf('--torch-blas') + 1]) : null;
  const simd = await engine(load, true);
  const scalar = await engine(load, false);
  const tfjs = await loadTfjs();
  if (tfjs.available) await registerTfjsGradients();
  const tasks = chooseTasks(simd, only);

  console.log('steps per second (warm-up, then samples) ...');
  const rows = tasks.list.map((task) => benchTask(task, { simd, scalar, tfjs, torchBlas }));

  let converge = null;
  let copying = null;
  const toy = tasks.list.filter((t) => t.id !== 'text');
  const text = tasks.list.find((t) => t.id === 'text');
  if (!argv.includes('--no-converge')) {
    if (toy.length) {
      console.log(`time to ${CONVERGE.target * 100} % accuracy, attnbook SIMD, seeds ${CONVERGE.seeds.join(', ')} ...`);
    }
    if (!simd.available) {
      converge = { available: false, reason: simd.reason };
    } else {
      let left = CONVERGE.budgetSeconds * 1000;
      const budget = { left: () => left, spend: (ms) => (left -= ms) };
      converge = { available: true, tasks: toy.map((task) => timeToAccuracy(simd.attn, task, budget)) };
    }
    if (text) {
      console.log(`time to copying in context (text), attnbook SIMD, seeds ${COPYING.seeds.join(', ')} ...`);
      copying = simd.available
        ? { available: true, ...timeToCopying(simd.attn, text) }
        : { available: false, reason: simd.reason };
    }
  }

  console.log(`\n${report({ rows, converge, copying, tasks, simd, scalar, tfjs, torchBlas })}`);

  const out = path.join(here, 'results', 'train.json');
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(
    out,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        commit: gitCommit(),
        node: process.version,
        v8: process.versions.v8,
        cpu: os.cpus()[0]?.model,
        cpus: os.cpus().length,
        loadAverage: { before: loadBefore, after: os.loadavg() },
        plan: PLAN,
        evaluation: EVAL,
        converge: CONVERGE,
        copying: text ? COPYING : undefined,
        tasks: tasks.list,
        tasksSource: tasks.source,
        contenders: {
          simd: { available: simd.available, reason: simd.reason, simd: simd.simd },
          scalar: { available: scalar.available, reason: scalar.reason, simd: scalar.simd },
          tfjs: { available: tfjs.available, reason: tfjs.reason, ...tfjs.config },
          torch: { interpreter: PYTHON, script: path.relative(root, TORCH_SCRIPT) },
          torchBlas: torchBlas ? { LD_LIBRARY_PATH: torchBlas, OPENBLAS_NUM_THREADS: 1 } : undefined,
        },
        rows,
        timeToAccuracy: converge,
        timeToCopying: copying ?? undefined,
        seconds: (performance.now() - started) / 1000,
      },
      null,
      2,
    ),
  );
  console.log(`\nwrote ${path.relative(process.cwd(), out)} (${((performance.now() - started) / 1000).toFixed(0)} s)`);

  const problems = [];
  for (const row of rows) {
    for (const [id, r] of Object.entries(row.results)) if (r.error) problems.push(`${id} on ${row.task}: ${r.error}`);
    if (row.check.error) problems.push(`same-model check on ${row.task}: ${row.check.error}`);
    if (row.check.available && !row.check.agrees) problems.push(`same-model check on ${row.task}: the losses differ`);
  }
  if (problems.length) {
    console.error(`\ntraining benchmark problems:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
