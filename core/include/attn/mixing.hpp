// attn/mixing.hpp — attention as a weighted mixture of value vectors.
//
//   y = Σ_j α_j v_j   with α_j ≥ 0 and Σ_j α_j = 1   (a convex combination)
//
// so y lies in the convex hull of the values; stacked over queries, Y = A V with
// A row-stochastic.
#pragma once

#include <cstddef>

#include "attn/tensor.hpp"

namespace attn {

/// Tolerance on |Σ_j α_j − 1| for a row to count as summing to one.
constexpr double kRowSumTolerance = 1e-5;

/// y = α V for every row of weights.
///   weights (..., T), values (T, d)  ->  (..., d)
/// Throws ValueError when a weight is not finite or negative (names the index) or a
/// row does not sum to 1 within kRowSumTolerance (names the row and its sum), and
/// ShapeError for mismatched T, a rank below 1 (weights) or other than 2 (values),
/// or empty tensors.
Tensor convex_combination(const Tensor& weights, const Tensor& values);

/// float64 reference of convex_combination() (same validation), the explicit
/// loop sum y = Σ_j α_j v_j.
Tensor64 convex_combination_reference(const Tensor& weights, const Tensor& values);

/// How far a matrix is from row-stochastic (rows over the last axis).
struct RowStochasticReport {
  double max_row_sum_error = 0;   ///< max over rows of |Σ_j A_ij − 1|
  double min_entry = 0;           ///< smallest entry
  bool is_row_stochastic = false; ///< min_entry ≥ 0 and max_row_sum_error ≤ kRowSumTolerance
};

/// A (..., n): the report above. Throws ValueError for NaN/inf entries, ShapeError
/// for rank 0 or empty.
RowStochasticReport row_stochastic_report(const Tensor& a);

} // namespace attn
