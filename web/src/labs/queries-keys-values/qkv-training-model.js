/**
 * The training lab's model (attn-qkv-training): the engine's `retrieval2d` trainer (one layer,
 * one head, d_model 2, no MLP) brought to a given step from a seed, and what the lab draws from
 * it. Tokens 0, 1 are group A's items, 2, 3 group B's, 4 is 'A?' and 5 'B?'; an input is an A item
 * and a B item in either order, then a query, and the answer is the queried group's item. The
 * whole task is 16 inputs, so the lab measures on every one of them (trainer.predict): the
 * answers, and how much of the query position's attention lands on the position that holds the
 * answer.
 *
 * Training is deterministic: step(a) then step(b) is step(a + b), so the state { seed, steps }
 * names one model exactly, whatever chunks the animation took. The loss curve is the last batch's
 * loss at every RECORD_EVERY-th step, so it is the same however the steps were chunked too.
 *
 * x(token, position) = E[token] + P[position] (embed.token, embed.position); the keys
 * k = x W_K and queries q = x W_Q are the core's products (engine.scores with scale 1). No DOM;
 * unit-tested in Node (tests/js/labs-queries-keys-values.test.js).
 */
import { fmt, matrixText, vec } from './qkv-world-model.js';
export const TASK = 'retrieval2d';
export const QUERY_A = 4;
export const QUERY_B = 5;
export const ITEMS = [0, 1, 2, 3];
export const groupOf = (token) => (token < 2 ? 'A' : 'B');
export const RECORD_EVERY = 10;
export const TRAIN_STEPS = 400; // one press of Train
export const MAX_STEPS = 3000;
export const FRAME_STEPS = 2; // optimiser steps per animation frame

/** The 16 inputs of the task: { input, answer, right (the position holding the answer) }. */
export const ALL_INPUTS = (() => {
  const out = [];
  for (const a of [0, 1])
    for (const b of [2, 3])
      for (const [first, second] of [
        [a, b],
        [b, a],
      ])
        for (const query of [QUERY_A, QUERY_B]) {
          const answer = query === QUERY_A ? a : b;
          out.push({ input: [first, second, query], answer, right: first === answer ? 0 : 1 });
        }
  return out;
})();

const tensor = (rows) => ({ data: Float32Array.from(rows.flat()), shape: [rows.length, rows[0].length] });
const rowsOf = ({ data, shape: [r, c] }) =>
  Array.from({ length: r }, (_, i) => Array.from(data.subarray(i * c, (i + 1) * c)));
const transpose = (m) => m[0].map((_, j) => m.map((row) => row[j]));

/** A fresh run cache for advance(). */
export const newRun = () => ({ trainer: null, seed: null, step: 0, loss: null, history: [] });

/** Frees the run's trainer. */
export function disposeRun(run) {
  run.trainer?.dispose();
  Object.assign(run, newRun());
}

/**
 * Brings `run` (newRun()) to `steps` optimiser steps of seed `seed` (a new trainer when the seed
 * differs or the run is already past `steps`), recording the loss every RECORD_EVERY steps, and
 * returns the snapshot the lab draws.
 * @param {import('../../engine/index.js').Attention} engine
 */
export function advance(engine, run, seed, steps) {
  if (!run.trainer || run.seed !== seed || run.step > steps) {
    disposeRun(run);
    run.trainer = engine.createTrainer({ task: TASK, seed });
    run.seed = seed;
  }
  while (run.step < steps) {
    const next = Math.min(steps, (Math.floor(run.step / RECORD_EVERY) + 1) * RECORD_EVERY);
    run.loss = run.trainer.step(next - run.step).loss;
    run.step = next;
    if (next % RECORD_EVERY === 0) run.history.push([next, run.loss, accuracyOf(run.trainer)]);
  }
  return snapshot(engine, run);
}

/** The share of the 16 inputs answered right. */
function accuracyOf(trainer) {
  let right = 0;
  for (const { input, answer } of ALL_INPUTS) if (trainer.predict(input).output[0] === answer) right += 1;
  return right / ALL_INPUTS.length;
}

/**
 * What the lab shows at the run's step: W_Q and W_K (rows), the queries of 'A?' and 'B?' at
 * position 2, the keys of the four items at positions 0 and 1, and per input the answer and the
 * query position's weights over positions 0, 1, 2.
 */
export function snapshot(engine, run) {
  const p = run.trainer.parameters();
  const E = rowsOf(p['embed.token']);
  const P = rowsOf(p['embed.position']);
  const wq = rowsOf(p['layer0.head0.W_Q']);
  const wk = rowsOf(p['layer0.head0.W_K']);
  const x = (token, position) => E[token].map((e, d) => e + P[position][d]);
  const project = (rows, w) => rowsOf(engine.scores(tensor(rows), tensor(transpose(w)), { scale: 1 }));
  const keyInputs = [];
  for (const position of [0, 1]) for (const token of ITEMS) keyInputs.push({ token, position });
  const keys = project(
    keyInputs.map(({ token, position }) => x(token, position)),
    wk,
  ).map((at, i) => ({ ...keyInputs[i], group: groupOf(keyInputs[i].token), at }));
  const [qA, qB] = project([x(QUERY_A, 2), x(QUERY_B, 2)], wq);
  const probes = ALL_INPUTS.map(({ input, answer, right }) => {
    const { output, attention } = run.trainer.predict(input);
    const T = attention.shape.at(-1);
    const { data } = attention;
    const weights = Array.from(data.subarray((T - 1) * T, T * T)); // the query position's row
    let leak = 0; // weight on a later position, which the causal mask forbids
    for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) leak = Math.max(leak, Math.abs(data[i * T + j]));
    return { input, answer, right, output: output[0], weights, rowSums: rowSums(data, T), leak };
  });
  const onRight = probes.map((pr) => pr.weights[pr.right]);
  const correct = probes.filter((pr) => pr.output === pr.answer).length;
  const retrieved = probes.filter((pr) => argmax(pr.weights) === pr.right).length;
  const causalLeak = Math.max(...probes.map((pr) => pr.leak));
  return {
    seed: run.seed,
    step: run.step,
    loss: run.loss,
    history: run.history.slice(),
    wq,
    wk,
    queries: { A: qA, B: qB },
    keys,
    probes,
    correct,
    retrieved,
    meanRight: onRight.reduce((a, b) => a + b, 0) / onRight.length,
    minRight: Math.min(...onRight),
    maxRowSumError: Math.max(...probes.flatMap((pr) => pr.rowSums.map((s) => Math.abs(s - 1)))),
    causalLeak,
  };
}

function rowSums(data, T) {
  return Array.from({ length: T }, (_, i) => data.subarray(i * T, (i + 1) * T).reduce((a, b) => a + b, 0));
}

function argmax(xs) {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i] > xs[best]) best = i;
  return best;
}

/** The plane's radius: the smallest of a few round sizes that holds every drawn vector. */
export function planeRadius(s) {
  const far = Math.max(...[s.queries.A, s.queries.B, ...s.keys.map((k) => k.at)].flat().map(Math.abs));
  return [2, 3, 5, 8, 12, 20, 30, 50, 80, 120].find((r) => r >= far * 1.1) ?? 200;
}

/** Whether the run has found the solution: every input answered by retrieving the right item. */
export const solved = (s) => s.correct === ALL_INPUTS.length && s.retrieved === ALL_INPUTS.length;

// the number formatting is the world lab's model's
export { fmt, vec, matrixText };

// Every position's weights on the 16 inputs, in the names of the lab's PyTorch cell (its forward
// keeps only the query's row).
const ALL_WEIGHTS_PYTHON =
  "F.softmax((lambda x: (x @ p['W_Q']) @ (x @ p['W_K']).transpose(-2, -1) / math.sqrt(D))" +
  "(p['embed.token'][torch.tensor(inputs)] + p['embed.position']).masked_fill(~causal, float('-inf')), dim=-1)";

/**
 * The lab's checks (checkCells data): they hold at every step, trained or not. `python`: each in
 * the names of the lab's PyTorch cell, for the lesson's notebook.
 */
export const trainingChecks = (s) => [
  {
    name: 'row-sums',
    label: 'max |row sum of the attention − 1| over the 16 inputs',
    threshold: 1e-5,
    value: s.maxRowSumError,
    python: `(${ALL_WEIGHTS_PYTHON}.sum(-1) - 1).abs().max()`,
  },
  {
    name: 'causal',
    label: 'largest weight on a later position (the causal mask)',
    comparison: 'eq',
    threshold: 0,
    value: s.causalLeak,
    python: `${ALL_WEIGHTS_PYTHON}.triu(1).abs().max()`,
  },
];

/** The one-line summary of what the model does now. */
export function retrievalSummary(s) {
  return `${s.correct} of 16 inputs answered right; the query's weight on the item it should fetch: mean ${fmt(s.meanRight, 3)}, least ${fmt(s.minRight, 3)}.`;
}

/** The text alternative. */
export function describeTraining(s) {
  if (!s) return 'Training: not started yet.';
  return (
    `retrieval2d, seed ${s.seed}, after ${s.step} steps` +
    (s.loss === null ? '' : ` (last batch loss ${fmt(s.loss, 3)})`) +
    `. Query of 'A?' ${vec(s.queries.A)}, of 'B?' ${vec(s.queries.B)}. ` +
    `Keys of group A: ${s.keys
      .filter((k) => k.group === 'A')
      .map((k) => vec(k.at))
      .join(', ')}; of group B: ${s.keys
      .filter((k) => k.group === 'B')
      .map((k) => vec(k.at))
      .join(', ')}. ${retrievalSummary(s)}`
  );
}

/** CSV rows: the loss curve. */
export const historyRows = (s) => [['step', 'loss (last batch)', 'accuracy on the 16 inputs'], ...s.history];

/** JSON export. */
export const trainingObject = (s) => ({
  task: TASK,
  seed: s.seed,
  step: s.step,
  loss: s.loss,
  W_Q: s.wq,
  W_K: s.wk,
  queries: s.queries,
  keys: s.keys,
  inputs: s.probes.map(({ input, answer, output, weights }) => ({ input, answer, output, weights })),
  history: s.history,
});
