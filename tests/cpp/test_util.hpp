// Comparison helpers for the GoogleTest suite: element-wise closeness with an
// absolute and a relative tolerance, reporting the first failing index and the
// largest errors seen (so a failure says where and by how much).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
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

} // namespace attn::test
