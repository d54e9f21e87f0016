/**
 * The trainer: a small decoder-only transformer learning a toy task (reverse, sort, lookup,
 * retrieval2d), trained by the core (attn::train) inside wasm. No DOM.
 *
 *   const t = attn.createTrainer({ task: 'reverse', seed: 1 });
 *   t.step(100);                      // -> { step: 100, loss }
 *   t.evaluate();                     // -> { loss, accuracy } on 256 fresh examples
 *   const { input } = t.sample(7);
 *   t.predict(input);                 // -> { output: number[], attention: Tensor (layers, heads, T, T) }
 *   const saved = JSON.stringify(t.exportState());
 *   const u = attn.loadTrainer(JSON.parse(saved)); // continues exactly as t would
 *   t.dispose(); u.dispose();         // frees their wasm memory
 *
 * A trainer owns a C++ object in wasm memory: call dispose() when done with it. This file checks
 * what the core cannot see (JS types, option names, counts, the saved state's form) and leaves the
 * rest to it (sizes, heads dividing dModel, learning-rate domains, memory, token ranges), so every
 * error is an AttentionError starting with the method's name.
 */
import { AttentionError, describe, fail, named, unwrap } from './errors.js';

/** The engine's own way into data-parallel steps (trainer-parallel.js), not part of the API: trainer[PARTS](). */
export const PARTS = Symbol('attnbook data-parallel steps');

/** The JSON state's format name and version (exportState, loadTrainer). */
export const STATE_FORMAT = 'attnbook-trainer';
export const STATE_VERSION = 1;

/** Most optimiser steps one step() call runs (step in several calls for more). */
export const MAX_STEPS_PER_CALL = 100000;
/** Most examples one evaluate() call draws. */
export const MAX_EVALUATE_SAMPLES = 100000;

const MAX_SEED = Number.MAX_SAFE_INTEGER; // 2^53 − 1: every seed a JS number holds exactly
const MAX_U64 = (1n << 64n) - 1n;

// createTrainer's options (and a saved state's config): how each is checked here. The core
// checks the values (sizes >= 1, heads dividing dModel, learningRate finite and >= 0, ...).
const OPTIONS = {
  task: 'string',
  seed: 'seed',
  layers: 'whole',
  heads: 'whole',
  dModel: 'whole',
  mlp: 'boolean',
  dMlp: 'whole',
  layerNorm: 'boolean',
  learningRate: 'number',
  weightDecay: 'number',
  beta1: 'number',
  beta2: 'number',
  eps: 'number',
  batchSize: 'whole',
  precision: 'precision',
};
const OPTION_NAMES = Object.keys(OPTIONS);
const STATE_FIELDS = ['format', 'version', 'config', 'step', 'weights', 'm', 'v', 'data', 'lastLoss', 'headEnabled'];
const DATA_FIELDS = ['state', 'increment', 'spareNormal', 'hasSpare'];

const isPlainObject = (value) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value);

function checkWhole(value, name, { min = 0, max, what = '' } = {}) {
  if (typeof value !== 'number') fail(`${name} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < min || (max !== undefined && value > max)) {
    const range = max === undefined ? `>= ${min}` : `from ${min} to ${max}`;
    fail(`${name} is ${value}; it must be a whole number ${range}${what}`, 'ValueError');
  }
  return value;
}

const checkSeed = (value, name) => checkWhole(value, name, { max: MAX_SEED });

/** step()'s count checked (a whole number from 0 to 100000), as its errors name it: "step: count is 1.5; ...". */
export function checkStepCount(count) {
  named('step', () =>
    checkWhole(count, 'count', { max: MAX_STEPS_PER_CALL, what: ' (step in several calls for more)' }),
  );
}

// How each kind of option in OPTIONS is checked: (value, its name in messages).
const CHECKS = {
  string: (value, name) => {
    if (typeof value !== 'string') fail(`${name} must be a task id such as 'reverse', got ${describe(value)}`);
  },
  seed: checkSeed,
  whole: (value, name) => checkWhole(value, name, { what: name.endsWith('dMlp') ? ' (0 = 4 · dModel)' : '' }),
  boolean: (value, name) => {
    if (typeof value !== 'boolean') fail(`${name} must be true or false, got ${describe(value)}`);
  },
  number: (value, name) => {
    if (typeof value !== 'number') fail(`${name} must be a number, got ${describe(value)}`);
  },
  precision: (value, name) => {
    if (value !== 'float32' && value !== 'float64') {
      const kind = typeof value === 'string' ? 'ValueError' : 'TypeError';
      fail(`${name} must be 'float32' or 'float64', got ${describe(value)}`, kind);
    }
  },
};

/**
 * createTrainer's options (or state.config, `prefix` 'state.config.') checked for JS type and
 * name; with `complete`, every option must be present (a saved config never relies on defaults).
 * Returns a fresh object of the options given, for the binding.
 */
function checkConfig(options, { prefix = '', complete = false } = {}) {
  if (!isPlainObject(options)) {
    fail(
      `${prefix ? prefix.slice(0, -1) : 'options'} must be an object such as { task: 'reverse', seed: 1 }, got ${describe(options)}`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(OPTIONS, key)) {
      fail(`${prefix}${key} is not an option; the options are ${OPTION_NAMES.join(', ')}`);
    }
  }
  const out = {};
  for (const [key, kind] of Object.entries(OPTIONS)) {
    const value = options[key];
    const name = `${prefix}${key}`;
    if (value === undefined) {
      if (key === 'task') fail(`${name} is missing; give a task id such as 'reverse'`);
      if (complete) fail(`${name} is missing`);
      continue;
    }
    CHECKS[kind](value, name);
    out[key] = value;
  }
  return out;
}

const deepFreeze = (object) => {
  for (const value of Object.values(object)) if (value && typeof value === 'object') deepFreeze(value);
  return Object.freeze(object);
};

const token = Symbol('attnbook trainer');

/** A trainer: create it with attn.createTrainer(options) or attn.loadTrainer(state). */
export class Trainer {
  #handle;

  /** @param {object} handle the binding's Trainer object (the engine creates trainers) */
  constructor(handle, key) {
    if (key !== token)
      throw new AttentionError('Trainer: create trainers with attn.createTrainer() or attn.loadTrainer()');
    this.#handle = handle;
    /** The resolved config: createTrainer's option names, every one filled in (task defaults applied). */
    this.config = deepFreeze(handle.config());
    /** The task: one entry of trainingTasks(). */
    this.task = deepFreeze(handle.task());
  }

  #live(name) {
    if (!this.#handle) fail(`${name}: this trainer was disposed`, 'Error');
    return this.#handle;
  }

  /**
   * Runs `count` optimiser steps, each on a fresh batch of the task's data stream.
   * @param {number} [count] a whole number from 0 to 100000 (default 1; 0 changes nothing)
   * @returns {{ step: number, loss: number }} the steps taken so far and the mean cross-entropy over
   *   the answer tokens of the last batch (NaN before the first step)
   */
  step(count = 1) {
    return named('step', () => {
      const handle = this.#live('step');
      checkStepCount(count);
      return unwrap(handle.step(count));
    });
  }

  /**
   * Teacher-forced loss and greedy answer-token accuracy on `samples` fresh examples drawn from
   * their own stream of `seed` (the same examples for the same seed, independent of training).
   * @param {{ samples?: number, seed?: number }} [options] samples 1..100000 (default 256), seed (default 12345)
   * @returns {{ loss: number, accuracy: number }}
   */
  evaluate(options) {
    return named('evaluate', () => {
      const handle = this.#live('evaluate');
      if (options !== undefined && !isPlainObject(options)) {
        fail(`options must be an object such as { samples: 256, seed: 12345 }, got ${describe(options)}`);
      }
      const { samples = 256, seed = 12345, ...rest } = options ?? {};
      const unknown = Object.keys(rest)[0];
      if (unknown !== undefined) fail(`${unknown} is not an option; the options are samples, seed`);
      checkWhole(samples, 'samples', { max: MAX_EVALUATE_SAMPLES });
      checkSeed(seed, 'seed');
      return unwrap(handle.evaluate(samples, seed));
    });
  }

  /**
   * One example of the task, drawn from `seed` (the same example for the same seed).
   * @param {number} seed a whole number from 0 to 2^53 − 1
   * @returns {{ input: number[], answer: number[] }}
   */
  sample(seed) {
    return named('sample', () => {
      const handle = this.#live('sample');
      checkSeed(seed, 'seed');
      return unwrap(handle.sample(seed));
    });
  }

  /**
   * Greedy answer to a task input: the argmax token (lowest id on ties), answerLength times.
   * @param {number[]} input inputLength token ids, each in 0 .. vocab − 1
   * @returns {{ output: number[], attention: import('./tensor.js').Tensor }} the answer, and the
   *   attention weights (layers, heads, T, T) of the last forward pass, which reads the input and
   *   every answer token but the last (T = seqLen); row t sums to 1 over keys 0..t (causal)
   */
  predict(input) {
    return named('predict', () => {
      const handle = this.#live('predict');
      if (!Array.isArray(input) && !(ArrayBuffer.isView(input) && !(input instanceof DataView))) {
        fail(`input must be an array of token ids, got ${describe(input)}`);
      }
      const { id, vocab } = this.task;
      const tokens = Array.from(input);
      tokens.forEach((x, i) => {
        if (typeof x !== 'number') fail(`input[${i}] is ${describe(x)}, not a token id`);
        if (!Number.isInteger(x) || x < 0 || x >= vocab) {
          fail(`input[${i}] is ${x}; ${id} tokens are 0..${vocab - 1}`, 'ValueError');
        }
      });
      return unwrap(handle.predict(tokens));
    });
  }

  /**
   * Ablates head `head` of layer `layer` (enabled false: its output is zeroed, exactly as a zero W_V
   * would; its attention weights are still computed and reported by predict, and its W_Q, W_K, W_V
   * get no gradient) or restores it (true). Training, evaluate and predict all use the mask.
   * @param {number} layer 0 .. layers − 1 @param {number} head 0 .. heads − 1 @param {boolean} enabled
   */
  setHeadEnabled(layer, head, enabled) {
    return named('setHeadEnabled', () => {
      const handle = this.#live('setHeadEnabled');
      checkWhole(layer, 'layer');
      checkWhole(head, 'head');
      if (typeof enabled !== 'boolean') fail(`enabled must be true or false, got ${describe(enabled)}`);
      unwrap(handle.setHeadEnabled(layer, head, enabled));
    });
  }

  /**
   * Every weight tensor by name, in layout order, as float32 copies: embed.token (vocab, dModel),
   * embed.position (seqLen, dModel), layerL.headH.W_Q / W_K / W_V (dModel, dModel / heads),
   * layerL.W_O (dModel, dModel), with layerNorm layerL.ln1.gain / bias, with mlp layerL.mlp.W_in
   * (dModel, M), b_in, W_out (M, dModel), b_out (and ln2), final_ln.gain / bias, unembed (dModel, vocab).
   * @returns {Record<string, import('./tensor.js').Tensor>}
   */
  parameters() {
    return named('parameters', () => unwrap(this.#live('parameters').parameters()));
  }

  /**
   * Everything the trainer holds, as plain JSON-serialisable data (the format is in web/README.md):
   * loadTrainer(exportState()) continues exactly as this trainer would, bit for bit.
   * @returns {TrainerState}
   */
  exportState() {
    return named('exportState', () => {
      const saved = unwrap(this.#live('exportState').save());
      return {
        format: STATE_FORMAT,
        version: STATE_VERSION,
        config: saved.config,
        step: saved.step,
        weights: Array.from(saved.weights),
        m: Array.from(saved.m),
        v: Array.from(saved.v),
        data: saved.data,
        lastLoss: Number.isNaN(saved.lastLoss) ? null : saved.lastLoss,
        headEnabled: Array.from(saved.headEnabled, (flag) => flag !== 0),
      };
    });
  }

  /**
   * A float32 step cut into parts (trainer-parallel.js): begin() draws the batch and returns
   * { parts }; compute(i) runs part i here, adds it and returns it, { gradient: Float32Array, loss },
   * for the other replicas; add(i, gradient, loss) takes one computed by another replica; finish()
   * steps the optimiser on their sum and returns { step, loss }; abort() drops the open step.
   * Errors start with "step".
   */
  [PARTS]() {
    const handle = this.#live('step');
    const call = (body) => named('step', () => unwrap(body()));
    return {
      begin: () => call(() => handle.beginStep()),
      compute: (index) => call(() => handle.computePart(index)),
      add: (index, gradient, loss) => call(() => handle.addPart(index, gradient, loss)),
      finish: () => call(() => handle.finishStep()),
      abort: () => handle.abortStep(),
    };
  }

  /** Whether dispose() has been called. */
  get disposed() {
    return !this.#handle;
  }

  /** Frees the trainer's wasm memory; every later call but dispose() throws. */
  dispose() {
    this.#handle?.delete();
    this.#handle = undefined;
  }
}

/** @typedef {ReturnType<Trainer['exportState']>} TrainerState */

/** attn.trainingTasks() of the module. */
export function trainingTasks(module) {
  return named('trainingTasks', () => unwrap(module.trainingTasks()));
}

/** attn.createTrainer(options) of the module. */
export function createTrainer(module, options) {
  return named('createTrainer', () => {
    const { trainer } = unwrap(module.createTrainer(checkConfig(options)));
    return new Trainer(trainer, token);
  });
}

/** attn.loadTrainer(state) of the module. */
export function loadTrainer(module, state) {
  return named('loadTrainer', () => {
    const { trainer } = unwrap(module.loadTrainer(checkState(state)));
    return new Trainer(trainer, token);
  });
}

// A list of numbers saved in the state (weights, m, v) -> Float64Array, naming the first non-number.
function numbers(list, field) {
  const name = `state.${field}`;
  if (!Array.isArray(list) && !(list instanceof Float64Array))
    fail(`${name} must be an array of numbers, got ${describe(list)}`);
  const out = new Float64Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (typeof x !== 'number') fail(`${name}[${i}] is ${describe(x)}; ${field} must be numbers`);
    out[i] = x;
  }
  return out;
}

// A saved 64-bit generator word: decimal digits, at most 2^64 − 1.
function word(text, name) {
  if (typeof text !== 'string' || !/^[0-9]{1,20}$/.test(text) || BigInt(text) > MAX_U64) {
    fail(
      `${name} is ${describe(text)}; it must be a decimal string of a whole number from 0 to 2^64 - 1`,
      typeof text === 'string' ? 'ValueError' : 'TypeError',
    );
  }
  return text;
}

/**
 * A state from exportState() (or JSON.parse of one) checked for its form, as the binding takes it.
 * The core then checks what needs the model: array lengths against its layout, finite weights and
 * moments, an odd generator increment.
 */
function checkState(state) {
  if (!isPlainObject(state)) fail(`state must be an object from exportState(), got ${describe(state)}`);
  if (state.format !== STATE_FORMAT) {
    fail(
      `state.format is ${describe(state.format)}; not an attnbook trainer state (format '${STATE_FORMAT}')`,
      'ValueError',
    );
  }
  if (state.version !== STATE_VERSION) {
    fail(`state.version is ${describe(state.version)}; this engine reads version ${STATE_VERSION}`, 'ValueError');
  }
  for (const key of Object.keys(state)) {
    if (!STATE_FIELDS.includes(key))
      fail(`state.${key} is not a field of a trainer state; its fields are ${STATE_FIELDS.join(', ')}`);
  }
  for (const key of STATE_FIELDS) if (state[key] === undefined) fail(`state.${key} is missing`);
  const config = checkConfig(state.config, { prefix: 'state.config.', complete: true });
  checkSeed(state.step, 'state.step');
  const weights = numbers(state.weights, 'weights');
  const m = numbers(state.m, 'm');
  const v = numbers(state.v, 'v');
  const { data } = state;
  if (!isPlainObject(data)) fail(`state.data must be an object { ${DATA_FIELDS.join(', ')} }, got ${describe(data)}`);
  for (const key of Object.keys(data)) {
    if (!DATA_FIELDS.includes(key))
      fail(`state.data.${key} is not a field of the generator state; its fields are ${DATA_FIELDS.join(', ')}`);
  }
  word(data.state, 'state.data.state');
  word(data.increment, 'state.data.increment');
  if (typeof data.spareNormal !== 'number' || !Number.isFinite(data.spareNormal)) {
    fail(
      `state.data.spareNormal is ${describe(data.spareNormal)}; it must be a finite number`,
      typeof data.spareNormal === 'number' ? 'ValueError' : 'TypeError',
    );
  }
  if (typeof data.hasSpare !== 'boolean')
    fail(`state.data.hasSpare must be true or false, got ${describe(data.hasSpare)}`);
  const { lastLoss, headEnabled } = state;
  if (lastLoss !== null && (typeof lastLoss !== 'number' || !Number.isFinite(lastLoss))) {
    fail(
      `state.lastLoss is ${describe(lastLoss)}; it must be a finite number, or null before the first step`,
      typeof lastLoss === 'number' ? 'ValueError' : 'TypeError',
    );
  }
  if (!Array.isArray(headEnabled))
    fail(`state.headEnabled must be an array of true or false, got ${describe(headEnabled)}`);
  const heads = config.layers * config.heads;
  if (headEnabled.length !== heads) {
    fail(
      `state.headEnabled has ${headEnabled.length} flags; the model has layers x heads = ${heads} heads`,
      'ShapeError',
    );
  }
  headEnabled.forEach((flag, i) => {
    if (typeof flag !== 'boolean') fail(`state.headEnabled[${i}] is ${describe(flag)}; flags must be true or false`);
  });
  return {
    config,
    step: state.step,
    weights,
    m,
    v,
    data: { state: data.state, increment: data.increment, spareNormal: data.spareNormal, hasSpare: data.hasSpare },
    lastLoss: lastLoss ?? NaN,
    headEnabled: Uint8Array.from(headEnabled, (flag) => (flag ? 1 : 0)),
  };
}
