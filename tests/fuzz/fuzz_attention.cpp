// Fuzz target: attn::scaled_dot_product_attention with every mask kind (none,
// causal, window ± causal, boolean, additive), arbitrary shapes with broadcast
// batch axes, any values, any scale and temperature (0, inf, NaN, negative ...),
// through the fused path and the two-pass path (weights and logits kept).
//   q (..., L, E), k (..., S, E), v (..., S, Ev) -> output (..., L, Ev)
// On success: the output is finite and each of its rows lies within the range of
// the values (a convex combination of v's rows) or is zero for a fully masked row;
// with weights, every row sums to 1 or is all zero, forbidden keys get weight 0,
// and the zero rows are what fully_masked_rows counts.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "attn/attention.hpp"
#include "attn/error.hpp"
#include "fuzz_support.hpp"

namespace {

// Leading axes of one operand: a suffix of `batch`, each axis kept or set to 1
// (broadcast), or now and then an arbitrary length (usually a ShapeError).
attn::Shape operand_batch(FuzzedDataProvider& in, const attn::Shape& batch) {
  const std::size_t rank = in.ConsumeIntegralInRange<std::size_t>(0, batch.size());
  attn::Shape s(batch.end() - rank, batch.end());
  for (auto& d : s) {
    const std::uint8_t how = in.ConsumeIntegral<std::uint8_t>();
    d = how < 160 ? d : how < 250 ? 1 : fuzz::read_dim(in);
  }
  return s;
}

attn::Shape with(attn::Shape s, std::size_t a, std::size_t b) {
  s.push_back(a);
  s.push_back(b);
  return s;
}

// Shapes broadcastable (mostly) to (..., L, S) for the boolean and additive masks.
attn::Shape mask_shape(FuzzedDataProvider& in, const attn::Shape& batch, std::size_t L,
                       std::size_t S) {
  attn::Shape s = with(operand_batch(in, batch), L, S);
  const std::uint8_t drop = in.ConsumeIntegral<std::uint8_t>();
  if (drop & 1) {
    s[s.size() - 2] = 1; // one row for every query
  }
  if (drop & 2) {
    s.back() = 1;
  }
  if (drop & 4) {
    s.erase(s.begin(), s.end() - std::min<std::size_t>(s.size(), 1 + (drop >> 6)));
  }
  if ((drop & 0x38) == 0x38) {
    s.back() = fuzz::read_dim(in); // likely a mismatch
  }
  return s;
}

// The key positions that query i may attend to by a positional mask.
bool positional(const attn::Mask& m, std::size_t i, std::size_t j) {
  switch (m.kind) {
  case attn::Mask::Kind::causal:
    return j <= i;
  case attn::Mask::Kind::window:
    return (i > j ? i - j : j - i) <= m.window && (!m.causal || j <= i);
  default:
    return true;
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);

  // Shapes: every operand is bounded by fuzz::budget() and the work by ~2e5 multiply-adds.
  attn::Shape batch(in.ConsumeIntegralInRange<std::size_t>(0, 3));
  for (auto& d : batch) {
    d = in.ConsumeIntegralInRange<std::size_t>(1, 4);
  }
  std::size_t L = fuzz::read_dim(in), S = fuzz::read_dim(in), E = fuzz::read_dim(in),
              Ev = fuzz::read_dim(in);
  const std::size_t limit = fuzz::budget(in);
  const auto operands = [&] { return fuzz::product(batch) * std::max({L * E, S * E, S * Ev}); };
  while (operands() > limit || fuzz::product(batch) * L * S * std::max({E, Ev}) > 200000) {
    std::size_t* largest = &L;
    for (std::size_t* d : {&S, &E, &Ev}) {
      largest = *d > *largest ? d : largest;
    }
    *largest /= 2;
  }
  attn::Shape qs = with(operand_batch(in, batch), L, E);
  attn::Shape ks = with(operand_batch(in, batch), S, E);
  attn::Shape vs = with(operand_batch(in, batch), S, Ev);
  if (in.ConsumeIntegral<std::uint8_t>() >= 250) {
    qs = fuzz::read_shape(in, 0, 5); // any rank, including too low
  }
  for (auto* s : {&qs, &ks, &vs}) {
    fuzz::fit(*s, limit); // an arbitrary batch axis may have made it too large
  }

  attn::AttentionOptions options;
  const std::uint8_t flags = in.ConsumeIntegral<std::uint8_t>();
  options.return_weights = flags & 1;
  options.return_logits = flags & 2;
  if (flags & 4) {
    options.scale = fuzz::read_parameter(in);
  }
  options.temperature = (flags & 8) ? fuzz::read_parameter(in) : 1.0;
  switch (in.ConsumeIntegralInRange<int>(0, 5)) {
  case 0:
    break;
  case 1:
    options.mask = attn::Mask::causal_mask();
    break;
  case 2:
  case 3: {
    const std::uint8_t w = in.ConsumeIntegral<std::uint8_t>();
    const std::size_t window = w < 250 ? w % 70 : in.ConsumeIntegral<std::size_t>();
    options.mask = attn::Mask::local(window, in.ConsumeBool());
    break;
  }
  case 4: {
    xt::xarray<std::uint8_t> allowed = xt::xarray<std::uint8_t>::from_shape([&] {
      attn::Shape s = mask_shape(in, batch, L, S);
      fuzz::fit(s, fuzz::budget(in));
      return s;
    }());
    const std::uint8_t density = in.ConsumeIntegral<std::uint8_t>();
    for (auto& a : allowed) {
      a = in.ConsumeIntegral<std::uint8_t>() < density ? 0 : in.ConsumeIntegral<std::uint8_t>();
    }
    options.mask = attn::Mask::boolean(std::move(allowed));
    break;
  }
  default: {
    attn::Shape s = mask_shape(in, batch, L, S);
    fuzz::fit(s, fuzz::budget(in));
    options.mask = attn::Mask::add(fuzz::read_tensor(in, s));
    break;
  }
  }
  const attn::Tensor q = fuzz::read_tensor(in, qs);
  const attn::Tensor k = fuzz::read_tensor(in, ks);
  const attn::Tensor v = fuzz::read_tensor(in, vs);

  attn::AttentionResult r;
  try {
    r = attn::scaled_dot_product_attention(q, k, v, options);
  } catch (const attn::Error&) {
    return 0; // a clear error is an accepted outcome
  }

  // Success: read L, S and Ev back from the shapes that were accepted.
  FUZZ_CHECK(r.output.dimension() >= 2 && r.output.shape().back() == vs.back(), "output shape");
  Ev = vs.back();
  S = ks[ks.size() - 2];
  L = r.output.shape()[r.output.dimension() - 2];
  const std::size_t rows = r.output.size() / Ev;
  float lo = INFINITY, hi = -INFINITY, vmax = 0;
  for (float x : v) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
    vmax = std::max(vmax, std::abs(x));
  }
  // A convex combination of v's rows stays within [min v, max v], up to float32
  // rounding of the weights and of the sums (and underflow of tiny products).
  const float slack = 1e-4f * vmax * float(S + 1) + std::numeric_limits<float>::min();
  // Rows of zeros: fully masked rows (or a combination that is zero); those
  // outside the range can only be fully masked ones.
  std::size_t zero_rows = 0, zero_rows_outside = 0;
  for (std::size_t row = 0; row < rows; ++row) {
    const float* y = r.output.data() + row * Ev;
    const bool zero = std::all_of(y, y + Ev, [](float x) { return x == 0.0f; });
    zero_rows += zero ? 1 : 0;
    for (std::size_t c = 0; c < Ev; ++c) {
      FUZZ_CHECK(std::isfinite(y[c]), "output row %zu, column %zu is %g", row, c, double(y[c]));
      const bool in_range = y[c] >= lo - slack && y[c] <= hi + slack;
      FUZZ_CHECK(in_range || zero,
                 "output row %zu, column %zu = %g outside the values' range [%g, %g]", row, c,
                 double(y[c]), double(lo), double(hi));
      if (!in_range) {
        ++zero_rows_outside;
        break;
      }
    }
  }
  FUZZ_CHECK(zero_rows_outside <= r.fully_masked_rows && r.fully_masked_rows <= zero_rows,
             "fully_masked_rows = %zu, but %zu zero output rows (%zu outside the values' range)",
             r.fully_masked_rows, zero_rows, zero_rows_outside);

  if (options.return_weights) {
    FUZZ_CHECK(r.weights.size() == rows * S, "weights hold %zu, not %zu", r.weights.size(),
               rows * S);
    std::size_t empty_rows = 0;
    for (std::size_t row = 0; row < rows; ++row) {
      const float* w = r.weights.data() + row * S;
      double sum = 0;
      for (std::size_t j = 0; j < S; ++j) {
        FUZZ_CHECK(w[j] >= 0.0f && w[j] <= 1.0f, "weights row %zu, key %zu = %g", row, j,
                   double(w[j]));
        FUZZ_CHECK(positional(options.mask, row % L, j) || w[j] == 0.0f,
                   "weights row %zu: forbidden key %zu has weight %g", row, j, double(w[j]));
        sum += w[j];
      }
      if (sum == 0.0) {
        ++empty_rows;
      } else {
        FUZZ_CHECK(std::abs(sum - 1.0) <= 1e-5 + 1e-6 * double(S), "weights row %zu sums to %.9g",
                   row, sum);
      }
    }
    FUZZ_CHECK(empty_rows == r.fully_masked_rows, "fully_masked_rows = %zu, zero weight rows %zu",
               r.fully_masked_rows, empty_rows);
  }
  if (options.return_logits) {
    FUZZ_CHECK(r.logits.size() == rows * S, "logits hold %zu, not %zu", r.logits.size(), rows * S);
  }
  return 0;
}
