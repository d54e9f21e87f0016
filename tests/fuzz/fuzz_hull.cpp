// Fuzz target: attn::convex_hull and attn::points_in_hull.
//   points (n, 2) -> hull vertex indices;  points (m, 2), hull_points (h, 2) -> m flags
// On success: the hull indices are distinct and in range, and every input point
// counts as inside the polygon of the hull's vertices (and of all the points).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/error.hpp"
#include "attn/geometry.hpp"
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

  const std::size_t n = points.shape()[0];
  FUZZ_CHECK(!hull.empty() && hull.size() <= n, "%zu hull vertices for %zu points", hull.size(), n);
  std::vector<bool> seen(n, false);
  attn::Tensor vertices = attn::Tensor::from_shape({hull.size(), 2});
  for (std::size_t i = 0; i < hull.size(); ++i) {
    const std::int32_t at = hull[i];
    FUZZ_CHECK(at >= 0 && std::size_t(at) < n && !seen[at], "bad or repeated hull index %d",
               int(at));
    seen[at] = true;
    vertices(i, 0) = points(at, 0);
    vertices(i, 1) = points(at, 1);
  }
  const std::vector<std::uint8_t> inside = attn::points_in_hull(points, vertices);
  for (std::size_t r = 0; r < n; ++r) {
    FUZZ_CHECK(inside[r] == 1, "point %zu (%g, %g) is outside the hull of the points", r,
               double(points(r, 0)), double(points(r, 1)));
  }
  return 0;
}
