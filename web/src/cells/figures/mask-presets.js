/**
 * The masks of attn-mask-painter as rows of 0/1 (1 = query i may attend to key j, PyTorch's
 * boolean convention), with no DOM, so the labs' pure models and Node tests use them too.
 */

/** The presets, in the order the painter shows them. */
export const MASK_PRESETS = ['none', 'causal', 'window', 'custom'];

/**
 * The 0/1 rows of a preset for `size` positions (counted from 0): none (every key), causal
 * (j ≤ i), window (|i − j| ≤ w) or custom (`mask`, fitted to size × size, new cells allowed).
 */
export function maskFor(preset, size, window, mask) {
  return Array.from({ length: size }, (_, i) =>
    Array.from({ length: size }, (_, j) => {
      if (preset === 'causal') return j <= i ? 1 : 0;
      if (preset === 'window') return Math.abs(i - j) <= window ? 1 : 0;
      if (preset === 'custom') return mask?.[i]?.[j] ?? 1;
      return 1;
    }),
  );
}

/** The rows (counted from 0) in which no key is allowed. */
export const emptyRows = (allowed) => allowed.flatMap((row, i) => (row.some(Boolean) ? [] : [i]));
