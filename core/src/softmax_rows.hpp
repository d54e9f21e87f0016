// Internal: one softmax row with temperature, shared by softmax() and attention.
#pragma once

#include <cstddef>

#include "kernels/kernels.hpp"

namespace attn::detail {

/// A validated temperature τ and how rows are computed with it.
struct Temperature {
  enum class Kind {
    scaled,  ///< exp((x − m)·inv) in float32 (1/τ is a normal float)
    hard,    ///< τ = 0 (or 1/τ overflows double): the argmax limit
    uniform, ///< τ = +inf: uniform over unmasked positions
    wide,    ///< 1/τ is not a normal float32: exp((x − m)/τ) in float64
  };
  explicit Temperature(double tau, const char* where); // throws ValueError for NaN or τ < 0
  double tau;
  Kind kind;
  float inv;
};

/// y = softmax(x / τ) over n entries (x: no NaN, no +inf). Returns false when
/// every x is −inf: then y is all zeros (a fully masked row).
bool softmax_row(const kernels::KernelSet& ks, const float* x, float* y, std::size_t n,
                 const Temperature& t);

} // namespace attn::detail
