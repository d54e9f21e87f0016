// Which kernel set runs (best, available), and the K packing shared by every set.
#include <algorithm>

#include "kernels.hpp"

namespace attn::kernels {

const KernelSet& best() {
#if defined(__wasm_simd128__)
  return kWasmSimd128;
#elif defined(__SSE2__)
  return kSse2;
#else
  return kScalar;
#endif
}

std::vector<const KernelSet*> available() {
  return {
    &kScalar,
#if defined(__SSE2__)
        &kSse2,
#endif
#if defined(__wasm_simd128__)
        &kWasmSimd128,
#endif
  };
}

void pack_keys(const float* k, std::size_t s, std::size_t e, std::size_t k_stride, float* packed) {
  const std::size_t padded = padded_keys(s);
  for (std::size_t j0 = 0; j0 < padded; j0 += kPanel) {
    float* panel = packed + j0 * e;
    for (std::size_t c = 0; c < e; ++c) {
      for (std::size_t j = 0; j < kPanel; ++j) {
        panel[c * kPanel + j] = j0 + j < s ? k[(j0 + j) * k_stride + c] : 0.0f;
      }
    }
  }
}

} // namespace attn::kernels
