// Fuzz target: attn::dirichlet with any alpha (k) and count, any seed.
//   alpha (k), count -> (count, k)
// On success: every entry is finite and in [0, 1] and every row sums to 1 within
// float rounding.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "attn/error.hpp"
#include "attn/random.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const std::uint64_t seed = in.ConsumeIntegral<std::uint64_t>();
  const std::size_t count = in.ConsumeIntegralInRange<std::size_t>(0, 64);
  const attn::Shape shape = fuzz::read_shape(in, 0, 2, 4096);
  const attn::Tensor alpha = fuzz::read_tensor(in, shape);

  attn::Tensor draws;
  try {
    draws = attn::dirichlet(alpha, count, seed);
  } catch (const attn::Error&) {
    return 0; // a clear error is an accepted outcome
  }

  const std::size_t k = shape[0];
  FUZZ_CHECK(draws.dimension() == 2 && draws.shape()[0] == count && draws.shape()[1] == k,
             "draws shape");
  for (std::size_t r = 0; r < count; ++r) {
    double sum = 0;
    for (std::size_t i = 0; i < k; ++i) {
      const float w = draws(r, i);
      FUZZ_CHECK(std::isfinite(w) && w >= 0.0f && w <= 1.0f, "draw %zu, entry %zu is %g", r, i,
                 double(w));
      sum += w;
    }
    FUZZ_CHECK(std::abs(sum - 1.0) <= 1e-6 * double(k + 1), "draw %zu sums to %.9g", r, sum);
  }
  return 0;
}
