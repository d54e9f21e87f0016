// The wasm_simd128 kernel variants: vector_kernels.hpp instantiated with vec4_wasm_simd128.hpp.
#if defined(__wasm_simd128__)

#include "vec4_wasm_simd128.hpp"
#include "vector_kernels.hpp"

namespace attn::kernels {

float rmax_f32__wasm_simd128(const float* x, std::size_t n) {
  return rmax<Vec4WasmSimd128>(x, n);
}

float raddstoreexpminusmax_f32__wasm_simd128(const float* x, std::size_t n, float m, float s,
                                             float* y) {
  return raddstoreexpminusmax<Vec4WasmSimd128>(x, n, m, s, y);
}

void vscale_f32__wasm_simd128(float* y, std::size_t n, float c) {
  vscale<Vec4WasmSimd128>(y, n, c);
}

void qk_f32__wasm_simd128(const float* q, std::size_t q_stride, std::size_t rows,
                          const float* packed, std::size_t n, std::size_t e, float* scores,
                          std::size_t ld) {
  qk<Vec4WasmSimd128>(q, q_stride, rows, packed, n, e, scores, ld);
}

void pv_f32__wasm_simd128(const float* p, std::size_t ld, std::size_t rows, const float* v,
                          std::size_t v_stride, std::size_t n, std::size_t ev, float* acc,
                          std::size_t acc_stride) {
  pv<Vec4WasmSimd128>(p, ld, rows, v, v_stride, n, ev, acc, acc_stride);
}

const KernelSet kWasmSimd128 = {
    "wasm_simd128",           rmax_f32__wasm_simd128, raddstoreexpminusmax_f32__wasm_simd128,
    vscale_f32__wasm_simd128, qk_f32__wasm_simd128,   pv_f32__wasm_simd128};

} // namespace attn::kernels
#endif // __wasm_simd128__
