// The kernel algorithms, written once against a 4-lane float vector mapping V
// (vec4_scalar.hpp, vec4_sse2.hpp, vec4_wasm_simd128.hpp). V provides:
//   using f32x4; load, load_splat, store, splat, add, sub, mul, div, max, copysign,
//   hmax, hsum, exp_nonpositive, and kExp (its exp algorithm in words).
// Each ISA file (kernels_<isa>.cpp) is one make_kernel_set<V>(name) at the bottom;
// the tails (n mod 4) run the same V operations on a padded vector, so a set's
// exp is one algorithm at every length. The matrix products live in train_kernels.hpp:
// attention's pass 4 (pv) is its gemm_nn, accumulating.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>

#include "kernels.hpp"
#include "train_kernels.hpp"

namespace attn::kernels {

template <class V> float rmax(const float* x, std::size_t n) {
  float m = -std::numeric_limits<float>::infinity();
  std::size_t i = 0;
  if (n >= 4) {
    auto vm = V::load(x);
    for (i = 4; i + 4 <= n; i += 4) {
      vm = V::max(vm, V::load(x + i));
    }
    m = V::hmax(vm);
  }
  for (; i < n; ++i) {
    m = x[i] > m ? x[i] : m;
  }
  return m;
}

template <class V>
float raddstoreexpminusmax(const float* x, std::size_t n, float m, float s, float* y) {
  const auto vm = V::splat(m);
  const auto vs = V::splat(s);
  auto vsum = V::splat(0.0f);
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const auto e = V::exp_nonpositive(V::mul(V::sub(V::load(x + i), vm), vs));
    V::store(y + i, e);
    vsum = V::add(vsum, e);
  }
  float sum = V::hsum(vsum);
  if (i < n) {
    // The tail: padded with m, whose exp(0) = 1 is neither stored nor summed.
    alignas(16) float tail[4] = {m, m, m, m};
    std::copy(x + i, x + n, tail);
    V::store(tail, V::exp_nonpositive(V::mul(V::sub(V::load(tail), vm), vs)));
    for (std::size_t t = 0; i + t < n; ++t) {
      y[i + t] = tail[t];
      sum += tail[t];
    }
  }
  return sum;
}

template <class V> void vscale(float* y, std::size_t n, float c) {
  const auto vc = V::splat(c);
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    V::store(y + i, V::mul(V::load(y + i), vc));
  }
  for (; i < n; ++i) {
    y[i] *= c;
  }
}

// One panel of kPanel keys against R query rows: 2·R vector accumulators,
// and per step of the head dimension 2 panel loads and R broadcasts of q.
template <class V, std::size_t R>
void qk_panel(const float* q, std::size_t q_stride, const float* panel, std::size_t e,
              float* out /* R × kPanel */) {
  typename V::f32x4 acc[R][2];
  for (std::size_t r = 0; r < R; ++r) {
    acc[r][0] = acc[r][1] = V::splat(0.0f);
  }
  for (std::size_t c = 0; c < e; ++c) {
    const auto k0 = V::load(panel + c * kPanel);
    const auto k1 = V::load(panel + c * kPanel + 4);
    for (std::size_t r = 0; r < R; ++r) {
      const auto qv = V::load_splat(q + r * q_stride + c);
      acc[r][0] = V::add(acc[r][0], V::mul(qv, k0));
      acc[r][1] = V::add(acc[r][1], V::mul(qv, k1));
    }
  }
  for (std::size_t r = 0; r < R; ++r) {
    V::store(out + r * kPanel, acc[r][0]);
    V::store(out + r * kPanel + 4, acc[r][1]);
  }
}

template <class V, std::size_t R>
void qk_rows(const float* q, std::size_t q_stride, const float* packed, std::size_t n,
             std::size_t e, float* scores, std::size_t ld) {
  alignas(16) float tile[R * kPanel];
  for (std::size_t j0 = 0; j0 < n; j0 += kPanel) {
    qk_panel<V, R>(q, q_stride, packed + j0 * e, e, tile);
    const std::size_t width = n - j0 < kPanel ? n - j0 : kPanel;
    for (std::size_t r = 0; r < R; ++r) {
      for (std::size_t j = 0; j < width; ++j) {
        scores[r * ld + j0 + j] = tile[r * kPanel + j];
      }
    }
  }
}

template <class V>
void qk(const float* q, std::size_t q_stride, std::size_t rows, const float* packed, std::size_t n,
        std::size_t e, float* scores, std::size_t ld) {
  switch (rows) {
  case 1:
    return qk_rows<V, 1>(q, q_stride, packed, n, e, scores, ld);
  case 2:
    return qk_rows<V, 2>(q, q_stride, packed, n, e, scores, ld);
  case 3:
    return qk_rows<V, 3>(q, q_stride, packed, n, e, scores, ld);
  default:
    return qk_rows<V, 4>(q, q_stride, packed, n, e, scores, ld);
  }
}

// Pass 4 of attention: acc (rows, ev) += p (rows, n) · v (n, ev), rows ≤ kBlockRows. This is
// gemm_nn accumulating into acc (train_kernels.hpp): one block of R rows × 8 columns keeps its
// 2·R accumulators in registers across the whole key loop, then 4-wide and one-lane column tails.
template <class V>
void pv(const float* p, std::size_t ld, std::size_t rows, const float* v, std::size_t v_stride,
        std::size_t n, std::size_t ev, float* acc, std::size_t acc_stride) {
  gemm_nn<V>(rows, n, ev, p, ld, v, v_stride, acc, acc_stride, true);
}

/// The kernel set of mapping V, named "<isa>_<exp algorithm>" (kernels.hpp).
template <class V> constexpr KernelSet make_kernel_set(const char* name) {
  return {name,       V::kExp,    rmax<V>, raddstoreexpminusmax<V>,
          vscale<V>,  qk<V>,      pv<V>,   gemm_nn<V>,
          gemm_nt<V>, gemm_tn<V>, gelu<V>, gelu_backward<V>};
}

} // namespace attn::kernels
