// float64 references in plain JS, the oracles of the JS API tests.

/** Softmax of one row with temperature τ > 0. */
export function softmaxRow(row, tau = 1) {
  const m = Math.max(...row);
  if (m === -Infinity) return row.map(() => 0);
  const e = row.map((x) => Math.exp((x - m) / tau));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

/**
 * Attention over (B, L, E) x (B, S, E) x (B, S, Ev) with an optional
 * allowed(i, j) predicate: returns { output: Float64Array, weights: Float64Array }.
 */
export function attentionReference(q, k, v, { allowed = () => true, scale } = {}) {
  const [B, L, E] = q.shape;
  const [, S] = k.shape;
  const Ev = v.shape[2];
  const s = scale ?? 1 / Math.sqrt(E);
  const output = new Float64Array(B * L * Ev);
  const weights = new Float64Array(B * L * S);
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < L; i++) {
      const logits = [];
      for (let j = 0; j < S; j++) {
        let dot = 0;
        for (let e = 0; e < E; e++) dot += q.data[(b * L + i) * E + e] * k.data[(b * S + j) * E + e];
        logits.push(allowed(i, j) ? s * dot : -Infinity);
      }
      const w = softmaxRow(logits);
      w.forEach((wj, j) => {
        weights[(b * L + i) * S + j] = wj;
        for (let c = 0; c < Ev; c++) output[(b * L + i) * Ev + c] += wj * v.data[(b * S + j) * Ev + c];
      });
    }
  }
  return { output, weights };
}

/** Largest |a − b| over two equal-length arrays. */
export function maxAbsDiff(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}
