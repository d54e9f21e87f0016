// Convex hull (Andrew's monotone chain) and point-in-hull tests (see attn/geometry.hpp).
#include "attn/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "attn/error.hpp"
#include "require_finite.hpp"

namespace attn {
namespace {

struct Point {
  double x = 0;
  double y = 0;
  std::int32_t index = 0; // row in the caller's tensor
};

// Checks that `t` is an (n, 2) tensor of finite coordinates; n = 0 only if allowed.
//   fn: "convex_hull", name: "points" -> "convex_hull: points must have shape (n, 2), ..."
void check_points(const Tensor& t, const std::string& fn, const std::string& name,
                  bool allow_empty) {
  const Shape shape = shape_of(t);
  if (shape.size() != 2 || shape[1] != 2) {
    throw ShapeError(fn + ": " + name + " must have shape (n, 2), got " + format_shape(shape));
  }
  if (shape[0] == 0 && !allow_empty) {
    throw ShapeError(fn + ": " + name + " are empty (shape " + format_shape(shape) +
                     "); need at least one point");
  }
  if (shape[0] > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    throw ShapeError(fn + ": " + name + " has " + std::to_string(shape[0]) +
                     " rows, more than int32 indices can hold");
  }
  detail::require_finite(t, fn, name, detail::Allow::finite, "coordinates must be finite");
}

std::vector<Point> to_points(const Tensor& t) {
  std::vector<Point> points(t.shape()[0]);
  for (std::size_t r = 0; r < points.size(); ++r) {
    points[r] = {t(r, 0), t(r, 1), static_cast<std::int32_t>(r)};
  }
  return points;
}

// Sign of the z component of (a − o) × (b − o), exactly: +1 for a left (counter-
// clockwise) turn o → a → b, −1 for a right turn, 0 when the three are collinear.
//
// Every coordinate is a float32 value (held in a double), so the decision can be exact
// (Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
// Predicates", 1997, gives the tools). Multiplied out, the ox·oy terms cancel:
//   (ax − ox)(by − oy) − (ay − oy)(bx − ox)
//     = ax·by − ax·oy − ox·by − ay·bx + ay·ox + oy·bx.
// Each product of two float32 values is exact in float64 (24 + 24 significand bits ≤ 53)
// and lies in [2^-298, 2^256] or is 0: no rounding, no overflow, no underflow, whatever
// the magnitudes (subnormals and ±FLT_MAX included). What remains is the sign of a sum
// of six exact doubles:
//   pass 1 (fast): the float64 sum s; with u = 2^-53, |s − exact| ≤ γ₅·Σ|tᵢ| (γ₅ < 5.01u),
//          so |s| > 8u·Σ|tᵢ| decides the sign (the bound has room for its own rounding);
//   pass 2 (exact): otherwise, the sum as a nonoverlapping expansion (Shewchuk's
//          Grow-Expansion built on Knuth's Two-Sum), whose largest nonzero component has the
//          sign of the exact sum. Ties (exactly collinear points) are 0 on every platform.
int orientation(const Point& o, const Point& a, const Point& b) {
  const double t[6] = {a.x * b.y, -(a.x * o.y), -(o.x * b.y), -(a.y * b.x), a.y * o.x, o.y * b.x};
  // pass 1: float64 sum with a proven error bound
  double sum = 0;
  double magnitude = 0;
  for (const double term : t) {
    sum += term;
    magnitude += std::abs(term);
  }
  const double bound = 0x1p-50 * magnitude; // 8u·Σ|tᵢ|, exact (a power of two, no underflow)
  if (sum > bound) {
    return 1;
  }
  if (sum < -bound) {
    return -1;
  }
  if (magnitude == 0) {
    return 0; // every product is 0
  }
  // pass 2: exact sum as an expansion e[0..m), increasing magnitude, nonoverlapping
  double e[6];
  std::size_t m = 0;
  for (const double term : t) {
    double q = term;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < m; ++i) {
      // Two-Sum (Knuth): q + e[i] = high + low exactly, in round-to-nearest
      const double high = q + e[i];
      const double b_virtual = high - q;
      const double a_virtual = high - b_virtual;
      const double low = (q - a_virtual) + (e[i] - b_virtual);
      q = high;
      if (low != 0) {
        e[kept++] = low; // zero components dropped: the rest stay in increasing order
      }
    }
    if (q != 0) {
      e[kept++] = q;
    }
    m = kept;
  }
  // the largest nonzero component (the last) decides; none left means the sum is 0
  if (m == 0) {
    return 0;
  }
  return e[m - 1] > 0 ? 1 : -1;
}

// Andrew (1979): sort by (x, y), drop exact duplicates (keeping the first index),
// then build the lower chain left to right and the upper chain right to left, each
// keeping only strict left turns (so collinear points on an edge are dropped).
// Returns the hull counter-clockwise from the lowest (x, y); 1 or 2 points when the
// input has one distinct point or is collinear.
std::vector<Point> monotone_chain(std::vector<Point> points) {
  std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
    if (a.x != b.x) {
      return a.x < b.x;
    }
    if (a.y != b.y) {
      return a.y < b.y;
    }
    return a.index < b.index;
  });
  points.erase(std::unique(points.begin(), points.end(),
                           [](const Point& a, const Point& b) { return a.x == b.x && a.y == b.y; }),
               points.end());
  const std::size_t n = points.size();
  if (n <= 2) {
    return points;
  }

  std::vector<Point> hull(2 * n);
  std::size_t k = 0;
  // pass 1: lower chain, left to right
  for (std::size_t i = 0; i < n; ++i) {
    while (k >= 2 && orientation(hull[k - 2], hull[k - 1], points[i]) <= 0) {
      --k;
    }
    hull[k++] = points[i];
  }
  // pass 2: upper chain, right to left, never popping into the lower chain
  const std::size_t lower_size = k + 1;
  for (std::size_t i = n - 1; i-- > 0;) {
    while (k >= lower_size && orientation(hull[k - 2], hull[k - 1], points[i]) <= 0) {
      --k;
    }
    hull[k++] = points[i];
  }
  hull.resize(k - 1); // the last point is the first again
  return hull;
}

// Euclidean distance from p to the segment a–b (a point when a = b).
double distance_to_segment(const Point& p, const Point& a, const Point& b) {
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const double length2 = dx * dx + dy * dy;
  double t = 0;
  if (length2 > 0) {
    t = std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / length2, 0.0, 1.0);
  }
  return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

} // namespace

std::vector<std::int32_t> convex_hull(const Tensor& points) {
  check_points(points, "convex_hull", "points", false);
  const std::vector<Point> hull = monotone_chain(to_points(points));
  std::vector<std::int32_t> indices(hull.size());
  for (std::size_t i = 0; i < hull.size(); ++i) {
    indices[i] = hull[i].index;
  }
  return indices;
}

std::vector<std::uint8_t> points_in_hull(const Tensor& points, const Tensor& hull_points) {
  check_points(points, "points_in_hull", "points", true);
  check_points(hull_points, "points_in_hull", "hull_points", false);
  const std::vector<Point> vertices = to_points(hull_points);
  const std::vector<Point> hull = monotone_chain(vertices);

  // tol = 1e-6 · max(extent, largest |coordinate|) of hull_points
  double min_x = vertices[0].x, max_x = vertices[0].x;
  double min_y = vertices[0].y, max_y = vertices[0].y;
  double magnitude = 0;
  for (const Point& v : vertices) {
    min_x = std::min(min_x, v.x);
    max_x = std::max(max_x, v.x);
    min_y = std::min(min_y, v.y);
    max_y = std::max(max_y, v.y);
    magnitude = std::max({magnitude, std::abs(v.x), std::abs(v.y)});
  }
  const double tol = 1e-6 * std::max({max_x - min_x, max_y - min_y, magnitude});

  const std::size_t h = hull.size();
  std::vector<std::uint8_t> inside(points.shape()[0], 0);
  for (std::size_t r = 0; r < inside.size(); ++r) {
    const Point p = {points(r, 0), points(r, 1), 0};
    // pass 1: a polygon (h ≥ 3) contains p when p is left of or on every CCW edge
    bool in = h >= 3;
    for (std::size_t i = 0; in && i < h; ++i) {
      in = orientation(hull[i], hull[(i + 1) % h], p) >= 0;
    }
    // pass 2: otherwise p may still be within tol of the boundary (for h = 1 or 2
    // the boundary is the point or the segment itself)
    for (std::size_t i = 0; !in && i < h; ++i) {
      in = distance_to_segment(p, hull[i], hull[(i + 1) % h]) <= tol;
    }
    inside[r] = in ? 1 : 0;
  }
  return inside;
}

} // namespace attn
