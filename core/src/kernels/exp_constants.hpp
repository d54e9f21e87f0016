// Constants of the vectorised exp shared by every ISA mapping (Cephes expf,
// S. L. Moshier): exp(x) = 2^n · p(r), n = round(x·log2 e), r = x − n·ln 2
// with ln 2 split in two parts so r is exact, p a degree-7 polynomial.
// Only x ≤ 0 is needed (softmax exponents are x − max ≤ 0); below ln(FLT_MIN)
// the result flushes to 0, so −inf gives exactly 0. Max error about 1 ulp.
#pragma once

namespace attn::kernels::exp_constants {

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
