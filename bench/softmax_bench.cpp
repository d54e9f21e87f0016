// Native softmax throughput over rows of n logits (Google Benchmark).
#include <random>

#include <benchmark/benchmark.h>

#include "attn/softmax.hpp"

namespace {

void BM_softmax_rows(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::size_t rows = 64;
  attn::Tensor x = attn::Tensor::from_shape({rows, n});
  std::mt19937 gen(42);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  for (auto& v : x) {
    v = normal(gen);
  }
  for (auto _ : state) {
    attn::Tensor y = attn::softmax(x, 1.0);
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows * n));
}
BENCHMARK(BM_softmax_rows)->Arg(64)->Arg(256)->Arg(1024)->Arg(4096);

} // namespace

BENCHMARK_MAIN();
