// Internal kernels of the core (not public API).
//
// The five hot loops of attention and softmax, written once (vector_kernels.hpp)
// against a 4-lane vector mapping (vec4_<isa>.hpp), the three matrix products and
// the GELU of the training model's float32 path (train_kernels.hpp), gathered in one KernelSet
// per instruction set, each named as XNNPACK names its microkernels, by the ISA
// and the algorithm of its exp:
//   scalar_libm          portable C++, std::exp per lane (always present);
//   sse2_rr2_p7          x86-64 native builds;
//   wasm_simd128_rr2_p7  wasm builds with -msimd128;
// where rr2_p7 is Cephes expf: a 2-constant (Cody–Waite) range reduction and a
// degree-7 polynomial (exp_constants.hpp). Each kernels_<isa>.cpp is one line:
// make_kernel_set<Vec4Isa>("<name>").
//
// Callers have validated their input: no NaN and no +inf; −inf marks a masked
// position.
#pragma once

#include <cstddef>
#include <vector>

namespace attn::kernels {

constexpr std::size_t kPanel = 8;     ///< keys per packed K panel (pack_keys)
constexpr std::size_t kBlockRows = 4; ///< query rows per qk/pv call, at most

struct KernelSet {
  const char* name; ///< "<isa>_<exp algorithm>", e.g. "sse2_rr2_p7"
  const char* exp;  ///< the exp of raddstoreexpminusmax, in words (the mapping's kExp)

  /// Step 1 of the softmax (pass 3): max_i x[i]; −inf when every entry is −inf.
  float (*rmax)(const float* x, std::size_t n);

  /// Step 2 of the softmax (pass 3): y[i] = exp((x[i] − m)·s), returns Σ y[i]. Needs x[i] ≤ m,
  /// m finite and s ≥ 0 finite: every exponent is ≤ 0 (−inf gives exactly 0).
  float (*raddstoreexpminusmax)(const float* x, std::size_t n, float m, float s, float* y);

  /// Step 3 of the softmax (pass 3), and rescaling of the fused path's accumulators: y[i] *= c.
  void (*vscale)(float* y, std::size_t n, float c);

  /// Pass 1 of attention, scores of `rows` (≤ kBlockRows) query rows against n keys packed by
  /// pack_keys:
  ///   scores[r·ld + j] = Σ_e q[r·q_stride + e] · k[j][e]    for r < rows, j < n
  /// `packed` points at the first panel of the n keys; e is the head dimension.
  void (*qk)(const float* q, std::size_t q_stride, std::size_t rows, const float* packed,
             std::size_t n, std::size_t e, float* scores, std::size_t ld);

  /// Pass 4 of attention, weighted sum of value rows into accumulators, for `rows` (≤ kBlockRows)
  /// rows:
  ///   acc[r·acc_stride + c] += Σ_{t<n} p[r·ld + t] · v[t·v_stride + c]    for c < ev
  void (*pv)(const float* p, std::size_t ld, std::size_t rows, const float* v, std::size_t v_stride,
             std::size_t n, std::size_t ev, float* acc, std::size_t acc_stride);

  // The training model's float32 path (train_kernels.hpp). Row-major, row strides lda, ldb, ldc;
  // C is (n, m) and k the inner length; `accumulate` false overwrites C, true adds to it.

  /// C (n, m) [+]= A (n, k) · B (k, m): a layer's forward y = x W.
  void (*gemm_nn)(std::size_t n, std::size_t k, std::size_t m, const float* A, std::size_t lda,
                  const float* B, std::size_t ldb, float* C, std::size_t ldc, bool accumulate);
  /// C (n, m) [+]= A (n, k) · Bᵀ with B (m, k): the input gradient dx = dy Wᵀ, scores q kᵀ.
  void (*gemm_nt)(std::size_t n, std::size_t k, std::size_t m, const float* A, std::size_t lda,
                  const float* B, std::size_t ldb, float* C, std::size_t ldc, bool accumulate);
  /// C (n, m) [+]= Aᵀ · B with A (k, n), B (k, m): the weight gradient dW = xᵀ dy.
  void (*gemm_tn)(std::size_t n, std::size_t k, std::size_t m, const float* A, std::size_t lda,
                  const float* B, std::size_t ldb, float* C, std::size_t ldc, bool accumulate);

  /// g[i] = GELU(x[i]) (tanh form, 0.5·x·(1 + tanh u), u = √(2/π)(x + 0.044715x³)) and
  /// th[i] = tanh u[i] for the backward pass; x finite.
  void (*gelu)(const float* x, std::size_t n, float* g, float* th);
  /// d[i] *= GELU'(x[i]) from the x and th that gelu() saw and wrote.
  void (*gelu_backward)(const float* x, const float* th, std::size_t n, float* d);
};

extern const KernelSet kScalar;
#if defined(__SSE2__)
extern const KernelSet kSse2;
#endif
#if defined(__wasm_simd128__)
extern const KernelSet kWasmSimd128;
#endif

/// The fastest set this build has.
const KernelSet& best();

/// Every set this build has (the tests check each against the float64 reference).
std::vector<const KernelSet*> available();

/// Packs keys k (s, e) with row stride k_stride into panels of kPanel keys:
///   packed[(j / kPanel)·kPanel·e + c·kPanel + j % kPanel] = k[j·k_stride + c]
/// The last panel is zero-padded; `packed` holds padded_keys(s)·e floats.
void pack_keys(const float* k, std::size_t s, std::size_t e, std::size_t k_stride, float* packed);

inline std::size_t padded_keys(std::size_t s) {
  return (s + kPanel - 1) / kPanel * kPanel;
}

} // namespace attn::kernels
