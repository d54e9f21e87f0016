// attention_scores (passes 1–2: scale·QKᵀ + mask) against the logits that
// scaled_dot_product_attention returns with return_logits: exactly equal, with
// every kernel set, every mask kind and broadcast batch axes; and its errors.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "attention_internal.hpp"
#include "attn/attention.hpp"
#include "attn/error.hpp"
#include "test_util.hpp"

namespace {

using attn::AttentionOptions;
using attn::Mask;
using attn::Shape;
using attn::Tensor;
using attn::test::expect_error;
using attn::test::random_tensor;

// Bit-for-bit equality (−inf included), naming the first index that differs.
::testing::AssertionResult exactly_equal(const Tensor& got, const Tensor& want) {
  if (attn::shape_of(got) != attn::shape_of(want)) {
    return ::testing::AssertionFailure()
           << "shape " << attn::format_shape(attn::shape_of(got)) << " differs from "
           << attn::format_shape(attn::shape_of(want));
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!(got.data()[i] == want.data()[i])) {
      return ::testing::AssertionFailure() << "at " << attn::format_index(attn::shape_of(got), i)
                                           << ": " << got.data()[i] << " != " << want.data()[i];
    }
  }
  return ::testing::AssertionSuccess();
}

// attention_scores(q, k) with every kernel set equals the logits of attention with v = ones.
void expect_equals_attention_logits(const Tensor& q, const Tensor& k, AttentionOptions o,
                                    const std::string& what) {
  Shape vs = attn::shape_of(k);
  vs.back() = 3;
  const Tensor v = xt::ones<float>(vs);
  o.return_logits = true;
  for (const auto* ks : attn::kernels::available()) {
    const Tensor want = attn::detail::attention_with(*ks, q, k, v, o).logits;
    const Tensor got = attn::detail::attention_scores_with(*ks, q, k, o);
    EXPECT_TRUE(exactly_equal(got, want)) << what << " [" << ks->isa << "]";
  }
  EXPECT_TRUE(exactly_equal(attn::attention_scores(q, k, o),
                            attn::scaled_dot_product_attention(q, k, v, o).logits))
      << what << " [best]";
}

TEST(attention_scores, equal_the_logits_of_attention_for_every_shape_and_mask) {
  for (const auto& [L, S, E] : {std::tuple{1, 1, 1}, std::tuple{5, 5, 8}, std::tuple{3, 7, 5},
                                std::tuple{9, 17, 3}, std::tuple{6, 130, 16}}) {
    const Tensor q = random_tensor({2, std::size_t(L), std::size_t(E)}, 1u);
    const Tensor k = random_tensor({2, std::size_t(S), std::size_t(E)}, 2u);
    const std::string shape =
        "L=" + std::to_string(L) + " S=" + std::to_string(S) + " E=" + std::to_string(E);
    AttentionOptions o;
    expect_equals_attention_logits(q, k, o, shape + " no mask");
    o.scale = 0.3;
    expect_equals_attention_logits(q, k, o, shape + " scale 0.3");
    o = {};
    o.mask = Mask::causal_mask();
    expect_equals_attention_logits(q, k, o, shape + " causal");
    o.mask = Mask::local(2, true);
    expect_equals_attention_logits(q, k, o, shape + " causal window 2");
    o.mask = Mask::local(1);
    expect_equals_attention_logits(q, k, o, shape + " window 1");
    xt::xarray<std::uint8_t> allowed = xt::ones<std::uint8_t>({std::size_t(L), std::size_t(S)});
    allowed(0, 0) = 0;
    allowed(L - 1, S - 1) = 0;
    o.mask = Mask::boolean(allowed);
    expect_equals_attention_logits(q, k, o, shape + " boolean");
    Tensor add = random_tensor({std::size_t(S)}, 3u);
    add(0) = -std::numeric_limits<float>::infinity();
    o.mask = Mask::add(add);
    expect_equals_attention_logits(q, k, o, shape + " additive (S) broadcast over rows");
  }
}

TEST(attention_scores, are_scale_times_q_k_transposed_plus_mask_minus_inf_where_forbidden) {
  // q (1, 2, 2), k (3, 2): one batch axis from q only.
  const Tensor q = {{{1.0f, 0.0f}, {0.0f, 2.0f}}};
  const Tensor k = {{1.0f, 1.0f}, {2.0f, 0.0f}, {0.0f, -1.0f}};
  AttentionOptions o;
  o.scale = 0.5;
  o.temperature = 7; // not applied: the softmax's business
  o.mask = Mask::causal_mask();
  const Tensor got = attn::attention_scores(q, k, o);
  const float inf = std::numeric_limits<float>::infinity();
  const Tensor want = {{{0.5f, -inf, -inf}, {1.0f, 0.0f, -inf}}};
  EXPECT_TRUE(exactly_equal(got, want));
  o = {};
  const Tensor plain = attn::attention_scores(q, k, o); // scale 1/sqrt(2)
  EXPECT_FLOAT_EQ(plain(0, 1, 0), 2.0f / std::sqrt(2.0f));
}

TEST(attention_scores, broadcast_batch_axes_like_attention) {
  const Tensor q = random_tensor({2, 1, 4, 8}, 1u);
  const Tensor k = random_tensor({3, 6, 8}, 2u);
  AttentionOptions o;
  xt::xarray<std::uint8_t> allowed = xt::ones<std::uint8_t>({3, 1, 6});
  allowed(1, 0, 2) = 0;
  o.mask = Mask::boolean(allowed);
  expect_equals_attention_logits(q, k, o, "q (2,1,4,8) k (3,6,8) boolean (3,1,6)");
  EXPECT_EQ(attn::shape_of(attn::attention_scores(q, k, o)), (Shape{2, 3, 4, 6}));
}

TEST(attention_scores, rejects_bad_input_naming_attention_scores) {
  const Tensor m = random_tensor({5, 8}, 1u);
  using attn::ShapeError;
  using attn::ValueError;
  expect_error<ShapeError>([&] { attn::attention_scores(Tensor{1.0f}, m); },
                           "attention_scores: q must have shape (..., L, E), got [1]");
  expect_error<ShapeError>([&] { attn::attention_scores(m, Tensor{1.0f}); },
                           "attention_scores: k must have shape (..., S, E), got [1]");
  expect_error<ShapeError>(
      [&] {
        attn::attention_scores(m, random_tensor({5, 4}, 2u));
      },
      "attention_scores: q has E = 8 but k has E = 4");
  expect_error<ShapeError>(
      [&] {
        attn::attention_scores(random_tensor({2, 5, 8}, 1u), random_tensor({3, 5, 8}, 1u));
      },
      "attention_scores: the batch axes of q and k do not broadcast: [2] and [3]");
  expect_error<ShapeError>(
      [&] {
        attn::attention_scores(Tensor::from_shape({0, 8}), m);
      },
      "attention_scores: q is empty");
  expect_error<ShapeError>(
      [&] {
        attn::attention_scores(m, Tensor::from_shape({5, 0}));
      },
      "attention_scores: q has E = 8 but k has E = 0");
  expect_error<ShapeError>(
      [&] {
        attn::attention_scores(Tensor::from_shape({3, 0}), Tensor::from_shape({2, 0}));
      },
      "attention_scores: q is empty");

  Tensor bad = m;
  bad(2, 3) = std::nanf("");
  expect_error<ValueError>([&] { attn::attention_scores(bad, m); },
                           "attention_scores: q[2, 3] is NaN");
  bad(2, 3) = -INFINITY;
  expect_error<ValueError>([&] { attn::attention_scores(m, bad); },
                           "attention_scores: k[2, 3] is -Infinity");
  AttentionOptions o;
  o.scale = INFINITY;
  expect_error<ValueError>([&] { attn::attention_scores(m, m, o); },
                           "attention_scores: scale must be a finite number");
  o = {};
  o.mask = Mask::boolean(xt::ones<std::uint8_t>({4, 5}));
  expect_error<ShapeError>([&] { attn::attention_scores(m, m, o); },
                           "attention_scores: the boolean mask of shape [4, 5] does not broadcast "
                           "to (..., L, S) = [5, 5]");
  Tensor add = xt::zeros<float>({5, 5});
  add(1, 1) = std::nanf("");
  o.mask = Mask::add(add);
  expect_error<ValueError>([&] { attn::attention_scores(m, m, o); },
                           "attention_scores: additive mask[1, 1] is NaN");
  o = {};
  o.scale = 1;
  Tensor big = Tensor::from_shape({1, 1});
  big(0, 0) = 3e38f;
  expect_error<ValueError>([&] { attn::attention_scores(big, big, o); },
                           "attention_scores: the logits of query row 0 overflow float32");
}

TEST(attention_scores, need_no_temperature_and_refuse_logits_beyond_memory) {
  const Tensor m = random_tensor({2, 3}, 1u);
  AttentionOptions o;
  o.temperature = -1; // attention would refuse it; the scores never use it
  EXPECT_EQ(attn::shape_of(attn::attention_scores(m, m, o)), (Shape{2, 2}));
  const Tensor q = random_tensor({20000, 1}, 1u);
  // 20000 × 20000 logits = 1.6 GB.
  expect_error<attn::MemoryError>(
      [&] { attn::attention_scores(q, q); },
      "attention_scores: logits of shape [20000, 20000] need 1525 MiB, more than can be had");
}

} // namespace
