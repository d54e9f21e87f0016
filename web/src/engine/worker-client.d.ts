import type {
  Attention,
  CopyingProbe,
  CopyingProbeOptions,
  TaskInfo,
  Tensor,
  TrainerConfig,
  TrainerOptions,
  TrainerState,
} from './index.js';

/** Every synchronous engine method, returning a promise of its result instead. */
type Promised<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never;
};

/** The engine methods worker.js answers as they are (all of Attention's but its `simd` and `build` fields, the trainers and createPool, which only the caller's own engine has). */
type EngineMethods = Omit<Attention, 'simd' | 'build' | 'createTrainer' | 'loadTrainer' | 'createPool'>;

/** What a trainer's step reports after each chunk of steps. */
export interface TrainerProgress {
  /** Steps of this call done so far. */
  done: number;
  /** Steps this call was asked for. */
  count: number;
  /** The trainer's step count now (all calls). */
  step: number;
  /** The loss of the last step. */
  loss: number;
  /** A pool's trainer (Pool.createTrainer): how many workers shared the last step. */
  workers?: number;
}

export interface TrainerStepOptions {
  onProgress?: ((progress: TrainerProgress) => void) | null;
  /** Aborting it cancels the call: it rejects with kind 'Cancelled', the trainer at the last completed step. */
  signal?: AbortSignal | null;
}

/**
 * A trainer held in the worker (or the main-thread stand-in): Trainer's methods as promises.
 * Calls on one trainer run in order; trainers never cancel each other.
 */
export interface WorkerTrainer {
  readonly config: Readonly<TrainerConfig>;
  readonly task: Readonly<TaskInfo>;
  /** Runs count (0 to 100000) steps in chunks, reporting after each; cancelled by signal or cancel(). */
  step(count?: number, options?: TrainerStepOptions): Promise<{ step: number; loss: number }>;
  evaluate(options?: { samples?: number; seed?: number }): Promise<{ loss: number; accuracy: number }>;
  sample(seed: number): Promise<{ input: number[]; answer: number[] }>;
  predict(input: ArrayLike<number>): Promise<{ output: number[]; attention: Tensor }>;
  setHeadEnabled(layer: number, head: number, enabled: boolean): Promise<void>;
  parameters(): Promise<Record<string, Tensor>>;
  exportState(): Promise<TrainerState>;
  encode(text: string): Promise<number[]>;
  decode(ids: ArrayLike<number>): Promise<string>;
  unknownCharacters(text: string): Promise<string[]>;
  copyingProbe(options?: CopyingProbeOptions): Promise<CopyingProbe>;
  ovCircuit(layer: number, head: number): Promise<Tensor>;
  qkCircuit(layer: number, head: number, source: number): Promise<Tensor>;
  /** Cancels its steps, then frees it; later calls reject. */
  dispose(): Promise<void>;
  /** Cancels its running and queued steps: each rejects with kind 'Cancelled'. */
  cancel(): void;
}

/** What a long job reports after each step. */
export interface JobProgress {
  done: number;
  steps: number;
  /** fusedAttention: the milliseconds spent in the kernel so far. */
  ms?: number;
}

export interface JobOptions {
  onProgress?: ((progress: JobProgress) => void) | null;
}

export interface BenchmarkOptions {
  /** Sequence lengths T (L = S = T), whole numbers from 1 to 8192. Default [64, 128, 256]. */
  sizes?: number[];
  /** E = Ev. Default 64. */
  dim?: number;
  seed?: number;
  /** Any of 'simd', 'scalar', 'wasm2js' (the JS core), 'js' (plain JS). Default 'simd', 'scalar', 'js'. */
  contenders?: Array<'simd' | 'scalar' | 'wasm2js' | 'js'>;
  /** Sampling time per size and contender, ms. Default 80. */
  minMs?: number;
  maxReps?: number;
}

export interface BenchmarkRow {
  T: number;
  contender: string;
  label: string;
  /** Median time per call, or null when the contender failed (see error). */
  ms: number | null;
  gflops: number | null;
  reps: number;
  /** Max |difference| from the plain-JS output. */
  maxAbsDiff: number | null;
  error?: string;
}

export interface FusedAttentionOptions {
  /** L = S = T, a whole number from 1 to 16384. */
  T: number;
  dim?: number;
  seed?: number;
  /** Query rows per kernel call. Default 512. */
  block?: number;
  /** Default true: the SIMD build where this runtime has it. */
  simd?: boolean;
}

export interface FusedAttentionResult {
  T: number;
  dim: number;
  simd: boolean;
  /** Which core ran it (Attention's build). */
  build: 'simd' | 'scalar' | 'js';
  ms: number;
  gflops: number;
  /** That module's wasm heap: a high-water mark. */
  heapBytes: number;
  inUseBytes: number;
  /** The largest working memory of one call (attention()'s scratchBytes): it grows with T, not T². */
  scratchBytes: number;
  /** Attention calls made (one per block of query rows). */
  calls: number;
  /** What the T×T float32 weights would have needed. */
  weightsBytes: number;
  /** The first (up to 8) entries of the output's first row. */
  firstRow: Float32Array;
}

/** The engine in a Web Worker: the same methods as Attention, as promises, plus long jobs. */
export interface WorkerEngine extends Promised<EngineMethods> {
  readonly inWorker: true;
  readonly simd: boolean;
  /** Which core the worker runs (Attention's build). */
  readonly build: 'simd' | 'scalar' | 'js';
  /** Times attention for each size and contender; a newer call supersedes this one (kind 'Cancelled'). */
  benchmark(options?: BenchmarkOptions, job?: JobOptions): Promise<{ dim: number; rows: BenchmarkRow[] }>;
  /** One head of unmasked attention with the fused kernel, in blocks of query rows. */
  fusedAttention(options: FusedAttentionOptions, job?: JobOptions): Promise<FusedAttentionResult>;
  /** A trainer in the worker (see WorkerTrainer). */
  createTrainer(options: TrainerOptions): Promise<WorkerTrainer>;
  /** A trainer restored in the worker from exportState(). */
  loadTrainer(state: TrainerState): Promise<WorkerTrainer>;
  /** Stops the running job of `method`: it rejects with an AttentionError of kind 'Cancelled'. */
  cancel(method: 'benchmark' | 'fusedAttention'): void;
  terminate(): void;
}

/** Loads the engine in `worker` (running worker.js) and answers once it is ready. */
export function createWorkerEngine(
  worker: Worker,
  options?: { simd?: 'auto' | boolean; core?: 'auto' | 'wasm' | 'js' },
): Promise<WorkerEngine>;
