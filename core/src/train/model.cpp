// The decoder-only transformer's float64 reference: layout, initialisation, forward and the
// hand-written backward pass (see attn/train/model.hpp for the equations), the oracle of the
// float32 path (model_f32.cpp). As in llm.c's train_gpt2.c, each block is a forward/backward
// pair on one sequence of T tokens, with its shapes and equation: embedding (model_internal.hpp),
// layer_norm, attention, mlp and unembedding (+ cross_entropy); forward_sequence calls the
// forward passes in order, backward_sequence the backward passes in reverse.
#include "attn/train/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attn/error.hpp"
#include "attn/random.hpp"
#include "model_internal.hpp"

namespace attn::train {
namespace detail {

std::size_t mlp_width(const ModelConfig& c) {
  return c.d_mlp == 0 ? 4 * c.d_model : c.d_mlp;
}

// ---- the contract: batch validation (shared with the float32 path) ----------------------------

void validate_head_mask(const Model& model, const std::string& fn) {
  const std::size_t n = model.config.layers * model.config.heads;
  if (!model.head_enabled.empty() && model.head_enabled.size() != n) {
    throw ShapeError(fn + ": head_enabled has " + std::to_string(model.head_enabled.size()) +
                     " flags; the model has layers x heads = " + std::to_string(n) + " heads");
  }
}

void validate_batch(const Model& model, const Batch& batch, const std::string& fn) {
  const ModelConfig& c = model.config;
  validate_head_mask(model, fn);
  if (batch.count == 0 || batch.length == 0) {
    throw ShapeError(fn + ": the batch is empty (" + std::to_string(batch.count) +
                     " sequences of " + std::to_string(batch.length) + " tokens)");
  }
  if (batch.length > c.seq_len) {
    throw ShapeError(fn + ": sequences of " + std::to_string(batch.length) +
                     " tokens are longer than the model's seq_len " + std::to_string(c.seq_len));
  }
  const std::size_t n = batch.count * batch.length;
  if (batch.tokens.size() != n || batch.targets.size() != n) {
    throw ShapeError(fn + ": tokens and targets must hold count x length = " + std::to_string(n) +
                     " values, got " + std::to_string(batch.tokens.size()) + " and " +
                     std::to_string(batch.targets.size()));
  }
  const Shape shape = {batch.count, batch.length};
  std::size_t scored = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t tok = batch.tokens[i];
    if (tok < 0 || static_cast<std::size_t>(tok) >= c.vocab) {
      throw ValueError(fn + ": tokens" + format_index(shape, i) + " is " + std::to_string(tok) +
                       "; tokens are 0.." + std::to_string(c.vocab - 1));
    }
    const std::int32_t target = batch.targets[i];
    if (target != kNoTarget && (target < 0 || static_cast<std::size_t>(target) >= c.vocab)) {
      throw ValueError(fn + ": targets" + format_index(shape, i) + " is " + std::to_string(target) +
                       "; targets are 0.." + std::to_string(c.vocab - 1) + " or -1 (not scored)");
    }
    scored += target != kNoTarget;
  }
  if (scored == 0) {
    throw ShapeError(fn + ": no position of the batch has a target; nothing to score");
  }
}

void validate_sequence(const Model& model, const std::vector<std::int32_t>& tokens,
                       const std::string& fn) {
  const ModelConfig& c = model.config;
  const std::size_t T = tokens.size();
  if (T == 0 || T > c.seq_len) {
    throw ShapeError(fn + ": a sequence of " + std::to_string(T) + " tokens; the model reads 1.." +
                     std::to_string(c.seq_len));
  }
  for (std::size_t t = 0; t < T; ++t) {
    if (tokens[t] < 0 || static_cast<std::size_t>(tokens[t]) >= c.vocab) {
      throw ValueError(fn + ": tokens[" + std::to_string(t) + "] is " + std::to_string(tokens[t]) +
                       "; tokens are 0.." + std::to_string(c.vocab - 1));
    }
  }
  validate_head_mask(model, fn);
}

// Walks parameter_layout in its order (the two must agree; the tests check names and sizes).
Offsets offsets_of(const Model& model) {
  const ModelConfig& c = model.config;
  const auto& p = model.layout;
  std::size_t i = 0;
  Offsets o;
  o.token = p[i++].offset;
  o.position = p[i++].offset;
  o.layers.resize(c.layers);
  for (auto& l : o.layers) {
    if (c.layer_norm) {
      l.ln1_gain = p[i++].offset;
      l.ln1_bias = p[i++].offset;
    }
    for (std::size_t h = 0; h < c.heads; ++h) {
      l.W_Q.push_back(p[i++].offset);
      l.W_K.push_back(p[i++].offset);
      l.W_V.push_back(p[i++].offset);
    }
    l.W_O = p[i++].offset;
    if (c.mlp) {
      if (c.layer_norm) {
        l.ln2_gain = p[i++].offset;
        l.ln2_bias = p[i++].offset;
      }
      l.W_in = p[i++].offset;
      l.b_in = p[i++].offset;
      l.W_out = p[i++].offset;
      l.b_out = p[i++].offset;
    }
  }
  if (c.layer_norm) {
    o.final_gain = p[i++].offset;
    o.final_bias = p[i++].offset;
  }
  o.unembed = p[i++].offset;
  return o;
}

} // namespace detail

namespace {

using namespace detail;

constexpr double kGeluC = 0.7978845608028654; // √(2/π)
constexpr double kGeluA = 0.044715;
constexpr std::size_t kMaxExtent = std::size_t(1) << 20; // any one size; keeps products in range

// ---- the contract: config validation -------------------------------------------------------

void require_size(std::size_t value, const char* field, const std::string& fn) {
  if (value == 0) {
    throw ShapeError(fn + ": " + field + " is 0; it must be >= 1");
  }
  if (value > kMaxExtent) {
    throw MemoryError(fn + ": " + field + " is " + std::to_string(value) + "; at most " +
                      std::to_string(kMaxExtent) + " is supported");
  }
}

std::uint64_t count_parameters(const ModelConfig& c) {
  const std::uint64_t D = c.d_model, V = c.vocab, T = c.seq_len, M = mlp_width(c);
  std::uint64_t per_layer = 4 * D * D; // W_Q, W_K, W_V over all heads, and W_O
  if (c.layer_norm) {
    per_layer += 2 * D;
  }
  if (c.mlp) {
    per_layer += D * M + M + M * D + D + (c.layer_norm ? 2 * D : 0);
  }
  return V * D + T * D + c.layers * per_layer + (c.layer_norm ? 2 * D : 0) + D * V;
}

// ---- the products every block is made of, on row-major float64 buffers ------------------------

// y[0..m) += a · x[0..m)
void axpy(double a, const double* x, double* y, std::size_t m) {
  for (std::size_t j = 0; j < m; ++j) {
    y[j] += a * x[j];
  }
}

// Σ_j a[j] · b[j] over j = 0 … m − 1, in order
double dot(const double* a, const double* b, std::size_t m) {
  double s = 0;
  for (std::size_t j = 0; j < m; ++j) {
    s += a[j] * b[j];
  }
  return s;
}

// y += x elementwise over n values: a residual connection, or its gradient
void add_to(double* y, const double* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    y[i] += x[i];
  }
}

// A linear layer, y = x W: y (n, m) from x (n, k) and W (k, m), row i as y[i] = Σ_p x[i, p]·W[p].
void linear_forward(const double* x, const double* W, double* y, std::size_t n, std::size_t k,
                    std::size_t m) {
  std::fill(y, y + n * m, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t p = 0; p < k; ++p) {
      axpy(x[i * k + p], W + p * m, y + i * m, m);
    }
  }
}

// Its backward pass from dy (n, m), accumulating:
//   dW (k, m) += xᵀ dy    dW[p] += x[i, p]·dy[i] for i = 0, 1, …
//   dx (n, k) += dy Wᵀ    dx[i, p] += dy[i] · W[p]
void linear_backward(const double* x, const double* W, const double* dy, std::size_t n,
                     std::size_t k, std::size_t m, double* dW, double* dx) {
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t p = 0; p < k; ++p) {
      axpy(x[i * k + p], dy + i * m, dW + p * m, m);
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t p = 0; p < k; ++p) {
      dx[i * k + p] += dot(dy + i * m, W + p * m, m);
    }
  }
}

// ---- LayerNorm ------------------------------------------------------------------------------

// What a pre-LayerNorm keeps: y (T, D), the input of the block after it, and with LayerNorm
// x̂ (T, D) and rstd = 1/σ (T) for the backward pass.
struct NormCache {
  std::vector<double> y, xhat, rstd;
};

// y = gain·x̂ + bias, x̂ = (x − mean)·rstd, rstd = 1/√(var + ε) per row of x (T, D), population
// variance; without LayerNorm (`on` false) y = x.
void layer_norm_forward(bool on, const double* x, const double* gain, const double* bias,
                        std::size_t T, std::size_t D, NormCache& n) {
  if (!on) {
    n.y.assign(x, x + T * D);
    return;
  }
  n.y.resize(T * D);
  n.xhat.resize(T * D);
  n.rstd.resize(T);
  for (std::size_t t = 0; t < T; ++t) {
    const double* row = x + t * D;
    double mean = 0;
    for (std::size_t i = 0; i < D; ++i) {
      mean += row[i];
    }
    mean /= static_cast<double>(D);
    double var = 0;
    for (std::size_t i = 0; i < D; ++i) {
      var += (row[i] - mean) * (row[i] - mean);
    }
    var /= static_cast<double>(D);
    n.rstd[t] = 1.0 / std::sqrt(var + kLayerNormEps);
    for (std::size_t i = 0; i < D; ++i) {
      n.xhat[t * D + i] = (row[i] - mean) * n.rstd[t];
      n.y[t * D + i] = gain[i] * n.xhat[t * D + i] + bias[i];
    }
  }
}

// Its backward pass from dy (T, D), accumulating: dx += rstd·(dx̂ − mean(dx̂) − x̂·mean(dx̂·x̂))
// with dx̂ = dy·gain, dgain += Σ dy·x̂, dbias += Σ dy; without LayerNorm dx += dy.
void layer_norm_backward(bool on, const double* dy, const NormCache& n, const double* gain,
                         std::size_t T, std::size_t D, double* dx, double* dgain, double* dbias) {
  if (!on) {
    add_to(dx, dy, T * D);
    return;
  }
  for (std::size_t t = 0; t < T; ++t) {
    double mean_d = 0, mean_dx = 0;
    for (std::size_t i = 0; i < D; ++i) {
      const double d = dy[t * D + i] * gain[i];
      mean_d += d;
      mean_dx += d * n.xhat[t * D + i];
      dgain[i] += dy[t * D + i] * n.xhat[t * D + i];
      dbias[i] += dy[t * D + i];
    }
    mean_d /= static_cast<double>(D);
    mean_dx /= static_cast<double>(D);
    for (std::size_t i = 0; i < D; ++i) {
      const double d = dy[t * D + i] * gain[i];
      dx[t * D + i] += n.rstd[t] * (d - mean_d - n.xhat[t * D + i] * mean_dx);
    }
  }
}

// ---- causal multi-head self-attention -------------------------------------------------------

struct AttentionCache {
  std::vector<std::vector<double>> q, k, v, p; // per head: q, k, v (T, d_h), weights p (T, T)
  std::vector<double> o;                       // (T, D) the heads' outputs side by side
};

// The attention block with its residual, on a (T, D) = LN₁(x) or x:
//   q_h, k_h, v_h = a W_Q[h], a W_K[h], a W_V[h]                             (T, d_h) each
//   p_h[i, j] = softmax_j(q_h[i]·k_h[j] / √d_h) over the keys j ≤ i (causal)  (T, T)
//   o = [p_1 v_1 | … | p_H v_H], an ablated head's columns 0                  (T, D)
//   x += o W_O                                                               (T, D)·(D, D)
void attention_forward(const Model& model, std::size_t l, const LayerOffsets& lo, const double* a,
                       std::size_t T, AttentionCache& ac, double* x) {
  const ModelConfig& c = model.config;
  const double* w = model.weights.data();
  const std::size_t D = c.d_model, H = c.heads, dh = D / H;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
  ac.q.resize(H);
  ac.k.resize(H);
  ac.v.resize(H);
  ac.p.resize(H);
  ac.o.assign(T * D, 0.0);
  for (std::size_t h = 0; h < H; ++h) {
    auto& q = ac.q[h];
    auto& k = ac.k[h];
    auto& v = ac.v[h];
    auto& p = ac.p[h];
    q.resize(T * dh);
    k.resize(T * dh);
    v.resize(T * dh);
    p.assign(T * T, 0.0);
    linear_forward(a, w + lo.W_Q[h], q.data(), T, D, dh);
    linear_forward(a, w + lo.W_K[h], k.data(), T, D, dh);
    linear_forward(a, w + lo.W_V[h], v.data(), T, D, dh);
    for (std::size_t i = 0; i < T; ++i) {
      // pass 1: scores q_i·k_j / √d_h for the allowed keys j ≤ i (causal), and the row max
      double* row = p.data() + i * T;
      double mx = -std::numeric_limits<double>::infinity();
      for (std::size_t j = 0; j <= i; ++j) {
        row[j] = dot(q.data() + i * dh, k.data() + j * dh, dh) * scale;
        mx = std::max(mx, row[j]);
      }
      // pass 2: exp and sum; pass 3: normalise (masked keys j > i keep weight 0)
      double sum = 0;
      for (std::size_t j = 0; j <= i; ++j) {
        row[j] = std::exp(row[j] - mx);
        sum += row[j];
      }
      for (std::size_t j = 0; j <= i; ++j) {
        row[j] /= sum;
      }
      // pass 4: o_h[i] = Σ_j p_ij v_j into the head's columns of o (left 0 when ablated)
      if (model.head_on(l, h)) {
        for (std::size_t j = 0; j <= i; ++j) {
          axpy(row[j], v.data() + j * dh, ac.o.data() + i * D + h * dh, dh);
        }
      }
    }
  }
  // pass 5: the residual, x += o W_O
  std::vector<double> proj(T * D);
  linear_forward(ac.o.data(), w + lo.W_O, proj.data(), T, D, D);
  add_to(x, proj.data(), T * D);
}

// Its backward pass from dx (T, D), the gradient at the block's output (the residual carries dx
// on to the input unchanged: the caller keeps it). Accumulates the weight gradients into grad and
// writes da (T, D), the gradient at a:
//   dW_O += oᵀ dx, do = dx W_Oᵀ                                          (T, D)
//   dp_ij = do_h[i]·v_j, dv_j += p_ij do_h[i]                            (T, T), (T, d_h)
//   ds_ij = p_ij (dp_ij − Σ_k p_ik dp_ik) / √d_h                          (T, T)
//   dq_i += Σ_j ds_ij k_j, dk_j += Σ_i ds_ij q_i                          (T, d_h)
//   dW_Q[h] += aᵀ dq_h, …; da = Σ_h dq_h W_Q[h]ᵀ + dk_h W_K[h]ᵀ + dv_h W_V[h]ᵀ (ablated heads: 0)
void attention_backward(const Model& model, std::size_t l, const LayerOffsets& lo, const double* a,
                        const AttentionCache& ac, std::size_t T, const double* dx, double* da,
                        double* grad) {
  const ModelConfig& c = model.config;
  const double* w = model.weights.data();
  const std::size_t D = c.d_model, H = c.heads, dh = D / H;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
  std::vector<double> dout(T * D, 0.0), dq(T * dh), dk(T * dh), dv(T * dh), dp(T * T);
  linear_backward(ac.o.data(), w + lo.W_O, dx, T, D, D, grad + lo.W_O, dout.data());
  std::fill(da, da + T * D, 0.0);
  for (std::size_t h = 0; h < H; ++h) {
    if (!model.head_on(l, h)) {
      continue; // o_h is the constant 0: nothing flows back through this head
    }
    const double* q = ac.q[h].data();
    const double* k = ac.k[h].data();
    const double* v = ac.v[h].data();
    const double* p = ac.p[h].data();
    std::fill(dq.begin(), dq.end(), 0.0);
    std::fill(dk.begin(), dk.end(), 0.0);
    std::fill(dv.begin(), dv.end(), 0.0);
    for (std::size_t i = 0; i < T; ++i) {
      const double* do_i = dout.data() + i * D + h * dh;
      // pass 4: o_i = Σ_j p_ij v_j
      double* dpi = dp.data() + i * T;
      double sum = 0; // Σ_j p_ij dp_ij
      for (std::size_t j = 0; j <= i; ++j) {
        dpi[j] = dot(do_i, v + j * dh, dh);
        axpy(p[i * T + j], do_i, dv.data() + j * dh, dh);
        sum += p[i * T + j] * dpi[j];
      }
      // passes 3 … 1: the softmax and the scores s_ij = scale · q_i·k_j
      for (std::size_t j = 0; j <= i; ++j) {
        const double ds = p[i * T + j] * (dpi[j] - sum) * scale;
        axpy(ds, k + j * dh, dq.data() + i * dh, dh);
        axpy(ds, q + i * dh, dk.data() + j * dh, dh);
      }
    }
    // the projections q = a W_Q, k = a W_K, v = a W_V
    linear_backward(a, w + lo.W_Q[h], dq.data(), T, D, dh, grad + lo.W_Q[h], da);
    linear_backward(a, w + lo.W_K[h], dk.data(), T, D, dh, grad + lo.W_K[h], da);
    linear_backward(a, w + lo.W_V[h], dv.data(), T, D, dh, grad + lo.W_V[h], da);
  }
}

// ---- the MLP ----------------------------------------------------------------------------------

double gelu(double x) {
  return 0.5 * x * (1.0 + std::tanh(kGeluC * (x + kGeluA * x * x * x)));
}

double gelu_derivative(double x) {
  const double th = std::tanh(kGeluC * (x + kGeluA * x * x * x));
  return 0.5 * (1.0 + th) + 0.5 * x * (1.0 - th * th) * kGeluC * (1.0 + 3.0 * kGeluA * x * x);
}

struct MlpCache {
  std::vector<double> h, g; // (T, M) pre-activation and GELU
};

// The MLP block with its residual, on m (T, D) = LN₂(x) or x:
//   h = m W_in + b_in       (T, D)·(D, M)
//   g = GELU(h)             (T, M)
//   x += g W_out + b_out    (T, M)·(M, D)
void mlp_forward(const double* w, const LayerOffsets& lo, const double* m, std::size_t T,
                 std::size_t D, std::size_t M, MlpCache& mc, double* x) {
  mc.h.resize(T * M);
  mc.g.resize(T * M);
  linear_forward(m, w + lo.W_in, mc.h.data(), T, D, M);
  bias_forward(mc.h.data(), w + lo.b_in, T, M);
  std::transform(mc.h.begin(), mc.h.end(), mc.g.begin(), gelu);
  std::vector<double> proj(T * D);
  linear_forward(mc.g.data(), w + lo.W_out, proj.data(), T, M, D);
  bias_forward(proj.data(), w + lo.b_out, T, D);
  add_to(x, proj.data(), T * D);
}

// Its backward pass from dx (T, D), the gradient at the block's output. Accumulates the weight
// gradients into grad and writes dm (T, D), the gradient at m:
//   dW_out += gᵀ dx, db_out += Σ_t dx[t], dg = dx W_outᵀ        (T, M)
//   dh = dg · GELU'(h), db_in += Σ_t dh[t]                      (T, M)
//   dW_in += mᵀ dh, dm = dh W_inᵀ                               (T, D)
void mlp_backward(const double* w, const LayerOffsets& lo, const double* m, const MlpCache& mc,
                  std::size_t T, std::size_t D, std::size_t M, const double* dx, double* dm,
                  double* grad) {
  std::vector<double> dh(T * M, 0.0);
  linear_backward(mc.g.data(), w + lo.W_out, dx, T, M, D, grad + lo.W_out, dh.data());
  bias_backward(dx, T, D, grad + lo.b_out);
  for (std::size_t i = 0; i < T * M; ++i) {
    dh[i] *= gelu_derivative(mc.h[i]);
  }
  bias_backward(dh.data(), T, M, grad + lo.b_in);
  std::fill(dm, dm + T * D, 0.0);
  linear_backward(m, w + lo.W_in, dh.data(), T, D, M, grad + lo.W_in, dm);
}

// ---- the unembedding and the loss -------------------------------------------------------------

// logits = f U: logits (T, V) from f (T, D) = LN_f(x) or x and U (D, V).
void unembedding_forward(const double* f, const double* U, std::size_t T, std::size_t D,
                         std::size_t V, double* logits) {
  linear_forward(f, U, logits, T, D, V);
}

// Its backward pass from dlogits (T, V): dU += fᵀ dlogits; writes df = dlogits Uᵀ (T, D).
void unembedding_backward(const double* f, const double* U, const double* dlogits, std::size_t T,
                          std::size_t D, std::size_t V, double* dU, double* df) {
  std::fill(df, df + T * D, 0.0);
  linear_backward(f, U, dlogits, T, D, V, dU, df);
}

// Cross-entropy at position t: log Σ exp(z) − z_target, and (when dlogits is given) its gradient
// dlogits = (softmax(z) − onehot(target)) · weight.
double cross_entropy(const double* z, std::size_t V, std::int32_t target, double weight,
                     double* dlogits) {
  double mx = -std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < V; ++j) {
    mx = std::max(mx, z[j]);
  }
  double sum = 0;
  for (std::size_t j = 0; j < V; ++j) {
    sum += std::exp(z[j] - mx);
  }
  const double log_sum = mx + std::log(sum);
  if (dlogits) {
    for (std::size_t j = 0; j < V; ++j) {
      dlogits[j] = std::exp(z[j] - log_sum) * weight;
    }
    dlogits[target] -= weight;
  }
  return log_sum - z[target];
}

// ---- the whole model on one sequence: the blocks in order, then in reverse -------------------

struct LayerCache {
  NormCache ln1; // a = LN₁(x) or x, the attention input (T, D)
  AttentionCache attention;
  NormCache ln2; // m = LN₂(x) or x, the MLP input (T, D)
  MlpCache mlp;
};

struct Cache {
  std::size_t T = 0;
  std::vector<LayerCache> layers;
  NormCache lnf;              // f = LN_f(x) or x (T, D)
  std::vector<double> logits; // (T, V)
};

// The forward pass of one sequence of T tokens, keeping what backward needs:
//   x = E[tokens] + P                                           (T, D)
//   per layer: x += attention(LN₁(x)), then x += MLP(LN₂(x))    (T, D)
//   logits = LN_f(x) U                                          (T, V)
void forward_sequence(const Model& model, const Offsets& off, const std::int32_t* tokens,
                      std::size_t T, Cache& cache) {
  const ModelConfig& c = model.config;
  const double* w = model.weights.data();
  const std::size_t D = c.d_model, M = mlp_width(c), V = c.vocab;
  const bool ln = c.layer_norm;
  cache.T = T;
  cache.layers.resize(c.layers);
  std::vector<double> x(T * D); // the residual stream
  embedding_forward(w + off.token, w + off.position, tokens, T, T, D, x.data());
  for (std::size_t l = 0; l < c.layers; ++l) {
    const LayerOffsets& lo = off.layers[l];
    LayerCache& lc = cache.layers[l];
    layer_norm_forward(ln, x.data(), w + lo.ln1_gain, w + lo.ln1_bias, T, D, lc.ln1);
    attention_forward(model, l, lo, lc.ln1.y.data(), T, lc.attention, x.data());
    if (c.mlp) {
      layer_norm_forward(ln, x.data(), w + lo.ln2_gain, w + lo.ln2_bias, T, D, lc.ln2);
      mlp_forward(w, lo, lc.ln2.y.data(), T, D, M, lc.mlp, x.data());
    }
  }
  layer_norm_forward(ln, x.data(), w + off.final_gain, w + off.final_bias, T, D, cache.lnf);
  cache.logits.resize(T * V);
  unembedding_forward(cache.lnf.y.data(), w + off.unembed, T, D, V, cache.logits.data());
}

// The backward pass of one sequence from dlogits (T, V): the blocks' backward passes in reverse,
// dx (T, D) the gradient at the residual stream, accumulating into grad (layout order).
void backward_sequence(const Model& model, const Offsets& off, const std::int32_t* tokens,
                       const Cache& cache, const std::vector<double>& dlogits, double* grad) {
  const ModelConfig& c = model.config;
  const double* w = model.weights.data();
  const std::size_t T = cache.T, D = c.d_model, M = mlp_width(c), V = c.vocab;
  const bool ln = c.layer_norm;
  std::vector<double> dx(T * D, 0.0), dblock(T * D); // dblock: the gradient at a block's input
  unembedding_backward(cache.lnf.y.data(), w + off.unembed, dlogits.data(), T, D, V,
                       grad + off.unembed, dblock.data());
  layer_norm_backward(ln, dblock.data(), cache.lnf, w + off.final_gain, T, D, dx.data(),
                      grad + off.final_gain, grad + off.final_bias);
  for (std::size_t l = c.layers; l-- > 0;) {
    const LayerOffsets& lo = off.layers[l];
    const LayerCache& lc = cache.layers[l];
    if (c.mlp) {
      mlp_backward(w, lo, lc.ln2.y.data(), lc.mlp, T, D, M, dx.data(), dblock.data(), grad);
      layer_norm_backward(ln, dblock.data(), lc.ln2, w + lo.ln2_gain, T, D, dx.data(),
                          grad + lo.ln2_gain, grad + lo.ln2_bias);
    }
    attention_backward(model, l, lo, lc.ln1.y.data(), lc.attention, T, dx.data(), dblock.data(),
                       grad);
    layer_norm_backward(ln, dblock.data(), lc.ln1, w + lo.ln1_gain, T, D, dx.data(),
                        grad + lo.ln1_gain, grad + lo.ln1_bias);
  }
  embedding_backward(dx.data(), tokens, T, T, D, grad + off.token, grad + off.position);
}

double run_batch(const Model& model, const Batch& batch, std::vector<double>* gradient,
                 const std::string& fn) {
  validate_batch(model, batch, fn);
  const Offsets off = offsets_of(model);
  const std::size_t T = batch.length, V = model.config.vocab;
  std::size_t scored = 0;
  for (std::int32_t target : batch.targets) {
    scored += target != kNoTarget;
  }
  const double weight = 1.0 / static_cast<double>(scored);
  if (gradient) {
    gradient->assign(model.weights.size(), 0.0);
  }
  Cache cache;
  std::vector<double> dlogits(T * V);
  double loss = 0;
  for (std::size_t b = 0; b < batch.count; ++b) {
    const std::int32_t* tokens = batch.tokens.data() + b * T;
    const std::int32_t* targets = batch.targets.data() + b * T;
    forward_sequence(model, off, tokens, T, cache);
    std::fill(dlogits.begin(), dlogits.end(), 0.0);
    for (std::size_t t = 0; t < T; ++t) {
      if (targets[t] != kNoTarget) {
        loss += weight * cross_entropy(cache.logits.data() + t * V, V, targets[t], weight,
                                       gradient ? dlogits.data() + t * V : nullptr);
      }
    }
    if (gradient) {
      backward_sequence(model, off, tokens, cache, dlogits, gradient->data());
    }
  }
  return loss;
}

} // namespace

void validate_config(const ModelConfig& config, const std::string& fn) {
  require_size(config.vocab, "vocab", fn);
  require_size(config.seq_len, "seq_len", fn);
  require_size(config.layers, "layers", fn);
  require_size(config.heads, "heads", fn);
  require_size(config.d_model, "d_model", fn);
  if (config.mlp && config.d_mlp != 0) {
    require_size(config.d_mlp, "d_mlp", fn);
  }
  if (config.d_model % config.heads != 0) {
    throw ShapeError(fn + ": heads (" + std::to_string(config.heads) + ") must divide d_model (" +
                     std::to_string(config.d_model) + ")");
  }
  const std::uint64_t n = count_parameters(config);
  if (n > kMaxParameters) {
    throw MemoryError(fn + ": the model has " + std::to_string(n) + " weights, which need " +
                      std::to_string((n * 32) >> 20) +
                      " MiB to train (weights, gradient and two AdamW moments in float64); the "
                      "limit is " +
                      std::to_string(kMaxParameters) + " weights (512 MiB)");
  }
}

std::vector<ParameterInfo> parameter_layout(const ModelConfig& config) {
  validate_config(config, "parameter_layout");
  const std::size_t D = config.d_model, dh = D / config.heads, M = mlp_width(config);
  std::vector<ParameterInfo> out;
  std::size_t offset = 0;
  auto add = [&](std::string name, Shape shape, bool decay) {
    std::size_t size = 1;
    for (std::size_t e : shape) {
      size *= e;
    }
    out.push_back({std::move(name), std::move(shape), offset, size, decay});
    offset += size;
  };
  add("embed.token", {config.vocab, D}, true);
  add("embed.position", {config.seq_len, D}, true);
  for (std::size_t l = 0; l < config.layers; ++l) {
    const std::string layer = "layer" + std::to_string(l) + ".";
    if (config.layer_norm) {
      add(layer + "ln1.gain", {D}, false);
      add(layer + "ln1.bias", {D}, false);
    }
    for (std::size_t h = 0; h < config.heads; ++h) {
      const std::string head = layer + "head" + std::to_string(h) + ".";
      add(head + "W_Q", {D, dh}, true);
      add(head + "W_K", {D, dh}, true);
      add(head + "W_V", {D, dh}, true);
    }
    add(layer + "W_O", {D, D}, true);
    if (config.mlp) {
      if (config.layer_norm) {
        add(layer + "ln2.gain", {D}, false);
        add(layer + "ln2.bias", {D}, false);
      }
      add(layer + "mlp.W_in", {D, M}, true);
      add(layer + "mlp.b_in", {M}, false);
      add(layer + "mlp.W_out", {M, D}, true);
      add(layer + "mlp.b_out", {D}, false);
    }
  }
  if (config.layer_norm) {
    add("final_ln.gain", {D}, false);
    add("final_ln.bias", {D}, false);
  }
  add("unembed", {D, config.vocab}, true);
  return out;
}

const ParameterInfo& Model::parameter(const std::string& name) const {
  for (const ParameterInfo& p : layout) {
    if (p.name == name) {
      return p;
    }
  }
  throw ValueError("parameter: the model has no tensor called '" + name + "'");
}

Tensor64 Model::tensor(const std::string& name) const {
  const ParameterInfo& p = parameter(name);
  Tensor64 out = Tensor64::from_shape(p.shape);
  std::copy(weights.begin() + static_cast<std::ptrdiff_t>(p.offset),
            weights.begin() + static_cast<std::ptrdiff_t>(p.offset + p.size), out.data());
  return out;
}

Model init_model(const ModelConfig& config, std::uint64_t seed) {
  Model model;
  model.config = config;
  model.layout = parameter_layout(config);
  const ParameterInfo& last = model.layout.back();
  model.weights.assign(last.offset + last.size, 0.0);
  Rng rng(seed, 0);
  for (const ParameterInfo& p : model.layout) {
    double* w = model.weights.data() + p.offset;
    const bool is_gain = p.name.size() >= 5 && p.name.compare(p.name.size() - 5, 5, ".gain") == 0;
    if (p.shape.size() == 1) {
      std::fill(w, w + p.size, is_gain ? 1.0 : 0.0); // LN gains 1, biases 0
      continue;
    }
    // N(0, 1/fan_in): fan_in is D for every matrix but W_out, whose input is the MLP width
    const bool is_w_out = p.name.size() >= 5 && p.name.compare(p.name.size() - 5, 5, "W_out") == 0;
    const double fan_in = static_cast<double>(is_w_out ? p.shape[0] : config.d_model);
    const double sd = 1.0 / std::sqrt(fan_in);
    for (std::size_t i = 0; i < p.size; ++i) {
      w[i] = sd * rng.normal();
    }
  }
  return model;
}

Tensor64 forward_reference(const Model& model, const std::vector<std::int32_t>& tokens,
                           Tensor64* attention) {
  const ModelConfig& c = model.config;
  const std::size_t T = tokens.size();
  validate_sequence(model, tokens, "forward");
  Cache cache;
  forward_sequence(model, offsets_of(model), tokens.data(), T, cache);
  Tensor64 logits = Tensor64::from_shape({T, c.vocab});
  std::copy(cache.logits.begin(), cache.logits.end(), logits.data());
  if (attention) {
    *attention = Tensor64::from_shape({c.layers, c.heads, T, T});
    double* out = attention->data();
    for (const LayerCache& lc : cache.layers) {
      for (const auto& p : lc.attention.p) {
        out = std::copy(p.begin(), p.end(), out);
      }
    }
  }
  return logits;
}

double loss_reference(const Model& model, const Batch& batch) {
  return run_batch(model, batch, nullptr, "loss");
}

double loss_and_gradient_reference(const Model& model, const Batch& batch,
                                   std::vector<double>& gradient) {
  return run_batch(model, batch, &gradient, "loss_and_gradient");
}

} // namespace attn::train
