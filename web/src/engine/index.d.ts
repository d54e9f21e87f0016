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
  /** Wasm memory size and bytes malloc'd now. */
  memory(): { heapBytes: number; inUseBytes: number };
}

/** The names of the engine's methods (all of Attention's but its `simd` flag), in the order above. */
export const METHODS: ReadonlyArray<Exclude<keyof Attention, 'simd'>>;

/** Loads the wasm module: the SIMD build where supported ('auto'), or the one asked for. */
export function loadAttention(options?: { simd?: 'auto' | boolean }): Promise<Attention>;

/** True when this runtime's WebAssembly supports SIMD128. */
export function simdSupported(): boolean;
