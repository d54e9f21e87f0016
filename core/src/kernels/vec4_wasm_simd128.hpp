// 4-lane float vectors on WebAssembly SIMD128 for vector_kernels.hpp.
// pmax (a < b ? b : a) lowers to one x86 maxps; inputs hold no NaN.
#pragma once

#include <wasm_simd128.h>

#include "exp_constants.hpp"

namespace attn::kernels {

struct Vec4WasmSimd128 {
  static constexpr const char* kExp = exp_constants::kAlgorithm;
  using f32x4 = v128_t;
  static f32x4 load(const float* p) {
    return wasm_v128_load(p);
  }
  static void store(float* p, f32x4 a) {
    wasm_v128_store(p, a);
  }
  static f32x4 splat(float x) {
    return wasm_f32x4_splat(x);
  }
  static f32x4 load_splat(const float* p) {
    return wasm_v128_load32_splat(p);
  }
  static f32x4 add(f32x4 a, f32x4 b) {
    return wasm_f32x4_add(a, b);
  }
  static f32x4 sub(f32x4 a, f32x4 b) {
    return wasm_f32x4_sub(a, b);
  }
  static f32x4 mul(f32x4 a, f32x4 b) {
    return wasm_f32x4_mul(a, b);
  }
  static f32x4 max(f32x4 a, f32x4 b) {
    return wasm_f32x4_pmax(a, b);
  }
  static f32x4 div(f32x4 a, f32x4 b) {
    return wasm_f32x4_div(a, b);
  }
  /// |a| with the sign of b.
  static f32x4 copysign(f32x4 a, f32x4 b) {
    return wasm_v128_bitselect(b, a, wasm_f32x4_splat(-0.0f));
  }
  static float hmax(f32x4 a) {
    a = wasm_f32x4_pmax(a, wasm_i32x4_shuffle(a, a, 2, 3, 0, 1));
    a = wasm_f32x4_pmax(a, wasm_i32x4_shuffle(a, a, 1, 0, 3, 2));
    return wasm_f32x4_extract_lane(a, 0);
  }
  static float hsum(f32x4 a) {
    a = wasm_f32x4_add(a, wasm_i32x4_shuffle(a, a, 2, 3, 0, 1));
    a = wasm_f32x4_add(a, wasm_i32x4_shuffle(a, a, 1, 0, 3, 2));
    return wasm_f32x4_extract_lane(a, 0);
  }
  static f32x4 exp_nonpositive(f32x4 x) {
    using namespace exp_constants;
    const v128_t flush = wasm_f32x4_lt(x, wasm_f32x4_splat(kMinArg));
    x = wasm_f32x4_pmax(x, wasm_f32x4_splat(kMinArg));
    // n = round(x·log2 e) through the magic-number trick; its bits give 2^n.
    const v128_t magic = wasm_f32x4_splat(kRoundMagic);
    const v128_t shifted = wasm_f32x4_add(wasm_f32x4_mul(x, wasm_f32x4_splat(kLog2e)), magic);
    const v128_t n = wasm_f32x4_sub(shifted, magic);
    const v128_t bits = wasm_i32x4_sub(shifted, magic);
    const v128_t pow2n = wasm_i32x4_shl(wasm_i32x4_add(bits, wasm_i32x4_splat(127)), 23);
    const v128_t r = wasm_f32x4_sub(wasm_f32x4_sub(x, wasm_f32x4_mul(n, wasm_f32x4_splat(kLn2Hi))),
                                    wasm_f32x4_mul(n, wasm_f32x4_splat(kLn2Lo)));
    v128_t p = wasm_f32x4_splat(kP0);
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP1));
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP2));
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP3));
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP4));
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP5));
    p = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(p, r), r), r),
                       wasm_f32x4_splat(1.0f));
    return wasm_v128_andnot(wasm_f32x4_mul(p, pow2n), flush);
  }
};

} // namespace attn::kernels
