// Fuzz target: attn::softmax and attn::fully_masked_rows on logits (..., n) of any
// shape up to rank 4 and any values, with any temperature.
// On success: the shape is kept, every weight is in [0, 1], each row sums to 1
// (finite logits) or is all zero exactly when every logit is -inf, and the
// zero rows are what fully_masked_rows counts.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "attn/error.hpp"
#include "attn/softmax.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const double temperature = fuzz::read_parameter(in);
  const attn::Shape shape = fuzz::read_shape(in, 0, 4);
  const attn::Tensor logits = fuzz::read_tensor(in, shape);

  attn::Tensor weights;
  std::size_t masked = 0;
  try {
    masked = attn::fully_masked_rows(logits);
    weights = attn::softmax(logits, temperature);
  } catch (const attn::Error&) {
    return 0; // a clear error is an accepted outcome
  }

  FUZZ_CHECK(attn::shape_of(weights) == shape, "shape changed");
  const std::size_t n = shape.back();
  const std::size_t rows = logits.size() / n;
  std::size_t zero_rows = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    const float* x = logits.data() + r * n;
    const float* w = weights.data() + r * n;
    bool all_masked = true;
    double sum = 0;
    for (std::size_t j = 0; j < n; ++j) {
      FUZZ_CHECK(w[j] >= 0.0f && w[j] <= 1.0f, "row %zu: weight[%zu] = %g", r, j, double(w[j]));
      FUZZ_CHECK(x[j] != -INFINITY || w[j] == 0.0f, "row %zu: masked key %zu has weight %g", r, j,
                 double(w[j]));
      all_masked = all_masked && x[j] == -INFINITY;
      sum += w[j];
    }
    if (all_masked) {
      FUZZ_CHECK(sum == 0.0, "row %zu is fully masked but sums to %g", r, sum);
      ++zero_rows;
    } else {
      FUZZ_CHECK(std::abs(sum - 1.0) <= 1e-5 + 1e-6 * double(n), "row %zu sums to %.9g", r, sum);
    }
  }
  FUZZ_CHECK(zero_rows == masked, "fully_masked_rows = %zu but %zu rows are zero", masked,
             zero_rows);
  return 0;
}
