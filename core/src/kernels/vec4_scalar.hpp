// 4-lane float "vectors" in portable C++ for vector_kernels.hpp (the scalar ISA).
// exp is std::exp per lane.
#pragma once

#include <algorithm>
#include <cmath>

namespace attn::kernels {

struct Vec4Scalar {
  static constexpr const char* kExp = "libm: std::exp per lane";
  struct f32x4 {
    float v[4];
  };
  template <class F> static f32x4 map(f32x4 a, f32x4 b, F f) {
    return {{f(a.v[0], b.v[0]), f(a.v[1], b.v[1]), f(a.v[2], b.v[2]), f(a.v[3], b.v[3])}};
  }
  static f32x4 load(const float* p) {
    return {{p[0], p[1], p[2], p[3]}};
  }
  static void store(float* p, f32x4 a) {
    std::copy(a.v, a.v + 4, p);
  }
  static f32x4 splat(float x) {
    return {{x, x, x, x}};
  }
  static f32x4 load_splat(const float* p) {
    return splat(*p);
  }
  static f32x4 add(f32x4 a, f32x4 b) {
    return map(a, b, [](float x, float y) { return x + y; });
  }
  static f32x4 sub(f32x4 a, f32x4 b) {
    return map(a, b, [](float x, float y) { return x - y; });
  }
  static f32x4 mul(f32x4 a, f32x4 b) {
    return map(a, b, [](float x, float y) { return x * y; });
  }
  static f32x4 max(f32x4 a, f32x4 b) {
    return map(a, b, [](float x, float y) { return x < y ? y : x; });
  }
  static f32x4 div(f32x4 a, f32x4 b) {
    return map(a, b, [](float x, float y) { return x / y; });
  }
  /// |a| with the sign of b.
  static f32x4 copysign(f32x4 a, f32x4 b) {
    return map(a, b, [](float x, float y) { return std::copysign(x, y); });
  }
  static float hmax(f32x4 a) {
    return std::max(std::max(a.v[0], a.v[1]), std::max(a.v[2], a.v[3]));
  }
  static float hsum(f32x4 a) {
    return (a.v[0] + a.v[2]) + (a.v[1] + a.v[3]);
  }
  static f32x4 exp_nonpositive(f32x4 a) {
    return {{std::exp(a.v[0]), std::exp(a.v[1]), std::exp(a.v[2]), std::exp(a.v[3])}};
  }
};

} // namespace attn::kernels
