// A tester for one kernel set, in the pattern of XNNPACK's microkernel testers:
// set the sizes and strides, then Test(set) runs every kernel of the set on
// deterministic random data and compares it with a plain loop in double. Every
// failure carries the set's name, its exp algorithm, the tail length n (and n mod
// 4, n mod 8) and the other sizes, so a failing tail says which one.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/kernels.hpp"
#include "test_util.hpp"

namespace attn::test {

class KernelTester {
public:
  /// Keys (qk, pv) or entries (the softmax steps): the tail length.
  KernelTester& n(std::size_t n) {
    n_ = n;
    return *this;
  }
  /// Query rows per qk / pv call, 1..kBlockRows.
  KernelTester& rows(std::size_t rows) {
    rows_ = rows;
    return *this;
  }
  /// Head dimension of q and k (qk).
  KernelTester& e(std::size_t e) {
    e_ = e;
    return *this;
  }
  /// Columns of v and of the accumulators (pv).
  KernelTester& ev(std::size_t ev) {
    ev_ = ev;
    return *this;
  }
  /// Extra floats after each row of q, of the scores / weights, of v and of the accumulators;
  /// qk and pv must neither read them into the result nor write them.
  KernelTester& stride_padding(std::size_t pad) {
    pad_ = pad;
    return *this;
  }

  /// What a failure message names.
  std::string describe(const kernels::KernelSet& ks) const {
    std::ostringstream s;
    s << "kernel set " << ks.name << " (exp: " << ks.exp << "), tail length n = " << n_
      << " (n mod 4 = " << n_ % 4 << ", n mod 8 = " << n_ % 8 << "), rows = " << rows_
      << ", e = " << e_ << ", ev = " << ev_ << ", stride padding " << pad_;
    return s.str();
  }

  /// Every kernel of `ks` against double loops.
  void Test(const kernels::KernelSet& ks) const {
    SCOPED_TRACE(describe(ks));
    TestRmax(ks);
    TestRaddstoreexpminusmax(ks);
    TestVscale(ks);
    TestQk(ks);
    TestPv(ks);
  }

  /// Step 1 of the softmax: the max, exactly; −inf entries included.
  void TestRmax(const kernels::KernelSet& ks) const {
    std::vector<float> x = logits();
    double want = -std::numeric_limits<double>::infinity();
    for (const float v : x) {
      want = std::max(want, double(v));
    }
    EXPECT_EQ(double(ks.rmax(x.data(), n_)), want) << "rmax";
    std::vector<float> all_masked(n_, kNegInf);
    EXPECT_EQ(ks.rmax(all_masked.data(), n_), kNegInf) << "rmax of a fully masked row";
  }

  /// Step 2 of the softmax: y = exp((x − m)·s) within 4e-7 relative (the exponent is rounded to
  /// float32 first, as the kernel does), −inf gives exactly 0, the sum within 1e-6 relative, and
  /// nothing written past n.
  void TestRaddstoreexpminusmax(const kernels::KernelSet& ks) const {
    const std::vector<float> x = logits();
    const float m = *std::max_element(x.begin(), x.end());
    const float s = 0.7f;
    std::vector<float> y(n_ + 1, kSentinel);
    const float sum = ks.raddstoreexpminusmax(x.data(), n_, m, s, y.data());
    double want_sum = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      const double want = std::exp(double((x[i] - m) * s));
      want_sum += want;
      EXPECT_LE(std::abs(y[i] - want), 4e-7 * want + 1e-38)
          << "raddstoreexpminusmax: y[" << i << "] = " << y[i] << ", exp = " << want;
    }
    if (n_ >= 2) {
      EXPECT_EQ(y[n_ / 2], 0.0f) << "raddstoreexpminusmax: exp(-inf) must be exactly 0";
    }
    EXPECT_NEAR(sum, want_sum, 1e-6 * want_sum) << "raddstoreexpminusmax: the sum";
    EXPECT_EQ(y[n_], kSentinel) << "raddstoreexpminusmax wrote past n";
  }

  /// Step 3 of the softmax: y *= c, exactly, nothing written past n.
  void TestVscale(const kernels::KernelSet& ks) const {
    const std::vector<float> x = values(n_, 7u);
    std::vector<float> y(x);
    y.push_back(kSentinel);
    ks.vscale(y.data(), n_, 0.375f);
    for (std::size_t i = 0; i < n_; ++i) {
      EXPECT_EQ(y[i], x[i] * 0.375f) << "vscale at " << i;
    }
    EXPECT_EQ(y[n_], kSentinel) << "vscale wrote past n";
  }

  /// Pass 1: scores = q·kᵀ against keys packed by pack_keys, within 1e-6 of Σ|q·k|.
  void TestQk(const kernels::KernelSet& ks) const {
    const std::size_t q_stride = e_ + pad_, ld = n_ + pad_;
    const std::vector<float> q = values(rows_ * q_stride, 3u);
    const std::vector<float> k = values(n_ * e_, 4u);
    std::vector<float> packed(kernels::padded_keys(n_) * e_);
    kernels::pack_keys(k.data(), n_, e_, e_, packed.data());
    std::vector<float> scores(rows_ * ld, kSentinel);
    ks.qk(q.data(), q_stride, rows_, packed.data(), n_, e_, scores.data(), ld);
    for (std::size_t r = 0; r < rows_; ++r) {
      for (std::size_t j = 0; j < n_; ++j) {
        double dot = 0, mag = 0;
        for (std::size_t c = 0; c < e_; ++c) {
          dot += double(q[r * q_stride + c]) * k[j * e_ + c];
          mag += std::abs(double(q[r * q_stride + c]) * k[j * e_ + c]);
        }
        EXPECT_NEAR(scores[r * ld + j], dot, 1e-6 * mag + 1e-7)
            << "qk at row " << r << ", key " << j;
      }
      for (std::size_t j = n_; j < ld; ++j) {
        EXPECT_EQ(scores[r * ld + j], kSentinel) << "qk wrote past n in row " << r;
      }
    }
  }

  /// Pass 4: acc += p·v, within 1e-6 of Σ|p·v| (the accumulators start at 0.5).
  void TestPv(const kernels::KernelSet& ks) const {
    const std::size_t ld = n_ + pad_, v_stride = ev_ + pad_, acc_stride = ev_ + pad_;
    const std::vector<float> p = values(rows_ * ld, 5u);
    const std::vector<float> v = values(n_ * v_stride, 6u);
    std::vector<float> acc(rows_ * acc_stride, kSentinel);
    for (std::size_t r = 0; r < rows_; ++r) {
      std::fill_n(acc.begin() + r * acc_stride, ev_, 0.5f);
    }
    ks.pv(p.data(), ld, rows_, v.data(), v_stride, n_, ev_, acc.data(), acc_stride);
    for (std::size_t r = 0; r < rows_; ++r) {
      for (std::size_t c = 0; c < ev_; ++c) {
        double sum = 0.5, mag = 0.5;
        for (std::size_t t = 0; t < n_; ++t) {
          sum += double(p[r * ld + t]) * v[t * v_stride + c];
          mag += std::abs(double(p[r * ld + t]) * v[t * v_stride + c]);
        }
        EXPECT_NEAR(acc[r * acc_stride + c], sum, 1e-6 * mag)
            << "pv at row " << r << ", column " << c;
      }
      for (std::size_t c = ev_; c < acc_stride; ++c) {
        EXPECT_EQ(acc[r * acc_stride + c], kSentinel) << "pv wrote past ev in row " << r;
      }
    }
  }

private:
  static constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  static constexpr float kSentinel = 42.0f;

  std::vector<float> values(std::size_t count, unsigned seed) const {
    const Tensor t = random_tensor({count}, seed + 100u * unsigned(n_), 1.0f);
    return std::vector<float>(t.begin(), t.end());
  }

  // Logits spread over ±18 with one masked (−inf) entry when n ≥ 2; the max stays finite.
  std::vector<float> logits() const {
    const Tensor t = random_tensor({n_}, 10u + unsigned(n_), 6.0f);
    std::vector<float> x(t.begin(), t.end());
    if (n_ >= 2) {
      x[n_ / 2] = kNegInf;
    }
    return x;
  }

  std::size_t n_ = 1, rows_ = 1, e_ = 1, ev_ = 1, pad_ = 0;
};

/// The training path's kernels (train_kernels.hpp) in the same pattern: the three matrix products
/// C (n, m) [+]= op(A) · op(B) with inner length k, every row stride padded, against a double loop,
/// with and without accumulate; and GELU forward and backward at every tail length n. A failure
/// names the set, the form, the sizes (n mod 4, m mod 4 and m mod 8, k mod 4 are the tails), the
/// padding and the element.
class TrainKernelTester {
public:
  TrainKernelTester& n(std::size_t n) {
    n_ = n;
    return *this;
  }
  TrainKernelTester& k(std::size_t k) {
    k_ = k;
    return *this;
  }
  TrainKernelTester& m(std::size_t m) {
    m_ = m;
    return *this;
  }
  TrainKernelTester& stride_padding(std::size_t pad) {
    pad_ = pad;
    return *this;
  }

  std::string describe(const kernels::KernelSet& ks) const {
    std::ostringstream s;
    s << "kernel set " << ks.name << " (exp: " << ks.exp << "), C (n, m) = (" << n_ << ", " << m_
      << "), inner k = " << k_ << " (n mod 4 = " << n_ % 4 << ", m mod 4 = " << m_ % 4
      << ", m mod 8 = " << m_ % 8 << ", k mod 4 = " << k_ % 4 << "), stride padding " << pad_;
    return s.str();
  }

  void Test(const kernels::KernelSet& ks) const {
    SCOPED_TRACE(describe(ks));
    for (const bool accumulate : {false, true}) {
      TestGemm(ks, Form::nn, accumulate);
      TestGemm(ks, Form::nt, accumulate);
      TestGemm(ks, Form::tn, accumulate);
    }
  }

  enum class Form { nn, nt, tn };

  /// C [+]= op(A)·op(B) within 2e-6 of Σ|a·b| (+ |C₀|): float32 rounding of a sum of k ≤ 70
  /// products stays below k·2⁻²⁴·Σ|a·b| and is typically √k times smaller; nothing written outside
  /// the (n, m) block of C.
  void TestGemm(const kernels::KernelSet& ks, Form form, bool accumulate) const {
    const char* name = form == Form::nn ? "gemm_nn" : form == Form::nt ? "gemm_nt" : "gemm_tn";
    // A is (n, k) for nn and nt, (k, n) for tn; B is (k, m) for nn and tn, (m, k) for nt.
    const std::size_t a_rows = form == Form::tn ? k_ : n_, a_cols = form == Form::tn ? n_ : k_;
    const std::size_t b_rows = form == Form::nt ? m_ : k_, b_cols = form == Form::nt ? k_ : m_;
    const std::size_t lda = a_cols + pad_, ldb = b_cols + pad_, ldc = m_ + pad_;
    const std::vector<float> a = values(a_rows * lda, 11u);
    const std::vector<float> b = values(b_rows * ldb, 12u);
    std::vector<float> c(n_ * ldc, kSentinel);
    const std::vector<float> c0 = values(n_ * ldc, 13u);
    for (std::size_t i = 0; i < n_; ++i) {
      for (std::size_t j = 0; j < m_; ++j) {
        c[i * ldc + j] = accumulate ? c0[i * ldc + j] : kSentinel;
      }
    }
    auto fn = form == Form::nn ? ks.gemm_nn : form == Form::nt ? ks.gemm_nt : ks.gemm_tn;
    fn(n_, k_, m_, a.data(), lda, b.data(), ldb, c.data(), ldc, accumulate);
    for (std::size_t i = 0; i < n_; ++i) {
      for (std::size_t j = 0; j < m_; ++j) {
        double want = accumulate ? c0[i * ldc + j] : 0.0, mag = std::abs(want);
        for (std::size_t p = 0; p < k_; ++p) {
          const double x = form == Form::tn ? a[p * lda + i] : a[i * lda + p];
          const double y = form == Form::nt ? b[j * ldb + p] : b[p * ldb + j];
          want += x * y;
          mag += std::abs(x * y);
        }
        EXPECT_NEAR(c[i * ldc + j], want, 2e-6 * mag + 1e-30)
            << name << (accumulate ? " (accumulate)" : "") << " at [" << i << ", " << j << "]";
      }
      for (std::size_t j = m_; j < ldc; ++j) {
        EXPECT_EQ(c[i * ldc + j], kSentinel) << name << " wrote past m in row " << i;
      }
    }
  }

  /// GELU and its derivative against the tanh formula in double, at n = n_: g within 1e-6·|x| +
  /// 1e-7, th within 1e-6 absolute (e = exp(−2|u|) then (1 − e)/(1 + e) loses ~2 ulps of 1), and
  /// d·GELU' within 2e-6·|d|·(1 + |x|); nothing written past n.
  void TestGelu(const kernels::KernelSet& ks) const {
    SCOPED_TRACE(describe(ks));
    std::vector<float> x = values(n_, 21u);
    for (std::size_t i = 0; i < n_; ++i) {
      x[i] *= 3.0f; // most of the curve, and its flat tails
    }
    if (n_ >= 3) {
      x[0] = 0.0f;
      x[1] = 40.0f;  // tanh u = 1 exactly: GELU(x) = x
      x[2] = -40.0f; // GELU(x) = 0
    }
    std::vector<float> g(n_ + 1, kSentinel), th(n_ + 1, kSentinel);
    ks.gelu(x.data(), n_, g.data(), th.data());
    const std::vector<float> d0 = values(n_, 22u);
    std::vector<float> d(d0);
    d.push_back(kSentinel);
    ks.gelu_backward(x.data(), th.data(), n_, d.data());
    const double c = 0.7978845608028654, a = 0.044715;
    for (std::size_t i = 0; i < n_; ++i) {
      const double xi = x[i];
      const double t = std::tanh(c * (xi + a * xi * xi * xi));
      const double want_g = 0.5 * xi * (1 + t);
      const double want_d =
          d0[i] * (0.5 * (1 + t) + 0.5 * xi * (1 - t * t) * c * (1 + 3 * a * xi * xi));
      EXPECT_NEAR(g[i], want_g, 1e-6 * std::abs(xi) + 1e-7) << "gelu at " << i << ", x = " << xi;
      EXPECT_NEAR(th[i], t, 1e-6) << "gelu's tanh at " << i << ", x = " << xi;
      EXPECT_NEAR(d[i], want_d, 2e-6 * std::abs(d0[i]) * (1 + std::abs(xi)))
          << "gelu_backward at " << i << ", x = " << xi;
    }
    if (n_ >= 3) {
      EXPECT_EQ(g[1], 40.0f);
      EXPECT_EQ(g[2], 0.0f);
    }
    EXPECT_EQ(g[n_], kSentinel) << "gelu wrote past n";
    EXPECT_EQ(th[n_], kSentinel) << "gelu wrote its tanh past n";
    EXPECT_EQ(d[n_], kSentinel) << "gelu_backward wrote past n";
  }

private:
  static constexpr float kSentinel = 42.0f;

  std::vector<float> values(std::size_t count, unsigned seed) const {
    const Tensor t = random_tensor({count}, seed + 100u * unsigned(n_ + 7 * k_ + 31 * m_), 1.0f);
    return std::vector<float>(t.begin(), t.end());
  }

  std::size_t n_ = 1, k_ = 1, m_ = 1, pad_ = 0;
};

} // namespace attn::test
