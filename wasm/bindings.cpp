// Embind module "attnbook": whole tensors in, whole tensors out. Every function
// returns either its result or {error, kind} (see marshal.hpp); the JS engine
// (web/src/engine) turns the latter into an AttentionError.
#include <cmath>
#include <string>

#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <malloc.h>

#include "attn/attention.hpp"
#include "attn/error.hpp"
#include "attn/heads.hpp"
#include "attn/mixing.hpp"
#include "attn/softmax.hpp"
#include "marshal.hpp"

namespace attn::wasm {
namespace {

/// softmax(data, shape, temperature) -> {data, shape}
val softmax(const val& data, const val& shape, double temperature) {
  return guarded([&] {
    return tensor_to_js(attn::softmax(tensor_from_js(data, shape, "logits"), temperature));
  });
}

// The mask fields of the options object the engine builds:
// {mask: 'none' | 'causal' | 'window' | 'boolean' | 'additive', window, causal, maskData,
// maskShape}
Mask mask_from_js(const val& options) {
  const std::string kind = options["mask"].as<std::string>();
  if (kind == "causal") {
    return Mask::causal_mask();
  }
  if (kind == "window") {
    return Mask::local(options["window"].as<std::size_t>(), options["causal"].as<bool>());
  }
  if (kind == "boolean") {
    return Mask::boolean(
        array_from_js<std::uint8_t>(options["maskData"], options["maskShape"], "mask"));
  }
  if (kind == "additive") {
    return Mask::add(tensor_from_js(options["maskData"], options["maskShape"], "mask.additive"));
  }
  return Mask::none();
}

/// attention(q, qShape, k, kShape, v, vShape, options)
///   options: {scale (NaN = 1/sqrt(E)), temperature, returnWeights, returnLogits, mask fields}
///   -> {output, weights?, logits?, fullyMaskedRows}
val attention(const val& q, const val& q_shape, const val& k, const val& k_shape, const val& v,
              const val& v_shape, const val& options) {
  return guarded([&] {
    AttentionOptions o;
    const double scale = options["scale"].as<double>();
    if (!std::isnan(scale)) {
      o.scale = scale;
    }
    o.temperature = options["temperature"].as<double>();
    o.return_weights = options["returnWeights"].as<bool>();
    o.return_logits = options["returnLogits"].as<bool>();
    o.mask = mask_from_js(options);
    const AttentionResult r = scaled_dot_product_attention(tensor_from_js(q, q_shape, "q"),
                                                           tensor_from_js(k, k_shape, "k"),
                                                           tensor_from_js(v, v_shape, "v"), o);
    val result = val::object();
    result.set("output", tensor_to_js(r.output));
    if (o.return_weights) {
      result.set("weights", tensor_to_js(r.weights));
    }
    if (o.return_logits) {
      result.set("logits", tensor_to_js(r.logits));
    }
    result.set("fullyMaskedRows", static_cast<double>(r.fully_masked_rows));
    return result;
  });
}

/// convexCombination(weights, weightsShape, values, valuesShape) -> {data, shape}
val convex_combination(const val& w, const val& w_shape, const val& v, const val& v_shape) {
  return guarded([&] {
    return tensor_to_js(attn::convex_combination(tensor_from_js(w, w_shape, "weights"),
                                                 tensor_from_js(v, v_shape, "values")));
  });
}

/// rowStochasticReport(data, shape) -> {maxRowSumError, minEntry, isRowStochastic}
val row_stochastic_report(const val& data, const val& shape) {
  return guarded([&] {
    const RowStochasticReport r = attn::row_stochastic_report(tensor_from_js(data, shape, "A"));
    val result = val::object();
    result.set("maxRowSumError", r.max_row_sum_error);
    result.set("minEntry", r.min_entry);
    result.set("isRowStochastic", r.is_row_stochastic);
    return result;
  });
}

/// splitHeads(data, shape, heads) -> {data, shape}
val split_heads(const val& data, const val& shape, double heads) {
  return guarded([&] {
    if (!(heads >= 1) || heads != std::floor(heads) || heads > 1e9) {
      throw ShapeError("split_heads: heads must be a whole number >= 1, got " +
                       format_number(heads));
    }
    return tensor_to_js(
        attn::split_heads(tensor_from_js(data, shape, "x"), static_cast<std::size_t>(heads)));
  });
}

/// mergeHeads(data, shape) -> {data, shape}
val merge_heads(const val& data, const val& shape) {
  return guarded([&] { return tensor_to_js(attn::merge_heads(tensor_from_js(data, shape, "x"))); });
}

/// memory() -> {heapBytes: size of wasm memory, inUseBytes: bytes malloc'd now}
val memory() {
  val result = val::object();
  result.set("heapBytes", static_cast<double>(emscripten_get_heap_size()));
  result.set("inUseBytes", static_cast<double>(mallinfo().uordblks));
  return result;
}

/// buildInfo() -> {simd: boolean}: which build of the module this is.
val build_info() {
  val info = val::object();
#if defined(ATTN_WASM_SIMD)
  info.set("simd", true);
#else
  info.set("simd", false);
#endif
  return info;
}

} // namespace
} // namespace attn::wasm

EMSCRIPTEN_BINDINGS(attnbook) {
  using namespace attn::wasm;
  emscripten::function("softmax", &softmax);
  emscripten::function("attention", &attention);
  emscripten::function("convexCombination", &convex_combination);
  emscripten::function("rowStochasticReport", &row_stochastic_report);
  emscripten::function("splitHeads", &split_heads);
  emscripten::function("mergeHeads", &merge_heads);
  emscripten::function("memory", &memory);
  emscripten::function("buildInfo", &build_info);
}
