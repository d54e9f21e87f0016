// attn/attention.hpp — scaled dot-product attention with PyTorch SDPA semantics.
//
//   logits = scale · q kᵀ + additive mask,   −inf where the mask forbids a key
//   weights = softmax(logits / τ) over the keys (the last axis)
//   output  = weights · v
//
// (Vaswani et al. 2017, eq. 1, with scale = 1/sqrt(E) by default.)
//
// Shapes (row-major float32):
//   q (..., L, E), k (..., S, E), v (..., S, Ev)  ->  output (..., L, Ev)
//   weights and logits, when asked for: (..., L, S)
// Leading ("batch") axes broadcast as in NumPy; L may differ from S.
//
// Fully masked rows (no key allowed) get all-zero weights and a zero output, as
// in current PyTorch; they are counted in AttentionResult::fully_masked_rows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "attn/tensor.hpp"

namespace attn {

/// Which keys each query may attend to.
struct Mask {
  enum class Kind {
    none,     ///< every key
    causal,   ///< key j ≤ query i (top-left aligned, as PyTorch is_causal)
    window,   ///< |i − j| ≤ window, and j ≤ i too when `causal`
    boolean,  ///< allowed(..., i, j) != 0; broadcastable to (..., L, S)
    additive, ///< added to the logits; broadcastable to (..., L, S); −inf forbids
  };
  Kind kind = Kind::none;
  std::size_t window = 0;
  bool causal = false;
  xt::xarray<std::uint8_t> allowed;
  Tensor additive;

  static Mask none() {
    return {};
  }
  static Mask causal_mask();
  static Mask local(std::size_t window, bool causal = false);
  static Mask boolean(xt::xarray<std::uint8_t> allowed);
  static Mask add(Tensor additive);
};

struct AttentionOptions {
  std::optional<double> scale; ///< default 1/sqrt(E); must be finite
  double temperature = 1.0;    ///< τ as in softmax(): 0 = hard argmax, +inf = uniform
  Mask mask;
  bool return_weights = false; ///< keep the (..., L, S) weights (costs L·S memory)
  bool return_logits = false;  ///< keep the (..., L, S) masked, scaled logits
  /// The index of q's first row in the whole sequence: the positional masks (causal, window)
  /// compare key j with query i + row_offset. With it, the query rows of one problem can be
  /// computed in parts, each giving exactly the rows of the whole (the engine's worker pool).
  std::size_t row_offset = 0;
};

struct AttentionResult {
  Tensor output;                     ///< (..., L, Ev)
  Tensor weights;                    ///< (..., L, S) when asked for, else shape {0}
  Tensor logits;                     ///< (..., L, S) when asked for, else shape {0}
  std::size_t fully_masked_rows = 0; ///< rows with no allowed key (zero weights and output)
  /// Bytes of the working buffers this call allocated and freed before returning, besides its
  /// inputs and its result: K packed into panels of 8 keys, padded_keys(S)·E floats, and one
  /// block of score rows, 4·128 floats on the fused path (one key tile per row) or 4·S floats on
  /// the two-pass path (whole rows). Never L·S on the fused path; the same for every batch size.
  std::size_t scratch_bytes = 0;
};

struct AttentionResult64 {
  Tensor64 output;
  Tensor64 weights;
  Tensor64 logits;
  std::size_t fully_masked_rows = 0;
};

/// Scaled dot-product attention (see the top of this file). Without weights or
/// logits asked for, runs the fused kernel: online softmax over key tiles, memory
/// O(L·Ev + S·E), never an L×S buffer; AttentionResult::scratch_bytes says how much
/// working memory the call took.
/// Throws ShapeError (ranks, mismatched E or S, batch axes that do not broadcast,
/// empty tensors, mask shapes), ValueError (NaN/inf inputs, bad scale or τ) or
/// MemoryError (weights too large to hold).
AttentionResult scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v,
                                             const AttentionOptions& options = {});

/// Passes 1–2 of attention alone, the logits (no v, no softmax):
///   logits = scale · q kᵀ + additive mask,   −inf where the mask forbids a key
/// q (..., L, E), k (..., S, E)  ->  (..., L, S), batch axes broadcast as in attention.
/// options.scale defaults to 1/sqrt(E); options.mask as in attention. options.temperature,
/// return_weights and return_logits are not used (τ divides the logits only inside the
/// softmax, pass 3) and not checked. Equal, bit for bit, to the logits that
/// scaled_dot_product_attention returns with return_logits (same kernels, same order).
/// Validates as scaled_dot_product_attention does, with the same wording, except that each
/// message starts "attention_scores:" instead of "attention:" and nothing concerns v.
/// Throws ShapeError (ranks, mismatched E, batch axes that do not broadcast, empty tensors,
/// mask shapes), ValueError (NaN/inf in q or k, bad scale, a logit beyond float32) or
/// MemoryError (logits too large to hold).
Tensor attention_scores(const Tensor& q, const Tensor& k, const AttentionOptions& options = {});

/// float64 scalar reference with the same contract (always returns weights and
/// logits); computed from the same float32 inputs. The test oracle.
AttentionResult64 scaled_dot_product_attention_reference(const Tensor& q, const Tensor& k,
                                                         const Tensor& v,
                                                         const AttentionOptions& options = {});

} // namespace attn
