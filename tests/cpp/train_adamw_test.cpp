// AdamW against two steps computed by hand (30-digit arithmetic), decoupled decay, and its errors.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "attn/error.hpp"
#include "attn/train/adamw.hpp"
#include "test_util.hpp"

namespace {

using attn::test::expect_error;
using attn::train::AdamW;
using attn::train::AdamWOptions;

AdamWOptions hand_options() {
  AdamWOptions o;
  o.learning_rate = 0.1;
  o.beta1 = 0.9;
  o.beta2 = 0.999;
  o.eps = 1e-8;
  o.weight_decay = 0.01;
  return o;
}

// w = (1, −2), the first decayed, the second not; gradients (0.5, −0.1) then (0.2, 0.3).
// Step 1: m = (0.05, −0.01), v = (2.5e-4, 1e-5), m̂/√v̂ = g/|g| up to ε:
//   w₀ = 1·(1 − 0.1·0.01) − 0.1·0.5/(0.5 + 1e-8)       = 0.89900000199999996…
//   w₁ = −2 + 0.1·0.1/(0.1 + 1e-8)                      = −1.900000009999999…
// Step 2: m = (0.065, 0.021), v = (2.8975e-4, 9.999e-5), m̂ = m/0.19, v̂ = v/0.001999:
//   w₀ = 0.80824348390092758598…,  w₁ = −1.9494189911200657853…
TEST(adamw, two_steps_match_the_hand_computed_values) {
  AdamW opt(2, hand_options());
  std::vector<double> w = {1.0, -2.0};
  const std::vector<std::uint8_t> decay = {1, 0};
  opt.step(w, {0.5, -0.1}, decay);
  EXPECT_EQ(opt.steps(), 1u);
  EXPECT_NEAR(w[0], 0.89900000199999996, 1e-15);
  EXPECT_NEAR(w[1], -1.900000009999999, 1e-15);
  EXPECT_NEAR(opt.first_moment()[0], 0.05, 1e-16); // rounding of 0.1·0.5
  EXPECT_NEAR(opt.second_moment()[1], 1e-5, 1e-19);
  opt.step(w, {0.2, 0.3}, decay);
  EXPECT_EQ(opt.steps(), 2u);
  EXPECT_NEAR(w[0], 0.80824348390092758598, 1e-15);
  EXPECT_NEAR(w[1], -1.9494189911200657853, 1e-15);
  EXPECT_NEAR(opt.first_moment()[1], 0.021, 1e-16);
  EXPECT_NEAR(opt.second_moment()[0], 2.8975e-4, 1e-18);
}

TEST(adamw, decay_is_decoupled_from_the_moments_and_scales_the_weight) {
  // zero gradient: m and v stay 0, the Adam term is 0/(0 + ε) = 0, only the decay acts
  AdamWOptions o = hand_options();
  o.weight_decay = 0.5;
  AdamW opt(3, o);
  std::vector<double> w = {4.0, -8.0, 2.0};
  opt.step(w, {0.0, 0.0, 0.0}, {1, 1, 0});
  EXPECT_EQ(w[0], 4.0 * (1 - 0.1 * 0.5));
  EXPECT_EQ(w[1], -8.0 * (1 - 0.1 * 0.5));
  EXPECT_EQ(w[2], 2.0);
  EXPECT_EQ(opt.first_moment()[0], 0.0);
  EXPECT_EQ(opt.second_moment()[0], 0.0);
}

TEST(adamw, first_step_moves_each_weight_by_the_learning_rate_whatever_the_gradient_scale) {
  // bias correction: m̂ = g and v̂ = g² after one step, so the step is lr·g/(|g| + ε)
  AdamWOptions o = hand_options();
  o.weight_decay = 0;
  AdamW opt(3, o);
  std::vector<double> w = {0.0, 0.0, 0.0};
  opt.step(w, {1e3, -1e-3, 7.0}, {0, 0, 0});
  EXPECT_NEAR(w[0], -0.1 * 1e3 / (1e3 + 1e-8), 1e-16);
  EXPECT_NEAR(w[1], 0.1 * 1e-3 / (1e-3 + 1e-8), 1e-16); // ε = 1e-8 is 1e-5 of |g| here
  EXPECT_NEAR(w[2], -0.1 * 7 / (7 + 1e-8), 1e-16);
}

TEST(adamw, rejects_options_outside_their_domain_naming_them) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto with = [](auto field, double value) {
    AdamWOptions o;
    o.*field = value;
    return o;
  };
  expect_error<attn::ValueError>(
      [&] {
        attn::train::validate_adamw(with(&AdamWOptions::learning_rate, -0.1), "createTrainer");
      },
      "createTrainer: learningRate is -0.1; it must be finite and >= 0");
  expect_error<attn::ValueError>([&] { AdamW(1, with(&AdamWOptions::learning_rate, nan)); },
                                 "AdamW: learningRate is NaN");
  expect_error<attn::ValueError>([&] { AdamW(1, with(&AdamWOptions::learning_rate, inf)); },
                                 "learningRate is Infinity");
  expect_error<attn::ValueError>([&] { AdamW(1, with(&AdamWOptions::beta1, 1.0)); },
                                 "beta1 is 1; it must be in [0, 1)");
  expect_error<attn::ValueError>([&] { AdamW(1, with(&AdamWOptions::beta2, nan)); },
                                 "beta2 is NaN");
  expect_error<attn::ValueError>([&] { AdamW(1, with(&AdamWOptions::eps, 0.0)); },
                                 "eps is 0; it must be finite and > 0");
  expect_error<attn::ValueError>([&] { AdamW(1, with(&AdamWOptions::weight_decay, -1.0)); },
                                 "weightDecay is -1");
  AdamW opt(2, AdamWOptions{});
  std::vector<double> w = {1.0};
  expect_error<attn::ShapeError>(
      [&] {
        opt.step(w, {1.0, 2.0}, {0, 0});
      },
      "must have 2 entries, got 1, 2 and 2");
  EXPECT_EQ(opt.steps(), 0u);
}

// step_sum on float32 parts is bitwise step() on their float64 sum taken one part after the other
// (what the trainer's micro-batches rely on), for one to five parts, and refuses bad parts.
TEST(adamw, step_sum_is_bitwise_step_on_the_parts_summed_in_order) {
  std::mt19937 rng(11);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const std::size_t n = 1000;
  AdamWOptions options;
  options.learning_rate = 0.01;
  options.weight_decay = 0.1;
  for (std::size_t k = 1; k <= 5; ++k) {
    AdamW fused(n, options), plain(n, options);
    std::vector<double> wf(n), wp(n);
    std::vector<std::uint8_t> decay(n);
    for (std::size_t i = 0; i < n; ++i) {
      wf[i] = wp[i] = normal(rng);
      decay[i] = i % 3 == 0;
    }
    for (int step = 0; step < 3; ++step) {
      std::vector<std::vector<float>> parts(k, std::vector<float>(n));
      for (auto& part : parts) {
        for (float& g : part) {
          g = normal(rng) * std::pow(10.0f, static_cast<float>(static_cast<int>(rng() % 9) - 4));
        }
      }
      std::vector<double> sum(n);
      std::vector<const std::vector<float>*> pointers;
      for (std::size_t j = 0; j < k; ++j) {
        for (std::size_t i = 0; i < n; ++i) {
          sum[i] =
              j == 0 ? static_cast<double>(parts[j][i]) : sum[i] + static_cast<double>(parts[j][i]);
        }
        pointers.push_back(&parts[j]);
      }
      plain.step(wp, sum, decay);
      fused.step_sum(wf, pointers, decay);
      ASSERT_EQ(wf, wp) << k << " parts, step " << step;
      ASSERT_EQ(fused.first_moment(), plain.first_moment());
      ASSERT_EQ(fused.second_moment(), plain.second_moment());
    }
  }
  AdamW opt(2, AdamWOptions{});
  std::vector<double> w = {1.0, 2.0};
  const std::vector<float> short_part = {1.0f};
  expect_error<attn::ShapeError>(
      [&] {
        opt.step_sum(w, {}, {0, 0});
      },
      "AdamW::step_sum: no gradient parts");
  expect_error<attn::ShapeError>(
      [&] {
        opt.step_sum(w, {&short_part}, {0, 0});
      },
      "must have 2 entries, got 2, 1 and 2");
  EXPECT_EQ(opt.steps(), 0u);
}

} // namespace
