// Marshalling between JS values and core tensors, and error translation.
// No maths and no policy here: the core validates values; this layer checks
// only that a JS tensor is well formed (shape entries, data length).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <emscripten/val.h>

#include "attn/tensor.hpp"

namespace attn::wasm {

using emscripten::val;

/// {data, shape} from JS -> an xtensor array of T, copying the data once into wasm memory.
///   data: a typed array (or array of numbers) of length prod(shape); shape: whole numbers ≥ 0.
/// `name` is the argument's name in error messages ("logits", "q", ...).
template <class T>
xt::xarray<T> array_from_js(const val& data, const val& shape, const std::string& name);

inline Tensor tensor_from_js(const val& data, const val& shape, const std::string& name) {
  return array_from_js<float>(data, shape, name);
}

/// A JS number that must be a whole number in [min, max] (a seed, a count, a size);
/// `name` names it in the ValueError otherwise.
std::uint64_t whole_number(double value, double min, double max, const std::string& name);

/// 2^53 − 1: the largest whole number a JS number holds exactly (the bound of every seed and step).
inline constexpr double kMaxSafeInteger = 9007199254740991.0;

/// A count or size (shape entry, count, d, draws, tokens): a whole number from 0 to
/// SIZE_MAX. size_t has 32 bits in wasm32, so a larger number would wrap (2^32 + 1 -> 1)
/// and silently mean something else; it is refused with a ValueError instead.
std::size_t whole_size(double value, const std::string& name);

/// Tensor -> {data: Float32Array, shape: number[]}; the data is a fresh copy,
/// never a view of wasm memory (views are detached when memory grows).
val tensor_to_js(const Tensor& tensor);

/// Tensor64 -> {data: Float64Array, shape: number[]}, a fresh copy as above.
val tensor_to_js(const Tensor64& tensor);

/// A std::vector of numbers -> a fresh typed array (Int32Array, Uint8Array, Float64Array...).
template <class T> val vector_to_js(const std::vector<T>& values, const char* array_type) {
  return val::global(array_type).new_(emscripten::typed_memory_view(values.size(), values.data()));
}

/// The error form every binding returns instead of throwing: {error: message, kind}.
/// kind is "ShapeError", "ValueError", "MemoryError" or "Error"; the JS engine
/// turns it into an AttentionError.
val error_to_js(const std::string& kind, const std::string& message);

/// error_to_js for the exception being handled (call only inside a catch block).
val current_error_to_js();

/// Runs `body` (returning a val) and converts any C++ exception into error_to_js.
/// Exceptions are caught here, inside wasm, so every C++ destructor runs and the
/// module stays usable.
template <class F> val guarded(F&& body) {
  try {
    return std::forward<F>(body)();
  } catch (...) {
    return current_error_to_js();
  }
}

} // namespace attn::wasm
