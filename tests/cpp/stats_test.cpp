// Entropy of weight rows, effective positions, and the sqrt(d_k) scaling experiment
// ("Lesson 44: The Attention Mechanism", exercise: remove the scaling, grow D from 8 to 128).
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "attn/error.hpp"
#include "attn/softmax.hpp"
#include "attn/stats.hpp"
#include "test_util.hpp"

namespace {

using attn::test::expect_error;

using attn::Tensor;
using attn::Tensor64;
using attn::test::all_close;

const std::vector<std::size_t> kDims = {8, 16, 32, 64, 128};

TEST(entropy, uniform_rows_have_entropy_log_n) {
  for (std::size_t n : {1u, 2u, 5u, 64u, 1000u}) {
    Tensor w = Tensor::from_shape({n});
    w.fill(1.0f / static_cast<float>(n));
    const Tensor h = attn::entropy(w);
    EXPECT_NEAR(h(), std::log(static_cast<double>(n)), 1e-5) << "n = " << n;
  }
}

TEST(entropy, one_hot_rows_have_entropy_plus_zero) {
  const Tensor h = attn::entropy(Tensor{{0.0f, 1.0f, 0.0f}, {1.0f, 0.0f, 0.0f}});
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_EQ(h(r), 0.0f) << "row " << r;
    EXPECT_FALSE(std::signbit(h(r))) << "row " << r << " is -0";
  }
}

TEST(entropy, known_values) {
  // ln 2 for half-half with zeros (0 · ln 0 = 0); −(¼ ln ¼ + ¾ ln ¾); and the softmax at
  // τ = 1 of the notebook's logits (1.2, 4.5, 2.0, 0.8), computed in float64.
  EXPECT_NEAR(attn::entropy(Tensor{0.5f, 0.0f, 0.5f, 0.0f})(), std::log(2.0), 1e-6);
  EXPECT_NEAR(attn::entropy(Tensor{0.25f, 0.75f})(), 0.5623351446188083, 1e-6);
  const Tensor w = attn::softmax(Tensor{1.2f, 4.5f, 2.0f, 0.8f}, 1.0);
  EXPECT_NEAR(attn::entropy(w)(), 0.50009770935671, 1e-5);
}

TEST(entropy, reduces_the_last_axis) {
  Tensor w = Tensor::from_shape({2, 3, 4});
  w.fill(0.25f);
  const Tensor h = attn::entropy(w);
  ASSERT_EQ(attn::shape_of(h), (attn::Shape{2, 3}));
  Tensor64 expected = Tensor64::from_shape({2, 3});
  expected.fill(std::log(4.0));
  EXPECT_TRUE(all_close(h, expected, 1e-6, 0));
}

TEST(entropy, a_vector_gives_a_zero_d_tensor) {
  const Tensor h = attn::entropy(Tensor{0.5f, 0.5f});
  EXPECT_EQ(h.dimension(), 0u);
  EXPECT_EQ(h.size(), 1u);
}

TEST(entropy, applies_the_formula_as_is_to_rows_that_do_not_sum_to_one) {
  // Not renormalised: −2 ln 2 for (2, 0).
  EXPECT_NEAR(attn::entropy(Tensor{2.0f, 0.0f})(), -2 * std::log(2.0), 1e-6);
}

TEST(entropy, rejects_negative_nan_and_infinite_weights_naming_the_index) {
  const float inf = std::numeric_limits<float>::infinity();
  expect_error<attn::ValueError>(
      [] {
        attn::entropy(Tensor{{0.5f, 0.5f}, {1.5f, -0.5f}});
      },
      "entropy: weights[1, 1] is -0.5; weights must be finite and >= 0");
  expect_error<attn::ValueError>(
      [] {
        attn::entropy(Tensor{0.5f, std::nanf("")});
      },
      "entropy: weights[1] is NaN");
  expect_error<attn::ValueError>(
      [&] {
        attn::entropy(Tensor{inf, 0.0f});
      },
      "entropy: weights[0] is Infinity");
}

TEST(entropy, rejects_scalars_and_empty_tensors) {
  expect_error<attn::ShapeError>([] { attn::entropy(Tensor(1.0f)); },
                                 "entropy: weights must have at least one axis");
  expect_error<attn::ShapeError>(
      [] {
        attn::entropy(Tensor::from_shape({3, 0}));
      },
      "entropy: weights are empty (shape [3, 0])");
}

TEST(effective_positions, is_n_for_uniform_and_one_for_one_hot) {
  const Tensor e = attn::effective_positions(
      Tensor{{0.25f, 0.25f, 0.25f, 0.25f}, {0.0f, 0.0f, 1.0f, 0.0f}, {0.5f, 0.0f, 0.5f, 0.0f}});
  EXPECT_TRUE(all_close(e, Tensor64{4.0, 1.0, 2.0}, 1e-6, 0));
  const Tensor w = attn::softmax(Tensor{1.2f, 4.5f, 2.0f, 0.8f}, 1.0);
  EXPECT_NEAR(attn::effective_positions(w)(), 1.6488823740654073, 1e-5);
}

TEST(effective_positions, errors_name_effective_positions) {
  expect_error<attn::ValueError>([] { attn::effective_positions(Tensor{-1.0f}); },
                                 "effective_positions: weights[0] is -1");
}

TEST(scaling_statistics, unscaled_weights_collapse_toward_one_hot_as_d_grows) {
  const attn::ScalingStats s = attn::scaling_statistics(kDims, false, 2000, 7);
  ASSERT_EQ(s.dims, kDims);
  ASSERT_EQ(s.mean_max_weight.size(), kDims.size());
  ASSERT_EQ(s.mean_entropy.size(), kDims.size());
  for (std::size_t i = 1; i < kDims.size(); ++i) {
    EXPECT_GT(s.mean_max_weight[i], s.mean_max_weight[i - 1] + 0.02) << "d = " << kDims[i];
    EXPECT_LT(s.mean_entropy[i], s.mean_entropy[i - 1] - 0.05) << "d = " << kDims[i];
  }
  EXPECT_GT(s.mean_max_weight.back(), 0.85); // about 0.93 at d = 128
}

TEST(scaling_statistics, unscaled_max_weight_exceeds_the_scaled_one_at_d_128) {
  const attn::ScalingStats unscaled = attn::scaling_statistics({128}, false, 2000, 3);
  const attn::ScalingStats scaled = attn::scaling_statistics({128}, true, 2000, 3);
  // About 0.93 against 0.46.
  EXPECT_GT(unscaled.mean_max_weight[0], scaled.mean_max_weight[0] + 0.3);
  EXPECT_LT(unscaled.mean_entropy[0], scaled.mean_entropy[0] - 0.8);
}

TEST(scaling_statistics, scaled_weights_stay_about_the_same_across_d) {
  // Standard errors over 2000 draws are about 0.004 (max weight) and 0.007 (entropy).
  const attn::ScalingStats s = attn::scaling_statistics(kDims, true, 2000, 11);
  for (std::size_t i = 1; i < kDims.size(); ++i) {
    EXPECT_NEAR(s.mean_max_weight[i], s.mean_max_weight[0], 0.03) << "d = " << kDims[i];
    EXPECT_NEAR(s.mean_entropy[i], s.mean_entropy[0], 0.06) << "d = " << kDims[i];
  }
}

TEST(scaling_statistics, statistics_lie_in_their_ranges) {
  // Max weight in [1/tokens, 1], entropy in [0, ln tokens]; one token is always one-hot.
  for (std::size_t tokens : {1u, 3u, 9u}) {
    const attn::ScalingStats s = attn::scaling_statistics({4, 32}, false, 300, 5, tokens);
    const double n = static_cast<double>(tokens);
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_GE(s.mean_max_weight[i], 1 / n - 1e-6) << "tokens " << tokens;
      EXPECT_LE(s.mean_max_weight[i], 1 + 1e-6) << "tokens " << tokens;
      EXPECT_GE(s.mean_entropy[i], 0) << "tokens " << tokens;
      EXPECT_LE(s.mean_entropy[i], std::log(n) + 1e-6) << "tokens " << tokens;
    }
  }
  const attn::ScalingStats one = attn::scaling_statistics({16}, true, 10, 5, 1);
  EXPECT_EQ(one.mean_max_weight[0], 1.0);
  EXPECT_EQ(one.mean_entropy[0], 0.0);
}

TEST(scaling_statistics, is_deterministic_for_a_seed_and_each_d_is_independent_of_the_others) {
  const attn::ScalingStats a = attn::scaling_statistics({8, 128}, false, 500, 42);
  const attn::ScalingStats b = attn::scaling_statistics({8, 128}, false, 500, 42);
  EXPECT_EQ(a.mean_max_weight, b.mean_max_weight);
  EXPECT_EQ(a.mean_entropy, b.mean_entropy);
  const attn::ScalingStats alone = attn::scaling_statistics({128}, false, 500, 42);
  EXPECT_EQ(alone.mean_max_weight[0], a.mean_max_weight[1]);
  const attn::ScalingStats other = attn::scaling_statistics({8, 128}, false, 500, 43);
  EXPECT_NE(other.mean_max_weight[0], a.mean_max_weight[0]);
  EXPECT_NE(other.mean_max_weight[1], a.mean_max_weight[1]);
}

TEST(scaling_statistics, rejects_empty_or_zero_arguments) {
  expect_error<attn::ValueError>([] { attn::scaling_statistics({}, true, 10, 1); },
                                 "scaling_statistics: dims is empty");
  expect_error<attn::ValueError>(
      [] {
        attn::scaling_statistics({8, 0, 16}, true, 10, 1);
      },
      "scaling_statistics: dims[1] is 0; dimensions must be >= 1");
  expect_error<attn::ValueError>([] { attn::scaling_statistics({8}, true, 0, 1); },
                                 "scaling_statistics: draws is 0");
  expect_error<attn::ValueError>([] { attn::scaling_statistics({8}, true, 10, 1, 0); },
                                 "scaling_statistics: tokens is 0");
}

TEST(scaling_statistics, rejects_work_beyond_5e8_multiply_adds_saying_how_much) {
  expect_error<attn::ValueError>(
      [] {
        attn::scaling_statistics({128, 512}, false, 1000000, 1);
      },
      "draws x tokens x sum(dims) = 1000000 x 5 x 640 = 3.2e+09 multiply-adds, more than the "
      "limit of 500000000");
  expect_error<attn::MemoryError>(
      [] {
        attn::scaling_statistics({8, std::size_t(1) << 25}, false, 1, 1);
      },
      "scaling_statistics: dims[1] = 33554432 is more than 16777216 (2^24)");
  expect_error<attn::MemoryError>(
      [] { attn::scaling_statistics({1}, false, 1, 1, std::size_t(1) << 25); },
      "scaling_statistics: tokens = 33554432 is more than 16777216 (2^24)");
}

} // namespace
