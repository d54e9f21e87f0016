// 4-lane float vectors on x86 SSE2 for vector_kernels.hpp (native builds).
#pragma once

#include <emmintrin.h>

#include "exp_constants.hpp"

namespace attn::kernels {

struct Vec4Sse2 {
  static constexpr const char* kExp = exp_constants::kAlgorithm;
  using f32x4 = __m128;
  static f32x4 load(const float* p) {
    return _mm_loadu_ps(p);
  }
  static void store(float* p, f32x4 a) {
    _mm_storeu_ps(p, a);
  }
  static f32x4 splat(float x) {
    return _mm_set1_ps(x);
  }
  static f32x4 load_splat(const float* p) {
    return _mm_load1_ps(p);
  }
  static f32x4 add(f32x4 a, f32x4 b) {
    return _mm_add_ps(a, b);
  }
  static f32x4 sub(f32x4 a, f32x4 b) {
    return _mm_sub_ps(a, b);
  }
  static f32x4 mul(f32x4 a, f32x4 b) {
    return _mm_mul_ps(a, b);
  }
  static f32x4 max(f32x4 a, f32x4 b) {
    return _mm_max_ps(a, b);
  }
  static f32x4 div(f32x4 a, f32x4 b) {
    return _mm_div_ps(a, b);
  }
  /// |a| with the sign of b.
  static f32x4 copysign(f32x4 a, f32x4 b) {
    const __m128 sign = _mm_set1_ps(-0.0f);
    return _mm_or_ps(_mm_andnot_ps(sign, a), _mm_and_ps(sign, b));
  }
  static float hmax(f32x4 a) {
    a = _mm_max_ps(a, _mm_movehl_ps(a, a));
    return _mm_cvtss_f32(_mm_max_ss(a, _mm_shuffle_ps(a, a, 1)));
  }
  static float hsum(f32x4 a) {
    a = _mm_add_ps(a, _mm_movehl_ps(a, a));
    return _mm_cvtss_f32(_mm_add_ss(a, _mm_shuffle_ps(a, a, 1)));
  }
  static f32x4 exp_nonpositive(f32x4 x) {
    using namespace exp_constants;
    const __m128 flush = _mm_cmplt_ps(x, _mm_set1_ps(kMinArg));
    x = _mm_max_ps(x, _mm_set1_ps(kMinArg));
    // n = round(x·log2 e) through the magic-number trick; its bits give 2^n.
    const __m128 shifted = _mm_add_ps(_mm_mul_ps(x, _mm_set1_ps(kLog2e)), _mm_set1_ps(kRoundMagic));
    const __m128 n = _mm_sub_ps(shifted, _mm_set1_ps(kRoundMagic));
    const __m128i bits =
        _mm_sub_epi32(_mm_castps_si128(shifted), _mm_castps_si128(_mm_set1_ps(kRoundMagic)));
    const __m128 pow2n =
        _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(bits, _mm_set1_epi32(127)), 23));
    const __m128 r = _mm_sub_ps(_mm_sub_ps(x, _mm_mul_ps(n, _mm_set1_ps(kLn2Hi))),
                                _mm_mul_ps(n, _mm_set1_ps(kLn2Lo)));
    __m128 p = _mm_set1_ps(kP0);
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(kP1));
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(kP2));
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(kP3));
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(kP4));
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(kP5));
    p = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_mul_ps(p, r), r), r), _mm_set1_ps(1.0f));
    return _mm_andnot_ps(flush, _mm_mul_ps(p, pow2n));
  }
};

} // namespace attn::kernels
