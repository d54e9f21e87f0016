// The seeded generator (PCG32), its variates, randn and dirichlet.
//
// The golden values below were computed with an independent Python implementation
// of the reference pcg32 (pcg_basic.c), itself checked against the published
// pcg32-demo output. This suite runs natively and compiled to wasm under Node, so
// passing in both proves the integer stream is the same on both platforms.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "attn/error.hpp"
#include "attn/random.hpp"
#include "test_util.hpp"

namespace {

using attn::test::expect_error;

using attn::Rng;
using attn::Tensor;

struct Moments {
  double mean = 0;
  double variance = 0;
};

template <class It> Moments moments(It first, It last) {
  double n = 0, sum = 0, sum2 = 0;
  for (It it = first; it != last; ++it) {
    const double x = *it;
    n += 1;
    sum += x;
    sum2 += x * x;
  }
  const double mean = sum / n;
  return {mean, (sum2 - n * mean * mean) / (n - 1)};
}

TEST(rng, matches_the_pcg32_reference_demo_stream) {
  // pcg32-demo (pcg_basic.c): pcg32_srandom_r(&rng, 42u, 54u), round 1.
  Rng rng(42, 54);
  const std::uint32_t expected[] = {0xa15c02b7u, 0x7b47f409u, 0xba1d3330u,
                                    0x83d2f293u, 0xbfa4784bu, 0xcbed606eu};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(rng.next_u32(), expected[i]) << "draw " << i;
  }
}

TEST(rng, default_stream_gives_the_golden_u32_values) {
  Rng a(42);
  const std::uint32_t expected_42[] = {0xc2f57bd6u, 0x6b07c4a9u, 0x72b7b29bu,
                                       0x44215383u, 0xf5af5eadu, 0x68beb632u};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(a.next_u32(), expected_42[i]) << "seed 42, draw " << i;
  }
  Rng b(2024);
  const std::uint32_t expected_2024[] = {0x93b3f6d8u, 0x50b4fcecu, 0xe6c132f9u,
                                         0xe133bacau, 0xb53b06c2u, 0x1de8bedfu};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(b.next_u32(), expected_2024[i]) << "seed 2024, draw " << i;
  }
}

TEST(rng, uniform_takes_53_bits_from_two_draws) {
  Rng rng(42);
  // ((0xc2f57bd6 << 32 | 0x6b07c4a9) >> 11) · 2^-53, and so on: exact, so compared exactly.
  EXPECT_EQ(rng.uniform(), 0.7615582846147211);
  EXPECT_EQ(rng.uniform(), 0.4481155041759213);
  EXPECT_EQ(rng.uniform(), 0.9597071812975126);
  for (int i = 0; i < 10000; ++i) {
    const double u = rng.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    const double scaled = u * 9007199254740992.0; // 2^53
    ASSERT_EQ(scaled, std::floor(scaled)) << "draw " << i << " is not on the 2^-53 grid";
  }
}

TEST(rng, uniform_sample_has_mean_one_half_and_variance_one_twelfth) {
  Rng rng(5);
  std::vector<double> u(100000);
  for (double& x : u) {
    x = rng.uniform();
  }
  const Moments m = moments(u.begin(), u.end());
  // Standard errors: 0.289/sqrt(1e5) = 9e-4 for the mean, about 2.4e-4 for the variance.
  EXPECT_NEAR(m.mean, 0.5, 5e-3);
  EXPECT_NEAR(m.variance, 1.0 / 12.0, 1.5e-3);
}

TEST(rng, first_normals_are_box_muller_of_the_first_uniforms) {
  // z0, z1 from u1 = 1 − 0.7615582846147211, u2 = 0.4481155041759213 (float64 libm).
  Rng rng(42);
  EXPECT_NEAR(rng.normal(), -1.6041143843218968, 1e-14);
  EXPECT_NEAR(rng.normal(), 0.5422894051355088, 1e-14);
  // The pair used two uniforms (four u32 draws): the next normal starts at the third.
  Rng fresh(42);
  for (int i = 0; i < 4; ++i) {
    fresh.next_u32();
  }
  EXPECT_EQ(rng.uniform(), fresh.uniform());
}

TEST(rng, normals_have_mean_zero_and_unit_variance) {
  Rng rng(11);
  std::vector<double> z(100000);
  for (double& x : z) {
    x = rng.normal();
  }
  const Moments m = moments(z.begin(), z.end());
  // Standard errors over 1e5 draws: 3.2e-3 for the mean, 4.5e-3 for the variance.
  EXPECT_NEAR(m.mean, 0.0, 0.02);
  EXPECT_NEAR(m.variance, 1.0, 0.03);
  // The shape too: P(|z| < 1) = 0.6827 (standard error 1.5e-3).
  double within = 0;
  for (double x : z) {
    within += std::abs(x) < 1 ? 1 : 0;
  }
  EXPECT_NEAR(within / static_cast<double>(z.size()), 0.6827, 0.01);
}

TEST(rng, same_seed_repeats_and_other_seeds_or_streams_differ) {
  Rng a(7), b(7), c(8), d(7, 1);
  int same_c = 0, same_d = 0;
  for (int i = 0; i < 100; ++i) {
    const std::uint32_t x = a.next_u32();
    ASSERT_EQ(x, b.next_u32()) << "draw " << i;
    same_c += x == c.next_u32() ? 1 : 0;
    same_d += x == d.next_u32() ? 1 : 0;
  }
  EXPECT_LT(same_c, 3);
  EXPECT_LT(same_d, 3);
}

TEST(rng, gamma_sample_mean_and_variance_equal_the_shape) {
  // Gamma(a, 1) has mean a and variance a. 20000 draws: the mean's standard error is
  // sqrt(a / 20000); the variance's is about a·sqrt((2 + 6/a) / 20000).
  for (double a : {0.3, 1.0, 2.5, 10.0}) {
    Rng rng(static_cast<std::uint64_t>(a * 1000));
    std::vector<double> g(20000);
    for (double& x : g) {
      x = rng.gamma(a);
      ASSERT_GE(x, 0.0);
    }
    const Moments m = moments(g.begin(), g.end());
    const double n = static_cast<double>(g.size());
    EXPECT_NEAR(m.mean, a, 5 * std::sqrt(a / n)) << "shape " << a;
    EXPECT_NEAR(m.variance, a, 5 * a * std::sqrt((2 + 6 / a) / n)) << "shape " << a;
  }
}

TEST(rng, gamma_rejects_shapes_that_are_not_finite_and_positive) {
  Rng rng(1);
  expect_error<attn::ValueError>([&] { rng.gamma(0.0); },
                                 "Rng::gamma: shape must be finite and > 0, got 0");
  expect_error<attn::ValueError>([&] { rng.gamma(-2.5); }, "got -2.5");
  expect_error<attn::ValueError>([&] { rng.gamma(std::nan("")); }, "got NaN");
  expect_error<attn::ValueError>([&] { rng.gamma(std::numeric_limits<double>::infinity()); },
                                 "got Infinity");
}

TEST(rng, saved_state_resumes_the_stream_exactly_including_a_spare_normal) {
  Rng a(42, 7);
  a.next_u32();
  a.normal(); // leaves the pair's sine term as the spare
  Rng b(a.state());
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(a.normal(), b.normal()) << "draw " << i;
    EXPECT_EQ(a.next_u32(), b.next_u32()) << "draw " << i;
  }
  attn::RngState bad = a.state();
  bad.increment = 2;
  expect_error<attn::ValueError>([&] { Rng c(bad); }, "increment 2 is even");
}

TEST(rng, below_is_unbiased_rejection_of_the_u32_stream) {
  // bound 3: threshold (2^32 - 3) mod 3 = 1, so only r = 0 is rejected and the result is r mod 3.
  Rng a(9);
  Rng b(9);
  for (int i = 0; i < 100; ++i) {
    std::uint32_t r = b.next_u32();
    while (r < 1) {
      r = b.next_u32();
    }
    EXPECT_EQ(a.below(3), r % 3) << "draw " << i;
  }
  // every value of a small bound appears with frequency near 1/bound
  Rng c(5);
  std::vector<int> counts(7, 0);
  for (int i = 0; i < 70000; ++i) {
    ++counts[c.below(7)];
  }
  for (int v = 0; v < 7; ++v) {
    EXPECT_NEAR(counts[v], 10000, 400) << "value " << v;
  }
  EXPECT_EQ(Rng(1).below(1), 0u);
  expect_error<attn::ValueError>([] { Rng(1).below(0); }, "bound is 0");
}

TEST(randn, has_the_requested_shape_and_standard_normal_moments) {
  const Tensor z = attn::randn({200, 500}, 3);
  ASSERT_EQ(attn::shape_of(z), (attn::Shape{200, 500}));
  const Moments m = moments(z.begin(), z.end());
  EXPECT_NEAR(m.mean, 0.0, 0.02);
  EXPECT_NEAR(m.variance, 1.0, 0.03);
}

TEST(randn, is_the_rng_normal_stream_in_row_major_order) {
  const Tensor z = attn::randn({3, 4, 5}, 99);
  Rng rng(99);
  for (std::size_t i = 0; i < z.size(); ++i) {
    ASSERT_EQ(z.data()[i], static_cast<float>(rng.normal()))
        << "at " << attn::format_index({3, 4, 5}, i);
  }
}

TEST(randn, same_seed_gives_identical_tensors_and_another_seed_differs) {
  const Tensor a = attn::randn({64}, 123);
  const Tensor b = attn::randn({64}, 123);
  const Tensor c = attn::randn({64}, 124);
  EXPECT_TRUE(attn::test::all_close(a, b, 0, 0));
  int same = 0;
  for (std::size_t i = 0; i < 64; ++i) {
    same += a(i) == c(i) ? 1 : 0;
  }
  EXPECT_LT(same, 2);
}

TEST(randn, scalar_and_empty_shapes) {
  const Tensor scalar = attn::randn({}, 1);
  EXPECT_EQ(scalar.dimension(), 0u);
  EXPECT_EQ(scalar.size(), 1u);
  const Tensor empty = attn::randn({3, 0}, 1);
  EXPECT_EQ(attn::shape_of(empty), (attn::Shape{3, 0}));
  EXPECT_EQ(empty.size(), 0u);
}

TEST(randn, rejects_shapes_beyond_2_pow_29_elements_naming_the_shape) {
  expect_error<attn::MemoryError>(
      [] {
        attn::randn({32768, 32768}, 1);
      },
      "randn: shape [32768, 32768] has more than 536870912 (2^29)");
  // The product overflows 32-bit size_t (wasm) and 64-bit alike; still caught.
  expect_error<attn::MemoryError>(
      [] {
        attn::randn({65536, 65536, 65536, 65536, 65536}, 1);
      },
      "[65536, 65536, 65536, 65536, 65536]");
}

TEST(dirichlet, rows_lie_on_the_simplex) {
  const Tensor w = attn::dirichlet(Tensor{0.5f, 1.0f, 2.0f, 5.0f}, 2000, 17);
  ASSERT_EQ(attn::shape_of(w), (attn::Shape{2000, 4}));
  for (std::size_t r = 0; r < 2000; ++r) {
    double sum = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      ASSERT_GE(w(r, i), 0.0f) << "row " << r << " index " << i;
      sum += w(r, i);
    }
    ASSERT_NEAR(sum, 1.0, 1e-5) << "row " << r;
  }
}

TEST(dirichlet, sample_mean_is_alpha_over_its_sum) {
  // E[w_i] = a_i / a0 and Var[w_i] = a_i (a0 − a_i) / (a0² (a0 + 1)), a0 = Σ a.
  const std::vector<double> a = {0.5, 1.0, 2.0, 5.0};
  const double a0 = 8.5;
  const std::size_t count = 20000;
  const Tensor w = attn::dirichlet(Tensor{0.5f, 1.0f, 2.0f, 5.0f}, count, 2024);
  for (std::size_t i = 0; i < a.size(); ++i) {
    double mean = 0;
    for (std::size_t r = 0; r < count; ++r) {
      mean += w(r, i);
    }
    mean /= static_cast<double>(count);
    const double variance = a[i] * (a0 - a[i]) / (a0 * a0 * (a0 + 1));
    const double standard_error = std::sqrt(variance / static_cast<double>(count));
    EXPECT_NEAR(mean, a[i] / a0, 5 * standard_error) << "component " << i;
  }
}

TEST(dirichlet, rows_are_the_rng_gammas_normalised) {
  const Tensor alpha = {0.7f, 1.0f, 3.0f};
  const Tensor w = attn::dirichlet(alpha, 3, 55);
  Rng rng(55);
  for (std::size_t r = 0; r < 3; ++r) {
    double g[3];
    double sum = 0;
    for (std::size_t i = 0; i < 3; ++i) {
      g[i] = rng.gamma(alpha(i));
      sum += g[i];
    }
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_NEAR(w(r, i), g[i] / sum, 1e-6) << "row " << r << " index " << i;
    }
  }
}

TEST(dirichlet, tiny_alpha_rows_still_sum_to_one) {
  // Gamma(1e-3) draws underflow to 0 in double for most U (U^1000 < 1e-308 when U < 0.49);
  // the log-space normalisation keeps every row on the simplex.
  const Tensor w = attn::dirichlet(Tensor{1e-3f, 1e-3f, 1e-3f}, 500, 8);
  for (std::size_t r = 0; r < 500; ++r) {
    const double sum = w(r, 0) + w(r, 1) + w(r, 2);
    ASSERT_TRUE(std::isfinite(sum)) << "row " << r;
    ASSERT_NEAR(sum, 1.0, 1e-5) << "row " << r;
  }
}

TEST(dirichlet, vanishing_alpha_picks_vertex_i_with_probability_alpha_i_over_the_sum) {
  // As alpha → 0 a Dirichlet draw is a vertex e_i with probability a_i / Σ a.
  const std::size_t count = 4000;
  const Tensor w = attn::dirichlet(Tensor{1e-30f, 3e-30f}, count, 31);
  double ones = 0;
  for (std::size_t r = 0; r < count; ++r) {
    ASSERT_TRUE((w(r, 0) == 1.0f && w(r, 1) == 0.0f) || (w(r, 0) == 0.0f && w(r, 1) == 1.0f))
        << "row " << r << " is (" << w(r, 0) << ", " << w(r, 1) << ")";
    ones += w(r, 1);
  }
  // P = 0.75, standard error sqrt(0.75 · 0.25 / 4000) = 6.8e-3.
  EXPECT_NEAR(ones / static_cast<double>(count), 0.75, 0.035);
}

TEST(dirichlet, same_seed_gives_identical_rows_and_another_seed_differs) {
  const Tensor alpha = {1.0f, 1.0f, 1.0f, 1.0f};
  const Tensor a = attn::dirichlet(alpha, 50, 42);
  const Tensor b = attn::dirichlet(alpha, 50, 42);
  const Tensor c = attn::dirichlet(alpha, 50, 43);
  EXPECT_TRUE(attn::test::all_close(a, b, 0, 0));
  int same = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    same += a.data()[i] == c.data()[i] ? 1 : 0;
  }
  EXPECT_LT(same, 2);
}

TEST(dirichlet, zero_count_gives_an_empty_batch) {
  EXPECT_EQ(attn::shape_of(attn::dirichlet(Tensor{1.0f, 2.0f}, 0, 1)), (attn::Shape{0, 2}));
}

TEST(dirichlet, rejects_alpha_that_is_not_a_nonempty_vector) {
  expect_error<attn::ShapeError>(
      [] {
        attn::dirichlet(Tensor{{1.0f, 1.0f}, {1.0f, 1.0f}}, 3, 1);
      },
      "dirichlet: alpha must be 1-D (k), got shape [2, 2]");
  expect_error<attn::ShapeError>([] { attn::dirichlet(Tensor(1.0f), 3, 1); }, "got shape []");
  expect_error<attn::ShapeError>([] { attn::dirichlet(Tensor::from_shape({0}), 3, 1); },
                                 "alpha is empty");
}

TEST(dirichlet, rejects_alpha_entries_that_are_not_finite_and_positive_naming_the_index) {
  const float inf = std::numeric_limits<float>::infinity();
  expect_error<attn::ValueError>(
      [] {
        attn::dirichlet(Tensor{1.0f, 0.0f, 2.0f}, 3, 1);
      },
      "dirichlet: alpha[1] is 0; concentrations must be finite and > 0");
  expect_error<attn::ValueError>([] { attn::dirichlet(Tensor{-0.5f}, 3, 1); },
                                 "alpha[0] is -0.5; concentrations must be finite and > 0");
  expect_error<attn::ValueError>(
      [] {
        attn::dirichlet(Tensor{1.0f, 1.0f, std::nanf("")}, 3, 1);
      },
      "alpha[2] is NaN; concentrations must be finite and > 0");
  expect_error<attn::ValueError>(
      [&] {
        attn::dirichlet(Tensor{inf, 1.0f}, 3, 1);
      },
      "alpha[0] is Infinity; concentrations must be finite and > 0");
}

TEST(dirichlet, rejects_batches_beyond_2_pow_29_elements) {
  expect_error<attn::MemoryError>(
      [] {
        attn::dirichlet(Tensor{1.0f, 1.0f, 1.0f}, std::size_t(1) << 28, 1);
      },
      "dirichlet: count x k = 268435456 x 3 (shape [268435456, 3]) is more than 536870912");
  expect_error<attn::MemoryError>(
      [] {
        attn::dirichlet(Tensor{1.0f, 1.0f}, std::numeric_limits<std::size_t>::max(), 1);
      },
      "is more than 536870912 (2^29) elements");
}

} // namespace
