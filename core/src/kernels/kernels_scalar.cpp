// The scalar kernel variants: vector_kernels.hpp instantiated with vec4_scalar.hpp.

#include "vec4_scalar.hpp"
#include "vector_kernels.hpp"

namespace attn::kernels {

float rmax_f32__scalar(const float* x, std::size_t n) {
  return rmax<Vec4Scalar>(x, n);
}

float raddstoreexpminusmax_f32__scalar(const float* x, std::size_t n, float m, float s, float* y) {
  return raddstoreexpminusmax<Vec4Scalar>(x, n, m, s, y);
}

void vscale_f32__scalar(float* y, std::size_t n, float c) {
  vscale<Vec4Scalar>(y, n, c);
}

void qk_f32__scalar(const float* q, std::size_t q_stride, std::size_t rows, const float* packed,
                    std::size_t n, std::size_t e, float* scores, std::size_t ld) {
  qk<Vec4Scalar>(q, q_stride, rows, packed, n, e, scores, ld);
}

void pv_f32__scalar(const float* p, std::size_t ld, std::size_t rows, const float* v,
                    std::size_t v_stride, std::size_t n, std::size_t ev, float* acc,
                    std::size_t acc_stride) {
  pv<Vec4Scalar>(p, ld, rows, v, v_stride, n, ev, acc, acc_stride);
}

const KernelSet kScalar = {"scalar",           rmax_f32__scalar, raddstoreexpminusmax_f32__scalar,
                           vscale_f32__scalar, qk_f32__scalar,   pv_f32__scalar};

} // namespace attn::kernels
