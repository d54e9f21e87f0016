// attn/geometry.hpp — convex hulls in the plane, for the "outputs stay inside the
// convex hull of the values" lesson: y = Σ_j α_j v_j with α_j ≥ 0, Σ α_j = 1 lies in
// Conv(v_1, …, v_T).
//
// Orientation tests are exact: the sign of the cross product
//   cross(o, a, b) = (a_x − o_x)(b_y − o_y) − (a_y − o_y)(b_x − o_x)
// (> 0 for a counter-clockwise, left turn o → a → b; 0 when collinear) is decided for the
// float32 coordinates as given, with no overflow, underflow or cancellation error, for
// every finite float32 (subnormals and ±0 included, magnitudes mixed freely): a float64
// estimate with a proven error bound, and exact expansion arithmetic when the estimate is
// too close to 0 (Shewchuk 1997). So the hull of a set holds every point of the set, and
// collinear points are treated alike everywhere.
#pragma once

#include <cstdint>
#include <vector>

#include "attn/tensor.hpp"

namespace attn {

/// Vertices of the convex hull of a set of points, by Andrew's monotone chain
/// (A. M. Andrew, "Another efficient algorithm for convex hulls in two dimensions",
/// Information Processing Letters 9(5), 1979).
///   points: (n, 2), n ≥ 1, finite            -> indices into points, hull order
/// The indices run counter-clockwise, starting at the point with the lowest x (then
/// lowest y). Only corners are vertices: a point on an edge between two vertices is
/// not one. Exact duplicates count once, by their first index. Degenerate inputs:
/// one distinct point -> [its first index]; all points on one line -> the two
/// extreme points [lowest (x, y), highest (x, y)].
/// Throws ShapeError (not (n, 2), n = 0) or ValueError (NaN or inf, naming the row).
std::vector<std::int32_t> convex_hull(const Tensor& points);

/// Whether each point lies inside or on the boundary of the convex polygon with the
/// given vertices.
///   points:      (m, 2), finite (m = 0 gives an empty result)
///   hull_points: (h, 2), h ≥ 1, finite: the polygon's vertices, usually the rows
///                of convex_hull()'s output in its counter-clockwise order
///   -> m flags, 1 = inside or on the boundary, 0 = outside
/// The test runs against the convex hull of hull_points (recomputed, O(h log h)), so
/// their order does not matter and repeated or collinear vertices are harmless. A hull
/// of one point (h = 1 or all equal) is that point, one of collinear points a segment.
/// Tolerance: a point counts as inside when it is in the closed polygon (on the left
/// of or on every edge, by the exact orientation test) or within Euclidean distance
///   tol = 1e-6 · max(extent, largest |coordinate|)
/// of its boundary (extent = the larger side of hull_points' bounding box). The
/// |coordinate| term covers float32 rounding, which grows with the magnitude of the
/// coordinates: mixtures Σ α_j v_j computed in float32 on the boundary are off by a
/// few ulps of their coordinates and still count as inside. A hull at the origin
/// alone has tol = 0 (only the exact point is inside).
/// Throws ShapeError (either argument not (·, 2), h = 0) or ValueError (NaN or inf,
/// naming the argument and the row).
std::vector<std::uint8_t> points_in_hull(const Tensor& points, const Tensor& hull_points);

} // namespace attn
