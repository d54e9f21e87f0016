/**
 * attnbook engine: a small typed API over the attention core compiled to
 * WebAssembly. No DOM; works in Node 20, browsers and Web Workers.
 *
 *   import { loadAttention } from 'attnbook';
 *   const attn = await loadAttention();            // { simd: 'auto' | true | false }
 *   attn.softmax([1.2, 4.5, 2, 0.8], { temperature: 1 });
 *   // -> { data: Float32Array [0.0322, 0.8744, 0.0718, 0.0216], shape: [4] }
 *   const t = attn.createTrainer({ task: 'reverse', seed: 1 });  // a small transformer (trainer.js)
 *   t.step(100); t.evaluate(); t.dispose();
 *
 * Every bad input throws an AttentionError; the module stays usable after it.
 */
import { loadCore } from './build-choice.js';
import { AttentionError, describe, fail, named, unwrap } from './errors.js';
import { simdSupported, wasmCompiles } from './features.js';
import { toMaskFields } from './mask.js';
import { METHODS } from './methods.js';
import {
  softmaxArguments,
  checkNumber,
  attentionOptions,
  attentionFields,
  checkRowOffset,
  checkScale,
  optionsObject,
  checkBoolean,
} from './options.js';
import { toTensor } from './tensor.js';
import { DEFAULT_TEXT, Trainer, createTrainer, loadTrainer, trainingTasks } from './trainer.js';

export { AttentionError, DEFAULT_TEXT, METHODS, Trainer, simdSupported, wasmCompiles };

/**
 * Loads the core and returns the engine. Where this runtime may not compile WebAssembly (a page
 * whose Content-Security-Policy lacks 'wasm-unsafe-eval'), 'auto' loads the JS core: the same C++
 * compiled to JavaScript by wasm2js, slower, with the same results (engine.build says which runs).
 * @param {{ simd?: 'auto' | boolean, core?: 'auto' | 'wasm' | 'js' }} [options] simd: SIMD128, scalar,
 *   or the best this runtime supports; core: WebAssembly, the JS core, or the JS core only where
 *   WebAssembly may not be compiled ('auto', the default)
 * @returns {Promise<Attention>}
 */
export async function loadAttention(options) {
  const { module, build } = await loadCore(options);
  return new Attention(module, build);
}

/** The engine: one loaded core module (wasm, or the JS core). Create it with loadAttention(). */
export class Attention {
  #module;

  /**
   * @param {object} module an instantiated attnbook core module
   * @param {'simd' | 'scalar' | 'js'} [build] which build it is (loadAttention knows)
   */
  constructor(module, build) {
    this.#module = module;
    /** Whether this engine runs the SIMD128 build. */
    this.simd = module.buildInfo().simd;
    /** Which core runs: 'simd' or 'scalar' (WebAssembly) or 'js' (the JS core, wasm2js). */
    this.build = build ?? (this.simd ? 'simd' : 'scalar');
  }

  /**
   * Softmax over the last axis: exp((x − max)/τ) / Σ exp((x − max)/τ).
   * τ = 0 gives the hard argmax (ties share equally), τ = Infinity uniform weights;
   * −Infinity logits are masked (weight 0).
   * @param {TensorLike} logits (..., n)
   * @param {{ temperature?: number }} [options]
   * @returns {import('./tensor.js').Tensor} weights (..., n), each row summing to 1
   */
  softmax(logits, options) {
    return named('softmax', () => {
      const [x, temperature] = softmaxArguments(logits, options, 'softmax');
      return unwrap(this.#module.softmax(x.data, x.shape, temperature));
    });
  }

  /**
   * The core's float64 scalar reference for softmax(): the same contract and options, computed in
   * double precision from the same float32 logits. The oracle to compare softmax() with.
   *
   *   attn.softmaxReference([1.2, 4.5, 2, 0.8]);
   *   // -> { data: Float64Array [0.03225, 0.87436, 0.07177, 0.02162], shape: [4] }
   * @param {TensorLike} logits (..., n)
   * @param {{ temperature?: number }} [options]
   * @returns {Tensor64} weights (..., n), each row summing to 1
   */
  softmaxReference(logits, options) {
    return named('softmaxReference', () => {
      const [x, temperature] = softmaxArguments(logits, options, 'softmaxReference');
      return unwrap(this.#module.softmaxReference(x.data, x.shape, temperature));
    });
  }

  /**
   * Passes 1 and 2 of attention alone: the scores q kᵀ, scaled, with the mask added
   * (−Infinity where a key is forbidden): the logits attention() would take the softmax of.
   * Equal to attention(q, k, v, { returnLogits: true }).logits, with no v and no softmax.
   *
   *   attn.scores([[1, 2]], [[3, 4], [5, 6]], { scale: 1 });
   *   // -> { data: Float32Array [11, 17], shape: [1, 2] }
   * @param {TensorLike} q (..., L, E)
   * @param {TensorLike} k (..., S, E)
   * @param {{ scale?: number, mask?: null | 'causal' | { window: number, causal?: boolean } | TensorLike | { additive: TensorLike } }} [options]
   *   as attention() takes them: scale defaults to 1/sqrt(E); mask tensors use 1 = may attend
   * @returns {Tensor} logits (..., L, S), leading axes broadcast
   */
  scores(q, k, options) {
    return named('scores', () => {
      const { scale, mask = null, rowOffset = 0 } = optionsObject(options, 'scores', "{ mask: 'causal' }");
      const [tq, tk] = [toTensor(q, 'q'), toTensor(k, 'k')];
      checkScale(scale);
      checkRowOffset(rowOffset);
      const fields = { scale: scale ?? NaN, rowOffset, ...toMaskFields(mask) };
      return unwrap(this.#module.scores(tq.data, tq.shape, tk.data, tk.shape, fields));
    });
  }

  /**
   * Scaled dot-product attention with PyTorch SDPA semantics:
   * softmax((scale · q kᵀ + mask) / τ) v, leading axes broadcast, L may differ from S.
   * Without weights or logits asked for, the fused kernel runs (no L×S buffer).
   * @param {TensorLike} q (..., L, E)
   * @param {TensorLike} k (..., S, E)
   * @param {TensorLike} v (..., S, Ev)
   * @param {{ scale?: number, temperature?: number, mask?: null | 'causal' | { window: number, causal?: boolean } | TensorLike | { additive: TensorLike }, returnWeights?: boolean, returnLogits?: boolean, rowOffset?: number }} [options]
   *   scale defaults to 1/sqrt(E); mask tensors use 1 = may attend; rowOffset (default 0) is the index
   *   of q's first row in the whole sequence, which causal and window masks count from
   * @returns {{ output: Tensor, weights?: Tensor, logits?: Tensor, fullyMaskedRows: number, scratchBytes: number }}
   *   output (..., L, Ev); weights and logits (..., L, S); rows with no allowed key are zeros and counted;
   *   scratchBytes: the working memory the call allocated besides its inputs and result
   */
  attention(q, k, v, options) {
    return named('attention', () => {
      const opts = attentionOptions(options, 'attention', false);
      const [tq, tk, tv] = [toTensor(q, 'q'), toTensor(k, 'k'), toTensor(v, 'v')];
      const fields = attentionFields(opts);
      return unwrap(this.#module.attention(tq.data, tq.shape, tk.data, tk.shape, tv.data, tv.shape, fields));
    });
  }

  /**
   * A pool of workers, each with its own copy of this engine's build, to use every core
   * (pool.js): pool.attention(q, k, v, options) has attention()'s contract and results (bitwise
   * equal), split by query rows; pool.threads; pool.dispose() ends the workers.
   * Web Workers in a browser, worker threads in Node; no SharedArrayBuffer needed.
   * @param {{ threads?: 'auto' | number, minPartFlop?: number, minPartMs?: number }} [options] threads
   *   'auto' (the default): one worker per core; minPartFlop: the least work a part of a split call
   *   keeps (pool.js); minPartMs: the least time a part of a training step takes for it to be shared
   *   (trainer-parallel.js)
   * @returns {Promise<import('./pool.js').Pool>}
   */
  async createPool(options) {
    const { threads = 'auto', minPartFlop, minPartMs } = optionsObject(options, 'createPool', "{ threads: 'auto' }");
    const { createPool } = await import('./pool.js');
    return createPool({ threads, minPartFlop, minPartMs, simd: this.simd, core: this.#core(), local: this });
  }

  /**
   * The core's float64 scalar reference for attention(): the same contract and
   * options, computed in double precision from the same float32 inputs, one query
   * row at a time (no SIMD, no fused kernel). The oracle to compare attention() with.
   * Always returns weights and logits (returnWeights/returnLogits are accepted and ignored).
   * @param {TensorLike} q (..., L, E)
   * @param {TensorLike} k (..., S, E)
   * @param {TensorLike} v (..., S, Ev)
   * @param {{ scale?: number, temperature?: number, mask?: null | 'causal' | { window: number, causal?: boolean } | TensorLike | { additive: TensorLike }, returnWeights?: boolean, returnLogits?: boolean }} [options]
   * @returns {{ output: Tensor64, weights: Tensor64, logits: Tensor64, fullyMaskedRows: number }}
   *   the shapes of attention()'s result, data as Float64Array
   */
  attentionReference(q, k, v, options) {
    return named('attentionReference', () => {
      const opts = attentionOptions(options, 'attentionReference', true);
      const [tq, tk, tv] = [toTensor(q, 'q'), toTensor(k, 'k'), toTensor(v, 'v')];
      const fields = attentionFields(opts);
      return unwrap(this.#module.attentionReference(tq.data, tq.shape, tk.data, tk.shape, tv.data, tv.shape, fields));
    });
  }

  /**
   * y = α V for each row of weights: a convex combination of the rows of V.
   * Weights must be finite, non-negative and each row must sum to 1 (within 1e-5).
   * @param {TensorLike} weights (..., T)
   * @param {TensorLike} values (T, d)
   * @returns {Tensor} (..., d)
   */
  convexCombination(weights, values) {
    return named('convexCombination', () => {
      const [w, v] = [toTensor(weights, 'weights'), toTensor(values, 'values')];
      return unwrap(this.#module.convexCombination(w.data, w.shape, v.data, v.shape));
    });
  }

  /**
   * How far A is from row-stochastic (rows over the last axis).
   * @param {TensorLike} a (..., n)
   * @returns {{ maxRowSumError: number, minEntry: number, isRowStochastic: boolean }}
   */
  rowStochasticReport(a) {
    return named('rowStochasticReport', () => {
      const t = toTensor(a, 'A');
      return unwrap(this.#module.rowStochasticReport(t.data, t.shape));
    });
  }

  /** (B, T, h·d) -> (B, h, T, d). @param {TensorLike} x @param {number} heads @returns {Tensor} */
  splitHeads(x, heads) {
    return named('splitHeads', () => {
      const t = toTensor(x, 'x');
      checkNumber(heads, 'heads');
      return unwrap(this.#module.splitHeads(t.data, t.shape, heads));
    });
  }

  /** (B, h, T, d) -> (B, T, h·d). @param {TensorLike} x @returns {Tensor} */
  mergeHeads(x) {
    return named('mergeHeads', () => {
      const t = toTensor(x, 'x');
      return unwrap(this.#module.mergeHeads(t.data, t.shape));
    });
  }

  /**
   * Standard normal entries from the seeded PCG32 generator (the same stream in
   * every build and runtime).
   * @param {number[]} shape @param {number} seed a whole number @returns {Tensor}
   */
  randn(shape, seed) {
    return named('randn', () => {
      if (!Array.isArray(shape)) fail(`shape must be an array of whole numbers, got ${describe(shape)}`);
      shape.forEach((d, i) => checkNumber(d, `shape[${i}]`));
      checkNumber(seed, 'seed');
      return unwrap(this.#module.randn(shape, seed));
    });
  }

  /**
   * count draws from Dirichlet(alpha): rows of k non-negative weights summing to 1.
   * @param {TensorLike} alpha (k), every entry > 0 @param {number} count @param {number} seed
   * @returns {Tensor} (count, k)
   */
  dirichlet(alpha, count, seed) {
    return named('dirichlet', () => {
      const a = toTensor(alpha, 'alpha');
      checkNumber(count, 'count');
      checkNumber(seed, 'seed');
      return unwrap(this.#module.dirichlet(a.data, a.shape, count, seed));
    });
  }

  /**
   * Indices of the convex hull's vertices, counter-clockwise.
   * @param {TensorLike} points (n, 2) @returns {Int32Array}
   */
  convexHull(points) {
    return named('convexHull', () => {
      const p = toTensor(points, 'points');
      return unwrap(this.#module.convexHull(p.data, p.shape));
    });
  }

  /**
   * 1 where a point lies inside (or on) the convex hull of hullPoints, else 0.
   * @param {TensorLike} points (m, 2) @param {TensorLike} hullPoints (h, 2) @returns {Uint8Array}
   */
  pointsInHull(points, hullPoints) {
    return named('pointsInHull', () => {
      const [p, h] = [toTensor(points, 'points'), toTensor(hullPoints, 'hullPoints')];
      return unwrap(this.#module.pointsInHull(p.data, p.shape, h.data, h.shape));
    });
  }

  /** Shannon entropy of each row, in nats. @param {TensorLike} weights (..., n) @returns {Tensor} (...) */
  entropy(weights) {
    return named('entropy', () => {
      const t = toTensor(weights, 'weights');
      return unwrap(this.#module.entropy(t.data, t.shape));
    });
  }

  /** exp(entropy) of each row: the effective number of positions attended to. @returns {Tensor} (...) */
  effectivePositions(weights) {
    return named('effectivePositions', () => {
      const t = toTensor(weights, 'weights');
      return unwrap(this.#module.effectivePositions(t.data, t.shape));
    });
  }

  /**
   * Mean max-weight and mean entropy of softmax(q·k / sqrt(d)) (or unscaled) over
   * random standard-normal draws, for each d: why attention divides by sqrt(d_k).
   * @param {{ dims: number[], scaled: boolean, draws: number, seed: number, tokens?: number }} options
   * @returns {{ dims: number[], meanMaxWeight: Float64Array, meanEntropy: Float64Array }}
   */
  scalingStatistics(options) {
    return named('scalingStatistics', () => {
      const {
        dims,
        scaled,
        draws,
        seed,
        tokens = 5,
      } = optionsObject(options, 'scalingStatistics', '{ dims, scaled, draws, seed }');
      if (!Array.isArray(dims)) fail(`dims must be an array of whole numbers, got ${describe(dims)}`);
      dims.forEach((d, i) => checkNumber(d, `dims[${i}]`));
      checkBoolean(scaled, 'scaled');
      checkNumber(draws, 'draws');
      checkNumber(seed, 'seed');
      checkNumber(tokens, 'tokens');
      return unwrap(this.#module.scalingStatistics(dims, scaled, draws, seed, tokens));
    });
  }

  /**
   * The toy tasks a trainer can learn, each with its token layout and default model.
   * @returns {TaskInfo[]} [{ id, title, description, vocab, inputLength, answerLength, seqLen,
   *   defaults: { layers, heads, dModel, mlp, dMlp, layerNorm, learningRate, weightDecay, batchSize } }]
   */
  trainingTasks() {
    return trainingTasks(this.#module);
  }

  /**
   * A trainer for a task: a small decoder-only transformer, its AdamW optimiser and its data stream,
   * all seeded (the same options give bitwise the same training). Options left out take the task's
   * defaults (trainingTasks()) and the core's (beta1 0.9, beta2 0.999, eps 1e-8, precision 'float32').
   *
   *   const t = attn.createTrainer({ task: 'reverse', seed: 1 });
   *   t.step(100).loss; t.evaluate().accuracy; t.dispose();
   *
   * With `threads` ('auto' or a number), it trains across a pool of that many workers of its own
   * instead (pool.createTrainer; its dispose() ends them), and returns a promise of the pool's
   * trainer handle: every method a promise, the weights bit for bit those without threads.
   *   const t = await attn.createTrainer({ task: 'sort', layers: 2, heads: 4, dModel: 64, threads: 'auto' });
   * @param {TrainerOptions & { threads?: 'auto' | number }} options { task, seed?, layers?, heads?,
   *   dModel?, mlp?, dMlp?, layerNorm?, learningRate?, weightDecay?, beta1?, beta2?, eps?,
   *   batchSize?, precision?, threads? }
   * @returns {Trainer | Promise<object>} call its dispose() when done: it holds wasm memory (or workers)
   */
  createTrainer(options) {
    if (options !== null && typeof options === 'object' && Object.hasOwn(options, 'threads')) {
      const { threads, ...rest } = options;
      return this.#pooledTrainer(threads, (pool) => pool.createTrainer(rest));
    }
    return createTrainer(this.#module, options);
  }

  /** The loadAttention `core` option that loads this engine's build again (a pool's workers). */
  #core() {
    return this.build === 'js' ? 'js' : 'wasm';
  }

  /** A trainer in a pool of `threads` workers that it owns (createTrainer with threads). */
  async #pooledTrainer(threads, create) {
    const pool = await this.createPool({ threads }).catch((error) => {
      // createPool's words for a bad `threads`, under this method's name
      throw new AttentionError(error.message.replace(/^createPool: /, 'createTrainer: '), { kind: error.kind });
    });
    try {
      const trainer = await create(pool);
      const dispose = trainer.dispose;
      return {
        ...trainer,
        dispose: async () => {
          await dispose();
          pool.dispose();
        },
      };
    } catch (error) {
      pool.dispose();
      throw error;
    }
  }

  /**
   * A trainer restored from exportState() (or JSON.parse of its JSON): it continues exactly as the
   * saved one would. A corrupted, foreign or other-version state is refused, naming the field.
   * @param {TrainerState} state
   * @returns {Trainer}
   */
  loadTrainer(state) {
    return loadTrainer(this.#module, state);
  }

  /** Wasm memory: its size and the bytes malloc'd now. @returns {{ heapBytes: number, inUseBytes: number }} */
  memory() {
    return this.#module.memory();
  }
}

/** @typedef {import('./tensor.js').Tensor} Tensor */
/** @typedef {{ data: Float64Array, shape: number[] }} Tensor64 */
/** @typedef {import('./index.d.ts').TaskInfo} TaskInfo */
/** @typedef {import('./index.d.ts').TrainerOptions} TrainerOptions */
/** @typedef {import('./trainer.js').TrainerState} TrainerState */
/** @typedef {Tensor | number[] | number[][] | number[][][] | Float32Array} TensorLike (nested to any depth) */
