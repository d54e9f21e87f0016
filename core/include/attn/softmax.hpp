// attn/softmax.hpp — softmax over the last axis, with temperature.
//
// For a row x of length n and temperature τ:
//
//     y_i = exp((x_i − m) / τ) / Σ_k exp((x_k − m) / τ),     m = max_k x_k
//
// Subtracting the row maximum m leaves the result unchanged and keeps every
// exponent ≤ 0, so nothing overflows for any finite logits and any τ > 0.
//
// Limits and special values (the numerics contract, core/README.md):
//   τ > 0         divides the logits, as above;
//   τ = 0         the exact limit τ → 0⁺: the hard argmax, ties share equally;
//   τ = +inf      the exact limit τ → ∞: uniform over the unmasked positions;
//   τ < 0 or NaN  ValueError.
//   A logit of −inf is a masked position and gets exactly 0. A row whose every
//   logit is −inf has no position to attend to: its weights are all 0 (as in
//   current PyTorch scaled_dot_product_attention); count such rows with
//   fully_masked_rows(). NaN or +inf logits are a ValueError naming the index.
#pragma once

#include <cstddef>

#include "attn/tensor.hpp"

namespace attn {

/// Softmax of `logits` over its last axis.
///   logits: (..., n), rank ≥ 1, n ≥ 1        -> weights: (..., n), each row sums to 1
/// Throws ShapeError (rank 0, empty last axis) or ValueError (NaN/+inf logit, bad τ).
Tensor softmax(const Tensor& logits, double temperature = 1.0);

/// float64 scalar reference of softmax() with the same contract; the test oracle.
Tensor64 softmax_reference(const Tensor64& logits, double temperature = 1.0);

/// Number of rows (over the last axis) whose every logit is −inf.
///   logits: (..., n)  -> count of rows that softmax() returns as all zeros
std::size_t fully_masked_rows(const Tensor& logits);

} // namespace attn
