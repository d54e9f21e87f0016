// Small models and batches shared by the training tests (train_model_test.cpp for the float64
// reference against finite differences, train_f32_test.cpp for the float32 path against it).
#pragma once

#include <cstddef>
#include <cstdint>

#include "attn/random.hpp"
#include "attn/train/model.hpp"

namespace attn::test {

using attn::train::Batch;
using attn::train::kNoTarget;
using attn::train::Model;
using attn::train::ModelConfig;

inline ModelConfig small_config(std::size_t layers, std::size_t heads, bool mlp, bool layer_norm) {
  ModelConfig c;
  c.vocab = 5;
  c.seq_len = 6;
  c.layers = layers;
  c.heads = heads;
  c.d_model = 4 * heads;
  c.mlp = mlp;
  c.d_mlp = 6;
  c.layer_norm = layer_norm;
  return c;
}

// Three random sequences of the full length; every token id appears, and the last half of the
// positions are scored (as a task's answer positions are).
inline Batch random_batch(const ModelConfig& c, std::uint64_t seed) {
  attn::Rng rng(seed);
  Batch b;
  b.count = 3;
  b.length = c.seq_len;
  for (std::size_t i = 0; i < b.count * b.length; ++i) {
    b.tokens.push_back(static_cast<std::int32_t>(i < c.vocab ? i : rng.below(c.vocab)));
    const bool scored = i % b.length >= b.length / 2 - 1;
    b.targets.push_back(scored ? static_cast<std::int32_t>(rng.below(c.vocab)) : kNoTarget);
  }
  return b;
}

// Weights drawn larger than the initialisation (N(0, 0.5²) for matrices; gains 1 ± 0.3, biases
// ± 0.3) so every path, including LN gains and biases, carries a gradient of some size.
inline Model random_model(const ModelConfig& c, std::uint64_t seed) {
  Model m = attn::train::init_model(c, seed);
  attn::Rng rng(seed, 99);
  for (const auto& p : m.layout) {
    for (std::size_t i = 0; i < p.size; ++i) {
      m.weights[p.offset + i] += (p.shape.size() == 1 ? 0.3 : 0.5) * rng.normal();
    }
  }
  return m;
}

} // namespace attn::test
