/**
 * The shapes of a batched matrix product A × B → C, e.g. (B, h, T, T) × (B, h, T, d_v) →
 * (B, h, T, d_v): the batch axes (broadcast as in NumPy/PyTorch matmul), A's rows, the contracted
 * axis (A's last = B's second-to-last, summed over) and B's columns. Pure; attn-shape-chart.js draws them.
 *
 *   const shapes = matmulShapes([2, 4, 5, 5], [2, 4, 5, 8], ['B','h','T','T'], ['B','h','T','d_v']);
 */

/**
 * The shapes of a batched matmul and its output, or an Error naming the mismatch.
 * @returns {{ batch: { a: ?[string, number], b: ?[string, number], out: [string, number] }[],
 *   rows: [string, number], inner: { a: [string, number], b: [string, number] }, cols: [string, number],
 *   a: number[], b: number[], out: number[], aLabels: string[], bLabels: string[], outLabels: string[] }}
 */
export function matmulShapes(a, b, aLabels = [], bLabels = []) {
  if (a.length < 2 || b.length < 2) throw new Error('each operand needs at least two axes');
  const name = (labels, i, fallback) => labels[i] || fallback;
  const la = a.map((_, i) => name(aLabels, i, i >= a.length - 2 ? ['n', 'k'][i - a.length + 2] : `b${i}`));
  const lb = b.map((_, i) => name(bLabels, i, i >= b.length - 2 ? ['k', 'm'][i - b.length + 2] : `b${i}`));
  const [n, k] = a.slice(-2);
  const [k2, m] = b.slice(-2);
  if (k !== k2) {
    throw new Error(`A's last axis (${la.at(-1)} = ${k}) must equal B's second-to-last axis (${lb.at(-2)} = ${k2})`);
  }
  const nb = Math.max(a.length, b.length) - 2;
  const batch = [];
  for (let j = 0; j < nb; j++) {
    const ia = a.length - 2 - nb + j;
    const ib = b.length - 2 - nb + j;
    const da = ia >= 0 ? [la[ia], a[ia]] : null;
    const db = ib >= 0 ? [lb[ib], b[ib]] : null;
    const sa = da?.[1] ?? 1;
    const sb = db?.[1] ?? 1;
    if (sa !== sb && sa !== 1 && sb !== 1) {
      throw new Error(
        `batch axis ${j}: ${da[0]} = ${sa} and ${db[0]} = ${sb} cannot broadcast (sizes must match or be 1)`,
      );
    }
    const size = Math.max(sa, sb);
    batch.push({ a: da, b: db, out: [(sa >= sb ? da : db)?.[0] ?? (da ?? db)[0], size] });
  }
  const out = [...batch.map((d) => d.out[1]), n, m];
  const outLabels = [...batch.map((d) => d.out[0]), la.at(-2), lb.at(-1)];
  return {
    batch,
    rows: [la.at(-2), n],
    inner: { a: [la.at(-1), k], b: [lb.at(-2), k2] },
    cols: [lb.at(-1), m],
    a,
    b,
    out,
    aLabels: la,
    bLabels: lb,
    outLabels,
  };
}

/** "(B, h, T, T)" */
export const shapeText = (labels) => `(${labels.join(', ')})`;
