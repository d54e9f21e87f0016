// Convex combinations and row-stochastic checks (see attn/mixing.hpp).
#include "attn/mixing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attn/error.hpp"
#include "require_finite.hpp"

namespace attn {
namespace {

struct MixShape {
  std::size_t rows, t, d;
};

MixShape validate(const Tensor& weights, const Tensor& values) {
  const Shape ws = shape_of(weights), vs = shape_of(values);
  if (ws.empty()) {
    throw ShapeError("convex_combination: weights must have shape (..., T), got a scalar");
  }
  if (vs.size() != 2) {
    throw ShapeError("convex_combination: values must have shape (T, d), got " + format_shape(vs));
  }
  if (weights.size() == 0 || values.size() == 0) {
    throw ShapeError("convex_combination: empty input (weights " + format_shape(ws) + ", values " +
                     format_shape(vs) + ")");
  }
  if (ws.back() != vs[0]) {
    throw ShapeError("convex_combination: weights have T = " + std::to_string(ws.back()) +
                     " but values have " + std::to_string(vs[0]) + " rows (weights " +
                     format_shape(ws) + ", values " + format_shape(vs) + ")");
  }
  detail::require_finite(weights, "convex_combination", "weights", detail::Allow::nonnegative,
                         "weights must be finite and >= 0");
  detail::require_finite(values, "convex_combination", "values");
  const MixShape s{weights.size() / vs[0], vs[0], vs[1]};
  const float* w = weights.data();
  for (std::size_t r = 0; r < s.rows; ++r) {
    double sum = 0;
    for (std::size_t j = 0; j < s.t; ++j) {
      sum += w[r * s.t + j];
    }
    if (std::abs(sum - 1.0) > kRowSumTolerance) {
      throw ValueError("convex_combination: weights row " + std::to_string(r) + " sums to " +
                       format_number(sum) +
                       ", not 1; a convex combination needs weights summing "
                       "to one");
    }
  }
  return s;
}

Shape out_shape(const Tensor& weights, std::size_t d) {
  Shape s = shape_of(weights);
  s.back() = d;
  return s;
}

} // namespace

Tensor convex_combination(const Tensor& weights, const Tensor& values) {
  const MixShape s = validate(weights, values);
  Tensor y = xt::zeros<float>(out_shape(weights, s.d));
  // y_r = Σ_j α_rj v_j, accumulated row by row of V (contiguous in memory)
  for (std::size_t r = 0; r < s.rows; ++r) {
    float* out = y.data() + r * s.d;
    for (std::size_t j = 0; j < s.t; ++j) {
      const float a = weights.data()[r * s.t + j];
      const float* v = values.data() + j * s.d;
      for (std::size_t c = 0; c < s.d; ++c) {
        out[c] += a * v[c];
      }
    }
  }
  return y;
}

Tensor64 convex_combination_reference(const Tensor& weights, const Tensor& values) {
  const MixShape s = validate(weights, values);
  Tensor64 y = xt::zeros<double>(out_shape(weights, s.d));
  for (std::size_t r = 0; r < s.rows; ++r) {
    for (std::size_t c = 0; c < s.d; ++c) {
      double sum = 0;
      for (std::size_t j = 0; j < s.t; ++j) {
        sum += double(weights.data()[r * s.t + j]) * double(values.data()[j * s.d + c]);
      }
      y.data()[r * s.d + c] = sum;
    }
  }
  return y;
}

RowStochasticReport row_stochastic_report(const Tensor& a) {
  const Shape shape = shape_of(a);
  if (shape.empty() || a.size() == 0) {
    throw ShapeError("row_stochastic_report: A must be a non-empty tensor (..., n), got shape " +
                     format_shape(shape));
  }
  detail::require_finite(a, "row_stochastic_report", "A");
  const std::size_t n = shape.back();
  RowStochasticReport report;
  report.min_entry = std::numeric_limits<double>::infinity();
  for (std::size_t r = 0; r < a.size() / n; ++r) {
    double sum = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const float x = a.data()[r * n + j];
      sum += x;
      report.min_entry = std::min(report.min_entry, double(x));
    }
    report.max_row_sum_error = std::max(report.max_row_sum_error, std::abs(sum - 1.0));
  }
  report.is_row_stochastic = report.min_entry >= 0 && report.max_row_sum_error <= kRowSumTolerance;
  return report;
}

} // namespace attn
