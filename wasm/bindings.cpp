// Embind module "attnbook": whole tensors in, whole tensors out. Every function
// returns either its result or {error, kind} (see marshal.hpp); the JS engine
// (web/src/engine) turns the latter into an AttentionError.
#include <cmath>
#include <limits>
#include <string>

#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <malloc.h>

#include "attn/attention.hpp"
#include "attn/error.hpp"
#include "attn/geometry.hpp"
#include "attn/heads.hpp"
#include "attn/mixing.hpp"
#include "attn/random.hpp"
#include "attn/softmax.hpp"
#include "attn/stats.hpp"
#include "marshal.hpp"

namespace attn::wasm {
namespace {

/// softmax(data, shape, temperature) -> {data, shape}
val softmax(const val& data, const val& shape, double temperature) {
  return guarded([&] {
    return tensor_to_js(attn::softmax(tensor_from_js(data, shape, "logits"), temperature));
  });
}

/// softmaxReference(data, shape, temperature) -> {data: Float64Array, shape}: the core's float64
/// scalar reference of softmax, on the same float32 logits softmax() receives (widened exactly).
val softmax_reference(const val& data, const val& shape, double temperature) {
  return guarded([&] {
    return tensor_to_js(
        attn::softmax_reference(array_from_js<double>(data, shape, "logits"), temperature));
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
    // A window wider than any sequence allows every key: clamp rather than let
    // size_t (32 bits in wasm) wrap 2^32 to 0, a diagonal-only mask.
    const double window = options["window"].as<double>();
    const double widest = double(std::numeric_limits<std::size_t>::max());
    return Mask::local(static_cast<std::size_t>(window < widest ? window : widest),
                       options["causal"].as<bool>());
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

// The options object the engine builds for scores: {scale (NaN = 1/sqrt(E)), rowOffset, mask
// fields}.
AttentionOptions scale_and_mask_from_js(const val& options) {
  AttentionOptions o;
  const double scale = options["scale"].as<double>();
  if (!std::isnan(scale)) {
    o.scale = scale;
  }
  o.mask = mask_from_js(options);
  // rowOffset: a whole number below 2^32 (the engine checks it), the first query row's index
  const val row_offset = options["rowOffset"];
  o.row_offset = row_offset.isUndefined() ? 0 : static_cast<std::size_t>(row_offset.as<double>());
  return o;
}

// The options object the engine builds for attention: the fields above and temperature,
// returnWeights, returnLogits.
AttentionOptions options_from_js(const val& options) {
  AttentionOptions o = scale_and_mask_from_js(options);
  o.temperature = options["temperature"].as<double>();
  o.return_weights = options["returnWeights"].as<bool>();
  o.return_logits = options["returnLogits"].as<bool>();
  return o;
}

/// scores(q, qShape, k, kShape, options) -> {data, shape (..., L, S)}: passes 1 and 2 of
/// attention alone, scale · q kᵀ + mask (−Infinity where a key is forbidden).
val scores(const val& q, const val& q_shape, const val& k, const val& k_shape, const val& options) {
  return guarded([&] {
    return tensor_to_js(attention_scores(tensor_from_js(q, q_shape, "q"),
                                         tensor_from_js(k, k_shape, "k"),
                                         scale_and_mask_from_js(options)));
  });
}

/// attention(q, qShape, k, kShape, v, vShape, options)
///   -> {output, weights?, logits?, fullyMaskedRows, scratchBytes}
/// scratchBytes: the core's working buffers for this call (AttentionResult::scratch_bytes).
val attention(const val& q, const val& q_shape, const val& k, const val& k_shape, const val& v,
              const val& v_shape, const val& options) {
  return guarded([&] {
    const AttentionOptions o = options_from_js(options);
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
    result.set("scratchBytes", static_cast<double>(r.scratch_bytes));
    return result;
  });
}

/// attentionReference(q, qShape, k, kShape, v, vShape, options): the core's float64
/// scalar reference, from the same float32 inputs and options as attention().
///   -> {output, weights, logits (always), fullyMaskedRows}, data as Float64Array
val attention_reference(const val& q, const val& q_shape, const val& k, const val& k_shape,
                        const val& v, const val& v_shape, const val& options) {
  return guarded([&] {
    const AttentionResult64 r = scaled_dot_product_attention_reference(
        tensor_from_js(q, q_shape, "q"), tensor_from_js(k, k_shape, "k"),
        tensor_from_js(v, v_shape, "v"), options_from_js(options));
    val result = val::object();
    result.set("output", tensor_to_js(r.output));
    result.set("weights", tensor_to_js(r.weights));
    result.set("logits", tensor_to_js(r.logits));
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

/// randn(shape, seed) -> {data, shape}: standard normal entries (PCG32, Box–Muller)
val randn(const val& shape, double seed) {
  return guarded([&] {
    Shape extents;
    for (double d : emscripten::vecFromJSArray<double>(shape)) {
      extents.push_back(whole_size(d, "randn: shape entries"));
    }
    return tensor_to_js(
        attn::randn(extents, whole_number(seed, 0, kMaxSafeInteger, "randn: seed")));
  });
}

/// dirichlet(alpha, alphaShape, count, seed) -> {data, shape (count, k)}
val dirichlet(const val& alpha, const val& alpha_shape, double count, double seed) {
  return guarded([&] {
    return tensor_to_js(attn::dirichlet(tensor_from_js(alpha, alpha_shape, "alpha"),
                                        whole_size(count, "dirichlet: count"),
                                        whole_number(seed, 0, kMaxSafeInteger, "dirichlet: seed")));
  });
}

/// convexHull(points, shape (n, 2)) -> Int32Array of counter-clockwise vertex indices
val convex_hull(const val& points, const val& shape) {
  return guarded([&] {
    return vector_to_js(attn::convex_hull(tensor_from_js(points, shape, "points")), "Int32Array");
  });
}

/// pointsInHull(points, shape (m, 2), hull, hullShape (h, 2)) -> Uint8Array (1 = inside)
val points_in_hull(const val& points, const val& shape, const val& hull, const val& hull_shape) {
  return guarded([&] {
    return vector_to_js(attn::points_in_hull(tensor_from_js(points, shape, "points"),
                                             tensor_from_js(hull, hull_shape, "hullPoints")),
                        "Uint8Array");
  });
}

/// entropy(weights, shape (..., n)) -> {data, shape (...)}: nats per row
val entropy(const val& data, const val& shape) {
  return guarded(
      [&] { return tensor_to_js(attn::entropy(tensor_from_js(data, shape, "weights"))); });
}

/// effectivePositions(weights, shape (..., n)) -> {data, shape (...)}: exp(entropy)
val effective_positions(const val& data, const val& shape) {
  return guarded([&] {
    return tensor_to_js(attn::effective_positions(tensor_from_js(data, shape, "weights")));
  });
}

/// scalingStatistics(dims, scaled, draws, seed, tokens)
///   -> {dims: number[], meanMaxWeight: Float64Array, meanEntropy: Float64Array}
val scaling_statistics(const val& dims, bool scaled, double draws, double seed, double tokens) {
  return guarded([&] {
    std::vector<std::size_t> d;
    for (double x : emscripten::vecFromJSArray<double>(dims)) {
      d.push_back(whole_size(x, "scalingStatistics: dims entries"));
    }
    const ScalingStats stats =
        attn::scaling_statistics(d, scaled, whole_size(draws, "scalingStatistics: draws"),
                                 whole_number(seed, 0, kMaxSafeInteger, "scalingStatistics: seed"),
                                 whole_size(tokens, "scalingStatistics: tokens"));
    val result = val::object();
    val out_dims = val::array();
    for (std::size_t x : stats.dims) {
      out_dims.call<void>("push", static_cast<double>(x));
    }
    result.set("dims", out_dims);
    result.set("meanMaxWeight", vector_to_js(stats.mean_max_weight, "Float64Array"));
    result.set("meanEntropy", vector_to_js(stats.mean_entropy, "Float64Array"));
    return result;
  });
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
  emscripten::function("softmaxReference", &softmax_reference);
  emscripten::function("scores", &scores);
  emscripten::function("attention", &attention);
  emscripten::function("attentionReference", &attention_reference);
  emscripten::function("convexCombination", &convex_combination);
  emscripten::function("rowStochasticReport", &row_stochastic_report);
  emscripten::function("splitHeads", &split_heads);
  emscripten::function("mergeHeads", &merge_heads);
  emscripten::function("randn", &randn);
  emscripten::function("dirichlet", &dirichlet);
  emscripten::function("convexHull", &convex_hull);
  emscripten::function("pointsInHull", &points_in_hull);
  emscripten::function("entropy", &entropy);
  emscripten::function("effectivePositions", &effective_positions);
  emscripten::function("scalingStatistics", &scaling_statistics);
  emscripten::function("memory", &memory);
  emscripten::function("buildInfo", &build_info);
}
