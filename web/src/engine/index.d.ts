import type { WorkerTrainer } from './worker-client.js';

/** A row-major float32 tensor. */
export interface Tensor {
  data: Float32Array;
  shape: number[];
}

/** Numbers nested to any depth, every array at one depth as long as the first: [[[1, 2], [3, 4]]] is (1, 2, 2). */
export type NestedNumbers = number[] | NestedNumbers[];

/** Anything the engine accepts as a tensor: a Tensor, a Float32Array, or nested arrays of numbers. */
export type TensorLike = Tensor | { data: ArrayLike<number>; shape: number[] } | NestedNumbers | Float32Array;

/** Booleans nested like NestedNumbers (a mask: true = may attend). */
export type NestedBooleans = boolean[] | NestedBooleans[];

/** Which keys each query may attend to. Tensors use 1 (or true) = may attend, broadcastable to (..., L, S). */
export type Mask =
  | null
  | 'none'
  | 'causal'
  | { window: number; causal?: boolean }
  | { additive: TensorLike }
  | TensorLike
  | NestedBooleans;

export class AttentionError extends Error {
  name: 'AttentionError';
  /** 'ShapeError' | 'ValueError' | 'MemoryError' | 'TypeError' | 'Error' */
  kind: string;
  constructor(message: string, options?: { kind?: string });
}

/** scores()'s options: attention()'s scale and mask. */
export interface ScoresOptions {
  /** Default 1/sqrt(E). */
  scale?: number;
  mask?: Mask;
  /** The index of q's first row in the whole sequence: causal and window masks count from it. Default 0. */
  rowOffset?: number;
}

export interface AttentionOptions extends ScoresOptions {
  /** τ: 0 = hard argmax, Infinity = uniform. Default 1. */
  temperature?: number;
  returnWeights?: boolean;
  returnLogits?: boolean;
}

export interface AttentionResult {
  /** (..., L, Ev) */
  output: Tensor;
  /** (..., L, S), when returnWeights */
  weights?: Tensor;
  /** (..., L, S) scaled, masked logits, when returnLogits */
  logits?: Tensor;
  /** Rows with no allowed key: their weights and output are zeros. */
  fullyMaskedRows: number;
  /**
   * Bytes of working memory the call allocated and freed, besides its inputs and result: the keys
   * packed for the kernels and one block of score rows (fused: 4·(padded S·E + 4·128), never L·S).
   */
  scratchBytes: number;
}

/** A row-major float64 tensor (results of the float64 reference). */
export interface Tensor64 {
  data: Float64Array;
  shape: number[];
}

/** The float64 reference's result: attention()'s shapes, weights and logits always present. */
export interface AttentionReferenceResult {
  /** (..., L, Ev) */
  output: Tensor64;
  /** (..., L, S) */
  weights: Tensor64;
  /** (..., L, S) scaled, masked logits (−Infinity where a key is blocked) */
  logits: Tensor64;
  /** Rows with no allowed key: their weights and output are zeros. */
  fullyMaskedRows: number;
}

export interface Attention {
  /** Whether this engine runs the SIMD128 build. */
  readonly simd: boolean;
  /** Which core runs: WebAssembly with SIMD128 or without, or the JS core (wasm2js) where WebAssembly is refused. */
  readonly build: 'simd' | 'scalar' | 'js';
  /** Softmax over the last axis with temperature (τ = 0: argmax, τ = Infinity: uniform). */
  softmax(logits: TensorLike, options?: { temperature?: number }): Tensor;
  /** The core's float64 scalar reference for softmax(): same options, same float32 logits, float64 weights. */
  softmaxReference(logits: TensorLike, options?: { temperature?: number }): Tensor64;
  /** Passes 1–2 of attention alone: scale·q kᵀ + mask, (..., L, S); q (..., L, E), k (..., S, E). */
  scores(q: TensorLike, k: TensorLike, options?: ScoresOptions): Tensor;
  /** softmax((scale·q kᵀ + mask)/τ) v with PyTorch SDPA semantics; q (..., L, E), k (..., S, E), v (..., S, Ev). */
  attention(q: TensorLike, k: TensorLike, v: TensorLike, options?: AttentionOptions): AttentionResult;
  /** The core's float64 scalar reference for attention(): same options, same float32 inputs, float64 results. */
  attentionReference(q: TensorLike, k: TensorLike, v: TensorLike, options?: AttentionOptions): AttentionReferenceResult;
  /** y = α V for each row of weights (rows must be non-negative and sum to 1). */
  convexCombination(weights: TensorLike, values: TensorLike): Tensor;
  rowStochasticReport(a: TensorLike): { maxRowSumError: number; minEntry: number; isRowStochastic: boolean };
  /** (B, T, h·d) -> (B, h, T, d) */
  splitHeads(x: TensorLike, heads: number): Tensor;
  /** (B, h, T, d) -> (B, T, h·d) */
  mergeHeads(x: TensorLike): Tensor;
  /** Standard normal entries from the seeded PCG32 generator. */
  randn(shape: number[], seed: number): Tensor;
  /** (count, k) draws from Dirichlet(alpha). */
  dirichlet(alpha: TensorLike, count: number, seed: number): Tensor;
  /** Counter-clockwise indices of the hull vertices of points (n, 2). */
  convexHull(points: TensorLike): Int32Array;
  /** 1 where a point (m, 2) lies inside or on the hull of hullPoints (h, 2). */
  pointsInHull(points: TensorLike, hullPoints: TensorLike): Uint8Array;
  /** Shannon entropy per row, in nats. */
  entropy(weights: TensorLike): Tensor;
  /** exp(entropy) per row. */
  effectivePositions(weights: TensorLike): Tensor;
  scalingStatistics(options: { dims: number[]; scaled: boolean; draws: number; seed: number; tokens?: number }): {
    dims: number[];
    meanMaxWeight: Float64Array;
    meanEntropy: Float64Array;
  };
  /** The toy tasks a trainer can learn, with their token layouts and default models. */
  trainingTasks(): TaskInfo[];
  /** A seeded trainer for a task; options left out take the task's defaults. Dispose of it when done. */
  createTrainer(options: TrainerOptions): Trainer;
  /**
   * With threads: a trainer in a pool of that many workers of its own ('auto': one per core), its
   * steps shared among them (Pool.createTrainer), the weights bit for bit those without threads;
   * its dispose() ends the workers.
   */
  createTrainer(options: TrainerOptions & { threads: 'auto' | number }): Promise<WorkerTrainer>;
  /** A trainer restored from exportState() (or its JSON): it continues exactly as the saved one would. */
  loadTrainer(state: TrainerState): Trainer;
  /** Wasm memory size and bytes malloc'd now. */
  memory(): { heapBytes: number; inUseBytes: number };
  /**
   * A pool of workers (Web Workers, or worker threads in Node), each with its own copy of this build:
   * threads 'auto' (default) is one per core. Only on the caller's own engine, not in its worker.
   */
  createPool(options?: { threads?: 'auto' | number; minPartFlop?: number; minPartMs?: number }): Promise<Pool>;
}

/** attention() across cores (engine/pool.js): results bit for bit those of attention() in the same build. */
export interface Pool {
  /** How many workers it runs. */
  readonly threads: number;
  /**
   * attention()'s contract, split by query rows across the workers; a call too small to split
   * runs whole on one worker. In Node the calling thread computes a part of a split call too (its
   * inputs shared with the workers), so the promise is settled when the call returns. In a
   * browser the workers compute every part.
   */
  attention(q: TensorLike, k: TensorLike, v: TensorLike, options?: AttentionOptions): Promise<AttentionResult>;
  /**
   * A trainer in worker 0 whose float32 steps are shared among every worker (trainer-parallel.js),
   * in micro-batches of 8 sequences: the weights are bit for bit createTrainer(options)'s after
   * the same steps, for any number of threads.
   */
  createTrainer(options: TrainerOptions): Promise<WorkerTrainer>;
  /** loadTrainer(state) in the pool, its steps shared as createTrainer's. */
  loadTrainer(state: TrainerState): Promise<WorkerTrainer>;
  /** Ends worker i at once: its calls reject, a fresh worker takes its place. */
  terminateWorker(i: number): void;
  /** Ends every worker; calls after it reject. */
  dispose(): void;
}

/** A task's default model and optimiser (trainingTasks()). */
export interface TaskDefaults {
  layers: number;
  heads: number;
  dModel: number;
  mlp: boolean;
  /** MLP hidden width; 0 means 4 · dModel. */
  dMlp: number;
  layerNorm: boolean;
  learningRate: number;
  weightDecay: number;
  batchSize: number;
}

/**
 * One task: the model reads input ++ answer (without its last token) and is scored on the answer.
 * text: the characters of a text (inputLength 1, answerLength = seqLen = the context), every
 * position scored, losses in bits per character.
 */
export interface TaskInfo {
  /** 'reverse' | 'sort' | 'lookup' | 'retrieval2d' | 'text' */
  id: string;
  title: string;
  description: string;
  /** Token ids are 0 .. vocab − 1. */
  vocab: number;
  /** P: the prompt's tokens, separator included. */
  inputLength: number;
  /** A: the answer's tokens. */
  answerLength: number;
  /** P + A − 1: the positions the model reads. */
  seqLen: number;
  defaults: TaskDefaults;
  /** text: the characters of ids 0 .. vocab − 2, in id order (vocab − 1 is "unknown"). */
  alphabet?: string;
  /** text: characters held out for evaluate() (0: it reads the training text). */
  heldOut?: number;
  /** text: unigram entropy of the training characters, bits per character. */
  unigramBits?: number;
}

/** copyingProbe()'s measures (core/include/attn/train/text.hpp); per-head lists are layer-major. */
export interface CopyingProbe {
  firstCopyAccuracy: number;
  secondCopyAccuracy: number;
  /** Each head's mean weight on the previous position, over the second copy. */
  previousToken: number[];
  /** Each head's mean weight on the position after the earlier occurrence of the current character. */
  prefixMatching: number[];
  /** First-layer heads with a previous-token score >= 0.3. */
  previousTokenHeads: number;
  /** Later-layer heads with a prefix-matching score >= 0.4. */
  inductionHeads: number;
  /** Second-copy accuracy with the previous-token heads knocked out. */
  knockedOutAccuracy: number;
  /** Second copy >= 0.8, first < 0.5, an induction head, and the knock-out costs >= 0.3. */
  copiesInContext: boolean;
}

/** copyingProbe()'s options: length 2 .. seqLen / 2 (default 20), count 1..4096 (default 64), seed (default 7). */
export interface CopyingProbeOptions {
  length?: number;
  count?: number;
  seed?: number;
}

/** createTrainer()'s options: any left out take the task's defaults (beta1 0.9, beta2 0.999, eps 1e-8, precision 'float32'). */
export interface TrainerOptions {
  task: string;
  /** A whole number from 0 to 2^53 − 1. Default 1. */
  seed?: number;
  layers?: number;
  /** Must divide dModel. */
  heads?: number;
  dModel?: number;
  mlp?: boolean;
  /** 0 means 4 · dModel. */
  dMlp?: number;
  layerNorm?: boolean;
  /** Finite and >= 0. */
  learningRate?: number;
  /** Finite and >= 0; decays the matrices, not biases or LayerNorm gains. */
  weightDecay?: number;
  /** In [0, 1). */
  beta1?: number;
  /** In [0, 1). */
  beta2?: number;
  /** Finite and > 0. */
  eps?: number;
  /** 1 to 4096 sequences. */
  batchSize?: number;
  /** Which forward and backward pass trains: 'float32' (the default) or the float64 reference. */
  precision?: 'float32' | 'float64';
  /** text only: the text to train on (default the course's prose, DEFAULT_TEXT); at most 1 MiB, 128 distinct characters. */
  text?: string;
}

/** A trainer's resolved config: every option filled in (text only for the text task). */
export type TrainerConfig = Required<Omit<TrainerOptions, 'text'>> & { text?: string };

/** The text task's default corpus: the course's first twelve lessons' prose, lower-cased. */
export const DEFAULT_TEXT: string;

/** exportState()'s plain JSON: loadTrainer() continues from it exactly (format in web/README.md). */
export interface TrainerState {
  format: 'attnbook-trainer';
  version: 1;
  config: TrainerConfig;
  /** Optimiser steps taken. */
  step: number;
  /** Every weight in layout order (the order of parameters()), float64. */
  weights: number[];
  /** AdamW's first and second moments, same layout. */
  m: number[];
  v: number[];
  /** The training data stream (PCG32): its two 64-bit words as decimal strings and the spare normal. */
  data: { state: string; increment: string; spareNormal: number; hasSpare: boolean };
  /** The loss of the last step, null before the first. */
  lastLoss: number | null;
  /** One flag per head, layer-major (layers · heads). */
  headEnabled: boolean[];
}

/** A trainer: a small decoder-only transformer, its AdamW optimiser and its seeded data stream, in wasm memory. */
export class Trainer {
  private constructor();
  /** The resolved config (createTrainer's option names, every one filled in). */
  readonly config: Readonly<TrainerConfig>;
  /** The task's entry of trainingTasks(). */
  readonly task: Readonly<TaskInfo>;
  /** Whether dispose() has been called. */
  readonly disposed: boolean;
  /** Runs count (0 to 100000, default 1) optimiser steps; loss: mean cross-entropy over the last batch's answer tokens. */
  step(count?: number): { step: number; loss: number };
  /** Teacher-forced loss and greedy answer-token accuracy on `samples` (default 256) fresh examples of `seed` (default 12345). */
  evaluate(options?: { samples?: number; seed?: number }): { loss: number; accuracy: number };
  /** One example of the task, drawn from seed. */
  sample(seed: number): { input: number[]; answer: number[] };
  /**
   * Greedy answer and the attention weights (layers, heads, T, T) of the last forward pass (T = seqLen).
   * text: input is 1..seqLen ids, output[i] the likeliest next id after position i, T = input.length.
   */
  predict(input: ArrayLike<number>): { output: number[]; attention: Tensor };
  /** text: one id per character (unknown characters -> vocab − 1). */
  encode(text: string): number[];
  /** text: the characters of ids ('\uFFFD' for the unknown id). */
  decode(ids: ArrayLike<number>): string;
  /** text: the distinct characters encode() replaces, first seen first. */
  unknownCharacters(text: string): string[];
  /** text: copying a random string written twice, and each head's previous-token and prefix-matching scores. */
  copyingProbe(options?: CopyingProbeOptions): CopyingProbe;
  /** A head's OV circuit (vocab, vocab): E W_V W_O^h U (attention-only models). */
  ovCircuit(layer: number, head: number): Tensor;
  /** A head's QK circuit (vocab, vocab) through head `source` of layer 0 (layer >= 1; attention-only models). */
  qkCircuit(layer: number, head: number, source: number): Tensor;
  /** Ablates (false) or restores (true) one head: its output is zeroed, its weights still reported. */
  setHeadEnabled(layer: number, head: number, enabled: boolean): void;
  /** Every weight tensor by name ('embed.token', 'layer0.head1.W_Q', 'unembed', ...), float32 copies. */
  parameters(): Record<string, Tensor>;
  /** Everything the trainer holds, as plain JSON-serialisable data. */
  exportState(): TrainerState;
  /** Frees its wasm memory; later calls throw an AttentionError. */
  dispose(): void;
}

/** The names of the engine's methods (all of Attention's but its `simd` and `build` fields), in the order above. */
export const METHODS: ReadonlyArray<Exclude<keyof Attention, 'simd' | 'build'>>;

/**
 * Loads the core: the SIMD build where supported ('auto'), or the one asked for; where WebAssembly
 * may not be compiled (a CSP without 'wasm-unsafe-eval'), core 'auto' loads the JS core (wasm2js).
 */
export function loadAttention(options?: { simd?: 'auto' | boolean; core?: 'auto' | 'wasm' | 'js' }): Promise<Attention>;

/** True when this runtime may compile WebAssembly (false where a Content-Security-Policy refuses it). */
export function wasmCompiles(): boolean;

/** True when this runtime's WebAssembly supports SIMD128. */
export function simdSupported(): boolean;
