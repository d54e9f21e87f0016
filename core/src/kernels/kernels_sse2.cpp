// The sse2 kernel set, sse2_rr2_p7: vector_kernels.hpp instantiated with vec4_sse2.hpp.
#if defined(__SSE2__)

#include "vec4_sse2.hpp"
#include "vector_kernels.hpp"

namespace attn::kernels {
const KernelSet kSse2 = make_kernel_set<Vec4Sse2>("sse2_rr2_p7");
} // namespace attn::kernels
#endif // __SSE2__
