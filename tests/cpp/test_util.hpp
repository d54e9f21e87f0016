// Comparison helpers for the GoogleTest suite: element-wise closeness with an
// absolute and a relative tolerance, reporting the first failing index and the
// largest errors seen (so a failure says where and by how much).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "attn/tensor.hpp"

namespace attn::test {

struct Closeness {
  double max_abs_error = 0;
  double max_rel_error = 0;
};

/// |actual − expected| ≤ atol + rtol·|expected| at every index; shapes must match.
template <class A, class B>
::testing::AssertionResult all_close(const A& actual, const B& expected, double rtol, double atol,
                                     Closeness* report = nullptr) {
  const Shape sa = shape_of(actual);
  const Shape sb = shape_of(expected);
  if (sa != sb) {
    return ::testing::AssertionFailure()
           << "shape " << format_shape(sa) << " differs from expected " << format_shape(sb);
  }
  Closeness c;
  std::ostringstream first;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double a = static_cast<double>(actual.data()[i]);
    const double e = static_cast<double>(expected.data()[i]);
    const double err = std::abs(a - e);
    c.max_abs_error = std::max(c.max_abs_error, err);
    if (e != 0) {
      c.max_rel_error = std::max(c.max_rel_error, err / std::abs(e));
    }
    const bool ok = (a == e) || err <= atol + rtol * std::abs(e);
    if (!ok && first.tellp() == 0) {
      first.precision(9);
      first << "at " << format_index(sa, i) << ": got " << a << ", expected " << e;
    }
  }
  if (report) {
    *report = c;
  }
  if (first.tellp() != 0) {
    return ::testing::AssertionFailure() << first.str() << " (max abs error " << c.max_abs_error
                                         << ", max rel error " << c.max_rel_error << ")";
  }
  return ::testing::AssertionSuccess();
}

/// Expects `call` to throw E whose message contains `needle` (the error messages
/// are part of the contract: they name what was wrong, where, and the value).
template <class E, class F> void expect_error(F call, const std::string& needle) {
  try {
    call();
    ADD_FAILURE() << "expected an error mentioning \"" << needle << "\"";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "message: " << e.what();
  }
}

/// A tensor of the given shape with entries from N(0, spread²), deterministic for a
/// seed (std::mt19937 with Box–Muller; the same on every platform).
inline Tensor random_tensor(const Shape& shape, unsigned seed, float spread = 1.0f) {
  std::mt19937 gen(seed);
  Tensor t = Tensor::from_shape(shape);
  for (std::size_t i = 0; i < t.size(); ++i) {
    const double u1 = (gen() + 1.0) / 4294967297.0;
    const double u2 = gen() / 4294967296.0;
    t.data()[i] = static_cast<float>(spread * std::sqrt(-2.0 * std::log(u1)) *
                                     std::cos(6.283185307179586 * u2));
  }
  return t;
}

} // namespace attn::test
