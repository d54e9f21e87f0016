// Fuzz target: attn::convex_hull and attn::points_in_hull.
//   points (n, 2) -> hull vertex indices;  points (m, 2), hull_points (h, 2) -> m flags
// On success: the hull indices are distinct and in range, the hull is strictly convex and
// counter-clockwise and holds every input point, by an exact orientation test of the
// tests' own; points_in_hull counts every point inside the polygon of the hull's vertices.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/error.hpp"
#include "attn/geometry.hpp"
#include "exact_geometry.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  attn::Shape ps = {
      in.ConsumeIntegralInRange<std::size_t>(0, std::min<std::size_t>(1000, fuzz::budget(in) / 2)),
      2};
  if (in.ConsumeIntegral<std::uint8_t>() >= 240) {
    ps = fuzz::read_shape(in, 0, 3); // wrong ranks and widths
  }
  const attn::Tensor points = fuzz::read_tensor(in, ps);
  const attn::Tensor probes =
      fuzz::read_tensor(in, {in.ConsumeIntegralInRange<std::size_t>(0, 64), 2});

  try {
    (void)attn::points_in_hull(probes, points);
  } catch (const attn::Error&) {
    // accepted
  }
  std::vector<std::int32_t> hull;
  try {
    hull = attn::convex_hull(points);
  } catch (const attn::Error&) {
    return 0; // a clear error is an accepted outcome
  }

  // The hull, checked by the tests' own exact orientation test (tests/cpp/exact_geometry.hpp):
  // distinct indices in range, strictly convex and counter-clockwise, every point inside
  // or on it. Then points_in_hull agrees that every point is inside.
  const std::size_t n = points.shape()[0];
  std::vector<attn::exact::Point> exact_points(n);
  for (std::size_t r = 0; r < n; ++r) {
    exact_points[r] = {points(r, 0), points(r, 1)};
  }
  const std::string problem = attn::exact::hull_problem(exact_points, hull);
  FUZZ_CHECK(problem.empty(), "%s (%zu points, %zu hull vertices)", problem.c_str(), n,
             hull.size());
  attn::Tensor vertices = attn::Tensor::from_shape({hull.size(), 2});
  for (std::size_t i = 0; i < hull.size(); ++i) {
    vertices(i, 0) = points(hull[i], 0);
    vertices(i, 1) = points(hull[i], 1);
  }
  const std::vector<std::uint8_t> inside = attn::points_in_hull(points, vertices);
  for (std::size_t r = 0; r < n; ++r) {
    FUZZ_CHECK(inside[r] == 1,
               "points_in_hull: point %zu (%.9g, %.9g) is outside the hull of the points", r,
               double(points(r, 0)), double(points(r, 1)));
  }
  return 0;
}
