// Every kernel set of this build (scalar, and sse2 or wasm_simd128 where
// compiled) against float64 references, at every tail length n mod 4 = 0..3.
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/kernels.hpp"
#include "test_util.hpp"

namespace {

using attn::kernels::KernelSet;
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

std::vector<float> values(std::size_t n, unsigned seed, float spread) {
  const attn::Tensor t = attn::test::random_tensor({n}, seed, spread);
  return std::vector<float>(t.begin(), t.end());
}

TEST(kernels, this_build_has_the_expected_sets) {
  const auto sets = attn::kernels::available();
  ASSERT_GE(sets.size(), 1u);
  EXPECT_STREQ(sets.front()->isa, "scalar");
#if defined(__wasm_simd128__)
  EXPECT_STREQ(attn::kernels::best().isa, "wasm_simd128");
#elif defined(__SSE2__)
  EXPECT_STREQ(attn::kernels::best().isa, "sse2");
#endif
}

TEST(kernels, softmax_passes_match_float64_at_every_tail_length) {
  for (const KernelSet* ks : attn::kernels::available()) {
    double worst_rel = 0;
    for (std::size_t n = 1; n <= 37; ++n) {
      std::vector<float> x = values(n, 10u + unsigned(n), 6.0f);
      const bool masked = n >= 2;
      if (masked) {
        x[n / 2] = kNegInf; // a masked entry (the row max stays finite)
      }
      const float m = ks->rmax(x.data(), n);
      double ref_max = -INFINITY;
      for (float v : x) {
        ref_max = std::max(ref_max, double(v));
      }
      ASSERT_EQ(double(m), ref_max) << ks->isa << " rmax, n = " << n;

      const float s = 0.7f;
      std::vector<float> y(n);
      const float sum = ks->raddstoreexpminusmax(x.data(), n, m, s, y.data());
      double ref_sum = 0;
      for (std::size_t i = 0; i < n; ++i) {
        // The kernels evaluate the exponent (x − m)·s in float32; compare exp itself.
        const float arg = (x[i] - m) * s;
        const double e = std::exp(double(arg));
        ref_sum += e;
        const double err = std::abs(y[i] - e);
        ASSERT_LE(err, 4e-7 * e + 1e-38) << ks->isa << " exp at n = " << n << ", i = " << i;
        worst_rel = std::max(worst_rel, e > 0 ? err / e : 0.0);
      }
      if (masked) {
        EXPECT_EQ(y[n / 2], 0.0f) << ks->isa << ": exp(-inf) must be exactly 0";
      }
      EXPECT_NEAR(sum, ref_sum, 1e-6 * ref_sum) << ks->isa << " n = " << n;

      const std::vector<float> before = y;
      ks->vscale(y.data(), n, 2.0f);
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(y[i], 2.0f * before[i]) << ks->isa << " vscale at " << i;
      }
    }
    RecordProperty(std::string(ks->isa) + "_exp_max_rel_error", std::to_string(worst_rel));
  }
}

TEST(kernels, exp_is_accurate_over_the_whole_nonpositive_range) {
  for (const KernelSet* ks : attn::kernels::available()) {
    std::vector<float> x;
    for (float v = -90.0f; v <= 0.0f; v += 0.01171875f) {
      x.push_back(v);
    }
    x.push_back(0.0f);
    std::vector<float> y(x.size());
    ks->raddstoreexpminusmax(x.data(), x.size(), 0.0f, 1.0f, y.data());
    double worst = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double e = std::exp(double(x[i]));
      if (e < 1.2e-38) {
        EXPECT_LE(y[i], 1.2e-38f) << ks->isa << " at x = " << x[i];
        continue;
      }
      worst = std::max(worst, std::abs(y[i] - e) / e);
    }
    EXPECT_LE(worst, 3e-7) << ks->isa << " max relative error of exp";
    EXPECT_EQ(y.back(), 1.0f) << ks->isa << ": exp(0) must be exactly 1";
  }
}

TEST(kernels, qk_matches_float64_for_every_row_count_and_tail) {
  for (const KernelSet* ks : attn::kernels::available()) {
    for (std::size_t rows = 1; rows <= attn::kernels::kBlockRows; ++rows) {
      for (std::size_t e : {1u, 3u, 8u, 64u}) {
        for (std::size_t n : {1u, 2u, 3u, 4u, 7u, 8u, 9u, 17u, 130u}) {
          const std::vector<float> q = values(rows * e, 3u, 1.0f);
          const std::vector<float> k = values(n * e, 4u, 1.0f);
          std::vector<float> packed(attn::kernels::padded_keys(n) * e);
          attn::kernels::pack_keys(k.data(), n, e, e, packed.data());
          const std::size_t ld = n + 3;
          std::vector<float> scores(rows * ld, 42.0f);
          ks->qk(q.data(), e, rows, packed.data(), n, e, scores.data(), ld);
          for (std::size_t r = 0; r < rows; ++r) {
            for (std::size_t j = 0; j < n; ++j) {
              double dot = 0, mag = 0;
              for (std::size_t c = 0; c < e; ++c) {
                dot += double(q[r * e + c]) * k[j * e + c];
                mag += std::abs(double(q[r * e + c]) * k[j * e + c]);
              }
              ASSERT_NEAR(scores[r * ld + j], dot, 1e-6 * mag + 1e-7)
                  << ks->isa << " rows " << rows << " e " << e << " n " << n << " at " << r << ","
                  << j;
            }
            for (std::size_t j = n; j < ld; ++j) {
              ASSERT_EQ(scores[r * ld + j], 42.0f) << ks->isa << ": wrote past n";
            }
          }
        }
      }
    }
  }
}

TEST(kernels, pv_matches_float64_for_every_row_count_and_tail) {
  for (const KernelSet* ks : attn::kernels::available()) {
    for (std::size_t rows = 1; rows <= attn::kernels::kBlockRows; ++rows) {
      for (std::size_t ev : {1u, 3u, 4u, 5u, 8u, 11u, 16u, 64u, 67u}) {
        for (std::size_t n : {1u, 3u, 4u, 129u}) {
          const std::vector<float> p = values(rows * n, 5u, 1.0f);
          const std::vector<float> v = values(n * ev, 6u, 1.0f);
          const std::size_t acc_stride = ev + 2;
          std::vector<float> acc(rows * acc_stride, 0.5f);
          ks->pv(p.data(), n, rows, v.data(), ev, n, ev, acc.data(), acc_stride);
          for (std::size_t r = 0; r < rows; ++r) {
            for (std::size_t c = 0; c < ev; ++c) {
              double sum = 0.5, mag = 0.5;
              for (std::size_t t = 0; t < n; ++t) {
                sum += double(p[r * n + t]) * v[t * ev + c];
                mag += std::abs(double(p[r * n + t]) * v[t * ev + c]);
              }
              ASSERT_NEAR(acc[r * acc_stride + c], sum, 1e-6 * mag)
                  << ks->isa << " rows " << rows << " ev " << ev << " n " << n;
            }
            for (std::size_t c = ev; c < acc_stride; ++c) {
              ASSERT_EQ(acc[r * acc_stride + c], 0.5f) << ks->isa << ": wrote past ev";
            }
          }
        }
      }
    }
  }
}

} // namespace
