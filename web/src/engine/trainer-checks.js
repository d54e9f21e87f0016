/**
 * What the trainer checks before the core sees it (trainer.js): createTrainer's options (names,
 * JS types, seeds, counts) and loadTrainer's saved state (its form, field by field), so that every
 * error names the option or the field, the value, and what would do.
 */
import { describe, fail, named } from './errors.js';

/** The JSON state's format name and version (exportState, loadTrainer). */
export const STATE_FORMAT = 'attnbook-trainer';
export const STATE_VERSION = 1;

/** Most optimiser steps one step() call runs (step in several calls for more). */
export const MAX_STEPS_PER_CALL = 100000;
/** Most examples one evaluate() call draws. */
export const MAX_EVALUATE_SAMPLES = 100000;
/** Most strings one copyingProbe() call writes twice. */
export const MAX_PROBE_STRINGS = 4096;
/** Longest text (UTF-8 bytes), as the core's kMaxTextBytes. */
export const MAX_TEXT_BYTES = 1 << 20;

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
  text: 'text',
};
const OPTION_NAMES = Object.keys(OPTIONS);
const STATE_FIELDS = ['format', 'version', 'config', 'step', 'weights', 'm', 'v', 'data', 'lastLoss', 'headEnabled'];
const DATA_FIELDS = ['state', 'increment', 'spareNormal', 'hasSpare'];

export const isPlainObject = (value) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value);

export function checkWhole(value, name, { min = 0, max, what = '' } = {}) {
  if (typeof value !== 'number') fail(`${name} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < min || (max !== undefined && value > max)) {
    const range = max === undefined ? `>= ${min}` : `from ${min} to ${max}`;
    fail(`${name} is ${value}; it must be a whole number ${range}${what}`, 'ValueError');
  }
  return value;
}

export const checkSeed = (value, name) => checkWhole(value, name, { max: MAX_SEED });

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
  text: (value, name) => checkText(value, name),
  precision: (value, name) => {
    if (value !== 'float32' && value !== 'float64') {
      const kind = typeof value === 'string' ? 'ValueError' : 'TypeError';
      fail(`${name} must be 'float32' or 'float64', got ${describe(value)}`, kind);
    }
  },
};

/**
 * A text for the text task or for encode(): a string of well-formed UTF-16 (no lone surrogate)
 * within MAX_TEXT_BYTES of UTF-8. The core checks the rest (empty, one character, alphabet size).
 */
export function checkText(value, name) {
  if (typeof value !== 'string') fail(`${name} must be a string, got ${describe(value)}`);
  const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(value);
  if (lone) {
    fail(
      `${name} has a lone surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}) at index ${lone.index}`,
      'ValueError',
    );
  }
  // UTF-8 bytes without encoding the whole text: 1–3 bytes per code unit, 4 per surrogate pair
  if (value.length > MAX_TEXT_BYTES / 4) {
    const bytes = new TextEncoder().encode(value).length;
    if (bytes > MAX_TEXT_BYTES) {
      fail(`${name} has ${bytes} bytes of UTF-8; at most ${MAX_TEXT_BYTES} (1 MiB) is supported`, 'ValueError');
    }
  }
  return value;
}

/** Token ids for predict() or decode(): an array (or typed array) of whole numbers in 0 .. vocab − 1. */
export function checkIds(ids, name, { id, vocab }) {
  if (!Array.isArray(ids) && !(ArrayBuffer.isView(ids) && !(ids instanceof DataView))) {
    fail(`${name} must be an array of token ids, got ${describe(ids)}`);
  }
  const out = Array.from(ids);
  out.forEach((x, i) => {
    if (typeof x !== 'number') fail(`${name}[${i}] is ${describe(x)}, not a token id`);
    if (!Number.isInteger(x) || x < 0 || x >= vocab)
      fail(`${name}[${i}] is ${x}; ${id} tokens are 0..${vocab - 1}`, 'ValueError');
  });
  return out;
}

/** A method's options object (undefined for none) with only the `names` given; `example` shows one. */
export function checkOptions(options, names, example) {
  if (options !== undefined && !isPlainObject(options)) {
    fail(`options must be an object such as ${example}, got ${describe(options)}`);
  }
  const unknown = Object.keys(options ?? {}).find((key) => !names.includes(key));
  if (unknown !== undefined) fail(`${unknown} is not an option; the options are ${names.join(', ')}`);
  return options ?? {};
}

/**
 * createTrainer's options (or state.config, `prefix` 'state.config.') checked for JS type and
 * name; with `complete`, every option must be present (a saved config never relies on defaults).
 * Returns a fresh object of the options given, for the binding.
 */
export function checkConfig(options, { prefix = '', complete = false } = {}) {
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
      // a saved config has every option; text only for the text task
      if (complete && (key !== 'text' || options.task === 'text')) fail(`${name} is missing`);
      continue;
    }
    CHECKS[kind](value, name);
    out[key] = value;
  }
  return out;
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
export function checkState(state) {
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
