// An exact orientation test for float32 points, written for the tests apart from the
// core's (core/src/geometry.cpp decides with a float64 filter and Shewchuk expansions;
// this one adds integers), and the hull properties the tests and fuzz_hull check with it.
//
//   cross(o, a, b) = (a_x − o_x)(b_y − o_y) − (a_y − o_y)(b_x − o_x)
//                  = a_x·b_y + a_y·o_x + o_y·b_x − (a_x·o_y + o_x·b_y + a_y·b_x)
// Each product of two float32 values is exact in float64 (checked with fma) and is 0 or a
// multiple of 2^-350 below 2^257, so the positive and the negative products are summed
// as unsigned fixed-point integers of 768 bits (units of 2^-400) and compared.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace attn::exact {

struct Point {
  float x = 0;
  float y = 0;
};

/// Unsigned fixed-point sum of nonnegative doubles that are multiples of 2^-400.
class FixedSum {
public:
  void add(double p) {
    if (p == 0) {
      return;
    }
    int e = 0;
    const double m = std::frexp(p, &e); // p = m·2^e, m in [0.5, 1)
    const auto mantissa = static_cast<std::uint64_t>(std::ldexp(m, 53)); // exact
    const int shift = e - 53 + kLsbExponent; // p = mantissa · 2^shift units
    if (shift < 0 || shift / 32 + 3 > int(kLimbs)) {
      std::abort(); // outside the range float32 products can reach
    }
    const std::size_t limb = std::size_t(shift / 32);
    const int bit = shift % 32;
    add_at(limb, (mantissa & 0xffffffffu) << bit);
    add_at(limb + 1, (mantissa >> 32) << bit);
  }

  /// −1, 0 or +1 as *this is below, equal to or above `other`.
  int compare(const FixedSum& other) const {
    for (std::size_t i = kLimbs; i-- > 0;) {
      if (limbs_[i] != other.limbs_[i]) {
        return limbs_[i] < other.limbs_[i] ? -1 : 1;
      }
    }
    return 0;
  }

private:
  static constexpr int kLsbExponent = 400;
  static constexpr std::size_t kLimbs = 24;

  // Adds value · 2^(32·limb), carrying upwards.
  void add_at(std::size_t limb, std::uint64_t value) {
    for (std::size_t i = limb; value != 0; ++i) {
      if (i >= kLimbs) {
        std::abort();
      }
      const std::uint64_t sum = std::uint64_t(limbs_[i]) + (value & 0xffffffffu);
      limbs_[i] = std::uint32_t(sum);
      value = (value >> 32) + (sum >> 32);
    }
  }

  std::array<std::uint32_t, kLimbs> limbs_{};
};

/// The exact product of two float32 values, in float64 (aborts if it were not exact).
inline double exact_product(float a, float b) {
  const double p = double(a) * double(b);
  if (std::fma(double(a), double(b), -p) != 0) {
    std::abort();
  }
  return p;
}

/// Sign of cross(o, a, b), exactly: +1 left turn, −1 right turn, 0 collinear.
inline int orientation(Point o, Point a, Point b) {
  const double plus[3] = {exact_product(a.x, b.y), exact_product(a.y, o.x),
                          exact_product(o.y, b.x)};
  const double minus[3] = {exact_product(a.x, o.y), exact_product(o.x, b.y),
                           exact_product(a.y, b.x)};
  FixedSum positive;
  FixedSum negative;
  const auto add = [&](double t) { (t > 0 ? positive : negative).add(std::abs(t)); };
  for (const double t : plus) {
    add(t);
  }
  for (const double t : minus) {
    add(-t);
  }
  return positive.compare(negative);
}

inline bool same(Point a, Point b) {
  return a.x == b.x && a.y == b.y;
}

/// Whether p lies in the closed segment a–b (exactly; a = b is the point itself).
inline bool on_segment(Point p, Point a, Point b) {
  if (orientation(a, b, p) != 0) {
    return false;
  }
  const auto between = [](float v, float lo, float hi) {
    return (lo <= v && v <= hi) || (hi <= v && v <= lo);
  };
  return between(p.x, a.x, b.x) && between(p.y, a.y, b.y);
}

/// What is wrong with `hull` (indices into `points`) as the convex hull of `points`, or ""
/// when nothing is: indices distinct and in range; for three or more vertices a strict
/// left turn at every vertex (counter-clockwise, strictly convex); every point inside or
/// on the polygon (for one or two vertices: on the point or the segment).
inline std::string hull_problem(const std::vector<Point>& points,
                                const std::vector<std::int32_t>& hull) {
  const std::size_t n = points.size();
  const std::size_t h = hull.size();
  if (h == 0 || h > n) {
    return std::to_string(h) + " hull vertices for " + std::to_string(n) + " points";
  }
  std::vector<bool> seen(n, false);
  std::vector<Point> v(h);
  for (std::size_t i = 0; i < h; ++i) {
    const std::int32_t at = hull[i];
    if (at < 0 || std::size_t(at) >= n || seen[std::size_t(at)]) {
      return "hull index " + std::to_string(at) + " is out of range or repeated";
    }
    seen[std::size_t(at)] = true;
    v[i] = points[std::size_t(at)];
  }
  if (h >= 3) {
    for (std::size_t i = 0; i < h; ++i) {
      if (orientation(v[i], v[(i + 1) % h], v[(i + 2) % h]) <= 0) {
        return "no strict left turn at hull position " + std::to_string((i + 1) % h);
      }
    }
  }
  for (std::size_t r = 0; r < n; ++r) {
    const Point p = points[r];
    bool inside = true;
    if (h == 1) {
      inside = same(p, v[0]);
    } else if (h == 2) {
      inside = on_segment(p, v[0], v[1]);
    } else {
      for (std::size_t i = 0; inside && i < h; ++i) {
        inside = orientation(v[i], v[(i + 1) % h], p) >= 0;
      }
    }
    if (!inside) {
      char text[160];
      std::snprintf(text, sizeof text, "point %zu (%.9g, %.9g) is outside the hull", r, double(p.x),
                    double(p.y));
      return text;
    }
  }
  return "";
}

} // namespace attn::exact
