#include "attn/tensor.hpp"

#include <sstream>

namespace attn {

std::string format_shape(const Shape& shape) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < shape.size(); ++i) {
    out << (i ? ", " : "") << shape[i];
  }
  out << ']';
  return out.str();
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
  std::ostringstream out;
  out.precision(9);
  out << value;
  return out.str();
}

} // namespace attn
