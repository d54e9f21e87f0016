// Convex hulls and the point-in-hull test, with the notebook's four 2-D values
// v0 = (1, 1), v1 = (1.5, 4), v2 = (5, 4.5), v3 = (4, 0.5)
// ("Attention as a Weighted Mixture", section 2).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "attn/error.hpp"
#include "attn/geometry.hpp"
#include "attn/random.hpp"
#include "exact_geometry.hpp"
#include "test_util.hpp"

namespace {

using attn::test::expect_error;

using attn::Tensor;
using Indices = std::vector<std::int32_t>;
using Flags = std::vector<std::uint8_t>;

const Tensor kNotebookValues = {{1.0f, 1.0f}, {1.5f, 4.0f}, {5.0f, 4.5f}, {4.0f, 0.5f}};

// Rows `indices` of an (n, 2) tensor, as an (h, 2) tensor.
Tensor rows(const Tensor& points, const Indices& indices) {
  Tensor out = Tensor::from_shape({indices.size(), 2});
  for (std::size_t i = 0; i < indices.size(); ++i) {
    out(i, 0) = points(indices[i], 0);
    out(i, 1) = points(indices[i], 1);
  }
  return out;
}

// z of (b − a) × (c − b): > 0 for a left turn a → b → c.
double turn(const Tensor& p, std::int32_t a, std::int32_t b, std::int32_t c) {
  return (double(p(b, 0)) - p(a, 0)) * (double(p(c, 1)) - p(b, 1)) -
         (double(p(b, 1)) - p(a, 1)) * (double(p(c, 0)) - p(b, 0));
}

TEST(convex_hull, notebook_values_are_all_vertices_counter_clockwise) {
  // From (1, 1), the lowest x: along the bottom to (4, 0.5), up to (5, 4.5), back to (1.5, 4).
  // (The notebook draws them in the clockwise order 0, 1, 2, 3.)
  const Indices hull = attn::convex_hull(kNotebookValues);
  EXPECT_EQ(hull, (Indices{0, 3, 2, 1}));
  for (std::size_t i = 0; i < hull.size(); ++i) {
    EXPECT_GT(turn(kNotebookValues, hull[i], hull[(i + 1) % 4], hull[(i + 2) % 4]), 0)
        << "turn at hull position " << (i + 1) % 4;
  }
}

TEST(convex_hull, interior_points_are_not_vertices) {
  const Tensor points = {{1.0f, 1.0f}, {2.5f, 2.5f}, {1.5f, 4.0f},
                         {3.0f, 2.0f}, {5.0f, 4.5f}, {4.0f, 0.5f}};
  EXPECT_EQ(attn::convex_hull(points), (Indices{0, 5, 4, 2}));
}

TEST(convex_hull, points_on_an_edge_are_not_vertices) {
  // A square with the midpoints of its sides, and a second point on the bottom edge.
  const Tensor points = {{1.0f, 0.0f}, {0.0f, 0.0f}, {2.0f, 0.0f}, {2.0f, 1.0f}, {2.0f, 2.0f},
                         {1.0f, 2.0f}, {0.0f, 2.0f}, {0.0f, 1.0f}, {0.5f, 0.0f}};
  EXPECT_EQ(attn::convex_hull(points), (Indices{1, 2, 4, 6}));
}

TEST(convex_hull, exact_duplicates_appear_once_by_their_first_index) {
  const Tensor points = {{3.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, 3.0f}, {3.0f, 0.0f}, {0.0f, 0.0f}};
  EXPECT_EQ(attn::convex_hull(points), (Indices{1, 0, 2}));
}

TEST(convex_hull, starts_at_the_lowest_x_then_the_lowest_y) {
  const Tensor points = {{0.0f, 5.0f}, {3.0f, 3.0f}, {0.0f, 1.0f}};
  EXPECT_EQ(attn::convex_hull(points), (Indices{2, 1, 0}));
}

TEST(convex_hull, one_point_and_identical_points_give_one_index) {
  EXPECT_EQ(attn::convex_hull(Tensor{{2.0f, -1.0f}}), (Indices{0}));
  EXPECT_EQ(attn::convex_hull(Tensor{{2.0f, 2.0f}, {2.0f, 2.0f}, {2.0f, 2.0f}}), (Indices{0}));
}

TEST(convex_hull, collinear_points_give_the_two_extremes) {
  EXPECT_EQ(attn::convex_hull(Tensor{{1.0f, 1.0f}, {3.0f, 3.0f}, {0.0f, 0.0f}, {2.0f, 2.0f}}),
            (Indices{2, 1}));
  EXPECT_EQ(attn::convex_hull(Tensor{{0.0f, 3.0f}, {0.0f, 1.0f}, {0.0f, 2.0f}, {0.0f, 1.0f}}),
            (Indices{1, 0}));
  EXPECT_EQ(attn::convex_hull(Tensor{{4.0f, 0.0f}, {-1.0f, 0.0f}}), (Indices{1, 0}));
}

TEST(convex_hull, random_points_give_a_strictly_convex_ccw_polygon_containing_them_all) {
  const Tensor points = attn::randn({300, 2}, 77);
  const Indices hull = attn::convex_hull(points);
  ASSERT_GE(hull.size(), 3u);
  const std::size_t h = hull.size();
  for (std::size_t i = 0; i < h; ++i) {
    EXPECT_GT(turn(points, hull[i], hull[(i + 1) % h], hull[(i + 2) % h]), 0)
        << "turn at hull position " << (i + 1) % h;
  }
  const Flags inside = attn::points_in_hull(points, rows(points, hull));
  EXPECT_EQ(inside, Flags(300, 1));
}

TEST(convex_hull, rejects_tensors_that_are_not_n_by_2) {
  expect_error<attn::ShapeError>(
      [] {
        attn::convex_hull(Tensor::from_shape({4, 3}));
      },
      "convex_hull: points must have shape (n, 2), got [4, 3]");
  expect_error<attn::ShapeError>([] { attn::convex_hull(Tensor{1.0f, 2.0f}); }, "got [2]");
  expect_error<attn::ShapeError>(
      [] {
        attn::convex_hull(Tensor::from_shape({0, 2}));
      },
      "convex_hull: points are empty (shape [0, 2])");
}

TEST(convex_hull, rejects_non_finite_coordinates_naming_the_entry) {
  const float inf = std::numeric_limits<float>::infinity();
  expect_error<attn::ValueError>(
      [] {
        attn::convex_hull(Tensor{{0.0f, 0.0f}, {1.0f, 0.0f}, {std::nanf(""), 1.0f}});
      },
      "convex_hull: points[2, 0] is NaN; coordinates must be finite");
  expect_error<attn::ValueError>(
      [&] {
        attn::convex_hull(Tensor{{0.0f, -inf}});
      },
      "points[0, 1] is -Infinity");
}

TEST(points_in_hull, dirichlet_mixtures_of_the_notebook_values_are_all_inside) {
  // The notebook's experiment: 1000 weight rows from Dirichlet(1, 1, 1, 1), mixtures
  // y = w @ V, (1000, 4) @ (4, 2) -> (1000, 2), in float32 as a tensor library would.
  const Tensor w = attn::dirichlet(Tensor{1.0f, 1.0f, 1.0f, 1.0f}, 1000, 42);
  Tensor mixtures = Tensor::from_shape({1000, 2});
  for (std::size_t r = 0; r < 1000; ++r) {
    for (std::size_t c = 0; c < 2; ++c) {
      float y = 0;
      for (std::size_t j = 0; j < 4; ++j) {
        y += w(r, j) * kNotebookValues(j, c);
      }
      mixtures(r, c) = y;
    }
  }
  const Tensor hull = rows(kNotebookValues, attn::convex_hull(kNotebookValues));
  const Flags inside = attn::points_in_hull(mixtures, hull);
  std::size_t outside = 0;
  for (std::size_t r = 0; r < inside.size(); ++r) {
    outside += inside[r] ? 0 : 1;
    EXPECT_EQ(inside[r], 1) << "mixture " << r << " = (" << mixtures(r, 0) << ", " << mixtures(r, 1)
                            << ")";
  }
  EXPECT_EQ(outside, 0u);
  // The vertices in the notebook's own (clockwise) order describe the same hull.
  EXPECT_EQ(attn::points_in_hull(mixtures, kNotebookValues), inside);
}

TEST(points_in_hull, vertices_and_edge_points_count_as_inside) {
  const Tensor on_boundary = {{1.0f, 1.0f},  {1.5f, 4.0f}, {5.0f, 4.5f},   {4.0f, 0.5f},
                              {2.5f, 0.75f}, {4.5f, 2.5f}, {3.25f, 4.25f}, {1.25f, 2.5f}};
  EXPECT_EQ(attn::points_in_hull(on_boundary, kNotebookValues), Flags(8, 1));
  EXPECT_EQ(attn::points_in_hull(Tensor{{2.5f, 2.5f}}, kNotebookValues), Flags{1});
}

TEST(points_in_hull, points_clearly_outside_are_zero) {
  // Below the bottom edge, beyond each corner, left of the left edge, far away.
  const Tensor outside = {{3.0f, 0.0f},  {0.0f, 0.0f}, {6.0f, 6.0f},    {3.0f, 5.0f},
                          {0.99f, 1.0f}, {5.2f, 4.5f}, {-100.0f, 2.0f}, {1e6f, 1e6f}};
  EXPECT_EQ(attn::points_in_hull(outside, kNotebookValues), Flags(8, 0));
}

TEST(points_in_hull, tolerance_is_one_millionth_of_the_hull_scale) {
  // Unit square: tol = 1e-6. Its copy scaled by 1000: tol = 1e-3.
  const Tensor square = {{0.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 1.0f}, {0.0f, 1.0f}};
  EXPECT_EQ(attn::points_in_hull(Tensor{{1.0000005f, 0.5f}, {1.00001f, 0.5f}}, square),
            (Flags{1, 0}));
  const Tensor big = square * 1000.0f;
  EXPECT_EQ(attn::points_in_hull(Tensor{{1000.0005f, 500.0f}, {1000.01f, 500.0f}}, big),
            (Flags{1, 0}));
}

TEST(points_in_hull, a_one_point_hull_contains_only_that_point) {
  // tol = 1e-6 · 3 (the largest coordinate).
  const Tensor hull = {{2.0f, 3.0f}};
  const Tensor points = {{2.0f, 3.0f}, {2.0f, 3.000002f}, {2.0f, 3.001f}, {0.0f, 0.0f}};
  EXPECT_EQ(attn::points_in_hull(points, hull), (Flags{1, 1, 0, 0}));
}

TEST(points_in_hull, a_two_point_hull_is_a_segment) {
  const Tensor hull = {{0.0f, 0.0f}, {4.0f, 2.0f}};
  const Tensor points = {{0.0f, 0.0f}, {4.0f, 2.0f},   {2.0f, 1.0f},
                         {6.0f, 3.0f}, {-2.0f, -1.0f}, {2.0f, 1.1f}};
  EXPECT_EQ(attn::points_in_hull(points, hull), (Flags{1, 1, 1, 0, 0, 0}));
}

TEST(points_in_hull, collinear_or_repeated_hull_points_act_as_their_hull) {
  const Tensor collinear = {{0.0f, 0.0f}, {1.0f, 1.0f}, {2.0f, 2.0f}, {2.0f, 2.0f}};
  EXPECT_EQ(attn::points_in_hull(Tensor{{1.5f, 1.5f}, {3.0f, 3.0f}, {1.0f, 0.0f}}, collinear),
            (Flags{1, 0, 0}));
  const Tensor repeated = {{1.0f, 1.0f}, {1.0f, 1.0f}};
  EXPECT_EQ(attn::points_in_hull(Tensor{{1.0f, 1.0f}, {1.0f, 1.1f}}, repeated), (Flags{1, 0}));
}

TEST(points_in_hull, an_empty_query_gives_an_empty_result) {
  EXPECT_TRUE(attn::points_in_hull(Tensor::from_shape({0, 2}), kNotebookValues).empty());
}

TEST(points_in_hull, rejects_bad_shapes_naming_the_argument) {
  expect_error<attn::ShapeError>(
      [] {
        attn::points_in_hull(Tensor{1.0f, 2.0f}, kNotebookValues);
      },
      "points_in_hull: points must have shape (n, 2), got [2]");
  expect_error<attn::ShapeError>(
      [] {
        attn::points_in_hull(kNotebookValues, Tensor::from_shape({4, 3}));
      },
      "points_in_hull: hull_points must have shape (n, 2), got [4, 3]");
  expect_error<attn::ShapeError>(
      [] {
        attn::points_in_hull(kNotebookValues, Tensor::from_shape({0, 2}));
      },
      "points_in_hull: hull_points are empty (shape [0, 2])");
}

TEST(points_in_hull, rejects_non_finite_coordinates_naming_the_argument_and_entry) {
  const float inf = std::numeric_limits<float>::infinity();
  expect_error<attn::ValueError>(
      [] {
        attn::points_in_hull(Tensor{{1.0f, 1.0f}, {std::nanf(""), 2.0f}}, kNotebookValues);
      },
      "points_in_hull: points[1, 0] is NaN");
  expect_error<attn::ValueError>(
      [&] {
        attn::points_in_hull(kNotebookValues, Tensor{{inf, 0.0f}, {1.0f, 1.0f}});
      },
      "points_in_hull: hull_points[0, 0] is Infinity; coordinates must be finite");
}

// ---- Robustness: every finite float32, mixed magnitudes, duplicates, near-collinear runs ----

std::vector<attn::exact::Point> to_exact(const Tensor& t) {
  std::vector<attn::exact::Point> out(t.shape()[0]);
  for (std::size_t r = 0; r < out.size(); ++r) {
    out[r] = {t(r, 0), t(r, 1)};
  }
  return out;
}

Tensor from_rows(const std::vector<std::array<float, 2>>& rows) {
  Tensor t = Tensor::from_shape({rows.size(), 2});
  for (std::size_t r = 0; r < rows.size(); ++r) {
    t(r, 0) = rows[r][0];
    t(r, 1) = rows[r][1];
  }
  return t;
}

// The points of a text file, one "x y" per line, '#' lines are comments (tests/cpp/data).
Tensor read_points(const std::string& name) {
  std::ifstream file(std::string(ATTN_TEST_DATA_DIR) + "/" + name);
  EXPECT_TRUE(file.good()) << "cannot read " << ATTN_TEST_DATA_DIR << "/" << name;
  std::vector<std::array<float, 2>> rows;
  std::string line;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    std::istringstream fields(line);
    std::string x, y;
    fields >> x >> y;
    rows.push_back({std::strtof(x.c_str(), nullptr), std::strtof(y.c_str(), nullptr)});
  }
  return from_rows(rows);
}

// Float32 values of every finite kind from a seeded mt19937, whose raw output is the same
// on every platform (the standard distributions are not, so none is used).
class FloatSource {
public:
  explicit FloatSource(std::uint32_t seed) : rng_(seed) {}

  std::uint32_t below(std::uint32_t n) {
    return rng_() % n;
  }

  float any() {
    switch (below(8)) {
    case 0: { // any finite bit pattern
      std::uint32_t bits = rng_();
      if ((bits & 0x7f800000u) == 0x7f800000u) {
        bits &= ~0x40000000u; // inf or NaN exponent -> a finite one
      }
      return bits_to_float(bits);
    }
    case 1: // subnormal, either sign
      return bits_to_float(rng_() & 0x807fffffu);
    case 2:
      return below(2) ? 0.0f : -0.0f;
    case 3:
      return below(2) ? std::numeric_limits<float>::max() : -std::numeric_limits<float>::max();
    case 4: // small integers
      return float(int(below(9)) - 4);
    case 5: // ordinary magnitudes
      return std::ldexp(float(int(below(2001)) - 1000) / 1000.0f, int(below(41)) - 20);
    default: // a magnitude from 2^-149 to 2^127
      return std::ldexp(below(2) ? 1.0f : -1.0f, int(below(277)) - 149) *
             (1.0f + float(below(8)) / 8.0f);
    }
  }

private:
  static float bits_to_float(std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  std::mt19937 rng_;
};

// A set of 1 to 64 points: values of every kind, exact duplicates, and runs of points on
// or next to a line (p + t·(q − p), t = k/16, rounded to float32).
Tensor mixed_point_set(FloatSource& src) {
  const std::size_t n = 1 + src.below(64);
  std::vector<std::array<float, 2>> rows;
  while (rows.size() < n) {
    const std::uint32_t kind = src.below(4);
    if (kind == 0 && !rows.empty()) {
      rows.push_back(rows[src.below(std::uint32_t(rows.size()))]); // duplicate
    } else if (kind == 1) {
      const std::array<float, 2> p = {src.any(), src.any()};
      const std::array<float, 2> q = {src.any(), src.any()};
      for (std::uint32_t k = 0, run = 2 + src.below(6); k < run && rows.size() < n; ++k) {
        const double t = double(src.below(17)) / 16.0;
        rows.push_back({float(double(p[0]) + t * (double(q[0]) - double(p[0]))),
                        float(double(p[1]) + t * (double(q[1]) - double(p[1])))});
      }
    } else {
      rows.push_back({src.any(), src.any()});
    }
  }
  for (auto& row : rows) { // p + t·(q − p) can overflow float32 for far-apart p and q
    for (float& c : row) {
      if (!std::isfinite(c)) {
        c = std::copysign(std::numeric_limits<float>::max(), c);
      }
    }
  }
  return from_rows(rows);
}

TEST(convex_hull, mixed_magnitudes_finding_keeps_every_point_in_its_hull) {
  // 220 points from 1e-41 to 1e27 with many duplicates, on which the hull once left out
  // point 24 (4.59251469e+27, 4.0682107e+27) in every build: cross products in float64
  // of coordinates this far apart lost the sign of nearly collinear turns.
  const Tensor points = read_points("hull-mixed-magnitudes.txt");
  ASSERT_EQ(points.shape()[0], 220u);
  const Indices hull = attn::convex_hull(points);
  EXPECT_EQ(attn::exact::hull_problem(to_exact(points), hull), "");
  EXPECT_EQ(attn::points_in_hull(points, rows(points, hull)), Flags(220, 1));
}

TEST(convex_hull, every_finite_float32_set_lies_in_its_own_strictly_convex_ccw_hull) {
  FloatSource src(20261130);
  for (int trial = 0; trial < 600; ++trial) {
    const Tensor points = mixed_point_set(src);
    const Indices hull = attn::convex_hull(points);
    const std::string problem = attn::exact::hull_problem(to_exact(points), hull);
    ASSERT_EQ(problem, "") << "trial " << trial << ", " << points.shape()[0] << " points";
    // points_in_hull agrees: the set is inside the polygon of its hull's vertices
    const Flags inside = attn::points_in_hull(points, rows(points, hull));
    ASSERT_EQ(inside, Flags(points.shape()[0], 1)) << "trial " << trial;
  }
}

TEST(convex_hull, exactly_collinear_points_far_apart_in_magnitude_give_the_two_extremes) {
  // On the line y = x from a subnormal to 2^100; naive float64 differences would still be
  // exact here, so the hull must see them as collinear, as it does for small integers.
  const float tiny = std::numeric_limits<float>::denorm_min();
  const Tensor points = {{std::ldexp(1.0f, 100), std::ldexp(1.0f, 100)},
                         {tiny, tiny},
                         {0.0f, -0.0f},
                         {1.0f, 1.0f},
                         {std::ldexp(1.0f, -140), std::ldexp(1.0f, -140)}};
  EXPECT_EQ(attn::convex_hull(points), (Indices{2, 0}));
}

// The float64 reference for well-conditioned sets: Andrew's monotone chain with the cross
// product in float64, exact for integer coordinates with |x|, |y| ≤ 2^20 (differences
// ≤ 2^21, products ≤ 2^42). Returns the vertices' coordinates, counter-clockwise from
// the lowest (x, y).
std::vector<std::array<double, 2>> reference_hull(const Tensor& t) {
  std::vector<std::array<double, 2>> p(t.shape()[0]);
  for (std::size_t r = 0; r < p.size(); ++r) {
    p[r] = {double(t(r, 0)), double(t(r, 1))};
  }
  std::sort(p.begin(), p.end());
  p.erase(std::unique(p.begin(), p.end()), p.end());
  if (p.size() <= 2) {
    return p;
  }
  const auto cross = [](const auto& o, const auto& a, const auto& b) {
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  };
  std::vector<std::array<double, 2>> h;
  for (int pass = 0; pass < 2; ++pass) {
    const std::size_t start = h.size();
    for (const auto& q : p) {
      while (h.size() >= start + 2 && cross(h[h.size() - 2], h.back(), q) <= 0) {
        h.pop_back();
      }
      h.push_back(q);
    }
    h.pop_back(); // the chain's last point starts the other chain
    std::reverse(p.begin(), p.end());
  }
  return h;
}

TEST(convex_hull, well_conditioned_sets_match_the_float64_reference) {
  // Integer coordinates with |x|, |y| ≤ 2^20, some on a coarse grid (many collinear
  // points and duplicates), some anywhere in the range.
  FloatSource src(42);
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t n = 1 + src.below(80);
    const std::uint32_t grid = trial % 2 ? 1u : (1u << 18);
    const std::uint32_t steps = (1u << 21) / grid + 1;
    std::vector<std::array<float, 2>> rows(n);
    for (auto& row : rows) {
      row = {float(int(src.below(steps)) * int(grid) - (1 << 20)),
             float(int(src.below(steps)) * int(grid) - (1 << 20))};
    }
    const Tensor points = from_rows(rows);
    const Indices hull = attn::convex_hull(points);
    const auto expected = reference_hull(points);
    ASSERT_EQ(hull.size(), expected.size()) << "trial " << trial << ", " << n << " points";
    for (std::size_t i = 0; i < hull.size(); ++i) {
      EXPECT_EQ(double(points(hull[i], 0)), expected[i][0])
          << "trial " << trial << ", vertex " << i;
      EXPECT_EQ(double(points(hull[i], 1)), expected[i][1])
          << "trial " << trial << ", vertex " << i;
    }
  }
}

TEST(points_in_hull, decides_exactly_at_the_smallest_subnormal_scale) {
  // A triangle of subnormals, x, y ≥ 0 and x + y ≤ 4·2^-149: its tolerance rounds to far
  // below one subnormal step, so the exact orientation test alone decides. Nothing
  // underflows: every product of two float32 values is a normal float64.
  const float d = std::numeric_limits<float>::denorm_min();
  const Tensor tri = {{0.0f, 0.0f}, {4 * d, 0.0f}, {0.0f, 4 * d}};
  const Tensor probes = {{d, d},     {2 * d, 2 * d}, {2 * d, -0.0f}, {3 * d, 2 * d},
                         {-d, 0.0f}, {d, 3 * d},     {2 * d, 3 * d}};
  EXPECT_EQ(attn::points_in_hull(probes, tri), (Flags{1, 1, 1, 0, 0, 1, 0}));
}

} // namespace
