/**
 * A BENCHMARK BASELINE, not part of the engine: scaled dot-product attention
 * written in plain JavaScript the way a competent user would write it, one
 * query row at a time (the same loop as bench/attention.bench.mjs). The
 * attention-at-scale lesson times it against the wasm SIMD and scalar builds.
 * Lessons never use it for their maths; the wasm core does that.
 *
 *   out = softmax(q·kᵀ / √E) · v      q: (L, E), k: (S, E), v: (S, Ev) -> out: Float32Array (L·Ev)
 *
 * @param {{ data: Float32Array, shape: number[] }} q (L, E)
 * @param {{ data: Float32Array, shape: number[] }} k (S, E)
 * @param {{ data: Float32Array, shape: number[] }} v (S, Ev)
 * @returns {Float32Array} out (L·Ev), row-major
 */
export function plainAttention(q, k, v) {
  const [L, dim] = q.shape;
  const S = k.shape[0];
  const Ev = v.shape[1];
  const qd = q.data;
  const kd = k.data;
  const vd = v.data;
  const scale = 1 / Math.sqrt(dim);
  const out = new Float32Array(L * Ev);
  const p = new Float64Array(S);
  const acc = new Float64Array(Ev);
  for (let i = 0; i < L; i++) {
    const qi = i * dim;
    // pass 1: scores s_j = q_i·k_j / √E and their max
    let max = -Infinity;
    for (let j = 0; j < S; j++) {
      const kj = j * dim;
      let dot = 0;
      for (let e = 0; e < dim; e++) dot += qd[qi + e] * kd[kj + e];
      const s = dot * scale;
      p[j] = s;
      if (s > max) max = s;
    }
    // pass 2: p_j = exp(s_j − max) and their sum
    let sum = 0;
    for (let j = 0; j < S; j++) {
      const w = Math.exp(p[j] - max);
      p[j] = w;
      sum += w;
    }
    // pass 3: out_i = Σ_j p_j·v_j / sum
    acc.fill(0);
    for (let j = 0; j < S; j++) {
      const w = p[j];
      const vj = j * Ev;
      for (let c = 0; c < Ev; c++) acc[c] += w * vd[vj + c];
    }
    const inv = 1 / sum;
    const oi = i * Ev;
    for (let c = 0; c < Ev; c++) out[oi + c] = acc[c] * inv;
  }
  return out;
}
