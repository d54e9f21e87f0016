// Constants of the vectorised exp shared by the SIMD mappings, "rr2_p7" in
// XNNPACK's naming: Cephes expf (S. L. Moshier), exp(x) = 2^n · p(r) with
//   n = round(x·log2 e),
//   r = x − n·ln2_hi − n·ln2_lo   (rr2: a 2-constant Cody–Waite range reduction,
//                                  ln 2 split in two so r is exact),
//   p(r) = 1 + r + r²·(P5 + P4·r + P3·r² + P2·r³ + P1·r⁴ + P0·r⁵)   (p7: degree 7).
// Only x ≤ 0 is needed (softmax exponents are x − max ≤ 0); below ln(FLT_MIN)
// the result flushes to 0, so −inf gives exactly 0. Max error about 1 ulp.
#pragma once

namespace attn::kernels::exp_constants {

constexpr const char* kAlgorithm =
    "rr2_p7: Cephes expf, 2-constant (Cody-Waite) range reduction, degree-7 polynomial";

constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693359375f;
constexpr float kLn2Lo = -2.12194440e-4f;
constexpr float kMinArg = -87.3365447f;    // ln(FLT_MIN)
constexpr float kRoundMagic = 12582912.0f; // 1.5·2^23: x + magic rounds x to an integer
constexpr float kP0 = 1.9875691500e-4f;
constexpr float kP1 = 1.3981999507e-3f;
constexpr float kP2 = 8.3334519073e-3f;
constexpr float kP3 = 4.1665795894e-2f;
constexpr float kP4 = 1.6666665459e-1f;
constexpr float kP5 = 5.0000001201e-1f;

} // namespace attn::kernels::exp_constants
