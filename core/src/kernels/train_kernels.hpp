// The hot loops of the training model's float32 path (src/train/model_f32.cpp), written once
// against a 4-lane float vector mapping V (vec4_<isa>.hpp), beside vector_kernels.hpp: three
// matrix products and the MLP's GELU, forward and backward. gemm_nn also serves the attention
// kernels: their pass 4, pv (acc += p v), is gemm_nn accumulating.
//
// The matrix products. Three forms cover a layer y = x W
// and its backward pass (dx = dy Wᵀ, dW = xᵀ dy), and the attention products inside a head:
//
//   gemm_nn   C (n, m) [+]= A (n, k) · B (k, m)      C[i, j] = Σ_p A[i, p] · B[p, j]
//   gemm_nt   C (n, m) [+]= A (n, k) · Bᵀ, B (m, k)  C[i, j] = Σ_p A[i, p] · B[j, p]
//   gemm_tn   C (n, m) [+]= Aᵀ · B, A (k, n), B (k, m)  C[i, j] = Σ_p A[p, i] · B[p, j]
//
// Every matrix is row-major with its own row stride (lda, ldb, ldc ≥ its column count), so a
// head's columns inside a wider buffer are a plain sub-matrix. `accumulate` false overwrites C.
//
// Each output element is computed by the same sequence of operations wherever it sits in its
// register block (start at C or 0, then += a·b for p = 0, 1, …, k − 1 for nn and tn; for nt 4
// partial sums over p ≡ 0..3 mod 4, V::hsum, then the k mod 4 tail in order), so a row's result
// does not depend on how many rows are computed with it: a batch of sequences gives bitwise the
// logits of each sequence alone. The tails (n mod 4 rows, m mod 8 and m mod 4 columns, k mod 4
// in nt) run the same arithmetic one lane at a time.
#pragma once

#include <algorithm>
#include <cstddef>

namespace attn::kernels {

// ---- nn and tn: a block of R rows × 8 columns in 2·R vector accumulators ------------------------
//
// Element (r, p) of the left operand is a[r·rs + p·cs]: (rs, cs) = (lda, 1) for A, (1, lda) for
// Aᵀ. The right operand B (k, m) is read along its rows, 8 then 4 columns per load pair.

template <class V, std::size_t R>
void gemm_rows(std::size_t k, std::size_t m, const float* a, std::size_t rs, std::size_t cs,
               const float* b, std::size_t ldb, float* c, std::size_t ldc, bool accumulate) {
  std::size_t j = 0;
  for (; j + 8 <= m; j += 8) {
    typename V::f32x4 acc[R][2];
    for (std::size_t r = 0; r < R; ++r) {
      acc[r][0] = accumulate ? V::load(c + r * ldc + j) : V::splat(0.0f);
      acc[r][1] = accumulate ? V::load(c + r * ldc + j + 4) : V::splat(0.0f);
    }
    for (std::size_t p = 0; p < k; ++p) {
      const auto b0 = V::load(b + p * ldb + j);
      const auto b1 = V::load(b + p * ldb + j + 4);
      for (std::size_t r = 0; r < R; ++r) {
        const auto ar = V::load_splat(a + r * rs + p * cs);
        acc[r][0] = V::add(acc[r][0], V::mul(ar, b0));
        acc[r][1] = V::add(acc[r][1], V::mul(ar, b1));
      }
    }
    for (std::size_t r = 0; r < R; ++r) {
      V::store(c + r * ldc + j, acc[r][0]);
      V::store(c + r * ldc + j + 4, acc[r][1]);
    }
  }
  for (; j + 4 <= m; j += 4) {
    typename V::f32x4 acc[R];
    for (std::size_t r = 0; r < R; ++r) {
      acc[r] = accumulate ? V::load(c + r * ldc + j) : V::splat(0.0f);
    }
    for (std::size_t p = 0; p < k; ++p) {
      const auto b0 = V::load(b + p * ldb + j);
      for (std::size_t r = 0; r < R; ++r) {
        acc[r] = V::add(acc[r], V::mul(V::load_splat(a + r * rs + p * cs), b0));
      }
    }
    for (std::size_t r = 0; r < R; ++r) {
      V::store(c + r * ldc + j, acc[r]);
    }
  }
  for (; j < m; ++j) { // the column tail, one lane's arithmetic
    for (std::size_t r = 0; r < R; ++r) {
      float sum = accumulate ? c[r * ldc + j] : 0.0f;
      for (std::size_t p = 0; p < k; ++p) {
        sum += a[r * rs + p * cs] * b[p * ldb + j];
      }
      c[r * ldc + j] = sum;
    }
  }
}

template <class V>
void gemm_strided(std::size_t n, std::size_t k, std::size_t m, const float* a, std::size_t rs,
                  std::size_t cs, const float* b, std::size_t ldb, float* c, std::size_t ldc,
                  bool accumulate) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    gemm_rows<V, 4>(k, m, a + i * rs, rs, cs, b, ldb, c + i * ldc, ldc, accumulate);
  }
  switch (n - i) { // the row tail
  case 3:
    return gemm_rows<V, 3>(k, m, a + i * rs, rs, cs, b, ldb, c + i * ldc, ldc, accumulate);
  case 2:
    return gemm_rows<V, 2>(k, m, a + i * rs, rs, cs, b, ldb, c + i * ldc, ldc, accumulate);
  case 1:
    return gemm_rows<V, 1>(k, m, a + i * rs, rs, cs, b, ldb, c + i * ldc, ldc, accumulate);
  default:
    return;
  }
}

template <class V>
void gemm_nn(std::size_t n, std::size_t k, std::size_t m, const float* a, std::size_t lda,
             const float* b, std::size_t ldb, float* c, std::size_t ldc, bool accumulate) {
  gemm_strided<V>(n, k, m, a, lda, 1, b, ldb, c, ldc, accumulate);
}

template <class V>
void gemm_tn(std::size_t n, std::size_t k, std::size_t m, const float* a, std::size_t lda,
             const float* b, std::size_t ldb, float* c, std::size_t ldc, bool accumulate) {
  gemm_strided<V>(n, k, m, a, 1, lda, b, ldb, c, ldc, accumulate);
}

// ---- nt: dot products of rows, 2 rows of A × 4 rows of B in 8 vector accumulators --------------

template <class V, std::size_t R, std::size_t S>
void gemm_nt_block(std::size_t k, const float* a, std::size_t lda, const float* b, std::size_t ldb,
                   float* c, std::size_t ldc, bool accumulate) {
  typename V::f32x4 acc[R][S];
  for (std::size_t r = 0; r < R; ++r) {
    for (std::size_t s = 0; s < S; ++s) {
      acc[r][s] = V::splat(0.0f);
    }
  }
  std::size_t p = 0;
  for (; p + 4 <= k; p += 4) {
    typename V::f32x4 bs[S];
    for (std::size_t s = 0; s < S; ++s) {
      bs[s] = V::load(b + s * ldb + p);
    }
    for (std::size_t r = 0; r < R; ++r) {
      const auto ar = V::load(a + r * lda + p);
      for (std::size_t s = 0; s < S; ++s) {
        acc[r][s] = V::add(acc[r][s], V::mul(ar, bs[s]));
      }
    }
  }
  for (std::size_t r = 0; r < R; ++r) {
    for (std::size_t s = 0; s < S; ++s) {
      float sum = V::hsum(acc[r][s]);
      for (std::size_t q = p; q < k; ++q) { // the k mod 4 tail
        sum += a[r * lda + q] * b[s * ldb + q];
      }
      c[r * ldc + s] = accumulate ? c[r * ldc + s] + sum : sum;
    }
  }
}

template <class V, std::size_t R>
void gemm_nt_rows(std::size_t k, std::size_t m, const float* a, std::size_t lda, const float* b,
                  std::size_t ldb, float* c, std::size_t ldc, bool accumulate) {
  std::size_t j = 0;
  for (; j + 4 <= m; j += 4) {
    gemm_nt_block<V, R, 4>(k, a, lda, b + j * ldb, ldb, c + j, ldc, accumulate);
  }
  for (; j < m; ++j) {
    gemm_nt_block<V, R, 1>(k, a, lda, b + j * ldb, ldb, c + j, ldc, accumulate);
  }
}

template <class V>
void gemm_nt(std::size_t n, std::size_t k, std::size_t m, const float* a, std::size_t lda,
             const float* b, std::size_t ldb, float* c, std::size_t ldc, bool accumulate) {
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    gemm_nt_rows<V, 2>(k, m, a + i * lda, lda, b, ldb, c + i * ldc, ldc, accumulate);
  }
  if (i < n) {
    gemm_nt_rows<V, 1>(k, m, a + i * lda, lda, b, ldb, c + i * ldc, ldc, accumulate);
  }
}

// ---- GELU, tanh form --------------------------------------------------------------------------
//
//   u = √(2/π)·(x + 0.044715·x³),  GELU(x) = 0.5·x·(1 + tanh u)
//   GELU'(x) = 0.5·(1 + tanh u) + 0.5·x·(1 − tanh² u)·√(2/π)·(1 + 3·0.044715·x²)
// tanh u = sign(u)·(1 − e)/(1 + e) with e = exp(−2|u|) ≤ 1 from the mapping's exp_nonpositive (so
// it never overflows; u has the sign of x). Absolute error a few float32 ulps of 1.

constexpr float kGeluC = 0.7978845608028654f; // √(2/π)
constexpr float kGeluA = 0.044715f;

template <class V> typename V::f32x4 tanh_of_gelu_argument(typename V::f32x4 x) {
  const auto u =
      V::mul(V::splat(kGeluC), V::add(x, V::mul(V::splat(kGeluA), V::mul(x, V::mul(x, x)))));
  const auto abs_u = V::max(u, V::sub(V::splat(0.0f), u));
  const auto e = V::exp_nonpositive(V::mul(V::splat(-2.0f), abs_u));
  const auto one = V::splat(1.0f);
  return V::copysign(V::div(V::sub(one, e), V::add(one, e)), u);
}

template <class V> void gelu_block(const float* x, float* g, float* th) {
  const auto xv = V::load(x);
  const auto t = tanh_of_gelu_argument<V>(xv);
  V::store(th, t);
  V::store(g, V::mul(V::mul(V::splat(0.5f), xv), V::add(V::splat(1.0f), t)));
}

/// g[i] = GELU(x[i]) and th[i] = tanh u[i], kept for the backward pass.
template <class V> void gelu(const float* x, std::size_t n, float* g, float* th) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    gelu_block<V>(x + i, g + i, th + i);
  }
  if (i < n) { // the tail: padded with zeros, only n − i lanes stored
    alignas(16) float xt[4] = {0, 0, 0, 0}, gt[4], tt[4];
    std::copy(x + i, x + n, xt);
    gelu_block<V>(xt, gt, tt);
    std::copy(gt, gt + (n - i), g + i);
    std::copy(tt, tt + (n - i), th + i);
  }
}

template <class V> void gelu_backward_block(const float* x, const float* th, float* d) {
  const auto xv = V::load(x);
  const auto t = V::load(th);
  const auto half = V::splat(0.5f), one = V::splat(1.0f);
  const auto slope =
      V::mul(V::splat(kGeluC), V::add(one, V::mul(V::splat(3.0f * kGeluA), V::mul(xv, xv))));
  const auto deriv = V::add(V::mul(half, V::add(one, t)),
                            V::mul(V::mul(half, xv), V::mul(V::sub(one, V::mul(t, t)), slope)));
  V::store(d, V::mul(V::load(d), deriv));
}

/// d[i] *= GELU'(x[i]), from x and th = tanh u as gelu() left them: the gradient through GELU.
template <class V> void gelu_backward(const float* x, const float* th, std::size_t n, float* d) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    gelu_backward_block<V>(x + i, th + i, d + i);
  }
  if (i < n) {
    alignas(16) float xt[4] = {0, 0, 0, 0}, tt[4] = {0, 0, 0, 0}, dt[4] = {0, 0, 0, 0};
    std::copy(x + i, x + n, xt);
    std::copy(th + i, th + n, tt);
    std::copy(d + i, d + n, dt);
    gelu_backward_block<V>(xt, tt, dt);
    std::copy(dt, dt + (n - i), d + i);
  }
}

} // namespace attn::kernels
