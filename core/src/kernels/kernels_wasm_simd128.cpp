// The wasm_simd128 kernel set, wasm_simd128_rr2_p7: vector_kernels.hpp instantiated with
// vec4_wasm_simd128.hpp.
#if defined(__wasm_simd128__)

#include "vec4_wasm_simd128.hpp"
#include "vector_kernels.hpp"

namespace attn::kernels {
const KernelSet kWasmSimd128 = make_kernel_set<Vec4WasmSimd128>("wasm_simd128_rr2_p7");
} // namespace attn::kernels
#endif // __wasm_simd128__
