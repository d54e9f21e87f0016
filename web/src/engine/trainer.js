/**
 * The trainer: a small decoder-only transformer learning a toy task (reverse, sort, lookup,
 * retrieval2d) or the characters of a text (text), trained by the core (attn::train) inside wasm.
 * No DOM.
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
 *   const r = attn.createTrainer({ task: 'text', seed: 1 });    // the course's prose (DEFAULT_TEXT)
 *   const ids = r.encode('mr dursley ... mr d');                // one id per character
 *   r.predict(ids);     // -> { output: the likeliest next id after each position, attention (layers, heads, T, T) }
 *   r.decode(ids); r.unknownCharacters('Mr D');                 // -> 'mr dursley ...', ['M', 'D']
 *   r.copyingProbe();   // -> copying a random string in context: accuracies and per-head scores
 *
 * A trainer owns a C++ object in wasm memory: call dispose() when done with it. This file checks
 * what the core cannot see (JS types, option names, counts, the saved state's form) and leaves the
 * rest to it (sizes, heads dividing dModel, learning-rate domains, memory, token ranges), so every
 * error is an AttentionError starting with the method's name.
 */
import { AttentionError, describe, fail, named, unwrap } from './errors.js';
import { DEFAULT_TEXT, withDefaultText } from './text-default.js';
import {
  checkConfig,
  checkIds,
  checkOptions,
  checkSeed,
  checkState,
  checkStepCount,
  checkText,
  checkWhole,
  MAX_EVALUATE_SAMPLES,
  MAX_PROBE_STRINGS,
  STATE_FORMAT,
  STATE_VERSION,
} from './trainer-checks.js';

export { DEFAULT_TEXT };
export {
  checkStepCount,
  MAX_EVALUATE_SAMPLES,
  MAX_STEPS_PER_CALL,
  STATE_FORMAT,
  STATE_VERSION,
} from './trainer-checks.js';

/** The engine's own way into data-parallel steps (trainer-parallel.js), not part of the API: trainer[PARTS](). */
export const PARTS = Symbol('attnbook data-parallel steps');

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
      const { samples = 256, seed = 12345 } = checkOptions(
        options,
        ['samples', 'seed'],
        '{ samples: 256, seed: 12345 }',
      );
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
   * For text: `input` is 1..seqLen ids of any length T, and output[i] is the likeliest next id
   * after position i; attention is (layers, heads, T, T), data[((layer · heads + head) · T + query) · T + key].
   * @param {number[]} input inputLength token ids, each in 0 .. vocab − 1
   * @returns {{ output: number[], attention: import('./tensor.js').Tensor }} the answer, and the
   *   attention weights (layers, heads, T, T) of the last forward pass, which reads the input and
   *   every answer token but the last (T = seqLen); row t sums to 1 over keys 0..t (causal)
   */
  predict(input) {
    return named('predict', () => {
      const handle = this.#live('predict');
      return unwrap(handle.predict(checkIds(input, 'input', this.task)));
    });
  }

  /**
   * Text trainers: one id per character of `text` (code points; a character outside task.alphabet
   * becomes the unknown id, vocab − 1).
   * @param {string} text
   * @returns {number[]}
   */
  encode(text) {
    return named('encode', () => unwrap(this.#live('encode').encode(checkText(text, 'text'))));
  }

  /**
   * Text trainers: the characters of `ids` ('\uFFFD' for the unknown id).
   * @param {ArrayLike<number>} ids each in 0 .. vocab − 1
   * @returns {string}
   */
  decode(ids) {
    return named('decode', () => unwrap(this.#live('decode').decode(checkIds(ids, 'ids', this.task))));
  }

  /**
   * Text trainers: the distinct characters of `text` that encode() would replace by the unknown
   * id, in the order they first appear.
   * @param {string} text
   * @returns {string[]}
   */
  unknownCharacters(text) {
    return named('unknownCharacters', () =>
      unwrap(this.#live('unknownCharacters').unknownCharacters(checkText(text, 'text'))),
    );
  }

  /**
   * Text trainers: the copying probe (core/include/attn/train/text.hpp). `count` strings of
   * `length` random letters, each written twice: accuracy on the two copies, each head's
   * previous-token and prefix-matching scores (layer-major), and the second copy's accuracy with
   * the first layer's previous-token heads knocked out. copiesInContext is issue 38's criterion.
   * @param {{ length?: number, count?: number, seed?: number }} [options] length 2..seqLen / 2
   *   (default 20), count 1..4096 (default 64), seed (default 7)
   * @returns {{ firstCopyAccuracy: number, secondCopyAccuracy: number, previousToken: number[],
   *   prefixMatching: number[], previousTokenHeads: number, inductionHeads: number,
   *   knockedOutAccuracy: number, copiesInContext: boolean }}
   */
  copyingProbe(options) {
    return named('copyingProbe', () => {
      const handle = this.#live('copyingProbe');
      const {
        length = 20,
        count = 64,
        seed = 7,
      } = checkOptions(options, ['length', 'count', 'seed'], '{ length: 20, count: 64, seed: 7 }');
      checkWhole(length, 'length');
      checkWhole(count, 'count', { min: 1, max: MAX_PROBE_STRINGS });
      checkSeed(seed, 'seed');
      return unwrap(handle.copyingProbe(length, count, seed));
    });
  }

  /**
   * The OV circuit of a head (core/include/attn/train/circuits.hpp): (vocab, vocab), row a what
   * attending to token a adds to the logits, E W_V W_O^h U. Attention-only models (no mlp, no
   * layerNorm).
   * @param {number} layer @param {number} head
   * @returns {import('./tensor.js').Tensor}
   */
  ovCircuit(layer, head) {
    return named('ovCircuit', () => {
      const handle = this.#live('ovCircuit');
      checkWhole(layer, 'layer');
      checkWhole(head, 'head');
      return unwrap(handle.ovCircuit(layer, head));
    });
  }

  /**
   * The QK circuit of head `head` of layer `layer` (≥ 1) through head `source` of layer 0
   * (K-composition): (vocab, vocab), entry [a, b] how much a query token a looks for a key where
   * the source head wrote what it read at a b. Attention-only models.
   * @param {number} layer @param {number} head @param {number} source
   * @returns {import('./tensor.js').Tensor}
   */
  qkCircuit(layer, head, source) {
    return named('qkCircuit', () => {
      const handle = this.#live('qkCircuit');
      checkWhole(layer, 'layer');
      checkWhole(head, 'head');
      checkWhole(source, 'source');
      return unwrap(handle.qkCircuit(layer, head, source));
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

/** attn.createTrainer(options) of the module; the text task without a text reads DEFAULT_TEXT. */
export function createTrainer(module, options) {
  return named('createTrainer', () => {
    const config = checkConfig(withDefaultText(options));
    if (config.task === 'text' && config.text === undefined) {
      fail('text is missing, and this worker has no default corpus: give the text (pages pass DEFAULT_TEXT)');
    }
    const { trainer } = unwrap(module.createTrainer(config));
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
