// scaled_dot_product_attention with every kernel set, fused and two-pass,
// against the float64 reference; masks, limits, broadcasting and errors.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "attention_internal.hpp"
#include "attn/attention.hpp"
#include "attn/error.hpp"
#include "test_util.hpp"

namespace {

using attn::test::expect_error;

using attn::AttentionOptions;
using attn::Mask;
using attn::Shape;
using attn::Tensor;
using attn::Tensor64;
using attn::test::all_close;
using attn::test::random_tensor;

struct Qkv {
  Tensor q, k, v;
};

// The lesson's example: B = 2, T = 5, D = 8.
Qkv seed_qkv() {
  return {random_tensor({2, 5, 8}, 1u), random_tensor({2, 5, 8}, 2u), random_tensor({2, 5, 8}, 3u)};
}

// Runs every kernel set, fused (no weights) and two-pass (weights), and checks
// output, weights and the masked-row count against the reference.
void expect_matches_reference(const Tensor& q, const Tensor& k, const Tensor& v,
                              AttentionOptions options, double atol, const std::string& what) {
  const attn::AttentionResult64 ref =
      attn::scaled_dot_product_attention_reference(q, k, v, options);
  for (const auto* ks : attn::kernels::available()) {
    for (bool weights : {false, true}) {
      options.return_weights = weights;
      options.return_logits = weights;
      const attn::AttentionResult got = attn::detail::attention_with(*ks, q, k, v, options);
      const std::string where = what + " [" + ks->name + (weights ? ", two-pass]" : ", fused]");
      EXPECT_TRUE(all_close(got.output, ref.output, 0, atol)) << where;
      EXPECT_EQ(got.fully_masked_rows, ref.fully_masked_rows) << where;
      if (weights) {
        EXPECT_TRUE(all_close(got.weights, ref.weights, 0, atol)) << where << " weights";
        EXPECT_TRUE(all_close(got.logits, ref.logits, 1e-6, 1e-6)) << where << " logits";
      }
    }
  }
}

TEST(attention, seed_shapes_match_reference_within_1e_6) {
  const Qkv x = seed_qkv();
  expect_matches_reference(x.q, x.k, x.v, {}, 1e-6, "B=2 T=5 D=8");
  const attn::AttentionResult r = attn::scaled_dot_product_attention(x.q, x.k, x.v);
  EXPECT_EQ(attn::shape_of(r.output), (Shape{2, 5, 8}));
  EXPECT_EQ(r.weights.size(), 0u); // not asked for
}

TEST(attention, weights_rows_sum_to_one) {
  const Qkv x = seed_qkv();
  AttentionOptions o;
  o.return_weights = true;
  const attn::AttentionResult r = attn::scaled_dot_product_attention(x.q, x.k, x.v, o);
  for (std::size_t row = 0; row < 10; ++row) {
    double sum = 0;
    for (std::size_t j = 0; j < 5; ++j) {
      sum += r.weights.data()[row * 5 + j];
    }
    EXPECT_NEAR(sum, 1.0, 1e-6) << "row " << row;
  }
}

TEST(attention, every_mask_kind_matches_reference) {
  const Qkv x = seed_qkv();
  const Tensor add = random_tensor({5, 5}, 9u, 2.0f);
  xt::xarray<std::uint8_t> allowed = {
      {1, 0, 1, 1, 0}, {0, 1, 1, 0, 1}, {1, 1, 1, 1, 1}, {0, 0, 0, 1, 0}, {1, 0, 0, 0, 1}};
  const std::pair<const char*, Mask> masks[] = {
      {"causal", Mask::causal_mask()},
      {"window 1", Mask::local(1)},
      {"window 1 causal", Mask::local(1, true)},
      {"window 0", Mask::local(0)},
      {"boolean (L, S)", Mask::boolean(allowed)},
      {"boolean (S)", Mask::boolean(xt::xarray<std::uint8_t>{1, 1, 0, 1, 0})},
      {"additive (L, S)", Mask::add(add)},
  };
  for (const auto& [name, mask] : masks) {
    AttentionOptions o;
    o.mask = mask;
    expect_matches_reference(x.q, x.k, x.v, o, 1e-6, name);
  }
}

TEST(attention, causal_gives_exactly_zero_weight_to_future_keys) {
  const Qkv x = seed_qkv();
  AttentionOptions o;
  o.mask = Mask::causal_mask();
  o.return_weights = true;
  const attn::AttentionResult r = attn::scaled_dot_product_attention(x.q, x.k, x.v, o);
  for (std::size_t b = 0; b < 2; ++b) {
    for (std::size_t i = 0; i < 5; ++i) {
      for (std::size_t j = i + 1; j < 5; ++j) {
        EXPECT_EQ(r.weights(b, i, j), 0.0f) << b << "," << i << "," << j;
      }
    }
  }
  // Row 0 sees only key 0, so its output is v[0] exactly.
  for (std::size_t c = 0; c < 8; ++c) {
    EXPECT_FLOAT_EQ(r.output(0, 0, c), x.v(0, 0, c));
  }
}

TEST(attention, fully_masked_rows_give_zeros_and_are_counted) {
  const Qkv x = seed_qkv();
  xt::xarray<std::uint8_t> allowed = xt::ones<std::uint8_t>({5, 5});
  for (std::size_t j = 0; j < 5; ++j) {
    allowed(3, j) = 0;
  }
  AttentionOptions o;
  o.mask = Mask::boolean(allowed);
  for (bool weights : {false, true}) {
    o.return_weights = weights;
    const attn::AttentionResult r = attn::scaled_dot_product_attention(x.q, x.k, x.v, o);
    EXPECT_EQ(r.fully_masked_rows, 2u); // row 3 of both batch entries
    for (std::size_t b = 0; b < 2; ++b) {
      for (std::size_t c = 0; c < 8; ++c) {
        EXPECT_EQ(r.output(b, 3, c), 0.0f);
      }
    }
  }
  // A causal mask with more queries than keys has no fully masked row; one that
  // forbids everything via the additive mask does.
  Tensor minus_inf = xt::full_like(Tensor::from_shape({5, 5}), -INFINITY);
  o.mask = Mask::add(minus_inf);
  EXPECT_EQ(attn::scaled_dot_product_attention(x.q, x.k, x.v, o).fully_masked_rows, 10u);
}

TEST(attention, lengths_may_differ_and_batch_axes_broadcast) {
  const Tensor q = random_tensor({2, 1, 3, 6}, 11u);
  const Tensor k = random_tensor({4, 7, 6}, 12u);
  const Tensor v = random_tensor({7, 5}, 13u);
  const attn::AttentionResult r = attn::scaled_dot_product_attention(q, k, v);
  EXPECT_EQ(attn::shape_of(r.output), (Shape{2, 4, 3, 5}));
  expect_matches_reference(q, k, v, {}, 1e-6, "L=3 S=7, batch (2,1) x (4)");
  AttentionOptions o;
  o.mask = Mask::causal_mask(); // top-left aligned: query i sees keys 0..i
  expect_matches_reference(q, k, v, o, 1e-6, "causal, L=3 S=7");
}

TEST(attention, long_rows_cross_many_tiles_and_every_tail) {
  for (std::size_t s : {127u, 128u, 129u, 300u}) {
    const Tensor q = random_tensor({6, 16}, 20u, 2.0f);
    const Tensor k = random_tensor({s, 16}, 21u, 2.0f);
    const Tensor v = random_tensor({s, 10}, 22u);
    expect_matches_reference(q, k, v, {}, 2e-6, "S = " + std::to_string(s));
    AttentionOptions o;
    o.mask = Mask::local(40);
    expect_matches_reference(q, k, v, o, 2e-6, "window 40, S = " + std::to_string(s));
  }
}

TEST(attention, every_kernel_set_from_1x1_up_to_4096_keys) {
  const auto one = [](float x) {
    Tensor t = Tensor::from_shape({1, 1});
    t(0, 0) = x;
    return t;
  };
  expect_matches_reference(one(2.0f), one(3.0f), one(-1.5f), {}, 0, "1x1");
  for (std::size_t s : {1u, 2u, 3u, 4u, 5u, 4096u}) {
    const Tensor q = random_tensor({3, 64}, 40u, 1.0f);
    const Tensor k = random_tensor({s, 64}, 41u, 1.0f);
    const Tensor v = random_tensor({s, 64}, 42u);
    expect_matches_reference(q, k, v, {}, 1e-6, "L=3, S=" + std::to_string(s));
  }
}

TEST(attention, temperature_limits) {
  const Qkv x = seed_qkv();
  for (double tau : {0.0, 0.3, 4.0, std::numeric_limits<double>::infinity()}) {
    AttentionOptions o;
    o.temperature = tau;
    expect_matches_reference(x.q, x.k, x.v, o, 1e-6, "tau = " + std::to_string(tau));
  }
  AttentionOptions uniform;
  uniform.temperature = std::numeric_limits<double>::infinity();
  const attn::AttentionResult r = attn::scaled_dot_product_attention(x.q, x.k, x.v, uniform);
  for (std::size_t c = 0; c < 8; ++c) { // uniform weights: the mean of the values
    double mean = 0;
    for (std::size_t j = 0; j < 5; ++j) {
      mean += x.v(1, j, c) / 5.0;
    }
    EXPECT_NEAR(r.output(1, 2, c), mean, 1e-6);
  }
}

TEST(attention, retrieval_of_a_one_hot_token) {
  // vocabulary 5·I₆; the sequence holds tokens 0..4; the query is token 2.
  Tensor seq = xt::zeros<float>({5, 6});
  for (std::size_t t = 0; t < 5; ++t) {
    seq(t, t) = 5.0f;
  }
  Tensor query = xt::zeros<float>({1, 6});
  query(0, 2) = 5.0f;
  AttentionOptions o;
  o.return_weights = true;
  const attn::AttentionResult r = attn::scaled_dot_product_attention(query, seq, seq, o);
  const Tensor64 expected = {{0, 0, 1, 0, 0}};
  EXPECT_TRUE(all_close(r.weights, expected, 0, 5e-4)); // [0, 0, 1, 0, 0] to 3 decimals
  const float* out = r.output.data(); // retrieved token = argmax of the output row
  EXPECT_EQ(std::max_element(out, out + 6) - out, 2);

  // A blend of tokens 2 and 4 splits the weight evenly between positions 2 and 4.
  query(0, 4) = 5.0f;
  const attn::AttentionResult blend = attn::scaled_dot_product_attention(query, seq, seq, o);
  EXPECT_NEAR(blend.weights(0, 2), 0.5, 1e-3);
  EXPECT_NEAR(blend.weights(0, 4), 0.5, 1e-3);
}

TEST(attention, explicit_scale_replaces_one_over_sqrt_e) {
  const Qkv x = seed_qkv();
  AttentionOptions o;
  o.scale = 1.0;
  expect_matches_reference(x.q, x.k, x.v, o, 1e-6, "scale 1");
  o.scale = 0.0; // every logit 0: uniform weights
  expect_matches_reference(x.q, x.k, x.v, o, 1e-6, "scale 0");
}

TEST(attention, rejects_bad_shapes) {
  const Tensor m = random_tensor({5, 8}, 1u);
  using attn::ShapeError;
  expect_error<ShapeError>([&] { attn::scaled_dot_product_attention(Tensor{1.0f}, m, m); },
                           "q must have shape (..., L, E), got [1]");
  expect_error<ShapeError>(
      [&] {
        attn::scaled_dot_product_attention(m, random_tensor({5, 4}, 2u), m);
      },
      "q has E = 8 but k has E = 4");
  expect_error<ShapeError>(
      [&] {
        attn::scaled_dot_product_attention(m, m, random_tensor({4, 8}, 2u));
      },
      "k has S = 5 keys but v has 4 values");
  expect_error<ShapeError>(
      [&] {
        attn::scaled_dot_product_attention(random_tensor({2, 5, 8}, 1u),
                                           random_tensor({3, 5, 8}, 1u),
                                           random_tensor({3, 5, 8}, 1u));
      },
      "do not broadcast: [2] and [3]");
  expect_error<ShapeError>(
      [&] {
        attn::scaled_dot_product_attention(Tensor::from_shape({0, 8}), m, m);
      },
      "q is empty");
  AttentionOptions o;
  o.mask = Mask::boolean(xt::ones<std::uint8_t>({4, 5}));
  expect_error<ShapeError>(
      [&] { attn::scaled_dot_product_attention(m, m, m, o); },
      "the boolean mask of shape [4, 5] does not broadcast to (..., L, S) = [5, 5]");
}

TEST(attention, rejects_bad_values) {
  Tensor m = random_tensor({5, 8}, 1u);
  Tensor bad = m;
  bad(2, 3) = std::nanf("");
  using attn::ValueError;
  expect_error<ValueError>([&] { attn::scaled_dot_product_attention(bad, m, m); },
                           "q[2, 3] is NaN");
  bad(2, 3) = INFINITY;
  expect_error<ValueError>([&] { attn::scaled_dot_product_attention(m, m, bad); },
                           "v[2, 3] is Infinity");
  AttentionOptions o;
  o.temperature = -0.5;
  expect_error<ValueError>([&] { attn::scaled_dot_product_attention(m, m, m, o); },
                           "temperature must be >= 0, got -0.5");
  o = {};
  o.scale = std::nan("");
  expect_error<ValueError>([&] { attn::scaled_dot_product_attention(m, m, m, o); },
                           "scale must be a finite number");
  o = {};
  Tensor add = xt::zeros<float>({5, 5});
  add(1, 1) = INFINITY;
  o.mask = Mask::add(add);
  expect_error<ValueError>([&] { attn::scaled_dot_product_attention(m, m, m, o); },
                           "additive mask[1, 1] is Infinity");
}

// Found by fuzz_attention (corpus: tests/fuzz/corpus/attention/overflow-times-zero-scale):
// q·k beyond float32 is −inf, and scale −0 made it NaN, which came out as a NaN
// output; with scale 1 the −inf silently masked the key. Both are errors now,
// with every kernel set, fused and two-pass, and with or without a mask.
TEST(attention, logits_overflowing_float32_are_an_error_never_nan_or_a_masked_key) {
  // q (2, 1), k (2, 1): row 0 is finite, q1·k1 = 77.8 · −9.24e37 ≈ −7.2e39.
  Tensor q = Tensor::from_shape({2, 1}), k = Tensor::from_shape({2, 1});
  q(0, 0) = 1e-30f;
  q(1, 0) = 77.8f;
  k(0, 0) = 5.765e17f;
  k(1, 0) = -9.242e37f;
  const Tensor v = {{1.0f, 2.0f}, {3.0f, 4.0f}};
  for (const auto* ks : attn::kernels::available()) {
    for (double scale : {-0.0, 0.0, 1.0, -1.0}) {
      for (bool weights : {false, true}) {
        for (const Mask& mask :
             {Mask::none(), Mask::local(14), Mask::add(xt::zeros<float>({2, 2}))}) {
          AttentionOptions o;
          o.scale = scale;
          o.return_weights = weights;
          o.mask = mask;
          SCOPED_TRACE(std::string(ks->name) + ", scale " + std::to_string(scale) +
                       (weights ? ", two-pass" : ", fused") + ", mask kind " +
                       std::to_string(int(mask.kind)));
          expect_error<attn::ValueError>([&] { attn::detail::attention_with(*ks, q, k, v, o); },
                                         "the logits of query row 1 overflow float32");
        }
      }
    }
  }
  // A finite logit plus a finite additive mask that overflows is an error too;
  // an additive −inf still forbids the key.
  const Tensor one = xt::ones<float>({1, 1});
  AttentionOptions o;
  o.scale = 3e38;
  o.mask = Mask::add(xt::full_like(one, -3e38f));
  expect_error<attn::ValueError>([&] { attn::scaled_dot_product_attention(-one, one, one, o); },
                                 "the logits of query row 0 overflow float32");
  o.mask = Mask::add(xt::full_like(one, -INFINITY));
  EXPECT_EQ(attn::scaled_dot_product_attention(-one, one, one, o).fully_masked_rows, 1u);
}

// Found by fuzz_attention (corpus: tests/fuzz/corpus/attention/fused-sum-overflow):
// with values near float32's limit the fused path's running Σ exp(x_j − m)·v_j
// overflowed to −inf although the output, a convex combination, is finite.
TEST(attention, values_near_the_float32_limit_give_a_finite_output) {
  // q, k (3, 3) give equal logits: the output is the mean of v's rows.
  const Tensor q = xt::full_like(Tensor::from_shape({3, 3}), 61.5f);
  const Tensor k = xt::zeros<float>({3, 3});
  const float big = std::numeric_limits<float>::max();
  const Tensor v = {{0.0f, -big, -big}, {-big, -big, -big}, {1e20f, -128.0f, -128.0f}};
  expect_matches_reference(q, k, v, {}, 1e-6 * big, "values near FLT_MAX");
  const Tensor out = attn::scaled_dot_product_attention(q, k, v).output;
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_TRUE(std::isfinite(out.data()[i]))
        << "output flat index " << i << " is " << out.data()[i];
  }
}

TEST(attention, refuses_weights_beyond_memory_but_runs_fused) {
  const Tensor q = random_tensor({20000, 1}, 1u);
  AttentionOptions o;
  o.return_weights = true;
  // 20000 × 20000 weights = 1.6 GB.
  expect_error<attn::MemoryError>([&] { attn::scaled_dot_product_attention(q, q, q, o); },
                                  "leave the weights and logits out");
}

// The working memory a call reports: keys packed into panels of 8 (padded_keys(S)·E floats) and
// one block of 4 score rows, a 128-key tile each on the fused path, whole rows on the two-pass
// path.
std::size_t packed_bytes(std::size_t S, std::size_t E) {
  return (S + 7) / 8 * 8 * E * sizeof(float);
}

TEST(attention, fused_path_reports_its_scratch_bytes_exactly_and_never_l_times_s) {
  for (const std::size_t T : {1u, 7u, 8u, 9u, 127u, 1000u}) {
    const Tensor q = random_tensor({T, 64}, 41u);
    for (const auto* ks : attn::kernels::available()) {
      const attn::AttentionResult r = attn::detail::attention_with(*ks, q, q, q, {});
      const std::string where = std::string(ks->name) + ", T = " + std::to_string(T);
      EXPECT_EQ(r.scratch_bytes, packed_bytes(T, 64) + 4 * 128 * sizeof(float)) << where;
      if (T >= 100) {
        EXPECT_LT(r.scratch_bytes, T * T * sizeof(float)) << where << ": less than the weights";
      }
    }
  }
  // T = 4096, E = 64: 1 MiB + 2 KiB of working memory where the weights would take 64 MiB.
  const Tensor big = random_tensor({4096, 64}, 42u);
  EXPECT_EQ(attn::scaled_dot_product_attention(big, big, big).scratch_bytes, 1048576u + 2048u);
}

TEST(attention, scratch_bytes_grow_with_the_keys_not_the_queries_or_the_batch) {
  const Tensor k = random_tensor({300, 16}, 43u);
  const std::size_t one =
      attn::scaled_dot_product_attention(random_tensor({1, 16}, 44u), k, k).scratch_bytes;
  const std::size_t many =
      attn::scaled_dot_product_attention(random_tensor({3, 2000, 16}, 45u), k, k).scratch_bytes;
  EXPECT_EQ(one, packed_bytes(300, 16) + 4 * 128 * sizeof(float));
  EXPECT_EQ(many, one) << "queries and batch entries reuse the same buffers";
  AttentionOptions causal;
  causal.mask = Mask::causal_mask();
  EXPECT_EQ(attn::scaled_dot_product_attention(k, k, k, causal).scratch_bytes, one);
}

TEST(attention, two_pass_scratch_holds_whole_score_rows) {
  const Tensor q = random_tensor({50, 12}, 46u);
  const Tensor k = random_tensor({300, 12}, 47u);
  AttentionOptions o;
  o.return_weights = true;
  const attn::AttentionResult r = attn::scaled_dot_product_attention(q, k, k, o);
  EXPECT_EQ(r.scratch_bytes, packed_bytes(300, 12) + 4 * 300 * sizeof(float));
  EXPECT_EQ(r.weights.size(), 50u * 300u) << "the weights are the result, not scratch";
  o.return_weights = false;
  o.temperature = 0; // the argmax limit takes the two-pass path too
  EXPECT_EQ(attn::scaled_dot_product_attention(q, k, k, o).scratch_bytes, r.scratch_bytes);
}

TEST(attention, large_problem_matches_reference_within_1e_5_relative) {
  // L = S = 4096, E = 64 with this build's fastest kernels (fused); the error is
  // measured relative to the largest output magnitude.
  const Tensor q = random_tensor({4096, 64}, 31u);
  const Tensor k = random_tensor({4096, 64}, 32u);
  const Tensor v = random_tensor({4096, 64}, 33u);
  const attn::AttentionResult got = attn::scaled_dot_product_attention(q, k, v);
  const attn::AttentionResult64 ref = attn::scaled_dot_product_attention_reference(q, k, v);
  double max_abs = 0, max_ref = 0;
  for (std::size_t i = 0; i < ref.output.size(); ++i) {
    max_abs = std::max(max_abs, std::abs(got.output.data()[i] - ref.output.data()[i]));
    max_ref = std::max(max_ref, std::abs(ref.output.data()[i]));
  }
  RecordProperty("max_abs_error", std::to_string(max_abs));
  EXPECT_LE(max_abs / max_ref, 1e-5) << "max abs error " << max_abs << ", max |output| " << max_ref;
}

} // namespace

// The rows [r0, r1) of q with row_offset = r0: the positional masks count from r0.
Tensor rows_of(const Tensor& q, std::size_t r0, std::size_t r1) {
  const Shape s = attn::shape_of(q);
  const std::size_t L = s[s.size() - 2], E = s.back(), batches = q.size() / (L * E);
  Shape part = s;
  part[part.size() - 2] = r1 - r0;
  Tensor out = Tensor::from_shape(part);
  for (std::size_t b = 0; b < batches; ++b) {
    std::copy(q.data() + (b * L + r0) * E, q.data() + (b * L + r1) * E,
              out.data() + b * (r1 - r0) * E);
  }
  return out;
}

// Computing the query rows in parts (row_offset), as the engine's worker pool does, gives exactly
// the rows of the whole call, bit for bit, when the parts start at multiples of the kernels' block
// of rows; every mask kind, L = S and L != S, fused and two-pass, every kernel set.
TEST(attention, query_rows_in_parts_with_row_offset_equal_the_whole_bit_for_bit) {
  const std::size_t S = 300, E = 16;
  for (const std::size_t L : {std::size_t{300}, std::size_t{157}}) {
    const Tensor q = random_tensor({2, L, E}, 7u), k = random_tensor({2, S, E}, 8u),
                 v = random_tensor({2, S, 12}, 9u);
    for (const Mask& mask : {Mask::none(), Mask::causal_mask(), Mask::local(40, false),
                             Mask::local(40, true), Mask::local(1000, true)}) {
      for (const auto* ks : attn::kernels::available()) {
        for (const bool weights : {false, true}) {
          AttentionOptions whole;
          whole.mask = mask;
          whole.return_weights = weights;
          const attn::AttentionResult all = attn::detail::attention_with(*ks, q, k, v, whole);
          const std::string where = std::string(ks->name) + " L=" + std::to_string(L) +
                                    " mask kind " + std::to_string(static_cast<int>(mask.kind)) +
                                    (weights ? " two-pass" : " fused");
          std::size_t masked = 0;
          for (const std::size_t r0 : {std::size_t{0}, std::size_t{64}, std::size_t{148}}) {
            const std::size_t r1 = r0 == 0 ? 64 : r0 == 64 ? 148 : L;
            AttentionOptions part = whole;
            part.row_offset = r0;
            const attn::AttentionResult got =
                attn::detail::attention_with(*ks, rows_of(q, r0, r1), k, v, part);
            masked += got.fully_masked_rows;
            EXPECT_TRUE(std::equal(got.output.begin(), got.output.end(),
                                   rows_of(all.output, r0, r1).begin()))
                << where << " rows " << r0 << ".." << r1;
          }
          EXPECT_EQ(masked, all.fully_masked_rows) << where;
        }
      }
    }
  }
  // any offset: the part agrees with the reference of the whole's rows
  const Tensor q = random_tensor({1, 9, 8}, 1u), k = random_tensor({1, 9, 8}, 2u),
               v = random_tensor({1, 9, 8}, 3u);
  AttentionOptions whole;
  whole.mask = Mask::causal_mask();
  const attn::AttentionResult64 ref = attn::scaled_dot_product_attention_reference(q, k, v, whole);
  AttentionOptions part = whole;
  part.row_offset = 5;
  const attn::AttentionResult64 got =
      attn::scaled_dot_product_attention_reference(rows_of(q, 5, 9), k, v, part);
  for (std::size_t i = 0; i < 4 * 8; ++i) {
    EXPECT_EQ(got.output.data()[i], ref.output.data()[5 * 8 + i]) << i;
  }
}
