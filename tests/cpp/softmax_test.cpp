// softmax over the last axis with temperature, against the float64 reference
// and against the exact limits of the numerics contract (core/README.md).
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "attn/error.hpp"
#include "attn/softmax.hpp"
#include "test_util.hpp"

namespace {

using attn::test::expect_error;

using attn::Tensor;
using attn::Tensor64;
using attn::test::all_close;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr double kRtol = 1e-6;
constexpr double kAtol = 1e-7;

const Tensor kSeedLogits = {1.2f, 4.5f, 2.0f, 0.8f};

Tensor random_logits(std::size_t rows, std::size_t n, unsigned seed, float spread) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> normal(0.0f, spread);
  Tensor x = Tensor::from_shape({rows, n});
  for (auto& v : x) {
    v = normal(gen);
  }
  return x;
}

TEST(softmax, seed_logits_match_reference_at_three_temperatures) {
  for (double tau : {0.25, 1.0, 5.0}) {
    const Tensor y = attn::softmax(kSeedLogits, tau);
    const Tensor64 ref = attn::softmax_reference(xt::cast<double>(kSeedLogits), tau);
    EXPECT_TRUE(all_close(y, ref, kRtol, kAtol)) << "tau = " << tau;
  }
}

TEST(softmax, seed_logits_at_unit_temperature_give_the_known_weights) {
  const Tensor y = attn::softmax(kSeedLogits, 1.0);
  // exp(x_i) / Σ exp(x_k), computed by hand in float64.
  const Tensor64 expected = {0.0322492221, 0.8743615142, 0.0717719637, 0.0216173000};
  EXPECT_TRUE(all_close(y, expected, 0, 5e-6));
}

TEST(softmax, rows_sum_to_one) {
  // Every tail length n mod 4 = 0..3, short and long rows, narrow and wide logits.
  for (std::size_t n : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 17u, 64u, 255u, 1024u, 4099u}) {
    for (float spread : {0.1f, 3.0f, 40.0f}) {
      const Tensor y = attn::softmax(random_logits(3, n, static_cast<unsigned>(n), spread), 1.0);
      for (std::size_t r = 0; r < 3; ++r) {
        double sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_GE(y(r, i), 0.0f) << "row " << r << " index " << i;
          sum += y(r, i);
        }
        EXPECT_NEAR(sum, 1.0, 1e-5) << "n = " << n << ", spread = " << spread << ", row " << r;
      }
    }
  }
}

TEST(softmax, random_rows_match_reference_at_every_tail_length) {
  for (std::size_t n = 1; n <= 67; ++n) {
    const Tensor x = random_logits(4, n, 1000u + static_cast<unsigned>(n), 4.0f);
    for (double tau : {0.1, 1.0, 7.5}) {
      const Tensor y = attn::softmax(x, tau);
      const Tensor64 ref = attn::softmax_reference(xt::cast<double>(x), tau);
      EXPECT_TRUE(all_close(y, ref, 1e-5, 1e-7)) << "n = " << n << ", tau = " << tau;
    }
  }
}

TEST(softmax, large_logits_stay_finite) {
  const Tensor y = attn::softmax(Tensor{1000.0f, 1001.0f, 1002.0f}, 1.0);
  const Tensor shifted = attn::softmax(Tensor{0.0f, 1.0f, 2.0f}, 1.0);
  for (float w : y) {
    EXPECT_TRUE(std::isfinite(w));
  }
  EXPECT_TRUE(all_close(y, shifted, kRtol, kAtol));
}

TEST(softmax, extreme_logits_of_plus_minus_1e30) {
  const Tensor y = attn::softmax(Tensor{1e30f, -1e30f, 1e30f, 0.0f}, 1.0);
  EXPECT_TRUE(all_close(y, Tensor64{0.5, 0.0, 0.5, 0.0}, 0, 0));
}

TEST(softmax, applies_over_the_last_axis_of_a_3d_tensor) {
  Tensor x = random_logits(6, 5, 7u, 2.0f);
  x.reshape({2, 3, 5});
  const Tensor y = attn::softmax(x, 0.5);
  const Tensor64 ref = attn::softmax_reference(xt::cast<double>(x), 0.5);
  ASSERT_EQ(attn::shape_of(y), (attn::Shape{2, 3, 5}));
  EXPECT_TRUE(all_close(y, ref, kRtol, kAtol));
}

TEST(softmax, zero_temperature_is_the_hard_argmax_with_ties_shared) {
  EXPECT_TRUE(all_close(attn::softmax(kSeedLogits, 0.0), Tensor64{0, 1, 0, 0}, 0, 0));
  EXPECT_TRUE(all_close(attn::softmax(Tensor{3.0f, 1.0f, 3.0f}, 0.0), Tensor64{0.5, 0, 0.5}, 0, 0));
}

TEST(softmax, tiny_temperature_approaches_the_argmax) {
  const Tensor y = attn::softmax(kSeedLogits, 1e-3);
  EXPECT_TRUE(all_close(y, Tensor64{0, 1, 0, 0}, 0, 1e-7));
  // 1/τ beyond float range is scaled in float64 and still exact.
  EXPECT_TRUE(all_close(attn::softmax(kSeedLogits, 1e-40), Tensor64{0, 1, 0, 0}, 0, 0));
}

TEST(softmax, infinite_temperature_is_uniform_over_unmasked_positions) {
  EXPECT_TRUE(all_close(attn::softmax(kSeedLogits, kInf), Tensor64{0.25, 0.25, 0.25, 0.25}, 0, 0));
  EXPECT_TRUE(
      all_close(attn::softmax(Tensor{1.0f, -kInf, 9.0f}, kInf), Tensor64{0.5, 0, 0.5}, 0, 0));
  // A huge but finite τ is within float rounding of uniform.
  EXPECT_TRUE(
      all_close(attn::softmax(kSeedLogits, 1e6), Tensor64{0.25, 0.25, 0.25, 0.25}, 1e-5, 0));
}

TEST(softmax, masked_positions_get_exactly_zero) {
  const Tensor y = attn::softmax(Tensor{0.5f, -kInf, 2.0f, -kInf}, 1.0);
  EXPECT_EQ(y(1), 0.0f);
  EXPECT_EQ(y(3), 0.0f);
  EXPECT_NEAR(y(0) + y(2), 1.0, 1e-7);
}

TEST(softmax, fully_masked_row_gives_zeros_and_is_counted) {
  const Tensor x = {{1.0f, 2.0f, 3.0f}, {-kInf, -kInf, -kInf}};
  const Tensor y = attn::softmax(x, 1.0);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(y(1, i), 0.0f) << "index " << i;
  }
  EXPECT_EQ(attn::fully_masked_rows(x), 1u);
  EXPECT_EQ(attn::fully_masked_rows(kSeedLogits), 0u);
}

TEST(softmax, rejects_nan_and_negative_temperature) {
  expect_error<attn::ValueError>([] { attn::softmax(kSeedLogits, std::nan("")); },
                                 "temperature is NaN");
  expect_error<attn::ValueError>([] { attn::softmax(kSeedLogits, -1.0); },
                                 "temperature must be >= 0, got -1");
}

TEST(softmax, rejects_nan_and_positive_infinite_logits_naming_the_index) {
  const Tensor with_nan = {{1.0f, 2.0f, 3.0f}, {4.0f, std::nanf(""), 6.0f}};
  expect_error<attn::ValueError>([&] { attn::softmax(with_nan, 1.0); }, "logits[1, 1] is NaN");
  expect_error<attn::ValueError>(
      [] {
        attn::softmax(Tensor{0.0f, kInf}, 1.0);
      },
      "logits[1] is Infinity; only -Infinity");
}

TEST(softmax, rejects_scalars_and_empty_tensors) {
  expect_error<attn::ShapeError>([] { attn::softmax(Tensor(1.0f), 1.0); }, "at least one axis");
  expect_error<attn::ShapeError>(
      [] {
        attn::softmax(Tensor::from_shape({2, 0}), 1.0);
      },
      "empty (shape [2, 0])");
}

TEST(softmax, errors_are_attn_errors_and_invalid_arguments) {
  expect_error<attn::Error>([] { attn::softmax(kSeedLogits, -2.0); }, "softmax");
  expect_error<std::invalid_argument>([] { attn::softmax(Tensor{std::nanf("")}, 1.0); }, "NaN");
}

} // namespace
