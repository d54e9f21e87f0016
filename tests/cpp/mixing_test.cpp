// Convex combinations, row-stochastic reports and head reshaping.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "attn/error.hpp"
#include "attn/heads.hpp"
#include "attn/mixing.hpp"
#include "test_util.hpp"

namespace {

using attn::test::expect_error;

using attn::Tensor;
using attn::Tensor64;
using attn::test::all_close;

const Tensor kV = {{1, 0, 0}, {0, 2, 0}, {0, 0, 3}, {1, 1, 1}};
const Tensor kAlpha = {0.40f, 0.10f, 0.20f, 0.30f};

TEST(convex_combination, seed_weights_give_the_notebook_mixture) {
  const Tensor y = attn::convex_combination(kAlpha, kV);
  EXPECT_TRUE(all_close(y, Tensor64{0.7, 0.5, 0.9}, 1e-6, 1e-7));
}

TEST(convex_combination, loop_sum_and_matrix_product_agree) {
  const Tensor a = {{0.5f, 0.5f, 0.0f, 0.0f}, {0.1f, 0.2f, 0.3f, 0.4f}};
  EXPECT_TRUE(all_close(attn::convex_combination(a, kV), attn::convex_combination_reference(a, kV),
                        1e-6, 1e-7));
}

TEST(convex_combination, rejects_negative_weights_and_bad_sums) {
  expect_error<attn::ValueError>(
      [] {
        attn::convex_combination(Tensor{0.6f, -0.1f, 0.3f, 0.2f}, kV);
      },
      "weights[1] is -0.100000001; weights must be finite and >= 0");
  expect_error<attn::ValueError>(
      [] {
        attn::convex_combination(Tensor{{0.25f, 0.25f, 0.25f, 0.25f}, {0.5f, 0.5f, 0.5f, 0.0f}},
                                 kV);
      },
      "weights row 1 sums to 1.5");
  expect_error<attn::ShapeError>(
      [] {
        attn::convex_combination(Tensor{0.5f, 0.5f}, kV);
      },
      "weights have T = 2 but values have 4 rows");
  expect_error<attn::ValueError>(
      [] {
        attn::convex_combination(Tensor{NAN, 1.0f, 0, 0}, kV);
      },
      "weights[0] is NaN");
}

TEST(row_stochastic_report, measures_row_sums_and_the_smallest_entry) {
  const auto ok = attn::row_stochastic_report(Tensor{{0.2f, 0.8f}, {1.0f, 0.0f}});
  EXPECT_TRUE(ok.is_row_stochastic);
  EXPECT_LE(ok.max_row_sum_error, 1e-7);
  EXPECT_EQ(ok.min_entry, 0.0);
  const auto bad = attn::row_stochastic_report(Tensor{{0.2f, 0.7f}, {1.2f, -0.2f}});
  EXPECT_FALSE(bad.is_row_stochastic);
  EXPECT_NEAR(bad.max_row_sum_error, 0.1, 1e-6);
  EXPECT_NEAR(bad.min_entry, -0.2, 1e-6);
  expect_error<attn::ValueError>(
      [] {
        attn::row_stochastic_report(Tensor{0.5f, INFINITY});
      },
      "A[1] is Infinity");
}

TEST(heads, split_then_merge_is_the_identity) {
  const Tensor x = attn::test::random_tensor({2, 5, 12}, 4u);
  const Tensor split = attn::split_heads(x, 3);
  ASSERT_EQ(attn::shape_of(split), (attn::Shape{2, 3, 5, 4}));
  EXPECT_EQ(split(1, 2, 3, 1), x(1, 3, 2 * 4 + 1));
  EXPECT_TRUE(all_close(attn::merge_heads(split), x, 0, 0));
}

TEST(heads, rejects_indivisible_dimensions_and_wrong_ranks) {
  const Tensor x = attn::test::random_tensor({2, 5, 12}, 4u);
  expect_error<attn::ShapeError>([&] { attn::split_heads(x, 5); },
                                 "the model dimension 12 is not divisible by heads = 5");
  expect_error<attn::ShapeError>([&] { attn::split_heads(x, 0); }, "heads = 0");
  expect_error<attn::ShapeError>([&] { attn::merge_heads(x); }, "(B, h, T, d)");
}

} // namespace
