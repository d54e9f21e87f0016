// The decoder-only transformer's float32 path: the forward and backward passes of
// model.cpp's reference (the equations are in attn/train/model.hpp) over a whole batch at once,
// with the matrix products, the softmax steps and GELU in the kernels of a kernel set
// (src/kernels/). float32 compute, float64 master weights: the weights are converted to float32
// before each pass and the gradient is returned in float64.
//
// Every activation holds N = count·T rows (row r = b·T + t of sequence b), so the projections,
// W_O, the MLP and the unembedding are one product each over the batch; only the attention inside
// a head runs per sequence, on (T, T) blocks.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attn/error.hpp"
#include "attn/train/model.hpp"
#include "model_f32.hpp"
#include "model_internal.hpp"

namespace attn::train {
namespace detail {
namespace {

constexpr float kEps = static_cast<float>(kLayerNormEps);

template <class T> void grow(std::vector<T>& v, std::size_t n) {
  if (v.size() < n) {
    v.resize(n);
  }
}

// ---- LayerNorm over rows of D (float32, population variance)
// -------------------------------------

// y = gain·x̂ + bias, x̂ = (x − mean)·rstd per row of x (N, D); keeps x̂ and rstd for backward.
void layer_norm(const float* x, const float* gain, const float* bias, float* y, float* xhat,
                float* rstd, std::size_t N, std::size_t D) {
  const float inv_d = 1.0f / static_cast<float>(D);
  for (std::size_t r = 0; r < N; ++r) {
    const float* row = x + r * D;
    float mean = 0;
    for (std::size_t i = 0; i < D; ++i) {
      mean += row[i];
    }
    mean *= inv_d;
    float var = 0;
    for (std::size_t i = 0; i < D; ++i) {
      var += (row[i] - mean) * (row[i] - mean);
    }
    var *= inv_d;
    const float s = 1.0f / std::sqrt(var + kEps);
    rstd[r] = s;
    for (std::size_t i = 0; i < D; ++i) {
      const float xh = (row[i] - mean) * s;
      xhat[r * D + i] = xh;
      y[r * D + i] = gain[i] * xh + bias[i];
    }
  }
}

// dx += rstd·(dx̂ − mean(dx̂) − x̂·mean(dx̂·x̂)) with dx̂ = dy·gain; dgain += Σ dy·x̂, dbias += Σ dy.
void layer_norm_backward(const float* dy, const float* xhat, const float* rstd, const float* gain,
                         float* dx, float* dgain, float* dbias, std::size_t N, std::size_t D) {
  const float inv_d = 1.0f / static_cast<float>(D);
  for (std::size_t r = 0; r < N; ++r) {
    const float* dyr = dy + r * D;
    const float* xr = xhat + r * D;
    float mean_d = 0, mean_dx = 0;
    for (std::size_t i = 0; i < D; ++i) {
      const float d = dyr[i] * gain[i];
      mean_d += d;
      mean_dx += d * xr[i];
      dgain[i] += dyr[i] * xr[i];
      dbias[i] += dyr[i];
    }
    mean_d *= inv_d;
    mean_dx *= inv_d;
    for (std::size_t i = 0; i < D; ++i) {
      dx[r * D + i] += rstd[r] * (dyr[i] * gain[i] - mean_d - xr[i] * mean_dx);
    }
  }
}

// out[j] += Σ_r in[r, j] over N rows of width W: a bias gradient.
void add_column_sums(const float* in, std::size_t N, std::size_t W, float* out) {
  for (std::size_t r = 0; r < N; ++r) {
    for (std::size_t j = 0; j < W; ++j) {
      out[j] += in[r * W + j];
    }
  }
}

void size_forward(const Model& model, std::size_t count, std::size_t T, F32Workspace& ws) {
  const ModelConfig& c = model.config;
  const std::size_t N = count * T, D = c.d_model, H = c.heads, M = mlp_width(c);
  ws.count = count;
  ws.T = T;
  ws.layers.resize(c.layers);
  for (LayerBuffers& lb : ws.layers) {
    grow(lb.a, N * D);
    if (c.layer_norm) {
      grow(lb.xhat1, N * D);
      grow(lb.rstd1, N);
    }
    grow(lb.qkv, N * 3 * D);
    grow(lb.p, count * H * T * T);
    grow(lb.o, N * D);
    if (c.mlp) {
      grow(lb.m, N * D);
      if (c.layer_norm) {
        grow(lb.xhat2, N * D);
        grow(lb.rstd2, N);
      }
      grow(lb.h, N * M);
      grow(lb.g, N * M);
      grow(lb.th, N * M);
    }
  }
  grow(ws.x, N * D);
  if (c.layer_norm) {
    grow(ws.f, N * D);
    grow(ws.xhatf, N * D);
    grow(ws.rstdf, N);
  }
  grow(ws.logits, N * c.vocab);
}

// The causal softmax of one head of one sequence, in place on its scores (T, T): passes 2–3 of
// the attention (exp((s − max)·scale), normalise) over the keys j ≤ i of row i, 0 for j > i.
void causal_softmax(const kernels::KernelSet& ks, float* p, std::size_t T, float scale) {
  for (std::size_t i = 0; i < T; ++i) {
    float* row = p + i * T;
    const float mx = ks.rmax(row, i + 1);
    const float sum = ks.raddstoreexpminusmax(row, i + 1, mx, scale, row);
    ks.vscale(row, i + 1, 1.0f / sum);
    std::fill(row + i + 1, row + T, 0.0f);
  }
}

bool same_shape(const ModelConfig& a, const ModelConfig& b) {
  return a.vocab == b.vocab && a.seq_len == b.seq_len && a.layers == b.layers &&
         a.heads == b.heads && a.d_model == b.d_model && a.mlp == b.mlp && a.d_mlp == b.d_mlp &&
         a.layer_norm == b.layer_norm;
}

} // namespace

void load_weights_f32(const Model& model, F32Workspace& ws) {
  ws.w.resize(model.weights.size());
  std::transform(model.weights.begin(), model.weights.end(), ws.w.begin(),
                 [](double x) { return static_cast<float>(x); });
  const ModelConfig& c = model.config;
  const std::size_t D = c.d_model, H = c.heads, dh = D / H;
  // wqkv[l][r, s·D + h·d_h + d] = W_s[h][r, d] for s = Q, K, V
  if (!ws.has_offsets || !same_shape(ws.config, c)) { // recomputed only for another model shape
    ws.off = offsets_of(model);
    ws.config = c;
    ws.has_offsets = true;
  }
  const Offsets& off = ws.off;
  ws.wqkv.resize(c.layers);
  for (std::size_t l = 0; l < c.layers; ++l) {
    std::vector<float>& packed = ws.wqkv[l];
    packed.resize(D * 3 * D);
    const LayerOffsets& lo = off.layers[l];
    for (std::size_t h = 0; h < H; ++h) {
      const std::size_t src[3] = {lo.W_Q[h], lo.W_K[h], lo.W_V[h]};
      for (std::size_t s = 0; s < 3; ++s) {
        for (std::size_t r = 0; r < D; ++r) {
          std::copy_n(ws.w.data() + src[s] + r * dh, dh,
                      packed.data() + r * 3 * D + s * D + h * dh);
        }
      }
    }
  }
  // transposed copies for the input gradients dx = dy Wᵀ, computed as dy · (Wᵀ) by gemm_nn:
  // wt holds Wᵀ at W's offset for unembed, W_O, W_in and W_out; wqkvT[l] is wqkv[l]ᵀ (3D, D)
  const std::size_t M = mlp_width(c), V = c.vocab;
  ws.wt.resize(ws.w.size());
  auto transpose = [&](std::size_t offset, std::size_t rows, std::size_t cols) {
    const float* from = ws.w.data() + offset;
    float* to = ws.wt.data() + offset;
    for (std::size_t i = 0; i < rows; ++i) {
      for (std::size_t j = 0; j < cols; ++j) {
        to[j * rows + i] = from[i * cols + j];
      }
    }
  };
  transpose(off.unembed, D, V);
  ws.wqkvT.resize(c.layers);
  for (std::size_t l = 0; l < c.layers; ++l) {
    const LayerOffsets& lo = off.layers[l];
    transpose(lo.W_O, D, D);
    if (c.mlp) {
      transpose(lo.W_in, D, M);
      transpose(lo.W_out, M, D);
    }
    std::vector<float>& t = ws.wqkvT[l];
    t.resize(3 * D * D);
    for (std::size_t r = 0; r < D; ++r) {
      for (std::size_t j = 0; j < 3 * D; ++j) {
        t[j * D + r] = ws.wqkv[l][r * 3 * D + j];
      }
    }
  }
}

void forward_batch_f32(const kernels::KernelSet& ks, const Model& model, const std::int32_t* tokens,
                       std::size_t count, std::size_t T, F32Workspace& ws) {
  const ModelConfig& c = model.config;
  const std::size_t N = count * T, D = c.d_model, H = c.heads, dh = D / H, M = mlp_width(c),
                    V = c.vocab, D3 = 3 * D;
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dh)));
  const Offsets& off = ws.off;
  const float* w = ws.w.data();
  size_forward(model, count, T, ws);
  float* x = ws.x.data();

  // pass 1, embeddings: x₀[b·T + t] = E[token] + P[t]                         (N, D)
  for (std::size_t r = 0; r < N; ++r) {
    const float* e = w + off.token + static_cast<std::size_t>(tokens[r]) * D;
    const float* pos = w + off.position + (r % T) * D;
    for (std::size_t i = 0; i < D; ++i) {
      x[r * D + i] = e[i] + pos[i];
    }
  }

  for (std::size_t l = 0; l < c.layers; ++l) {
    const LayerOffsets& lo = off.layers[l];
    LayerBuffers& lb = ws.layers[l];
    // pass 2, attention input: a = LN₁(x) or x                                  (N, D)
    if (c.layer_norm) {
      layer_norm(x, w + lo.ln1_gain, w + lo.ln1_bias, lb.a.data(), lb.xhat1.data(), lb.rstd1.data(),
                 N, D);
    } else {
      std::copy_n(x, N * D, lb.a.data());
    }
    // pass 3, projections of every head at once: [q | k | v] = a · W_QKV       (N, D)·(D, 3D)
    ks.gemm_nn(N, D, D3, lb.a.data(), D, ws.wqkv[l].data(), D3, lb.qkv.data(), D3, false);
    // pass 4, per sequence b and head h: p = softmax(q kᵀ · scale, causal), o_h = p v
    for (std::size_t b = 0; b < count; ++b) {
      const float* qkv = lb.qkv.data() + b * T * D3;
      float* o = lb.o.data() + b * T * D;
      for (std::size_t h = 0; h < H; ++h) {
        const float* q = qkv + h * dh;
        const float* k = qkv + D + h * dh;
        const float* v = qkv + 2 * D + h * dh;
        float* p = lb.p.data() + (b * H + h) * T * T;
        ks.gemm_nt(T, dh, T, q, D3, k, D3, p, T, false); // scores q kᵀ        (T, T)
        causal_softmax(ks, p, T, scale);
        if (model.head_on(l, h)) {
          ks.gemm_nn(T, T, dh, p, T, v, D3, o + h * dh, D, false); // p v     (T, d_h)
        } else {
          for (std::size_t t = 0; t < T; ++t) {
            std::fill_n(o + t * D + h * dh, dh, 0.0f);
          }
        }
      }
    }
    // pass 5, attention residual: x += o W_O                                     (N, D)·(D, D)
    ks.gemm_nn(N, D, D, lb.o.data(), D, w + lo.W_O, D, x, D, true);
    if (c.mlp) {
      // pass 6, MLP: m = LN₂(x) or x; h = m W_in + b_in; g = GELU(h); x += g W_out + b_out
      if (c.layer_norm) {
        layer_norm(x, w + lo.ln2_gain, w + lo.ln2_bias, lb.m.data(), lb.xhat2.data(),
                   lb.rstd2.data(), N, D);
      } else {
        std::copy_n(x, N * D, lb.m.data());
      }
      ks.gemm_nn(N, D, M, lb.m.data(), D, w + lo.W_in, M, lb.h.data(), M, false);
      for (std::size_t r = 0; r < N; ++r) {
        float* hr = lb.h.data() + r * M;
        for (std::size_t j = 0; j < M; ++j) {
          hr[j] += w[lo.b_in + j];
        }
      }
      ks.gelu(lb.h.data(), N * M, lb.g.data(), lb.th.data());
      ks.gemm_nn(N, M, D, lb.g.data(), M, w + lo.W_out, D, x, D, true);
      for (std::size_t r = 0; r < N; ++r) {
        for (std::size_t i = 0; i < D; ++i) {
          x[r * D + i] += w[lo.b_out + i];
        }
      }
    }
  }
  // pass 7, f = LN_f(x) or x; logits = f U                                       (N, D)·(D, V)
  const float* f = x;
  if (c.layer_norm) {
    layer_norm(x, w + off.final_gain, w + off.final_bias, ws.f.data(), ws.xhatf.data(),
               ws.rstdf.data(), N, D);
    f = ws.f.data();
  }
  ks.gemm_nn(N, D, V, f, D, w + off.unembed, V, ws.logits.data(), V, false);
}

namespace {

// The backward pass of forward_batch_f32 (passes 7 … 1 in reverse) from ws.dlogits (N, V):
// the float32 gradient in ws.grad (layout order) and ws.gqkv.
void backward_batch_f32(const kernels::KernelSet& ks, const Model& model,
                        const std::int32_t* tokens, F32Workspace& ws) {
  const ModelConfig& c = model.config;
  const std::size_t count = ws.count, T = ws.T, N = count * T, D = c.d_model, H = c.heads,
                    dh = D / H, M = mlp_width(c), V = c.vocab, D3 = 3 * D;
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dh)));
  const Offsets& off = ws.off;
  const float* w = ws.w.data();
  const float* wt = ws.wt.data();
  ws.grad.assign(ws.w.size(), 0.0f);
  float* g = ws.grad.data();
  ws.gqkv.resize(c.layers);
  grow(ws.dx, N * D);
  grow(ws.dy, N * D);
  grow(ws.dqkv, N * D3);
  grow(ws.dp, T * T);
  if (c.mlp) {
    grow(ws.dh, N * M);
  }
  float* dx = ws.dx.data();
  float* dy = ws.dy.data();

  // pass 7: logits = f U, f = LN_f(x) or x
  const float* f = c.layer_norm ? ws.f.data() : ws.x.data();
  ks.gemm_tn(D, N, V, f, D, ws.dlogits.data(), V, g + off.unembed, V, false); // dU = fᵀ dlogits
  if (c.layer_norm) {
    ks.gemm_nn(N, V, D, ws.dlogits.data(), V, wt + off.unembed, D, dy, D, false); // df = dz Uᵀ
    std::fill_n(dx, N * D, 0.0f);
    layer_norm_backward(dy, ws.xhatf.data(), ws.rstdf.data(), w + off.final_gain, dx,
                        g + off.final_gain, g + off.final_bias, N, D);
  } else {
    ks.gemm_nn(N, V, D, ws.dlogits.data(), V, wt + off.unembed, D, dx, D, false); // dx = df
  }

  for (std::size_t l = c.layers; l-- > 0;) {
    const LayerOffsets& lo = off.layers[l];
    LayerBuffers& lb = ws.layers[l];
    if (c.mlp) {
      // pass 6: x_out = x_mid + GELU(h) W_out + b_out, h = m W_in + b_in
      ks.gemm_tn(M, N, D, lb.g.data(), M, dx, D, g + lo.W_out, D, false); // dW_out = gᵀ dx
      add_column_sums(dx, N, D, g + lo.b_out);
      float* dhb = ws.dh.data();
      ks.gemm_nn(N, D, M, dx, D, wt + lo.W_out, M, dhb, M, false); // dg = dx W_outᵀ
      ks.gelu_backward(lb.h.data(), lb.th.data(), N * M, dhb);     // dh = dg · GELU'(h)
      add_column_sums(dhb, N, M, g + lo.b_in);
      ks.gemm_tn(D, N, M, lb.m.data(), D, dhb, M, g + lo.W_in, M, false); // dW_in = mᵀ dh
      if (c.layer_norm) {
        ks.gemm_nn(N, M, D, dhb, M, wt + lo.W_in, D, dy, D, false); // dm = dh W_inᵀ
        layer_norm_backward(dy, lb.xhat2.data(), lb.rstd2.data(), w + lo.ln2_gain, dx,
                            g + lo.ln2_gain, g + lo.ln2_bias, N, D);
      } else {
        ks.gemm_nn(N, M, D, dhb, M, wt + lo.W_in, D, dx, D, true); // dx += dm
      }
    }
    // pass 5: x_mid = x_in + o W_O
    ks.gemm_tn(D, N, D, lb.o.data(), D, dx, D, g + lo.W_O, D, false); // dW_O = oᵀ dx
    ks.gemm_nn(N, D, D, dx, D, wt + lo.W_O, D, dy, D, false);         // do = dx W_Oᵀ
    // pass 4, per sequence and head: o = p v, p = softmax(s), s = scale · q kᵀ
    float* dp = ws.dp.data();
    for (std::size_t b = 0; b < count; ++b) {
      const float* qkv = lb.qkv.data() + b * T * D3;
      float* dqkv = ws.dqkv.data() + b * T * D3;
      const float* dout = dy + b * T * D;
      for (std::size_t h = 0; h < H; ++h) {
        float* dq = dqkv + h * dh;
        float* dk = dqkv + D + h * dh;
        float* dv = dqkv + 2 * D + h * dh;
        if (!model.head_on(l, h)) { // o_h is the constant 0: nothing flows back
          for (std::size_t t = 0; t < T; ++t) {
            std::fill_n(dq + t * D3, dh, 0.0f);
            std::fill_n(dk + t * D3, dh, 0.0f);
            std::fill_n(dv + t * D3, dh, 0.0f);
          }
          continue;
        }
        const float* q = qkv + h * dh;
        const float* k = qkv + D + h * dh;
        const float* v = qkv + 2 * D + h * dh;
        const float* p = lb.p.data() + (b * H + h) * T * T;
        const float* do_h = dout + h * dh;
        ks.gemm_nt(T, dh, T, do_h, D, v, D3, dp, T, false); // dp = do vᵀ          (T, T)
        ks.gemm_tn(T, T, dh, p, T, do_h, D, dv, D3, false); // dv = pᵀ do          (T, d_h)
        // softmax: ds_ij = p_ij (dp_ij − Σ_k p_ik dp_ik) · scale (0 where j > i)
        for (std::size_t i = 0; i < T; ++i) {
          const float* pi = p + i * T;
          float* dpi = dp + i * T;
          float dot = 0;
          for (std::size_t j = 0; j <= i; ++j) {
            dot += pi[j] * dpi[j];
          }
          for (std::size_t j = 0; j <= i; ++j) {
            dpi[j] = pi[j] * (dpi[j] - dot) * scale;
          }
          std::fill(dpi + i + 1, dpi + T, 0.0f);
        }
        ks.gemm_nn(T, T, dh, dp, T, k, D3, dq, D3, false); // dq = ds k           (T, d_h)
        ks.gemm_tn(T, T, dh, dp, T, q, D3, dk, D3, false); // dk = dsᵀ q          (T, d_h)
      }
    }
    // pass 3: [q | k | v] = a W_QKV
    std::vector<float>& gqkv = ws.gqkv[l];
    gqkv.resize(D * D3);
    ks.gemm_tn(D, N, D3, lb.a.data(), D, ws.dqkv.data(), D3, gqkv.data(), D3, false); // dW_QKV
    // pass 2: a = LN₁(x) or x
    if (c.layer_norm) {
      ks.gemm_nn(N, D3, D, ws.dqkv.data(), D3, ws.wqkvT[l].data(), D, dy, D, false); // da
      layer_norm_backward(dy, lb.xhat1.data(), lb.rstd1.data(), w + lo.ln1_gain, dx,
                          g + lo.ln1_gain, g + lo.ln1_bias, N, D);
    } else {
      ks.gemm_nn(N, D3, D, ws.dqkv.data(), D3, ws.wqkvT[l].data(), D, dx, D, true); // dx += da
    }
  }
  // pass 1: x₀[b·T + t] = E[token] + P[t]
  for (std::size_t r = 0; r < N; ++r) {
    float* de = g + off.token + static_cast<std::size_t>(tokens[r]) * D;
    float* dpos = g + off.position + (r % T) * D;
    for (std::size_t i = 0; i < D; ++i) {
      de[i] += dx[r * D + i];
      dpos[i] += dx[r * D + i];
    }
  }
}

// The float32 gradient (ws.grad, ws.gqkv) in float64 and layout order.
template <typename T>
void store_gradient(const Model& model, const F32Workspace& ws, std::vector<T>& gradient) {
  const ModelConfig& c = model.config;
  const std::size_t D = c.d_model, H = c.heads, dh = D / H;
  gradient.resize(ws.grad.size());
  std::transform(ws.grad.begin(), ws.grad.end(), gradient.begin(),
                 [](float x) { return static_cast<T>(x); });
  const Offsets& off = ws.off;
  for (std::size_t l = 0; l < c.layers; ++l) {
    const LayerOffsets& lo = off.layers[l];
    const float* packed = ws.gqkv[l].data();
    for (std::size_t h = 0; h < H; ++h) {
      const std::size_t dst[3] = {lo.W_Q[h], lo.W_K[h], lo.W_V[h]};
      for (std::size_t s = 0; s < 3; ++s) {
        for (std::size_t r = 0; r < D; ++r) {
          const float* from = packed + r * 3 * D + s * D + h * dh;
          std::copy(from, from + dh,
                    gradient.begin() + static_cast<std::ptrdiff_t>(dst[s] + r * dh));
        }
      }
    }
  }
}

} // namespace

double cross_entropy_f32(const kernels::KernelSet& ks, const float* logits, std::size_t V,
                         const std::int32_t* targets, std::size_t N, double weight, float* dlogits,
                         F32Workspace& ws) {
  // per scored row r, with e_j = exp(z_j − max z) and o = Σ_{j ≠ target} e_j (summed in float64):
  //   loss = −log p_target = log1p(o / e_target)       (log Σ e − log e_target when e_target = 0)
  //   dlogits_j = e_j / Σ e · weight (j ≠ target),  dlogits_target = −o / Σ e · weight
  // Written with o rather than as p − 1, a well-trained model's tiny loss and target gradient keep
  // float32's relative precision instead of its absolute 2⁻²⁴ (0 at the rows without a target).
  grow(ws.ce, V);
  float* e = ws.ce.data();
  const float weight_f = static_cast<float>(weight);
  double sum_ce = 0;
  for (std::size_t r = 0; r < N; ++r) {
    const std::int32_t target = targets[r];
    if (dlogits) {
      std::fill_n(dlogits + r * V, V, 0.0f);
    }
    if (target == kNoTarget) {
      continue;
    }
    const auto t = static_cast<std::size_t>(target);
    const float* z = logits + r * V;
    const float mx = ks.rmax(z, V);
    const float sum = ks.raddstoreexpminusmax(z, V, mx, 1.0f, e);
    double others = 0;
    for (std::size_t j = 0; j < V; ++j) {
      others += j == t ? 0.0 : static_cast<double>(e[j]);
    }
    const double et = e[t];
    sum_ce += et > 0 ? std::log1p(others / et)
                     : static_cast<double>(mx) - static_cast<double>(z[t]) +
                           std::log(static_cast<double>(sum));
    if (dlogits) {
      float* dz = dlogits + r * V;
      const float s = weight_f / sum;
      for (std::size_t j = 0; j < V; ++j) {
        dz[j] = e[j] * s;
      }
      dz[t] = static_cast<float>(-weight * others / static_cast<double>(sum));
    }
  }
  return sum_ce;
}

void greedy_decode_f32(const kernels::KernelSet& ks, const Model& model, const std::int32_t* inputs,
                       std::size_t count, std::size_t P, std::size_t A, std::size_t choices,
                       std::int32_t* answers, F32Workspace& ws) {
  // answer position a reads input ++ answer[0 .. a − 1]: P + a tokens a sequence, packed
  // row-major (count, P + a) in ws.tokens for each forward pass
  grow(ws.tokens, count * (P + A));
  for (std::size_t a = 0; a < A; ++a) {
    const std::size_t len = P + a;
    std::int32_t* tokens = ws.tokens.data();
    for (std::size_t b = 0; b < count; ++b) {
      std::copy_n(inputs + b * P, P, tokens + b * len);
      std::copy_n(answers + b * A, a, tokens + b * len + P);
    }
    forward_batch_f32(ks, model, tokens, count, len, ws);
    for (std::size_t b = 0; b < count; ++b) {
      // argmax over the first `choices` logits of the last position, lowest id on ties
      const float* z = ws.logits.data() + (b * len + len - 1) * model.config.vocab;
      std::size_t best = 0;
      for (std::size_t v = 1; v < choices; ++v) {
        best = z[v] > z[best] ? v : best;
      }
      answers[b * A + a] = static_cast<std::int32_t>(best);
    }
  }
}

double loss_and_gradient_f32(const kernels::KernelSet& ks, const Model& model, const Batch& batch,
                             std::vector<double>* gradient, F32Workspace& ws,
                             const std::string& fn) {
  validate_batch(model, batch, fn);
  const std::size_t T = batch.length, N = batch.count * T, V = model.config.vocab;
  std::size_t scored = 0;
  for (std::int32_t target : batch.targets) {
    scored += target != kNoTarget;
  }
  load_weights_f32(model, ws);
  forward_batch_f32(ks, model, batch.tokens.data(), batch.count, T, ws);

  const double weight = 1.0 / static_cast<double>(scored);
  if (gradient) {
    grow(ws.dlogits, N * V);
  }
  const double loss =
      weight * cross_entropy_f32(ks, ws.logits.data(), V, batch.targets.data(), N, weight,
                                 gradient ? ws.dlogits.data() : nullptr, ws);
  if (gradient) {
    backward_batch_f32(ks, model, batch.tokens.data(), ws);
    store_gradient(model, ws, *gradient);
  }
  return loss;
}

double part_gradient_f32(const kernels::KernelSet& ks, const Model& model, const Batch& batch,
                         double weight, std::vector<float>& gradient, F32Workspace& ws,
                         const std::string& fn) {
  validate_batch(model, batch, fn);
  const std::size_t T = batch.length, N = batch.count * T, V = model.config.vocab;
  forward_batch_f32(ks, model, batch.tokens.data(), batch.count, T, ws);
  grow(ws.dlogits, N * V);
  const double loss = weight * cross_entropy_f32(ks, ws.logits.data(), V, batch.targets.data(), N,
                                                 weight, ws.dlogits.data(), ws);
  backward_batch_f32(ks, model, batch.tokens.data(), ws);
  store_gradient(model, ws, gradient);
  return loss;
}

Tensor64 forward_f32(const kernels::KernelSet& ks, const Model& model,
                     const std::vector<std::int32_t>& tokens, Tensor64* attention,
                     F32Workspace& ws) {
  validate_sequence(model, tokens, "forward");
  const ModelConfig& c = model.config;
  const std::size_t T = tokens.size();
  load_weights_f32(model, ws);
  forward_batch_f32(ks, model, tokens.data(), 1, T, ws);
  Tensor64 logits = Tensor64::from_shape({T, c.vocab});
  std::copy_n(ws.logits.data(), T * c.vocab, logits.data());
  if (attention) {
    *attention = Tensor64::from_shape({c.layers, c.heads, T, T});
    double* out = attention->data();
    for (std::size_t l = 0; l < c.layers; ++l) {
      out = std::copy_n(ws.layers[l].p.data(), c.heads * T * T, out);
    }
  }
  return logits;
}

} // namespace detail

double loss_and_gradient_f32(const Model& model, const Batch& batch,
                             std::vector<double>& gradient) {
  detail::F32Workspace ws;
  return detail::loss_and_gradient_f32(kernels::best(), model, batch, &gradient, ws,
                                       "loss_and_gradient");
}

double loss_f32(const Model& model, const Batch& batch) {
  detail::F32Workspace ws;
  return detail::loss_and_gradient_f32(kernels::best(), model, batch, nullptr, ws, "loss");
}

Tensor64 forward_f32(const Model& model, const std::vector<std::int32_t>& tokens,
                     Tensor64* attention) {
  detail::F32Workspace ws;
  return detail::forward_f32(kernels::best(), model, tokens, attention, ws);
}

} // namespace attn::train
