// Every kernel set of this build (scalar_libm, and sse2_rr2_p7 or
// wasm_simd128_rr2_p7 where compiled), one parameterised suite per set named
// after it, against double loops (kernel_tester.hpp) at every tail length:
// n = 1 … 2·kPanel + 3 (every n mod 4 and n mod 8), rows 1 … kBlockRows; the
// training kernels (matrix products, GELU) at every row, column and inner tail.
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernel_tester.hpp"
#include "kernels/kernels.hpp"

namespace attn::kernels {
// gtest prints a test's parameter: the set's name rather than its address.
void PrintTo(const KernelSet* ks, std::ostream* os) {
  *os << ks->name;
}
} // namespace attn::kernels

namespace {

using attn::kernels::KernelSet;
using attn::test::KernelTester;
using attn::test::TrainKernelTester;

TEST(kernels, this_build_has_the_expected_sets) {
  const auto sets = attn::kernels::available();
  ASSERT_GE(sets.size(), 1u);
  EXPECT_STREQ(sets.front()->name, "scalar_libm");
#if defined(__wasm_simd128__)
  EXPECT_STREQ(attn::kernels::best().name, "wasm_simd128_rr2_p7");
#elif defined(__SSE2__)
  EXPECT_STREQ(attn::kernels::best().name, "sse2_rr2_p7");
#endif
}

class kernel_set : public ::testing::TestWithParam<const KernelSet*> {};

TEST_P(kernel_set, softmax_steps_match_double_at_every_tail_length) {
  for (std::size_t n = 1; n <= 2 * attn::kernels::kPanel + 3; ++n) {
    KernelTester().n(n).Test(*GetParam());
  }
}

TEST_P(kernel_set, qk_and_pv_match_double_for_every_tail_row_count_and_stride) {
  const std::size_t dims[][2] = {{1, 1}, {3, 5}, {8, 8}, {17, 11}, {64, 67}}; // e, ev
  for (std::size_t n = 1; n <= 2 * attn::kernels::kPanel + 3; ++n) {
    for (std::size_t rows = 1; rows <= attn::kernels::kBlockRows; ++rows) {
      for (const auto& d : dims) {
        for (std::size_t pad : {0u, 3u}) {
          KernelTester().n(n).rows(rows).e(d[0]).ev(d[1]).stride_padding(pad).Test(*GetParam());
        }
      }
    }
  }
}

TEST_P(kernel_set, long_rows_cross_many_panels) {
  for (std::size_t n : {129u, 130u, 131u, 132u}) {
    KernelTester()
        .n(n)
        .rows(attn::kernels::kBlockRows)
        .e(16)
        .ev(20)
        .stride_padding(1)
        .Test(*GetParam());
  }
}

TEST_P(kernel_set, exp_is_accurate_over_the_whole_nonpositive_range) {
  const KernelSet& ks = *GetParam();
  SCOPED_TRACE(std::string("kernel set ") + ks.name + " (exp: " + ks.exp + ")");
  std::vector<float> x;
  for (float v = -90.0f; v <= 0.0f; v += 0.01171875f) {
    x.push_back(v);
  }
  x.push_back(0.0f);
  std::vector<float> y(x.size());
  ks.raddstoreexpminusmax(x.data(), x.size(), 0.0f, 1.0f, y.data());
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double e = std::exp(double(x[i]));
    if (e < 1.2e-38) {
      EXPECT_LE(y[i], 1.2e-38f) << "at x = " << x[i];
      continue;
    }
    worst = std::max(worst, std::abs(y[i] - e) / e);
  }
  EXPECT_LE(worst, 3e-7) << "max relative error of exp";
  EXPECT_EQ(y.back(), 1.0f) << "exp(0) must be exactly 1";
  RecordProperty("exp_max_rel_error", std::to_string(worst));
}

TEST_P(kernel_set, gemm_nn_nt_tn_match_double_at_every_tail_and_stride) {
  // n and m cover every n mod 4 and m mod 8 (and so m mod 4), k every k mod 4, with padded
  // row strides, plus the model's shapes (the heads' 16, D = 32, the QKV width 96, M = 128).
  for (std::size_t n = 1; n <= 9; ++n) {
    for (std::size_t m = 1; m <= 17; ++m) {
      for (std::size_t k : {1u, 2u, 3u, 4u, 7u, 16u, 33u}) {
        for (std::size_t pad : {0u, 3u}) {
          TrainKernelTester().n(n).k(k).m(m).stride_padding(pad).Test(*GetParam());
        }
      }
    }
  }
  const std::size_t shapes[][3] = {{12, 16, 12}, {384, 32, 96}, {32, 384, 96}, {67, 128, 35}};
  for (const auto& s : shapes) {
    TrainKernelTester().n(s[0]).k(s[1]).m(s[2]).stride_padding(1).Test(*GetParam());
  }
}

TEST_P(kernel_set, gelu_and_its_backward_match_double_at_every_tail_length) {
  for (std::size_t n = 1; n <= 2 * attn::kernels::kPanel + 3; ++n) {
    TrainKernelTester().n(n).TestGelu(*GetParam());
  }
  TrainKernelTester().n(1000).TestGelu(*GetParam());
}

INSTANTIATE_TEST_SUITE_P(kernels, kernel_set, ::testing::ValuesIn(attn::kernels::available()),
                         [](const ::testing::TestParamInfo<const KernelSet*>& info) {
                           return std::string(info.param->name);
                         });

} // namespace
