// Embind module "attnbook": whole tensors in, whole tensors out. Every function
// returns either its result or {error, kind} (see marshal.hpp); the JS engine
// (web/src/engine) turns the latter into an AttentionError.
#include <emscripten/bind.h>

#include "attn/softmax.hpp"
#include "marshal.hpp"

namespace attn::wasm {
namespace {

/// softmax(data, shape, temperature) -> {data, shape} | {error, kind}
val softmax(const val& data, const val& shape, double temperature) {
  return guarded([&] {
    const Tensor logits = tensor_from_js(data, shape, "logits");
    return tensor_to_js(attn::softmax(logits, temperature));
  });
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
  emscripten::function("softmax", &attn::wasm::softmax);
  emscripten::function("buildInfo", &attn::wasm::build_info);
}
