// Softmax over the last axis with temperature (see attn/softmax.hpp for the contract): pass 3
// of attention, and the softmax() of the lessons. One row is softmaxed in three steps:
//   step 1: the row max m (rmax);
//   step 2: y = exp((x − m)/τ) and its sum (raddstoreexpminusmax);
//   step 3: normalise, y /= sum (vscale).
// The file reads: the contract (check_logits, Temperature), the float64 reference, then the fast
// path on the kernels (softmax_row, shared with attention), checked against the reference
// (tests/cpp/softmax_test.cpp).
#include "attn/softmax.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "attn/error.hpp"
#include "require_finite.hpp"
#include "softmax_rows.hpp"

namespace attn {
namespace {

// Not require_finite(): −inf is allowed here, and the one refused infinity is spelled
// "+Infinity" to set it against the allowed −Infinity (a pinned message).
template <class T> void check_logits(const xt::xarray<T>& logits) {
  const Shape shape = shape_of(logits);
  if (shape.empty()) {
    throw ShapeError("softmax: logits must have at least one axis, got a scalar");
  }
  if (logits.size() == 0) {
    throw ShapeError("softmax: logits are empty (shape " + format_shape(shape) + ")");
  }
  detail::require_finite(logits, "softmax", "logits", detail::Allow::masked,
                         "only -Infinity (a masked position) is allowed");
}

// The exact limits of softmax(x / τ), for one row whose maximum m is finite:
//   hard (τ → 0⁺): weight 1/c on each of the c positions equal to m, 0 elsewhere;
//   else (τ → ∞):  weight 1/c on each of the c unmasked (> −inf) positions.
template <class T> void limit_row(const T* x, T* y, std::size_t n, T m, bool hard) {
  const auto selected = [&](T v) {
    return hard ? v == m : v > -std::numeric_limits<T>::infinity();
  };
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    count += selected(x[i]) ? 1 : 0;
  }
  const T w = T(1) / static_cast<T>(count);
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = selected(x[i]) ? w : T(0);
  }
}

template <class T> T row_max(const T* x, std::size_t n) {
  T m = -std::numeric_limits<T>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    m = x[i] > m ? x[i] : m;
  }
  return m;
}

} // namespace

namespace detail {

Temperature::Temperature(double t, const char* where) : tau(t), kind(Kind::scaled), inv(0) {
  if (std::isnan(t)) {
    throw ValueError(std::string(where) +
                     ": temperature is NaN; use a value > 0, 0 for the hard argmax "
                     "or Infinity for uniform weights");
  }
  if (t < 0) {
    throw ValueError(std::string(where) + ": temperature must be >= 0, got " + format_number(t));
  }
  const double inverse = 1.0 / t; // +inf for τ = 0
  if (std::isinf(inverse)) {
    kind = Kind::hard;
  } else if (std::isinf(t)) {
    kind = Kind::uniform;
  } else if (!(inverse >= FLT_MIN && inverse <= FLT_MAX)) {
    kind = Kind::wide;
  } else {
    inv = static_cast<float>(inverse);
  }
}

} // namespace detail

Tensor64 softmax_reference(const Tensor64& logits, double temperature) {
  const detail::Temperature validated(temperature, "softmax");
  (void)validated;
  check_logits(logits);

  Tensor64 weights = Tensor64::from_shape(logits.shape());
  const std::size_t n = logits.shape().back();
  const std::size_t rows = logits.size() / n;
  for (std::size_t r = 0; r < rows; ++r) {
    const double* x = logits.data() + r * n;
    double* y = weights.data() + r * n;
    const double m = row_max(x, n);
    if (m == -std::numeric_limits<double>::infinity()) {
      std::fill(y, y + n, 0.0);
      continue;
    }
    if (temperature == 0 || std::isinf(temperature)) {
      limit_row(x, y, n, m, temperature == 0);
      continue;
    }
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = std::exp((x[i] - m) / temperature);
      sum += y[i];
    }
    for (std::size_t i = 0; i < n; ++i) {
      y[i] /= sum;
    }
  }
  return weights;
}

namespace detail {

bool softmax_row(const kernels::KernelSet& ks, const float* x, float* y, std::size_t n,
                 const Temperature& t) {
  // step 1: the row max (−inf only when the whole row is masked)
  const float m = ks.rmax(x, n);
  if (m == -std::numeric_limits<float>::infinity()) {
    std::fill(y, y + n, 0.0f);
    return false;
  }
  switch (t.kind) {
  case Temperature::Kind::hard:
  case Temperature::Kind::uniform:
    limit_row(x, y, n, m, t.kind == Temperature::Kind::hard);
    return true;
  case Temperature::Kind::wide: {
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      sum += std::exp((double(x[i]) - double(m)) / t.tau);
    }
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = static_cast<float>(std::exp((double(x[i]) - double(m)) / t.tau) / sum);
    }
    return true;
  }
  case Temperature::Kind::scaled:
    break;
  }
  // step 2: y = exp((x − m)/τ) and its sum (≥ 1: the max contributes exp(0))
  const float sum = ks.raddstoreexpminusmax(x, n, m, t.inv, y);
  // step 3: normalise
  ks.vscale(y, n, 1.0f / sum);
  return true;
}

} // namespace detail

Tensor softmax(const Tensor& logits, double temperature) {
  const detail::Temperature t(temperature, "softmax");
  check_logits(logits);
  Tensor weights = Tensor::from_shape(logits.shape());
  const std::size_t n = logits.shape().back();
  const kernels::KernelSet& ks = kernels::best();
  for (std::size_t r = 0; r < logits.size() / n; ++r) {
    detail::softmax_row(ks, logits.data() + r * n, weights.data() + r * n, n, t);
  }
  return weights;
}

std::size_t fully_masked_rows(const Tensor& logits) {
  if (logits.dimension() == 0 || logits.size() == 0) {
    return 0;
  }
  const std::size_t n = logits.shape().back();
  std::size_t count = 0;
  for (std::size_t r = 0; r < logits.size() / n; ++r) {
    const float m = row_max(logits.data() + r * n, n);
    count += m == -std::numeric_limits<float>::infinity() ? 1 : 0;
  }
  return count;
}

} // namespace attn
