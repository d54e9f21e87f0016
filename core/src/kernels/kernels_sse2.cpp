// The sse2 kernel variants: vector_kernels.hpp instantiated with vec4_sse2.hpp.
#if defined(__SSE2__)

#include "vec4_sse2.hpp"
#include "vector_kernels.hpp"

namespace attn::kernels {

float rmax_f32__sse2(const float* x, std::size_t n) {
  return rmax<Vec4Sse2>(x, n);
}

float raddstoreexpminusmax_f32__sse2(const float* x, std::size_t n, float m, float s, float* y) {
  return raddstoreexpminusmax<Vec4Sse2>(x, n, m, s, y);
}

void vscale_f32__sse2(float* y, std::size_t n, float c) {
  vscale<Vec4Sse2>(y, n, c);
}

void qk_f32__sse2(const float* q, std::size_t q_stride, std::size_t rows, const float* packed,
                  std::size_t n, std::size_t e, float* scores, std::size_t ld) {
  qk<Vec4Sse2>(q, q_stride, rows, packed, n, e, scores, ld);
}

void pv_f32__sse2(const float* p, std::size_t ld, std::size_t rows, const float* v,
                  std::size_t v_stride, std::size_t n, std::size_t ev, float* acc,
                  std::size_t acc_stride) {
  pv<Vec4Sse2>(p, ld, rows, v, v_stride, n, ev, acc, acc_stride);
}

const KernelSet kSse2 = {"sse2",           rmax_f32__sse2, raddstoreexpminusmax_f32__sse2,
                         vscale_f32__sse2, qk_f32__sse2,   pv_f32__sse2};

} // namespace attn::kernels
#endif // __SSE2__
