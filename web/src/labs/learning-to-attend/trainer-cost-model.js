/**
 * What a configuration of the trainer lab costs (lesson learning-to-attend): its weights, the memory
 * training keeps, the floating-point work of a step and the time it takes here, and the line that
 * says so beside the settings. No DOM. Unit-tested in Node (tests/js/labs-learning-to-attend.test.js).
 */
import { LAYOUTS, MAX_STEPS, seqLen } from './trainer-model.js';

/** How many weights the model has (the engine's layout: embeddings, heads, W_O, MLP, unembedding). */
export function parameterCount({ task, layers, heads, dModel }) {
  const { vocab, mlp } = LAYOUTS[task];
  const D = Number(dModel);
  const T = seqLen(task);
  const M = 4 * D;
  const perHead = 3 * D * (D / Number(heads));
  const perLayer = Number(heads) * perHead + D * D + (mlp ? D * M + M + M * D + D : 0);
  return vocab * D + T * D + layers * perLayer + D * vocab;
}

/** Bytes training keeps: four float64 copies of every weight (weights, gradient, two AdamW moments). */
export const trainingBytes = (settings) => 32 * parameterCount(settings);

/**
 * Floating-point operations of one training step (batch 32): forward and backward through every
 * matrix product (6 per weight per token) and the attention itself (scores and mixing, 12 T²D per
 * layer and sequence, forward and backward).
 */
export function flopsPerStep(settings) {
  const T = seqLen(settings.task);
  const D = Number(settings.dModel);
  const tokens = 32 * T;
  const embed = (LAYOUTS[settings.task].vocab + T) * D;
  return 6 * (parameterCount(settings) - embed) * tokens + 32 * settings.layers * 12 * T * T * D;
}

/** The speed the estimate assumes: wasm SIMD on one thread (about 1 ms a step for the default reverse model). */
export const ASSUMED_GFLOPS = 10;

/** Estimated milliseconds per step at `gflops` (measured on this machine, else ASSUMED_GFLOPS). */
export const msPerStep = (settings, gflops = ASSUMED_GFLOPS) => flopsPerStep(settings) / (gflops * 1e6);

/** "12 KiB", "1.4 MiB". */
export function formatBytes(bytes) {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** "0.4 s", "12 s", "2.5 min". */
export function formatSeconds(s) {
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 120) return `${Math.round(s)} s`;
  return `${(s / 60).toFixed(1)} min`;
}

/** The cost line shown beside the settings. */
export function costSummary(settings, gflops) {
  const weights = parameterCount(settings);
  const ms = msPerStep(settings, gflops);
  return {
    weights,
    bytes: trainingBytes(settings),
    msPerStep: ms,
    text: `${weights.toLocaleString('en')} weights, ${formatBytes(trainingBytes(settings))} to train; about ${ms < 1 ? ms.toFixed(2) : ms.toFixed(1)} ms a step, ${formatSeconds((ms * 1000) / 1000)} for 1,000 steps, ${formatSeconds((ms * MAX_STEPS) / 1000)} for ${MAX_STEPS.toLocaleString('en')}`,
  };
}
