// Internal to the training core (not public API): what the float64 reference (model.cpp) and the
// float32 path (model_f32.cpp) share, so both validate the same way and read the weights from the
// same places.
#pragma once

#include <cstddef>
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

} // namespace attn::train::detail
