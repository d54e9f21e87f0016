/**
 * The weights-heatmap lab's model: one head's full T × T weights from the core (random q, k, v,
 * E = 64, a mask), the weight that fell on masked keys (display arithmetic over the returned
 * weights), the text alternative, the exports and the PyTorch code. No DOM; unit-tested in Node
 * (tests/js/labs-attention-at-scale.test.js).
 */
import { formatBytes, weightsBytes } from './memory-model.js';

export const HEATMAP_SIZES = [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
export const MASKS = ['none', 'causal', 'window'];
export const E = 64;

/** The engine's mask option for the lab's mask and window. */
export function maskOption(mask, window) {
  if (mask === 'causal') return 'causal';
  if (mask === 'window') return { window };
  return null;
}

/** May query i attend to key j? (the same rule as the core's masks, for the check's sum) */
export const allowed = (mask, window, i, j) =>
  mask === 'none' || (mask === 'causal' ? j <= i : Math.abs(i - j) <= window);

/** The total weight on keys the mask forbids: exactly 0 when the core honours the mask. */
export function maskedWeight(data, T, mask, window) {
  if (mask === 'none') return 0;
  let masked = 0;
  for (let i = 0; i < T; i++) {
    for (let j = 0; j < T; j++) if (!allowed(mask, window, i, j)) masked += data[i * T + j];
  }
  return masked;
}

/**
 * The weights for one state, from the engine (worker or main thread: every call awaited).
 * @returns {Promise<{ T, mask, window, weights, fullyMaskedRows, ms, heapBytes, masked }>}
 */
export async function computeScaleHeatmap(engine, { T, mask, window, seed }) {
  const [q, k, v] = await Promise.all([
    engine.randn([T, E], seed),
    engine.randn([T, E], seed + 1),
    engine.randn([T, E], seed + 2),
  ]);
  const t0 = performance.now();
  const { weights, fullyMaskedRows } = await engine.attention(q, k, v, {
    mask: maskOption(mask, window),
    returnWeights: true,
  });
  const ms = performance.now() - t0;
  const { heapBytes } = await engine.memory();
  return {
    T,
    mask,
    window,
    weights,
    fullyMaskedRows,
    ms,
    heapBytes,
    masked: maskedWeight(weights.data, T, mask, window),
  };
}

export const explainHeatmap = (error) =>
  error?.kind === 'MemoryError'
    ? 'These weights do not fit in memory here. Choose a smaller T.'
    : 'The weights could not be computed this time. Retry, or choose a smaller T.';

const maskWords = { none: 'no mask', causal: 'the causal mask', window: 'a local window' };

/** The text alternative. */
export function describeScaleHeatmap(r, scale = 'linear') {
  if (!r) return 'Not computed yet.';
  const window = r.mask === 'window' ? ` of ${r.window} positions each side` : '';
  return (
    `Attention weights of ${r.T} queries over ${r.T} keys with ${maskWords[r.mask]}${window}, coloured on a ${scale} scale; ` +
    `they take ${formatBytes(weightsBytes(r.T))}. Weight on masked keys: ${r.masked}.`
  );
}

export const heatmapRows = (r) => [
  ['T', 'mask', 'window', 'weights bytes', 'worker heap bytes', 'ms'],
  r ? [r.T, r.mask, r.window, weightsBytes(r.T), r.heapBytes, r.ms] : [],
];

/** The PyTorch code cell: {{T}}, {{window}} and {{mask}} filled in by attn-code. */
export const HEATMAP_CODE = `import torch
import torch.nn.functional as F

T, E = {{T}}, 64
q, k, v = torch.randn(T, E), torch.randn(T, E), torch.randn(T, E)
i, j = torch.arange(T)[:, None], torch.arange(T)[None, :]
masks = {'none': None, 'causal': j <= i, 'window': (i - j).abs() <= {{window}}}
mask = masks[{{mask}}]                      # True = may attend
scores = q @ k.T / E ** 0.5
if mask is not None:
    scores = scores.masked_fill(~mask, float('-inf'))
weights = scores.softmax(-1)                # (T, T): T * T * 4 bytes in float32
out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)   # same output, fused
print(weights.element_size() * weights.nelement(), 'bytes of weights')`;
