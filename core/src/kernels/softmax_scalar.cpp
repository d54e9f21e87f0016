// Portable scalar softmax passes. The compiler may vectorise these loops
// (no fast-math, so it keeps the order of the sum); they are also the tail
// and fallback for the SIMD variants.
#include <cmath>
#include <limits>

#include "kernels.hpp"

namespace attn::kernels {

float rmax_f32__scalar(const float* x, std::size_t n) {
  float m = -std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    m = x[i] > m ? x[i] : m;
  }
  return m;
}

float raddstoreexpminusmax_f32__scalar(const float* x, std::size_t n, float m, float s, float* y) {
  float sum = 0.0f;
  for (std::size_t i = 0; i < n; ++i) {
    const float e = std::exp((x[i] - m) * s);
    y[i] = e;
    sum += e;
  }
  return sum;
}

void vscale_f32__scalar(float* y, std::size_t n, float c) {
  for (std::size_t i = 0; i < n; ++i) {
    y[i] *= c;
  }
}

} // namespace attn::kernels
