// PCG32, uniform, normal and gamma variates, randn and dirichlet (see attn/random.hpp).
#include "attn/random.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attn/error.hpp"
#include "require_finite.hpp"

namespace attn {
namespace {

constexpr std::uint64_t kPcgMultiplier = 6364136223846793005ULL;
constexpr double kTwoPi = 6.283185307179586476925286766559;
constexpr double kTwoPowMinus53 = 1.0 / 9007199254740992.0; // 2^-53

// True when `shape` has at most kMaxRandomElements elements. Checked without
// overflow: size_t is 32 bits in wasm, so the product is never formed past the limit.
bool fits_in_random_limit(const Shape& shape) {
  for (std::size_t extent : shape) {
    if (extent == 0) {
      return true;
    }
  }
  std::uint64_t count = 1;
  for (std::size_t extent : shape) {
    if (extent > kMaxRandomElements / count) {
      return false;
    }
    count *= extent;
  }
  return true;
}

// Marsaglia & Tsang (2000) for a ≥ 1: with d = a − 1/3 and c = 1/sqrt(9d), draw
// x ~ N(0, 1) until v = (1 + c·x)^3 > 0, then accept d·v if
//   u < 1 − 0.0331·x^4   (the cheap squeeze)   or   ln u < x²/2 + d·(1 − v + ln v).
double marsaglia_tsang(Rng& rng, double a) {
  const double d = a - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x = 0;
    double v = 0;
    do {
      x = rng.normal();
      v = 1.0 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = rng.uniform();
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) {
      return d * v;
    }
    if (std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v))) {
      return d * v;
    }
  }
}

// ln of a Gamma(a) variate, with the same draws as Rng::gamma(a). For a < 1 the
// boost U^(1/a) is added as ln(U)/a, which stays finite where U^(1/a) underflows:
// U ≥ 2^-53 gives ln U ≥ −36.8, and a float32 alpha is ≥ 1.4e-45, so the value is
// ≥ −2.7e46. Marsaglia–Tsang returns d·v > 0, so its log is finite too.
double log_gamma_variate(Rng& rng, double a) {
  if (a >= 1) {
    return std::log(marsaglia_tsang(rng, a));
  }
  const double g = marsaglia_tsang(rng, a + 1.0);
  const double u = 1.0 - rng.uniform(); // (0, 1]
  return std::log(g) + std::log(u) / a;
}

} // namespace

Rng::Rng(std::uint64_t seed, std::uint64_t stream) : increment_((stream << 1u) | 1u) {
  next_u32();
  state_ += seed;
  next_u32();
}

Rng::Rng(const RngState& saved)
    : state_(saved.state), increment_(saved.increment), spare_normal_(saved.spare_normal),
      has_spare_(saved.has_spare) {
  if ((saved.increment & 1u) == 0) {
    throw ValueError("Rng: saved increment " + std::to_string(saved.increment) +
                     " is even; a PCG32 increment is always odd (not a saved Rng state)");
  }
}

RngState Rng::state() const {
  return {state_, increment_, spare_normal_, has_spare_};
}

std::uint32_t Rng::below(std::uint32_t bound) {
  if (bound == 0) {
    throw ValueError("Rng::below: bound is 0; it must be >= 1");
  }
  const std::uint32_t threshold = (0u - bound) % bound; // (2^32 − bound) mod bound
  for (;;) {
    const std::uint32_t r = next_u32();
    if (r >= threshold) {
      return r % bound;
    }
  }
}

std::uint32_t Rng::next_u32() {
  const std::uint64_t old = state_;
  state_ = old * kPcgMultiplier + increment_;
  // XSH-RR: xorshift the high bits down, then rotate right by the top 5 bits.
  const auto xorshifted = static_cast<std::uint32_t>(((old >> 18u) ^ old) >> 27u);
  const auto rot = static_cast<std::uint32_t>(old >> 59u);
  return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

double Rng::uniform() {
  const std::uint64_t high = next_u32();
  const std::uint64_t low = next_u32();
  return static_cast<double>(((high << 32u) | low) >> 11u) * kTwoPowMinus53;
}

double Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_normal_;
  }
  const double u1 = 1.0 - uniform(); // (0, 1]: ln u1 is finite
  const double u2 = uniform();
  const double r = std::sqrt(-2.0 * std::log(u1));
  const double theta = kTwoPi * u2;
  spare_normal_ = r * std::sin(theta);
  has_spare_ = true;
  return r * std::cos(theta);
}

double Rng::gamma(double shape) {
  if (!std::isfinite(shape) || !(shape > 0)) {
    throw ValueError("Rng::gamma: shape must be finite and > 0, got " + format_number(shape));
  }
  if (shape >= 1) {
    return marsaglia_tsang(*this, shape);
  }
  const double g = marsaglia_tsang(*this, shape + 1.0);
  const double u = 1.0 - uniform(); // (0, 1]
  return g * std::pow(u, 1.0 / shape);
}

Tensor randn(const Shape& shape, std::uint64_t seed) {
  if (!fits_in_random_limit(shape)) {
    throw MemoryError("randn: shape " + format_shape(shape) + " has more than " +
                      std::to_string(kMaxRandomElements) + " (2^29) elements");
  }
  Tensor out = Tensor::from_shape(shape);
  Rng rng(seed);
  for (float& value : out) {
    value = static_cast<float>(rng.normal());
  }
  return out;
}

Tensor dirichlet(const Tensor& alpha, std::size_t count, std::uint64_t seed) {
  const Shape alpha_shape = shape_of(alpha);
  if (alpha_shape.size() != 1) {
    throw ShapeError("dirichlet: alpha must be 1-D (k), got shape " + format_shape(alpha_shape));
  }
  const std::size_t k = alpha_shape[0];
  if (k == 0) {
    throw ShapeError("dirichlet: alpha is empty (shape [0]); it needs k >= 1 concentrations");
  }
  detail::require_finite(alpha, "dirichlet", "alpha", detail::Allow::positive,
                         "concentrations must be finite and > 0");
  const Shape out_shape = {count, k};
  if (!fits_in_random_limit(out_shape)) {
    throw MemoryError("dirichlet: count x k = " + std::to_string(count) + " x " +
                      std::to_string(k) + " (shape " + format_shape(out_shape) + ") is more than " +
                      std::to_string(kMaxRandomElements) + " (2^29) elements");
  }

  Tensor out = Tensor::from_shape(out_shape);
  Rng rng(seed);
  std::vector<double> log_g(k);
  std::vector<double> g(k);
  for (std::size_t r = 0; r < count; ++r) {
    // The row is softmax(ln G) in the softmax's three steps. Step 1: ln G_i for G_i ~
    // Gamma(alpha_i), and their max (finite, see log_gamma_variate)
    double m = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < k; ++i) {
      log_g[i] = log_gamma_variate(rng, static_cast<double>(alpha(i)));
      m = log_g[i] > m ? log_g[i] : m;
    }
    // step 2: G_i·e^−m = exp(ln G_i − m) and their sum (≥ 1: the max term is exp(0))
    double sum = 0;
    for (std::size_t i = 0; i < k; ++i) {
      g[i] = std::exp(log_g[i] - m);
      sum += g[i];
    }
    // step 3: normalise into row r
    float* row = out.data() + r * k;
    for (std::size_t i = 0; i < k; ++i) {
      row[i] = static_cast<float>(g[i] / sum);
    }
  }
  return out;
}

} // namespace attn
