/** A row-major float32 tensor. */
export interface Tensor {
  data: Float32Array;
  shape: number[];
}

/** Anything the engine accepts as a tensor: a Tensor, a 1-D array or Float32Array, or a 2-D array of rows. */
export type TensorLike = Tensor | { data: ArrayLike<number>; shape: number[] } | number[] | number[][] | Float32Array;

export class AttentionError extends Error {
  name: 'AttentionError';
  /** 'ShapeError' | 'ValueError' | 'MemoryError' | 'TypeError' | 'Error' */
  kind: string;
  constructor(message: string, options?: { kind?: string });
}

export interface Attention {
  /** Whether this engine runs the SIMD128 build. */
  readonly simd: boolean;
  /** Softmax over the last axis with temperature (τ = 0: argmax, τ = Infinity: uniform). */
  softmax(logits: TensorLike, options?: { temperature?: number }): Tensor;
}

/** Loads the wasm module: the SIMD build where supported ('auto'), or the one asked for. */
export function loadAttention(options?: { simd?: 'auto' | boolean }): Promise<Attention>;

/** True when this runtime's WebAssembly supports SIMD128. */
export function simdSupported(): boolean;
