// Shared helpers of the libFuzzer targets: decode the fuzzer's bytes into bounded
// shapes, float32 values of every kind (any bit pattern, NaN and ±inf included)
// and option values, and report a broken invariant as a crash.
//
// A finding is anything other than a result or an attn::Error: another exception
// (it escapes LLVMFuzzerTestOneInput and aborts), a sanitizer report, a hang, or a
// failed FUZZ_CHECK on a successful result.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include "attn/tensor.hpp"

namespace fuzz {

/// Upper bounds of every decoded tensor: each axis ≤ kMaxDim, all elements ≤ kMaxElements.
constexpr std::size_t kMaxDim = 64;
constexpr std::size_t kMaxElements = 100000;

/// Aborts (a libFuzzer crash, input saved) when a property of a result fails.
#define FUZZ_CHECK(cond, ...)                                                                      \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s (%s:%d): ", #cond, __FILE__, __LINE__);          \
      std::fprintf(stderr, __VA_ARGS__);                                                           \
      std::fprintf(stderr, "\n");                                                                  \
      std::abort();                                                                                \
    }                                                                                              \
  } while (0)

inline std::size_t product(const attn::Shape& s) {
  std::size_t n = 1;
  for (std::size_t d : s) {
    n *= d;
  }
  return n;
}

inline float bit_cast_float(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

/// Halves axes, leading ones first, until `s` holds at most `budget` elements.
inline void fit(attn::Shape& s, std::size_t budget) {
  for (std::size_t axis = 0; product(s) > budget; axis = (axis + 1) % s.size()) {
    s[axis] /= 2;
  }
}

/// One axis length in [lo, kMaxDim].
inline std::size_t read_dim(FuzzedDataProvider& in, std::size_t lo = 0) {
  return in.ConsumeIntegralInRange<std::size_t>(lo, kMaxDim);
}

/// Element budget of a tensor read next: kMaxElements, but no more than a few
/// per input byte left, so most elements come from the input rather than from
/// the zeros an exhausted FuzzedDataProvider returns (and runs stay fast).
inline std::size_t budget(FuzzedDataProvider& in, std::size_t cap = kMaxElements) {
  return std::min(cap, 64 + 4 * in.remaining_bytes());
}

/// A shape of rank [min_rank, max_rank], axes in [0, kMaxDim], shrunk by fit()
/// until it holds at most `limit` elements (default: budget(in)).
inline attn::Shape read_shape(FuzzedDataProvider& in, std::size_t min_rank, std::size_t max_rank,
                              std::size_t limit = 0) {
  const std::size_t cap = limit ? std::min(limit, budget(in)) : budget(in);
  attn::Shape s(in.ConsumeIntegralInRange<std::size_t>(min_rank, max_rank));
  for (auto& d : s) {
    d = read_dim(in);
  }
  fit(s, cap);
  return s;
}

/// One float32. `mode` picks the distribution: 0 any bit pattern (NaN, ±inf,
/// subnormals, huge values), 1 small integers and halves (sums stay exact),
/// 2 mostly ordinary numbers with an occasional special value.
inline float read_value(FuzzedDataProvider& in, int mode) {
  switch (mode) {
  case 0:
    return bit_cast_float(in.ConsumeIntegral<std::uint32_t>());
  case 1:
    return static_cast<float>(in.ConsumeIntegral<std::int8_t>()) / 2.0f;
  default: {
    const std::uint8_t kind = in.ConsumeIntegral<std::uint8_t>();
    if (kind < 240) {
      return static_cast<float>(in.ConsumeIntegral<std::int16_t>()) / 256.0f;
    }
    constexpr float special[] = {std::numeric_limits<float>::quiet_NaN(),
                                 std::numeric_limits<float>::infinity(),
                                 -std::numeric_limits<float>::infinity(),
                                 std::numeric_limits<float>::max(),
                                 -std::numeric_limits<float>::max(),
                                 std::numeric_limits<float>::denorm_min(),
                                 std::numeric_limits<float>::min(),
                                 -0.0f,
                                 1e30f,
                                 -1e30f,
                                 1e-30f,
                                 0.0f,
                                 65504.0f,
                                 1e20f,
                                 -1e20f,
                                 3.0f};
    return special[kind - 240];
  }
  }
}

/// A tensor of `shape` whose values follow one mode (read first) for the whole tensor.
inline attn::Tensor read_tensor(FuzzedDataProvider& in, const attn::Shape& shape) {
  const int mode = in.ConsumeIntegralInRange<int>(0, 2);
  attn::Tensor t = attn::Tensor::from_shape(shape);
  for (float& x : t) {
    x = read_value(in, mode);
  }
  return t;
}

/// A temperature or scale: the ordinary values, the limits the contract names
/// (0, +inf) and the invalid ones (negative, NaN, -inf), or any double bit pattern.
inline double read_parameter(FuzzedDataProvider& in) {
  constexpr double table[] = {1.0,
                              0.0,
                              std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity(),
                              std::numeric_limits<double>::quiet_NaN(),
                              -1.0,
                              -0.0,
                              0.5,
                              2.0,
                              1e-3,
                              1e3,
                              1e-40,
                              1e38,
                              1e300,
                              std::numeric_limits<double>::denorm_min(),
                              0.125};
  const std::uint8_t pick = in.ConsumeIntegral<std::uint8_t>();
  if (pick < 16 * 12) {
    return table[pick % 16];
  }
  const std::uint64_t bits = in.ConsumeIntegral<std::uint64_t>();
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

/// Whether every element of `t` is finite.
template <class T> bool all_finite(const T& t) {
  for (auto x : t) {
    if (!std::isfinite(x)) {
      return false;
    }
  }
  return true;
}

} // namespace fuzz
