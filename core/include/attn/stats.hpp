// attn/stats.hpp — how spread out attention weights are, and why attention divides
// the logits by sqrt(d_k) (Vaswani et al. 2017, "Attention Is All You Need", §3.2.1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/tensor.hpp"

namespace attn {

/// Shannon entropy in nats of each row over the last axis:
///   H(p) = −Σ_i p_i ln p_i,   with 0 · ln 0 = 0
///   weights: (..., n), rank ≥ 1, n ≥ 1, every entry finite and ≥ 0   -> (...)
/// A rank-1 input gives a 0-d tensor (shape {}, one element: read it as h()).
/// Each row should be a probability row (a softmax output, a Dirichlet draw): it is
/// not renormalised, and the formula is applied as is, so rows that do not sum to 1
/// give a number that is not an entropy. Uniform over n gives ln n, one-hot gives 0.
/// Summed in float64, returned as float32.
/// Throws ShapeError (rank 0, empty) or ValueError (a negative, NaN or infinite
/// entry, naming its index).
Tensor entropy(const Tensor& weights);

/// Effective number of positions a row attends to: exp(H(p)), the perplexity.
///   weights: (..., n)  -> (...), each in [1, n] for a probability row
/// n for uniform weights, 1 for one-hot. Same contract and errors as entropy().
Tensor effective_positions(const Tensor& weights);

/// Means over random draws, one entry per dimension in `dims`.
struct ScalingStats {
  std::vector<std::size_t> dims;       ///< the dimensions d, as passed
  std::vector<double> mean_max_weight; ///< mean of max_j w_j (1/tokens .. 1; 1 = one-hot)
  std::vector<double> mean_entropy;    ///< mean of H(w) in nats (0 .. ln tokens)
};

/// The experiment behind the 1/sqrt(d_k) in attention. For each d in dims, `draws`
/// times: a query q (d) and keys K (tokens, d) with i.i.d. N(0, 1) entries,
///   logits_j = q · k_j            (scaled = false)
///   logits_j = q · k_j / sqrt(d)  (scaled = true)
///   w = softmax(logits)           (attn::softmax, temperature 1)
/// and the max weight and the entropy of w are averaged over the draws. q · k_j has
/// variance d, so unscaled logits spread out as d grows and w collapses toward
/// one-hot (mean max weight → 1, mean entropy → 0); the scaled logits have variance 1
/// at every d and the statistics stay about the same.
/// Randomness: dimension d draws from Rng(seed, /*stream*/ d), q first and then the
/// keys row by row, so its numbers do not depend on the other entries of dims. The
/// dot products are summed in float64; the logits are rounded to float32 for softmax.
///   dims: (D) -> ScalingStats with D entries in each vector
/// Throws ValueError (dims empty, a d of 0, draws = 0, tokens = 0, or more than
/// 5e8 multiply-adds in total, draws · tokens · Σ d, saying how many were asked) or
/// MemoryError (a d or tokens above 2^24: q and a row of logits are held in memory).
ScalingStats scaling_statistics(const std::vector<std::size_t>& dims, bool scaled,
                                std::size_t draws, std::uint64_t seed, std::size_t tokens = 5);

} // namespace attn
