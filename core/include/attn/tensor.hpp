// attn/tensor.hpp — the tensor types of the core and small helpers for messages.
//
// Tensors are row-major (C order) xtensor containers. The fast paths run on
// float32; every one has a float64 reference that the tests use as the oracle.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <xtensor/xarray.hpp>

namespace attn {

using Tensor = xt::xarray<float>;    ///< float32, row-major, any rank
using Tensor64 = xt::xarray<double>; ///< float64 reference tensors
using Shape = std::vector<std::size_t>;

/// "[2, 5, 8]" — a shape as it appears in error messages.
std::string format_shape(const Shape& shape);

/// "[1, 2]" — the multi-index of flat (row-major) position `flat` in `shape`.
std::string format_index(const Shape& shape, std::size_t flat);

/// "0.25", "-1", "1e+30", "NaN", "Infinity", "-Infinity" — a number as it appears in error messages
/// (9 significant digits; non-finite values spelled as JavaScript and the lessons spell them).
std::string format_number(double value);

/// Shape of an xtensor container as a Shape.
template <class E> Shape shape_of(const E& e) {
  return Shape(e.shape().begin(), e.shape().end());
}

} // namespace attn
