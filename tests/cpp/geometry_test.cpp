// Convex hulls and the point-in-hull test, with the notebook's four 2-D values
// v0 = (1, 1), v1 = (1.5, 4), v2 = (5, 4.5), v3 = (4, 0.5)
// ("Attention as a Weighted Mixture", section 2).
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "attn/error.hpp"
#include "attn/geometry.hpp"
#include "attn/random.hpp"
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

TEST(convex_hull, rejects_non_finite_coordinates_naming_the_row) {
  const float inf = std::numeric_limits<float>::infinity();
  expect_error<attn::ValueError>(
      [] {
        attn::convex_hull(Tensor{{0.0f, 0.0f}, {1.0f, 0.0f}, {std::nanf(""), 1.0f}});
      },
      "convex_hull: points row 2 is (NaN, 1); coordinates must be finite");
  expect_error<attn::ValueError>(
      [&] {
        attn::convex_hull(Tensor{{0.0f, -inf}});
      },
      "points row 0 is (0, -Infinity)");
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

TEST(points_in_hull, rejects_non_finite_coordinates_naming_the_argument_and_row) {
  const float inf = std::numeric_limits<float>::infinity();
  expect_error<attn::ValueError>(
      [] {
        attn::points_in_hull(Tensor{{1.0f, 1.0f}, {std::nanf(""), 2.0f}}, kNotebookValues);
      },
      "points_in_hull: points row 1 is (NaN, 2)");
  expect_error<attn::ValueError>(
      [&] {
        attn::points_in_hull(kNotebookValues, Tensor{{inf, 0.0f}, {1.0f, 1.0f}});
      },
      "points_in_hull: hull_points row 0 is (Infinity, 0); coordinates must be finite");
}

} // namespace
