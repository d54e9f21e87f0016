#include "attn/tensor.hpp"

#include <cmath>
#include <cstdio>

namespace attn {

std::string format_shape(const Shape& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    out += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return out + "]";
}

std::string format_index(const Shape& shape, std::size_t flat) {
  Shape index(shape.size(), 0);
  for (std::size_t axis = shape.size(); axis-- > 0;) {
    if (shape[axis] == 0) {
      continue;
    }
    index[axis] = flat % shape[axis];
    flat /= shape[axis];
  }
  return format_shape(index);
}

std::string format_number(double value) {
  if (std::isnan(value)) {
    return "NaN";
  }
  if (std::isinf(value)) {
    return value > 0 ? "Infinity" : "-Infinity";
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value); // as iostreams print it, without iostreams
  return text;
}

} // namespace attn
