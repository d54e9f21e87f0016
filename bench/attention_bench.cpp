// Native scaled dot-product attention (Google Benchmark):
//
//     out = softmax(q·kᵀ / √E) · v      q: (L, E), k: (S, E), v: (S, Ev) -> out: (L, Ev)
//
// for L = S = 64, 256, 1024, 4096 and E = Ev = 64, one head, fp32, no mask,
// the fused path (weights not returned). npm run bench runs it with
// --benchmark_format=json and folds the median real times into the attention
// table beside the wasm builds, plain JS and TensorFlow.js (bench/attention.bench.mjs).
//
// The inputs come from the same LCG as the JS runner, so every contender sees
// bit-identical q, k, v; two checksums of the output are reported (counters
// out_sum, out_sum_weighted) so the runner can check the native result against
// the plain-JS one.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include <benchmark/benchmark.h>

#include "attn/attention.hpp"

namespace {

constexpr std::size_t kE = 64;

/// (rows, cols) values of unit variance: uniform on [−√3, √3) from a 32-bit LCG
/// (Numerical Recipes constants); bench/attention.bench.mjs uses the same one.
attn::Tensor lcg_tensor(std::size_t rows, std::size_t cols, std::uint32_t seed) {
  attn::Tensor t = attn::Tensor::from_shape({rows, cols});
  std::uint32_t state = seed;
  for (auto& x : t) {
    state = state * 1664525u + 1013904223u;
    const double u = static_cast<double>(state >> 8) / 16777216.0; // [0, 1), 24 bits
    x = static_cast<float>((2.0 * u - 1.0) * std::sqrt(3.0));
  }
  return t;
}

/// The widest x86 vector extension this file was compiled for: the native
/// preset uses the compiler's default x86-64 flags, i.e. SSE2 (128-bit, the
/// same width as wasm SIMD128), unless someone adds -march.
const char* compiled_isa() {
#if defined(__AVX512F__)
  return "AVX-512";
#elif defined(__AVX2__)
  return "AVX2";
#elif defined(__AVX__)
  return "AVX";
#elif defined(__SSE4_2__)
  return "SSE4.2";
#elif defined(__SSE2__)
  return "SSE2";
#else
  return "no x86 SIMD";
#endif
}

void BM_attention(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0)); // L = S = n
  const attn::Tensor q = lcg_tensor(n, kE, 1);
  const attn::Tensor k = lcg_tensor(n, kE, 2);
  const attn::Tensor v = lcg_tensor(n, kE, 3);
  attn::AttentionResult result;
  for (auto _ : state) {
    result = attn::scaled_dot_product_attention(q, k, v);
    benchmark::DoNotOptimize(result.output.data());
    benchmark::ClobberMemory();
  }
  // Checksums of the output, compared by the runner with the plain-JS output's.
  double out_sum = 0.0;
  double out_sum_weighted = 0.0;
  const float* out = result.output.data();
  for (std::size_t i = 0; i < result.output.size(); ++i) {
    out_sum += out[i];
    out_sum_weighted += out[i] * static_cast<double>(1 + i % 7);
  }
  const double flops =
      4.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(kE);
  state.counters["L"] = static_cast<double>(n);
  state.counters["S"] = static_cast<double>(n);
  state.counters["E"] = static_cast<double>(kE);
  state.counters["out_sum"] = out_sum;
  state.counters["out_sum_weighted"] = out_sum_weighted;
  state.counters["FLOPS"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(compiled_isa());
}
BENCHMARK(BM_attention)
    ->Arg(64)
    ->Arg(256)
    ->Arg(1024)
    ->Arg(4096)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinWarmUpTime(0.1)
    ->MinTime(0.3)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

} // namespace
