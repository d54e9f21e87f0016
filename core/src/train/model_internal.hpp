// Internal to the training core (not public API): what the float64 reference (model.cpp) and the
// float32 path (model_f32.cpp) share, so both validate the same way, read the weights from the
// same places, and compute the blocks that are plain sums alike: the embedding's forward/backward
// pair and the bias forward/backward pair, templates on the float type (double or float), the
// same operations in the same order in either precision.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/train/model.hpp"

namespace attn::train::detail {

constexpr double kLayerNormEps = 1e-5;

/// M: d_mlp, or 4·D when it is 0.
std::size_t mlp_width(const ModelConfig& c);

/// ShapeError when head_enabled is neither empty nor layers·heads flags.
void validate_head_mask(const Model& model, const std::string& fn);

/// The batch contract of loss_and_gradient_reference (sizes, token and target ranges, at least
/// one scored position), with `fn` starting every message.
void validate_batch(const Model& model, const Batch& batch, const std::string& fn);

/// The contract of forward_reference for one sequence (1..seq_len tokens in range, head mask).
void validate_sequence(const Model& model, const std::vector<std::int32_t>& tokens,
                       const std::string& fn);

// ---- where each tensor lives in the flat vector ----------------------------------------------

struct LayerOffsets {
  std::size_t ln1_gain = 0, ln1_bias = 0, W_O = 0, ln2_gain = 0, ln2_bias = 0;
  std::size_t W_in = 0, b_in = 0, W_out = 0, b_out = 0;
  std::vector<std::size_t> W_Q, W_K, W_V; // per head
};

struct Offsets {
  std::size_t token = 0, position = 0, final_gain = 0, final_bias = 0, unembed = 0;
  std::vector<LayerOffsets> layers;
};

/// Walks parameter_layout in its order.
Offsets offsets_of(const Model& model);

// ---- blocks alike in both precisions: N = count·T rows, row r = b·T + t of sequence b ----------

/// The embedding, x₀ = E[token] + P[t]: x (N, D) from the token embedding E (vocab, D) and the
/// position embedding P (seq_len, D):  x[r] = E[tokens[r]] + P[r mod T].
template <class F>
void embedding_forward(const F* E, const F* P, const std::int32_t* tokens, std::size_t N,
                       std::size_t T, std::size_t D, F* x) {
  for (std::size_t r = 0; r < N; ++r) {
    const F* e = E + static_cast<std::size_t>(tokens[r]) * D;
    const F* pos = P + (r % T) * D;
    for (std::size_t i = 0; i < D; ++i) {
      x[r * D + i] = e[i] + pos[i];
    }
  }
}

/// Its backward pass from dx (N, D): dE[tokens[r]] += dx[r], dP[r mod T] += dx[r], rows in order.
template <class F>
void embedding_backward(const F* dx, const std::int32_t* tokens, std::size_t N, std::size_t T,
                        std::size_t D, F* dE, F* dP) {
  for (std::size_t r = 0; r < N; ++r) {
    F* de = dE + static_cast<std::size_t>(tokens[r]) * D;
    F* dpos = dP + (r % T) * D;
    for (std::size_t i = 0; i < D; ++i) {
      de[i] += dx[r * D + i];
      dpos[i] += dx[r * D + i];
    }
  }
}

/// A bias, y += b on every row: y (N, W), b (W).
template <class F> void bias_forward(F* y, const F* b, std::size_t N, std::size_t W) {
  for (std::size_t r = 0; r < N; ++r) {
    for (std::size_t j = 0; j < W; ++j) {
      y[r * W + j] += b[j];
    }
  }
}

/// Its backward pass, db (W) += Σ_r dy[r] over the N rows of dy (N, W) in order.
template <class F> void bias_backward(const F* dy, std::size_t N, std::size_t W, F* db) {
  for (std::size_t r = 0; r < N; ++r) {
    for (std::size_t j = 0; j < W; ++j) {
      db[j] += dy[r * W + j];
    }
  }
}

// ---- reading the logits ------------------------------------------------------------------------

/// The id of the largest of the n logits z[0 .. n − 1], the lowest id on ties: the greedy token.
template <class F> std::int32_t argmax_row(const F* z, std::size_t n) {
  std::size_t best = 0;
  for (std::size_t v = 1; v < n; ++v) {
    best = z[v] > z[best] ? v : best;
  }
  return static_cast<std::int32_t>(best);
}

} // namespace attn::train::detail
