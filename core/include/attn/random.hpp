// attn/random.hpp — a seeded random generator whose stream is the same on every platform.
//
// The std:: distributions are implementation-defined (libstdc++ and Emscripten's
// libc++ give different normals for the same engine), so the core draws from its
// own generator with a documented algorithm:
//
//   PCG32 (XSH-RR, 64-bit state) — M. E. O'Neill, "PCG: A Family of Simple Fast
//   Space-Efficient Statistically Good Algorithms for Random Number Generation",
//   HMC-CS-2014-0905 (2014). The step and the seeding follow the reference
//   pcg32_random_r / pcg32_srandom_r of pcg_basic.c:
//
//     step:    old = state;  state = old · 6364136223846793005 + inc   (mod 2^64)
//     output:  x = ((old >> 18) ^ old) >> 27  (low 32 bits),  r = old >> 59,
//              next_u32 = rotr32(x, r)
//     seeding: inc = 2·stream + 1;  state = 0;  step;  state += seed;  step
//
// The default stream is 721347520444481703 (inc = 1442695040888963407, the
// reference's default increment), so Rng(seed) yields the same integers as the
// reference pcg32 seeded with `seed`.
//
// What is bit-identical across platforms (gcc/glibc natively, emcc/musl in wasm):
// next_u32() and uniform(), which use integer arithmetic and one exact scaling.
// normal() and gamma() go through std::log, std::sqrt, std::cos and std::sin in
// float64; sqrt is exact (IEEE), but log, cos and sin are only accurate to about
// an ulp, so two libms may differ in the last bit of a double (invisible after
// rounding to float32 in all but rare cases).
#pragma once

#include <cstddef>
#include <cstdint>

#include "attn/tensor.hpp"

namespace attn {

/// Largest number of elements randn() and dirichlet() will allocate: 2^29 floats (2 GiB).
constexpr std::uint64_t kMaxRandomElements = std::uint64_t(1) << 29;

/// Everything an Rng holds, so a stream can be saved and resumed exactly (the trainers'
/// exportState): the PCG32 state and increment, and the spare Box–Muller normal.
struct RngState {
  std::uint64_t state = 0;
  std::uint64_t increment = 1;
  double spare_normal = 0;
  bool has_spare = false;
};

/// PCG32 generator with uniform, normal and gamma variates (see the top of this file).
/// Holds only its own state: copy it to fork a stream, construct it to restart one.
class Rng {
public:
  /// The reference pcg32's default stream (increment 1442695040888963407).
  static constexpr std::uint64_t kDefaultStream = 721347520444481703ULL;

  /// Seeds as pcg32_srandom_r(seed, stream). Different streams with the same seed
  /// give different sequences.
  explicit Rng(std::uint64_t seed, std::uint64_t stream = kDefaultStream);

  /// Resumes a stream saved by state(): the draws continue as the saved Rng's would.
  /// Throws ValueError if the increment is even (every PCG32 increment is odd).
  explicit Rng(const RngState& saved);

  /// The whole state, for saving; Rng(state()) continues identically.
  RngState state() const;

  /// Next 32 random bits (one PCG32 step).
  std::uint32_t next_u32();

  /// Uniform integer in [0, bound) without modulo bias, as the reference
  /// pcg32_boundedrand_r: draws r until r >= (2^32 − bound) mod bound, returns r mod bound.
  /// Integer-only, so bit-identical on every platform. Throws ValueError if bound is 0.
  std::uint32_t below(std::uint32_t bound);

  /// Uniform double in [0, 1) on the grid k · 2^-53: two draws a, b give
  ///   ((a << 32 | b) >> 11) · 2^-53   (the 53 high bits of the 64-bit pair).
  double uniform();

  /// Standard normal N(0, 1) by the Box–Muller transform (Box & Muller 1958) in float64:
  /// u1 = 1 − uniform() in (0, 1], u2 = uniform(),
  ///   z0 = sqrt(−2 ln u1) · cos(2π u2),  z1 = sqrt(−2 ln u1) · sin(2π u2).
  /// Calls alternate: the first returns z0 of a new pair, the second its z1.
  double normal();

  /// Gamma(shape, 1) variate (mean = shape) by Marsaglia & Tsang (2000), "A simple method
  /// for generating gamma variables", ACM TOMS 26(3). For shape < 1 it uses their boost:
  /// Gamma(a) = Gamma(a + 1) · U^(1/a) with U = 1 − uniform() in (0, 1]. For very small
  /// shapes the result underflows to 0 (dirichlet() works in log space to avoid that).
  /// Throws ValueError if shape is not finite or not > 0.
  double gamma(double shape);

private:
  std::uint64_t state_ = 0;
  std::uint64_t increment_ = 0;
  double spare_normal_ = 0; // z1 of the last Box–Muller pair
  bool has_spare_ = false;
};

/// Standard normal float32 tensor, filled in row-major order from Rng(seed).normal().
///   shape: any (including {} for a 0-d tensor)      -> (shape...)
/// Throws MemoryError if the shape has more than kMaxRandomElements (2^29) elements.
Tensor randn(const Shape& shape, std::uint64_t seed);

/// `count` draws from the Dirichlet(alpha) distribution: rows on the probability simplex.
///   alpha: (k), k ≥ 1, every entry finite and > 0    -> (count, k)
/// Row r is G / ΣG with G_i ~ Gamma(alpha_i) drawn from Rng(seed) in row-major order
/// (Rng::gamma's algorithm, same draws). The normalisation is done in log space:
///   w_i = exp(log G_i − max_j log G_j) / Σ_l exp(log G_l − max_j log G_j)
/// where log G_i = log Gamma(alpha_i + 1) + log(U)/alpha_i for alpha_i < 1. So when
/// every G_i underflows to 0 in double (alpha ≲ 1e-2 makes that common), the row still
/// sums to 1 and keeps the right distribution (nearly one-hot, vertex i with
/// probability alpha_i / Σ alpha). Rows are non-negative and sum to 1 within float rounding.
/// Throws ShapeError (alpha not 1-D, k = 0), ValueError (an alpha not finite or ≤ 0,
/// naming the index and value), MemoryError (count · k beyond 2^29 elements).
Tensor dirichlet(const Tensor& alpha, std::size_t count, std::uint64_t seed);

} // namespace attn
