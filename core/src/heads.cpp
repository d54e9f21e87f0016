// Splitting the model dimension into heads and joining it back (see attn/heads.hpp).
#include "attn/heads.hpp"

#include <string>

#include "attn/error.hpp"

namespace attn {

Tensor split_heads(const Tensor& x, std::size_t heads) {
  const Shape s = shape_of(x);
  if (s.size() != 3 || x.size() == 0) {
    throw ShapeError("split_heads: x must be a non-empty (B, T, h·d) tensor, got shape " +
                     format_shape(s));
  }
  if (heads == 0 || s[2] % heads != 0) {
    throw ShapeError("split_heads: the model dimension " + std::to_string(s[2]) +
                     " is not divisible by heads = " + std::to_string(heads));
  }
  const std::size_t B = s[0], T = s[1], d = s[2] / heads;
  Tensor out = Tensor::from_shape({B, heads, T, d});
  for (std::size_t b = 0; b < B; ++b) {
    for (std::size_t t = 0; t < T; ++t) {
      for (std::size_t i = 0; i < heads; ++i) {
        const float* src = x.data() + (b * T + t) * s[2] + i * d;
        std::copy(src, src + d, out.data() + ((b * heads + i) * T + t) * d);
      }
    }
  }
  return out;
}

Tensor merge_heads(const Tensor& x) {
  const Shape s = shape_of(x);
  if (s.size() != 4 || x.size() == 0) {
    throw ShapeError("merge_heads: x must be a non-empty (B, h, T, d) tensor, got shape " +
                     format_shape(s));
  }
  const std::size_t B = s[0], heads = s[1], T = s[2], d = s[3];
  Tensor out = Tensor::from_shape({B, T, heads * d});
  for (std::size_t b = 0; b < B; ++b) {
    for (std::size_t i = 0; i < heads; ++i) {
      for (std::size_t t = 0; t < T; ++t) {
        const float* src = x.data() + ((b * heads + i) * T + t) * d;
        std::copy(src, src + d, out.data() + (b * T + t) * heads * d + i * d);
      }
    }
  }
  return out;
}

} // namespace attn
