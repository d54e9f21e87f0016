// Fuzz target: attn::convex_combination and attn::row_stochastic_report.
//   weights (..., T), values (T, d) -> (..., d)
// The weights are either raw values or, half the time, each row normalised by its
// sum in float32 (so rows sum to 1 up to rounding and the call can succeed).
// On success: every output is finite and within the values' range in its column
// (a convex combination), and the report of the weights calls them row-stochastic.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "attn/error.hpp"
#include "attn/mixing.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const bool normalise = in.ConsumeBool();
  attn::Shape ws = fuzz::read_shape(in, 0, 3);
  attn::Shape vs = fuzz::read_shape(in, 1, 3);
  if (in.ConsumeIntegral<std::uint8_t>() < 200 && !ws.empty() && vs.size() == 2) {
    vs[0] = ws.back(); // matching T, the usual case
  }
  attn::Tensor weights = fuzz::read_tensor(in, ws);
  const attn::Tensor values = fuzz::read_tensor(in, vs);
  if (normalise && !ws.empty() && ws.back() > 0) {
    const std::size_t t = ws.back();
    for (std::size_t r = 0; r < weights.size() / t; ++r) {
      float* w = weights.data() + r * t;
      float sum = 0;
      for (std::size_t j = 0; j < t; ++j) {
        w[j] = std::abs(w[j]);
        sum += w[j];
      }
      for (std::size_t j = 0; j < t; ++j) {
        w[j] /= sum;
      }
    }
  }

  attn::Tensor y;
  attn::RowStochasticReport report;
  try {
    report = attn::row_stochastic_report(weights);
  } catch (const attn::Error&) {
    // accepted; convex_combination must reject the same weights below
  }
  try {
    y = attn::convex_combination(weights, values);
  } catch (const attn::Error&) {
    return 0; // a clear error is an accepted outcome
  }

  FUZZ_CHECK(report.is_row_stochastic,
             "accepted weights the report calls not row-stochastic "
             "(max row-sum error %g, min entry %g)",
             report.max_row_sum_error, report.min_entry);
  const std::size_t t = vs[0], d = vs[1];
  FUZZ_CHECK(y.size() == weights.size() / t * d, "output holds %zu", y.size());
  for (std::size_t c = 0; c < d; ++c) {
    float lo = INFINITY, hi = -INFINITY;
    for (std::size_t j = 0; j < t; ++j) {
      lo = std::min(lo, values(j, c));
      hi = std::max(hi, values(j, c));
    }
    // Σ α_j ≤ 1 + 1e-5 and float32 rounding of the sum: a relative slack on the
    // range, and the smallest normal float for products that underflow.
    const float slack =
        2e-5f * std::max(std::abs(lo), std::abs(hi)) * float(t) + std::numeric_limits<float>::min();
    for (std::size_t r = 0; r < y.size() / d; ++r) {
      const float x = y.data()[r * d + c];
      FUZZ_CHECK(std::isfinite(x), "y[%zu, %zu] is %g", r, c, double(x));
      FUZZ_CHECK(x >= lo - slack && x <= hi + slack, "y[%zu, %zu] = %g outside [%g, %g]", r, c,
                 double(x), double(lo), double(hi));
    }
  }
  return 0;
}
