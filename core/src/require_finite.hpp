// Internal: the one check that a tensor holds only the numbers a function accepts, with one
// wording for every function of the core:
//   "<fn>: <name><index> is <value>[; <hint>]"
// e.g. "attention: q[2, 3] is NaN",
//      "convex_combination: weights[1] is -0.1; weights must be finite and >= 0",
//      "attention: additive mask[1, 1] is Infinity; use -Infinity to forbid a key",
//      "convex_hull: points[2, 0] is NaN; coordinates must be finite",
//      "dirichlet: alpha[1] is 0; concentrations must be finite and > 0".
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "attn/error.hpp"
#include "attn/tensor.hpp"

namespace attn::detail {

/// Which values pass besides finite ones.
enum class Allow {
  finite,      ///< finite numbers only
  nonnegative, ///< finite numbers >= 0
  positive,    ///< finite numbers > 0
  masked,      ///< finite numbers and −inf (a masked position); NaN and +inf fail
};

/// Throws ValueError for the first entry of `t` (row-major) that `allow` refuses.
template <class T>
void require_finite(const xt::xarray<T>& t, const std::string& fn, const std::string& name,
                    Allow allow = Allow::finite, const std::string& hint = "") {
  const T* x = t.data();
  for (std::size_t i = 0; i < t.size(); ++i) {
    const bool ok = std::isfinite(x[i])
                        ? (allow == Allow::nonnegative ? x[i] >= 0
                           : allow == Allow::positive  ? x[i] > 0
                                                       : true)
                        : allow == Allow::masked && x[i] == -std::numeric_limits<T>::infinity();
    if (!ok) {
      throw ValueError(fn + ": " + name + format_index(shape_of(t), i) + " is " +
                       format_number(x[i]) + (hint.empty() ? "" : "; " + hint));
    }
  }
}

} // namespace attn::detail
