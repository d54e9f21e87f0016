// The decoder-only transformer's float64 reference: layout, initialisation, forward and the
// hand-written backward pass (see attn/train/model.hpp for the equations).
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

// ---- plain matrix products on row-major float64 buffers ------------------------------------

// C (n, m) = A (n, k) · B (k, m)
void matmul(const double* A, const double* B, double* C, std::size_t n, std::size_t k,
            std::size_t m) {
  std::fill(C, C + n * m, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t p = 0; p < k; ++p) {
      const double a = A[i * k + p];
      const double* b = B + p * m;
      double* c = C + i * m;
      for (std::size_t j = 0; j < m; ++j) {
        c[j] += a * b[j];
      }
    }
  }
}

// C (k, m) += Aᵀ · B with A (n, k), B (n, m): the weight gradient of y = x W
void matmul_tn_acc(const double* A, const double* B, double* C, std::size_t n, std::size_t k,
                   std::size_t m) {
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t p = 0; p < k; ++p) {
      const double a = A[i * k + p];
      const double* b = B + i * m;
      double* c = C + p * m;
      for (std::size_t j = 0; j < m; ++j) {
        c[j] += a * b[j];
      }
    }
  }
}

// C (n, k) += A (n, m) · Bᵀ with B (k, m): the input gradient of y = x W
void matmul_nt_acc(const double* A, const double* B, double* C, std::size_t n, std::size_t k,
                   std::size_t m) {
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t p = 0; p < k; ++p) {
      const double* a = A + i * m;
      const double* b = B + p * m;
      double s = 0;
      for (std::size_t j = 0; j < m; ++j) {
        s += a[j] * b[j];
      }
      C[i * k + p] += s;
    }
  }
}

// ---- LayerNorm and GELU --------------------------------------------------------------------

// y = gain·x̂ + bias, x̂ = (x − mean)·rstd per row of x (T, D); keeps x̂ and rstd for backward.
void layer_norm(const double* x, const double* gain, const double* bias, double* y, double* xhat,
                double* rstd, std::size_t T, std::size_t D) {
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
    rstd[t] = 1.0 / std::sqrt(var + kLayerNormEps);
    for (std::size_t i = 0; i < D; ++i) {
      xhat[t * D + i] = (row[i] - mean) * rstd[t];
      y[t * D + i] = gain[i] * xhat[t * D + i] + bias[i];
    }
  }
}

// dx += rstd·(dx̂ − mean(dx̂) − x̂·mean(dx̂·x̂)) with dx̂ = dy·gain; dgain += Σ dy·x̂, dbias += Σ dy.
void layer_norm_backward(const double* dy, const double* xhat, const double* rstd,
                         const double* gain, double* dx, double* dgain, double* dbias,
                         std::size_t T, std::size_t D) {
  for (std::size_t t = 0; t < T; ++t) {
    double mean_d = 0, mean_dx = 0;
    for (std::size_t i = 0; i < D; ++i) {
      const double d = dy[t * D + i] * gain[i];
      mean_d += d;
      mean_dx += d * xhat[t * D + i];
      dgain[i] += dy[t * D + i] * xhat[t * D + i];
      dbias[i] += dy[t * D + i];
    }
    mean_d /= static_cast<double>(D);
    mean_dx /= static_cast<double>(D);
    for (std::size_t i = 0; i < D; ++i) {
      const double d = dy[t * D + i] * gain[i];
      dx[t * D + i] += rstd[t] * (d - mean_d - xhat[t * D + i] * mean_dx);
    }
  }
}

double gelu(double x) {
  return 0.5 * x * (1.0 + std::tanh(kGeluC * (x + kGeluA * x * x * x)));
}

double gelu_derivative(double x) {
  const double th = std::tanh(kGeluC * (x + kGeluA * x * x * x));
  return 0.5 * (1.0 + th) + 0.5 * x * (1.0 - th * th) * kGeluC * (1.0 + 3.0 * kGeluA * x * x);
}

// ---- the forward pass of one sequence, keeping what backward needs -----------------------------

struct LayerCache {
  std::vector<double> x_in;                    // (T, D) residual entering the layer
  std::vector<double> a, xhat1, rstd1;         // attention input (T, D) and its LN state
  std::vector<std::vector<double>> q, k, v, p; // per head: (T, d_h) ×3 and weights (T, T)
  std::vector<double> o;                       // (T, D) heads side by side
  std::vector<double> x_mid;                   // (T, D) after the attention residual
  std::vector<double> m, xhat2, rstd2;         // MLP input (T, D) and its LN state
  std::vector<double> h, g;                    // (T, M) pre-activation and GELU
};

struct Cache {
  std::size_t T = 0;
  std::vector<LayerCache> layers;
  std::vector<double> x_final, f, xhatf, rstdf; // (T, D)
  std::vector<double> logits;                   // (T, V)
};

void forward_sequence(const Model& model, const Offsets& off, const std::int32_t* tokens,
                      std::size_t T, Cache& cache) {
  const ModelConfig& c = model.config;
  const double* w = model.weights.data();
  const std::size_t D = c.d_model, H = c.heads, dh = D / H, M = mlp_width(c), V = c.vocab;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
  cache.T = T;
  cache.layers.resize(c.layers);

  // embeddings: x₀[t] = E[token_t] + P[t]
  std::vector<double> x(T * D);
  for (std::size_t t = 0; t < T; ++t) {
    const double* e = w + off.token + static_cast<std::size_t>(tokens[t]) * D;
    const double* pos = w + off.position + t * D;
    for (std::size_t i = 0; i < D; ++i) {
      x[t * D + i] = e[i] + pos[i];
    }
  }

  std::vector<double> proj(T * D);
  for (std::size_t l = 0; l < c.layers; ++l) {
    const LayerOffsets& lo = off.layers[l];
    LayerCache& lc = cache.layers[l];
    lc.x_in = x;
    if (c.layer_norm) {
      lc.a.resize(T * D);
      lc.xhat1.resize(T * D);
      lc.rstd1.resize(T);
      layer_norm(x.data(), w + lo.ln1_gain, w + lo.ln1_bias, lc.a.data(), lc.xhat1.data(),
                 lc.rstd1.data(), T, D);
    } else {
      lc.a = x;
    }
    lc.q.resize(H);
    lc.k.resize(H);
    lc.v.resize(H);
    lc.p.resize(H);
    lc.o.assign(T * D, 0.0);
    for (std::size_t h = 0; h < H; ++h) {
      auto& q = lc.q[h];
      auto& k = lc.k[h];
      auto& v = lc.v[h];
      auto& p = lc.p[h];
      q.resize(T * dh);
      k.resize(T * dh);
      v.resize(T * dh);
      p.assign(T * T, 0.0);
      matmul(lc.a.data(), w + lo.W_Q[h], q.data(), T, D, dh);
      matmul(lc.a.data(), w + lo.W_K[h], k.data(), T, D, dh);
      matmul(lc.a.data(), w + lo.W_V[h], v.data(), T, D, dh);
      for (std::size_t i = 0; i < T; ++i) {
        // pass 1: scores q_i·k_j / √d_h for the allowed keys j ≤ i (causal), and the row max
        double* row = p.data() + i * T;
        double mx = -std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j <= i; ++j) {
          double s = 0;
          for (std::size_t d = 0; d < dh; ++d) {
            s += q[i * dh + d] * k[j * dh + d];
          }
          row[j] = s * scale;
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
        if (!model.head_on(l, h)) {
          continue;
        }
        double* out = lc.o.data() + i * D + h * dh;
        for (std::size_t j = 0; j <= i; ++j) {
          for (std::size_t d = 0; d < dh; ++d) {
            out[d] += row[j] * v[j * dh + d];
          }
        }
      }
    }
    // attention residual: x = x + o W_O
    matmul(lc.o.data(), w + lo.W_O, proj.data(), T, D, D);
    for (std::size_t i = 0; i < T * D; ++i) {
      x[i] += proj[i];
    }
    lc.x_mid = x;
    if (c.mlp) {
      if (c.layer_norm) {
        lc.m.resize(T * D);
        lc.xhat2.resize(T * D);
        lc.rstd2.resize(T);
        layer_norm(x.data(), w + lo.ln2_gain, w + lo.ln2_bias, lc.m.data(), lc.xhat2.data(),
                   lc.rstd2.data(), T, D);
      } else {
        lc.m = x;
      }
      // x = x + GELU(m W_in + b_in) W_out + b_out
      lc.h.resize(T * M);
      lc.g.resize(T * M);
      matmul(lc.m.data(), w + lo.W_in, lc.h.data(), T, D, M);
      for (std::size_t t = 0; t < T; ++t) {
        for (std::size_t j = 0; j < M; ++j) {
          lc.h[t * M + j] += w[lo.b_in + j];
          lc.g[t * M + j] = gelu(lc.h[t * M + j]);
        }
      }
      matmul(lc.g.data(), w + lo.W_out, proj.data(), T, M, D);
      for (std::size_t t = 0; t < T; ++t) {
        for (std::size_t i = 0; i < D; ++i) {
          x[t * D + i] += proj[t * D + i] + w[lo.b_out + i];
        }
      }
    }
  }
  cache.x_final = x;
  if (c.layer_norm) {
    cache.f.resize(T * D);
    cache.xhatf.resize(T * D);
    cache.rstdf.resize(T);
    layer_norm(x.data(), w + off.final_gain, w + off.final_bias, cache.f.data(), cache.xhatf.data(),
               cache.rstdf.data(), T, D);
  } else {
    cache.f = x;
  }
  cache.logits.resize(T * V);
  matmul(cache.f.data(), w + off.unembed, cache.logits.data(), T, D, V);
}

// Cross-entropy at position t: log Σ exp(z) − z_target, and (when dlogits is given)
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

// ---- the backward pass of one sequence: accumulates into grad ---------------------------------

void backward_sequence(const Model& model, const Offsets& off, const std::int32_t* tokens,
                       const Cache& cache, const std::vector<double>& dlogits, double* grad) {
  const ModelConfig& c = model.config;
  const double* w = model.weights.data();
  const std::size_t T = cache.T, D = c.d_model, H = c.heads, dh = D / H, M = mlp_width(c),
                    V = c.vocab;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dh));

  // logits = f U
  matmul_tn_acc(cache.f.data(), dlogits.data(), grad + off.unembed, T, D, V);
  std::vector<double> df(T * D, 0.0);
  matmul_nt_acc(dlogits.data(), w + off.unembed, df.data(), T, D, V);
  std::vector<double> dx(T * D, 0.0);
  if (c.layer_norm) {
    layer_norm_backward(df.data(), cache.xhatf.data(), cache.rstdf.data(), w + off.final_gain,
                        dx.data(), grad + off.final_gain, grad + off.final_bias, T, D);
  } else {
    dx = df;
  }

  std::vector<double> dm(T * D), dg(T * M), da(T * D), dout(T * D);
  std::vector<double> dq(T * dh), dk(T * dh), dv(T * dh), dp(T * T);
  for (std::size_t l = c.layers; l-- > 0;) {
    const LayerOffsets& lo = off.layers[l];
    const LayerCache& lc = cache.layers[l];
    if (c.mlp) {
      // x_out = x_mid + GELU(h) W_out + b_out, h = m W_in + b_in
      matmul_tn_acc(lc.g.data(), dx.data(), grad + lo.W_out, T, M, D);
      for (std::size_t t = 0; t < T; ++t) {
        for (std::size_t i = 0; i < D; ++i) {
          grad[lo.b_out + i] += dx[t * D + i];
        }
      }
      std::fill(dg.begin(), dg.end(), 0.0);
      matmul_nt_acc(dx.data(), w + lo.W_out, dg.data(), T, M, D);
      for (std::size_t t = 0; t < T; ++t) {
        for (std::size_t j = 0; j < M; ++j) {
          dg[t * M + j] *= gelu_derivative(lc.h[t * M + j]); // now dh
          grad[lo.b_in + j] += dg[t * M + j];
        }
      }
      matmul_tn_acc(lc.m.data(), dg.data(), grad + lo.W_in, T, D, M);
      std::fill(dm.begin(), dm.end(), 0.0);
      matmul_nt_acc(dg.data(), w + lo.W_in, dm.data(), T, D, M);
      if (c.layer_norm) {
        layer_norm_backward(dm.data(), lc.xhat2.data(), lc.rstd2.data(), w + lo.ln2_gain, dx.data(),
                            grad + lo.ln2_gain, grad + lo.ln2_bias, T, D);
      } else {
        for (std::size_t i = 0; i < T * D; ++i) {
          dx[i] += dm[i];
        }
      }
    }
    // x_mid = x_in + o W_O
    matmul_tn_acc(lc.o.data(), dx.data(), grad + lo.W_O, T, D, D);
    std::fill(dout.begin(), dout.end(), 0.0);
    matmul_nt_acc(dx.data(), w + lo.W_O, dout.data(), T, D, D);
    std::fill(da.begin(), da.end(), 0.0);
    for (std::size_t h = 0; h < H; ++h) {
      if (!model.head_on(l, h)) {
        continue; // o_h is the constant 0: nothing flows back through this head
      }
      const auto& q = lc.q[h];
      const auto& k = lc.k[h];
      const auto& v = lc.v[h];
      const auto& p = lc.p[h];
      std::fill(dq.begin(), dq.end(), 0.0);
      std::fill(dk.begin(), dk.end(), 0.0);
      std::fill(dv.begin(), dv.end(), 0.0);
      for (std::size_t i = 0; i < T; ++i) {
        const double* dout_i = dout.data() + i * D + h * dh;
        // o_i = Σ_j p_ij v_j: dp_ij = do_i · v_j, dv_j += p_ij do_i
        double* dpi = dp.data() + i * T;
        double dot = 0; // Σ_j p_ij dp_ij
        for (std::size_t j = 0; j <= i; ++j) {
          double s = 0;
          for (std::size_t d = 0; d < dh; ++d) {
            s += dout_i[d] * v[j * dh + d];
            dv[j * dh + d] += p[i * T + j] * dout_i[d];
          }
          dpi[j] = s;
          dot += p[i * T + j] * s;
        }
        // softmax: ds_ij = p_ij (dp_ij − Σ_k p_ik dp_ik); s_ij = scale · q_i·k_j
        for (std::size_t j = 0; j <= i; ++j) {
          const double ds = p[i * T + j] * (dpi[j] - dot) * scale;
          for (std::size_t d = 0; d < dh; ++d) {
            dq[i * dh + d] += ds * k[j * dh + d];
            dk[j * dh + d] += ds * q[i * dh + d];
          }
        }
      }
      // q = a W_Q, k = a W_K, v = a W_V
      matmul_tn_acc(lc.a.data(), dq.data(), grad + lo.W_Q[h], T, D, dh);
      matmul_tn_acc(lc.a.data(), dk.data(), grad + lo.W_K[h], T, D, dh);
      matmul_tn_acc(lc.a.data(), dv.data(), grad + lo.W_V[h], T, D, dh);
      matmul_nt_acc(dq.data(), w + lo.W_Q[h], da.data(), T, D, dh);
      matmul_nt_acc(dk.data(), w + lo.W_K[h], da.data(), T, D, dh);
      matmul_nt_acc(dv.data(), w + lo.W_V[h], da.data(), T, D, dh);
    }
    if (c.layer_norm) {
      layer_norm_backward(da.data(), lc.xhat1.data(), lc.rstd1.data(), w + lo.ln1_gain, dx.data(),
                          grad + lo.ln1_gain, grad + lo.ln1_bias, T, D);
    } else {
      for (std::size_t i = 0; i < T * D; ++i) {
        dx[i] += da[i];
      }
    }
  }
  // x₀[t] = E[token_t] + P[t]
  for (std::size_t t = 0; t < T; ++t) {
    double* de = grad + off.token + static_cast<std::size_t>(tokens[t]) * D;
    double* dpos = grad + off.position + t * D;
    for (std::size_t i = 0; i < D; ++i) {
      de[i] += dx[t * D + i];
      dpos[i] += dx[t * D + i];
    }
  }
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
      for (const auto& p : lc.p) {
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
