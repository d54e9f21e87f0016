// The scalar kernel set, scalar_libm: vector_kernels.hpp instantiated with vec4_scalar.hpp.

#include "vec4_scalar.hpp"
#include "vector_kernels.hpp"

namespace attn::kernels {
const KernelSet kScalar = make_kernel_set<Vec4Scalar>("scalar_libm");
} // namespace attn::kernels
