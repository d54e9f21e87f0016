// The decoder-only transformer's float32 path: the forward and backward passes of
// model.cpp's reference (the equations are in attn/train/model.hpp) over a whole batch at once,
// with the matrix products, the softmax steps and GELU in the kernels of a kernel set
// (src/kernels/). float32 compute, float64 master weights: the weights are converted to float32
// before each pass and the gradient is returned in float64.
//
// Every activation holds N = count·T rows (row r = b·T + t of sequence b), so the projections,
// W_O, the MLP and the unembedding are one product each over the batch; only the attention inside
// a head runs per sequence, on (T, T) blocks.
//
// As in the reference, each block is a forward/backward pair with its shapes and equation:
// embedding (model_internal.hpp), layer_norm, attention, mlp and unembedding (+ cross_entropy_f32);
// forward_batch_f32 calls the forward passes in order (passes 1 … 7), backward_batch_f32 the
// backward passes in reverse. The blocks read their weights and activations from the workspace
// and grow their own buffers.
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

namespace {

// ---- LayerNorm over rows of D (float32, population variance) ---------------------------------

// y = gain·x̂ + bias, x̂ = (x − mean)·rstd, rstd = 1/√(var + ε) per row of x (N, D), keeping x̂
// and rstd for backward; without LayerNorm (`on` false) y is a copy of x (the block's input must
// outlive the residual update of x that follows).
void layer_norm_forward(bool on, const float* x, const float* gain, const float* bias,
                        std::size_t N, std::size_t D, NormBuffers& n) {
  grow(n.y, N * D);
  if (!on) {
    std::copy_n(x, N * D, n.y.data());
    return;
  }
  grow(n.xhat, N * D);
  grow(n.rstd, N);
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
    n.rstd[r] = s;
    for (std::size_t i = 0; i < D; ++i) {
      const float xh = (row[i] - mean) * s;
      n.xhat[r * D + i] = xh;
      n.y[r * D + i] = gain[i] * xh + bias[i];
    }
  }
}

// Its backward pass from dy (N, D), accumulating: dx += rstd·(dx̂ − mean(dx̂) − x̂·mean(dx̂·x̂))
// with dx̂ = dy·gain, dgain += Σ dy·x̂, dbias += Σ dy. (Without LayerNorm there is nothing to
// run: the block's last product adds its input gradient into dx itself.)
void layer_norm_backward(const float* dy, const NormBuffers& n, const float* gain, std::size_t N,
                         std::size_t D, float* dx, float* dgain, float* dbias) {
  const float inv_d = 1.0f / static_cast<float>(D);
  for (std::size_t r = 0; r < N; ++r) {
    const float* dyr = dy + r * D;
    const float* xr = n.xhat.data() + r * D;
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
      dx[r * D + i] += n.rstd[r] * (dyr[i] * gain[i] - mean_d - xr[i] * mean_dx);
    }
  }
}

// ---- causal multi-head self-attention --------------------------------------------------------
//
// A head's products run in blocks of kCausalBlock query rows (forward, dp, dq) or key rows (dv,
// dk). Query rows [i0, i1) need the keys [0, i1) only, key rows [i0, i1) the queries [i0, T) only:
// every other term of their sums has a weight of exactly 0 (the causal mask). The kernels compute
// each element with the same arithmetic wherever it sits (train_kernels.hpp), and a sum that
// starts at +0 is unchanged by ±0 terms, so the results are bitwise those of the full (T, T)
// products at about 53 % of their work for T = 64.
constexpr std::size_t kCausalBlock = 4;

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

// Its backward pass, in place on dp (T, T) from the weights p:
//   ds_ij = p_ij (dp_ij − Σ_k p_ik dp_ik) · scale for j ≤ i, 0 for j > i.
void causal_softmax_backward(const float* p, float* dp, std::size_t T, float scale) {
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
}

// m[r, 0 .. width) = 0 for the `rows` rows of m (row stride ld): an ablated head's columns.
void zero_columns(float* m, std::size_t rows, std::size_t ld, std::size_t width) {
  for (std::size_t r = 0; r < rows; ++r) {
    std::fill_n(m + r * ld, width, 0.0f);
  }
}

// The attention block of layer l with its residual, on a (N, D) = LN₁(x) or x (ws.layers[l].ln1):
//   pass 3: [q | k | v] = a W_QKV, every head at once                      (N, D)·(D, 3D)
//   pass 4, per sequence b and head h: p = softmax(q kᵀ · scale, causal)    (T, T)
//                                      o_h = p v (0 for an ablated head)   (T, d_h)
//   pass 5: x += o W_O                                                     (N, D)·(D, D)
void attention_forward(const kernels::KernelSet& ks, const Model& model, std::size_t l,
                       F32Workspace& ws, float* x) {
  const ModelConfig& c = model.config;
  const std::size_t count = ws.count, T = ws.T, N = count * T, D = c.d_model, H = c.heads,
                    dh = D / H, D3 = 3 * D;
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dh)));
  LayerBuffers& lb = ws.layers[l];
  grow(lb.qkv, N * D3);
  grow(lb.p, count * H * T * T);
  grow(lb.o, N * D);
  ks.gemm_nn(N, D, D3, lb.ln1.y.data(), D, ws.wqkv[l].data(), D3, lb.qkv.data(), D3, false);
  for (std::size_t b = 0; b < count; ++b) {
    const float* qkv = lb.qkv.data() + b * T * D3;
    float* o = lb.o.data() + b * T * D;
    for (std::size_t h = 0; h < H; ++h) {
      const float* q = qkv + h * dh;
      const float* k = qkv + D + h * dh;
      const float* v = qkv + 2 * D + h * dh;
      float* p = lb.p.data() + (b * H + h) * T * T;
      for (std::size_t i0 = 0; i0 < T; i0 += kCausalBlock) { // scores q kᵀ  (T, T), causal
        const std::size_t i1 = std::min(T, i0 + kCausalBlock);
        ks.gemm_nt(i1 - i0, dh, i1, q + i0 * D3, D3, k, D3, p + i0 * T, T, false);
      }
      causal_softmax(ks, p, T, scale);
      if (model.head_on(l, h)) {
        for (std::size_t i0 = 0; i0 < T; i0 += kCausalBlock) { // p v        (T, d_h)
          const std::size_t i1 = std::min(T, i0 + kCausalBlock);
          ks.gemm_nn(i1 - i0, i1, dh, p + i0 * T, T, v, D3, o + i0 * D + h * dh, D, false);
        }
      } else {
        zero_columns(o + h * dh, T, D, dh);
      }
    }
  }
  ks.gemm_nn(N, D, D, lb.o.data(), D, ws.w.data() + ws.off.layers[l].W_O, D, x, D, true);
}

// Its backward pass from dx (N, D), the gradient at the block's output (the residual carries dx
// on to the input unchanged). Writes dW_O to g and dW_QKV to ws.gqkv[l], and the gradient at a
// to da (N, D), adding it when `accumulate` (da = dx without LayerNorm). da may be ws.dy, the
// scratch of do: it is written last.
//   pass 5: dW_O = oᵀ dx, do = dx W_Oᵀ                                     (N, D)
//   pass 4, per sequence and head: dp = do vᵀ, dv = pᵀ do                   (T, T), (T, d_h)
//           ds = causal_softmax_backward(p, dp); dq = ds k, dk = dsᵀ q     (T, d_h)
//   pass 3: dW_QKV = aᵀ [dq | dk | dv], da = [dq | dk | dv] W_QKVᵀ          (N, D)
void attention_backward(const kernels::KernelSet& ks, const Model& model, std::size_t l,
                        F32Workspace& ws, const float* dx, float* da, bool accumulate, float* g) {
  const ModelConfig& c = model.config;
  const std::size_t count = ws.count, T = ws.T, N = count * T, D = c.d_model, H = c.heads,
                    dh = D / H, D3 = 3 * D;
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dh)));
  const LayerBuffers& lb = ws.layers[l];
  const std::size_t W_O = ws.off.layers[l].W_O;
  grow(ws.dqkv, N * D3);
  grow(ws.dp, T * T);
  float* dout = ws.dy.data();
  ks.gemm_tn(D, N, D, lb.o.data(), D, dx, D, g + W_O, D, false);     // dW_O = oᵀ dx
  ks.gemm_nn(N, D, D, dx, D, ws.wt.data() + W_O, D, dout, D, false); // do = dx W_Oᵀ
  float* dp = ws.dp.data();
  for (std::size_t b = 0; b < count; ++b) {
    const float* qkv = lb.qkv.data() + b * T * D3;
    float* dqkv = ws.dqkv.data() + b * T * D3;
    for (std::size_t h = 0; h < H; ++h) {
      float* dq = dqkv + h * dh;
      float* dk = dqkv + D + h * dh;
      float* dv = dqkv + 2 * D + h * dh;
      if (!model.head_on(l, h)) { // o_h is the constant 0: nothing flows back
        zero_columns(dq, T, D3, dh);
        zero_columns(dk, T, D3, dh);
        zero_columns(dv, T, D3, dh);
        continue;
      }
      const float* q = qkv + h * dh;
      const float* k = qkv + D + h * dh;
      const float* v = qkv + 2 * D + h * dh;
      const float* p = lb.p.data() + (b * H + h) * T * T;
      const float* do_h = dout + b * T * D + h * dh;
      for (std::size_t i0 = 0; i0 < T; i0 += kCausalBlock) {
        const std::size_t i1 = std::min(T, i0 + kCausalBlock), n = i1 - i0;
        ks.gemm_nt(n, dh, i1, do_h + i0 * D, D, v, D3, dp + i0 * T, T, false); // dp = do vᵀ
        // dv = pᵀ do (T, d_h): key rows [i0, i1) read the queries from i0 on
        ks.gemm_tn(n, T - i0, dh, p + i0 * T + i0, T, do_h + i0 * D, D, dv + i0 * D3, D3, false);
      }
      causal_softmax_backward(p, dp, T, scale); // ds (T, T)
      for (std::size_t i0 = 0; i0 < T; i0 += kCausalBlock) {
        const std::size_t i1 = std::min(T, i0 + kCausalBlock), n = i1 - i0;
        ks.gemm_nn(n, i1, dh, dp + i0 * T, T, k, D3, dq + i0 * D3, D3, false); // dq = ds k
        ks.gemm_tn(n, T - i0, dh, dp + i0 * T + i0, T, q + i0 * D3, D3, dk + i0 * D3, D3,
                   false); // dk = dsᵀ q
      }
    }
  }
  std::vector<float>& gqkv = ws.gqkv[l];
  gqkv.resize(D * D3);
  ks.gemm_tn(D, N, D3, lb.ln1.y.data(), D, ws.dqkv.data(), D3, gqkv.data(), D3, false); // dW_QKV
  ks.gemm_nn(N, D3, D, ws.dqkv.data(), D3, ws.wqkvT[l].data(), D, da, D, accumulate);   // da
}

// ---- the MLP ----------------------------------------------------------------------------------

// The MLP block of layer l with its residual, pass 6, on m (N, D) = LN₂(x) or x (ws.layers[l].ln2):
//   h = m W_in + b_in       (N, D)·(D, M)
//   g = GELU(h)             (N, M), keeping tanh u in th for backward
//   x += g W_out + b_out    (N, M)·(M, D)
void mlp_forward(const kernels::KernelSet& ks, const Model& model, std::size_t l, F32Workspace& ws,
                 float* x) {
  const std::size_t N = ws.count * ws.T, D = model.config.d_model, M = mlp_width(model.config);
  const float* w = ws.w.data();
  const LayerOffsets& lo = ws.off.layers[l];
  LayerBuffers& lb = ws.layers[l];
  grow(lb.h, N * M);
  grow(lb.g, N * M);
  grow(lb.th, N * M);
  ks.gemm_nn(N, D, M, lb.ln2.y.data(), D, w + lo.W_in, M, lb.h.data(), M, false);
  bias_forward(lb.h.data(), w + lo.b_in, N, M);
  ks.gelu(lb.h.data(), N * M, lb.g.data(), lb.th.data());
  ks.gemm_nn(N, M, D, lb.g.data(), M, w + lo.W_out, D, x, D, true);
  bias_forward(x, w + lo.b_out, N, D);
}

// Its backward pass from dx (N, D), the gradient at the block's output. Writes the weight
// gradients to g and the gradient at m to dm (N, D), adding it when `accumulate`:
//   dW_out = gᵀ dx, db_out = Σ_r dx[r], dg = dx W_outᵀ        (N, M)
//   dh = dg · GELU'(h), db_in = Σ_r dh[r]                     (N, M)
//   dW_in = mᵀ dh, dm = dh W_inᵀ                              (N, D)
void mlp_backward(const kernels::KernelSet& ks, const Model& model, std::size_t l, F32Workspace& ws,
                  const float* dx, float* dm, bool accumulate, float* g) {
  const std::size_t N = ws.count * ws.T, D = model.config.d_model, M = mlp_width(model.config);
  const LayerOffsets& lo = ws.off.layers[l];
  const LayerBuffers& lb = ws.layers[l];
  const float* wt = ws.wt.data();
  grow(ws.dh, N * M);
  float* dh = ws.dh.data();
  ks.gemm_tn(M, N, D, lb.g.data(), M, dx, D, g + lo.W_out, D, false); // dW_out = gᵀ dx
  bias_backward(dx, N, D, g + lo.b_out);
  ks.gemm_nn(N, D, M, dx, D, wt + lo.W_out, M, dh, M, false); // dg = dx W_outᵀ
  ks.gelu_backward(lb.h.data(), lb.th.data(), N * M, dh);     // dh = dg · GELU'(h)
  bias_backward(dh, N, M, g + lo.b_in);
  ks.gemm_tn(D, N, M, lb.ln2.y.data(), D, dh, M, g + lo.W_in, M, false); // dW_in = mᵀ dh
  ks.gemm_nn(N, M, D, dh, M, wt + lo.W_in, D, dm, D, accumulate);        // dm = dh W_inᵀ
}

// ---- the unembedding ----------------------------------------------------------------------------

// Pass 7: logits = f U, logits (N, V) from f (N, D) = LN_f(x) or x and U (D, V).
void unembedding_forward(const kernels::KernelSet& ks, const float* f, const float* U,
                         std::size_t N, std::size_t D, std::size_t V, float* logits) {
  ks.gemm_nn(N, D, V, f, D, U, V, logits, V, false);
}

// Its backward pass from dlogits (N, V): writes dU = fᵀ dlogits (D, V) and df = dlogits Uᵀ
// (N, D), from Uᵀ (V, D).
void unembedding_backward(const kernels::KernelSet& ks, const float* f, const float* dlogits,
                          const float* Ut, std::size_t N, std::size_t D, std::size_t V, float* dU,
                          float* df) {
  ks.gemm_tn(D, N, V, f, D, dlogits, V, dU, V, false);
  ks.gemm_nn(N, V, D, dlogits, V, Ut, D, df, D, false);
}

} // namespace

// The forward pass (N = count·T rows): the blocks in order, numbered as passes 1 … 7.
void forward_batch_f32(const kernels::KernelSet& ks, const Model& model, const std::int32_t* tokens,
                       std::size_t count, std::size_t T, F32Workspace& ws) {
  const ModelConfig& c = model.config;
  const std::size_t N = count * T, D = c.d_model, V = c.vocab;
  const bool ln = c.layer_norm;
  const Offsets& off = ws.off;
  const float* w = ws.w.data();
  ws.count = count;
  ws.T = T;
  ws.layers.resize(c.layers);
  grow(ws.x, N * D);
  float* x = ws.x.data(); // the residual stream (N, D)
  // pass 1: x = E[tokens] + P
  embedding_forward(w + off.token, w + off.position, tokens, N, T, D, x);
  for (std::size_t l = 0; l < c.layers; ++l) {
    const LayerOffsets& lo = off.layers[l];
    LayerBuffers& lb = ws.layers[l];
    // pass 2: a = LN₁(x) or x; passes 3–5: x += attention(a)
    layer_norm_forward(ln, x, w + lo.ln1_gain, w + lo.ln1_bias, N, D, lb.ln1);
    attention_forward(ks, model, l, ws, x);
    if (c.mlp) {
      // pass 6: m = LN₂(x) or x; x += MLP(m)
      layer_norm_forward(ln, x, w + lo.ln2_gain, w + lo.ln2_bias, N, D, lb.ln2);
      mlp_forward(ks, model, l, ws, x);
    }
  }
  // pass 7: f = LN_f(x), or x itself (read in place: nothing changes x after); logits = f U
  const float* f = x;
  if (ln) {
    layer_norm_forward(ln, x, w + off.final_gain, w + off.final_bias, N, D, ws.lnf);
    f = ws.lnf.y.data();
  }
  grow(ws.logits, N * V);
  unembedding_forward(ks, f, w + off.unembed, N, D, V, ws.logits.data());
}

namespace {

// The backward pass of forward_batch_f32 (passes 7 … 1 in reverse) from ws.dlogits (N, V): the
// float32 gradient in ws.grad (layout order) and ws.gqkv; dx (N, D) is the gradient at the
// residual stream. A block writes the gradient at its input a = LN(x) to da: with LayerNorm the
// scratch dy, which layer_norm_backward then carries into dx; without (a = x) dx itself, the
// block's last product adding into it.
void backward_batch_f32(const kernels::KernelSet& ks, const Model& model,
                        const std::int32_t* tokens, F32Workspace& ws) {
  const ModelConfig& c = model.config;
  const std::size_t T = ws.T, N = ws.count * T, D = c.d_model, V = c.vocab;
  const bool ln = c.layer_norm;
  const Offsets& off = ws.off;
  const float* w = ws.w.data();
  ws.grad.assign(ws.w.size(), 0.0f);
  float* g = ws.grad.data();
  ws.gqkv.resize(c.layers);
  grow(ws.dx, N * D);
  grow(ws.dy, N * D);
  float* dx = ws.dx.data();
  float* dy = ws.dy.data();
  float* da = ln ? dy : dx;

  // pass 7: logits = f U, f = LN_f(x) or x
  const float* f = ln ? ws.lnf.y.data() : ws.x.data();
  unembedding_backward(ks, f, ws.dlogits.data(), ws.wt.data() + off.unembed, N, D, V,
                       g + off.unembed, da);
  if (ln) {
    std::fill_n(dx, N * D, 0.0f);
    layer_norm_backward(dy, ws.lnf, w + off.final_gain, N, D, dx, g + off.final_gain,
                        g + off.final_bias);
  }
  for (std::size_t l = c.layers; l-- > 0;) {
    const LayerOffsets& lo = off.layers[l];
    const LayerBuffers& lb = ws.layers[l];
    if (c.mlp) {
      // pass 6: x_out = x_mid + MLP(m), m = LN₂(x_mid) or x_mid
      mlp_backward(ks, model, l, ws, dx, da, !ln, g);
      if (ln) {
        layer_norm_backward(dy, lb.ln2, w + lo.ln2_gain, N, D, dx, g + lo.ln2_gain,
                            g + lo.ln2_bias);
      }
    }
    // passes 5 … 3: x_mid = x_in + attention(a); pass 2: a = LN₁(x_in) or x_in
    attention_backward(ks, model, l, ws, dx, da, !ln, g);
    if (ln) {
      layer_norm_backward(dy, lb.ln1, w + lo.ln1_gain, N, D, dx, g + lo.ln1_gain, g + lo.ln1_bias);
    }
  }
  // pass 1: x = E[tokens] + P
  embedding_backward(dx, tokens, N, T, D, g + off.token, g + off.position);
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
      answers[b * A + a] =
          argmax_row(ws.logits.data() + (b * len + len - 1) * model.config.vocab, choices);
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
