// Entropy of attention rows and the sqrt(d_k) scaling experiment (see attn/stats.hpp).
#include "attn/stats.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "attn/error.hpp"
#include "attn/random.hpp"
#include "attn/softmax.hpp"
#include "require_finite.hpp"

namespace attn {
namespace {

constexpr double kMaxMultiplyAdds = 5e8;
constexpr std::size_t kMaxVectorLength = std::size_t(1) << 24;
constexpr std::size_t kChunkElements = std::size_t(1) << 16; // logits per softmax call

// H = −Σ p ln p per row of `weights` (..., n) -> (...); `fn` names the caller in errors.
Tensor row_entropy(const Tensor& weights, const std::string& fn) {
  const Shape shape = shape_of(weights);
  if (shape.empty()) {
    throw ShapeError(fn + ": weights must have at least one axis, got a scalar");
  }
  if (weights.size() == 0) {
    throw ShapeError(fn + ": weights are empty (shape " + format_shape(shape) + ")");
  }
  const float* p = weights.data();
  detail::require_finite(weights, fn, "weights", detail::Allow::nonnegative,
                         "weights must be finite and >= 0");

  const std::size_t n = shape.back();
  const std::size_t rows = weights.size() / n;
  Tensor h = Tensor::from_shape(Shape(shape.begin(), shape.end() - 1)); // (...)
  for (std::size_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double w = p[r * n + i];
      sum += w > 0 ? w * std::log(w) : 0.0; // 0 · ln 0 = 0
    }
    h.data()[r] = static_cast<float>(0.0 - sum); // 0 − sum: a one-hot row gives +0, not −0
  }
  return h;
}

void check_scaling_arguments(const std::vector<std::size_t>& dims, std::size_t draws,
                             std::size_t tokens) {
  const std::string fn = "scaling_statistics: ";
  if (dims.empty()) {
    throw ValueError(fn + "dims is empty; pass at least one dimension d >= 1");
  }
  double dim_sum = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 0) {
      throw ValueError(fn + "dims[" + std::to_string(i) + "] is 0; dimensions must be >= 1");
    }
    if (dims[i] > kMaxVectorLength) {
      throw MemoryError(fn + "dims[" + std::to_string(i) + "] = " + std::to_string(dims[i]) +
                        " is more than " + std::to_string(kMaxVectorLength) + " (2^24)");
    }
    dim_sum += static_cast<double>(dims[i]);
  }
  if (draws == 0) {
    throw ValueError(fn + "draws is 0; need at least one draw");
  }
  if (tokens == 0) {
    throw ValueError(fn + "tokens is 0; need at least one key");
  }
  if (tokens > kMaxVectorLength) {
    throw MemoryError(fn + "tokens = " + std::to_string(tokens) + " is more than " +
                      std::to_string(kMaxVectorLength) + " (2^24)");
  }
  const double work = static_cast<double>(draws) * static_cast<double>(tokens) * dim_sum;
  if (work > kMaxMultiplyAdds) {
    throw ValueError(fn + "draws x tokens x sum(dims) = " + std::to_string(draws) + " x " +
                     std::to_string(tokens) + " x " + format_number(dim_sum) + " = " +
                     format_number(work) + " multiply-adds, more than the limit of " +
                     format_number(kMaxMultiplyAdds));
  }
}

} // namespace

Tensor entropy(const Tensor& weights) {
  return row_entropy(weights, "entropy");
}

Tensor effective_positions(const Tensor& weights) {
  Tensor h = row_entropy(weights, "effective_positions");
  for (float& v : h) {
    v = std::exp(v);
  }
  return h;
}

ScalingStats scaling_statistics(const std::vector<std::size_t>& dims, bool scaled,
                                std::size_t draws, std::uint64_t seed, std::size_t tokens) {
  check_scaling_arguments(dims, draws, tokens);
  ScalingStats stats;
  stats.dims = dims;
  const std::size_t chunk_rows = std::max<std::size_t>(1, kChunkElements / tokens);

  for (const std::size_t d : dims) {
    Rng rng(seed, /*stream*/ d);
    const double scale = scaled ? 1.0 / std::sqrt(static_cast<double>(d)) : 1.0;
    std::vector<double> q(d);
    double max_weight_sum = 0;
    double entropy_sum = 0;
    for (std::size_t first = 0; first < draws; first += chunk_rows) {
      const std::size_t rows = std::min(chunk_rows, draws - first);
      // pass 1: logits (rows, tokens), one draw of q (d) and K (tokens, d) per row
      Tensor logits = Tensor::from_shape({rows, tokens});
      for (std::size_t r = 0; r < rows; ++r) {
        for (double& qi : q) {
          qi = rng.normal();
        }
        for (std::size_t j = 0; j < tokens; ++j) {
          double dot = 0;
          for (std::size_t i = 0; i < d; ++i) {
            dot += q[i] * rng.normal(); // k_j[i]
          }
          logits(r, j) = static_cast<float>(dot * scale);
        }
      }
      // pass 2: weights (rows, tokens), their row max and entropy (rows)
      const Tensor weights = softmax(logits, 1.0);
      const Tensor h = entropy(weights);
      for (std::size_t r = 0; r < rows; ++r) {
        const float* w = weights.data() + r * tokens;
        max_weight_sum += *std::max_element(w, w + tokens);
        entropy_sum += h(r);
      }
    }
    stats.mean_max_weight.push_back(max_weight_sum / static_cast<double>(draws));
    stats.mean_entropy.push_back(entropy_sum / static_cast<double>(draws));
  }
  return stats;
}

} // namespace attn
