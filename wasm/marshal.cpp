#include "marshal.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <new>
#include <vector>

#include "attn/error.hpp"

namespace attn::wasm {
namespace {

// wasm32 addresses 4 GiB; a float32 tensor larger than this cannot exist in memory.
constexpr std::size_t kMaxElements = std::size_t{1} << 29; // 2 GiB of float32

} // namespace

template <class T>
xt::xarray<T> array_from_js(const val& data, const val& shape, const std::string& name) {
  const std::vector<double> dims = emscripten::vecFromJSArray<double>(shape);
  Shape extents;
  extents.reserve(dims.size());
  std::size_t count = 1;
  for (std::size_t axis = 0; axis < dims.size(); ++axis) {
    const double d = dims[axis];
    if (!(d >= 0) || d != std::floor(d) || d > double(kMaxElements)) {
      throw ShapeError(name + ": shape[" + std::to_string(axis) + "] must be a whole number >= 0");
    }
    extents.push_back(static_cast<std::size_t>(d));
    if (extents.back() != 0 && count > kMaxElements / extents.back()) {
      throw MemoryError(name + ": shape " + format_shape(extents) + "... has more than " +
                        std::to_string(kMaxElements) + " elements, beyond wasm memory");
    }
    count *= extents.back();
  }
  const std::size_t length = data["length"].as<std::size_t>();
  if (length != count) {
    throw ShapeError(name + ": data has " + std::to_string(length) + " values but shape " +
                     format_shape(extents) + " needs " + std::to_string(count));
  }
  const auto too_large = [&] {
    return MemoryError(name + ": shape " + format_shape(extents) + " needs " +
                       std::to_string(std::uint64_t{count} * sizeof(T) >> 20) +
                       " MiB, more than wasm memory has free");
  };
  // count·sizeof(T) beyond size_t (2^29 doubles in wasm32) is refused before the allocator,
  // which would throw a length_error rather than bad_alloc.
  if (count > std::numeric_limits<std::size_t>::max() / sizeof(T)) {
    throw too_large();
  }
  xt::xarray<T> array;
  try {
    array = xt::xarray<T>::from_shape(extents);
  } catch (const std::bad_alloc&) {
    throw too_large();
  }
  val(emscripten::typed_memory_view(count, array.data())).call<void>("set", data);
  return array;
}

template xt::xarray<float> array_from_js<float>(const val&, const val&, const std::string&);
template xt::xarray<double> array_from_js<double>(const val&, const val&, const std::string&);
template xt::xarray<std::uint8_t> array_from_js<std::uint8_t>(const val&, const val&,
                                                              const std::string&);

namespace {

// Whole numbers in full ("4294967297", not "4.29496730e+09"), anything else as format_number.
std::string format_whole(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e21) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
  }
  return format_number(value);
}

} // namespace

std::uint64_t whole_number(double value, double min, double max, const std::string& name) {
  if (!(value >= min && value <= max) || value != std::floor(value)) {
    throw ValueError(name + " must be a whole number from " + format_whole(min) + " to " +
                     format_whole(max) + ", got " + format_whole(value));
  }
  return static_cast<std::uint64_t>(value);
}

std::size_t whole_size(double value, const std::string& name) {
  return static_cast<std::size_t>(
      whole_number(value, 0, double(std::numeric_limits<std::size_t>::max()), name));
}

namespace {

// {data: a fresh `array_type` copy of the tensor's data, shape: number[]}
template <class T> val array_to_js(const xt::xarray<T>& tensor, const char* array_type) {
  val result = val::object();
  // new Float32Array(view) copies out of wasm memory.
  result.set(
      "data",
      val::global(array_type).new_(emscripten::typed_memory_view(tensor.size(), tensor.data())));
  val shape = val::array();
  for (std::size_t extent : tensor.shape()) {
    shape.call<void>("push", static_cast<double>(extent));
  }
  result.set("shape", shape);
  return result;
}

} // namespace

val tensor_to_js(const Tensor& tensor) {
  return array_to_js(tensor, "Float32Array");
}

val tensor_to_js(const Tensor64& tensor) {
  return array_to_js(tensor, "Float64Array");
}

val error_to_js(const std::string& kind, const std::string& message) {
  val error = val::object();
  error.set("error", message);
  error.set("kind", kind);
  return error;
}

val current_error_to_js() {
  try {
    throw;
  } catch (const ShapeError& e) {
    return error_to_js("ShapeError", e.what());
  } catch (const ValueError& e) {
    return error_to_js("ValueError", e.what());
  } catch (const MemoryError& e) {
    return error_to_js("MemoryError", e.what());
  } catch (const std::bad_alloc&) {
    return error_to_js("MemoryError", "out of memory: the request does not fit in wasm memory");
  } catch (const std::exception& e) {
    return error_to_js("Error", e.what());
  } catch (...) {
    return error_to_js("Error", "unknown error in the attention core");
  }
}

} // namespace attn::wasm
