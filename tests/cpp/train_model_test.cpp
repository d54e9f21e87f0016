// The training model's float64 reference: layout and names, forward facts, and the hand-written
// backward pass against central finite differences for every parameter tensor.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "attn/error.hpp"
#include "attn/random.hpp"
#include "attn/train/model.hpp"
#include "test_util.hpp"
#include "train_test_models.hpp"

namespace {

using attn::test::expect_error;
using attn::test::random_batch;
using attn::test::random_model;
using attn::test::small_config;
using attn::train::Batch;
using attn::train::kNoTarget;
using attn::train::Model;
using attn::train::ModelConfig;

// The stated bound: for every parameter tensor, max_i |fd_i − g_i| ≤ 1e-6 · max_i |g_i|, where
// fd_i = (loss(w + h e_i) − loss(w − h e_i)) / 2h with h = 1e-5 (float64; truncation ~h² and
// rounding ~1e-16/h are both far below the bound). Every tensor must also have a non-zero
// gradient, so an accidentally dropped path cannot pass as "both zero".
void expect_gradient_matches_finite_differences(const ModelConfig& c, std::uint64_t seed) {
  Model model = random_model(c, seed);
  const Batch batch = random_batch(c, seed + 1);
  std::vector<double> grad;
  attn::train::loss_and_gradient_reference(model, batch, grad);
  ASSERT_EQ(grad.size(), model.weights.size());
  const double h = 1e-5;
  for (const auto& p : model.layout) {
    double max_g = 0, max_err = 0;
    std::size_t worst = 0;
    for (std::size_t i = 0; i < p.size; ++i) {
      const std::size_t at = p.offset + i;
      const double w = model.weights[at];
      model.weights[at] = w + h;
      const double up = attn::train::loss_reference(model, batch);
      model.weights[at] = w - h;
      const double down = attn::train::loss_reference(model, batch);
      model.weights[at] = w;
      const double fd = (up - down) / (2 * h);
      max_g = std::max(max_g, std::abs(grad[at]));
      if (std::abs(fd - grad[at]) > max_err) {
        max_err = std::abs(fd - grad[at]);
        worst = i;
      }
    }
    EXPECT_GT(max_g, 1e-6) << p.name << ": gradient is (nearly) zero everywhere";
    EXPECT_LE(max_err, 1e-6 * max_g)
        << p.name << attn::format_index(p.shape, worst) << ": backward " << grad[p.offset + worst]
        << ", max abs error " << max_err << ", max |g| " << max_g << " (relative "
        << max_err / max_g << ")";
  }
}

TEST(train_model, layout_names_every_tensor_in_order_with_its_shape) {
  ModelConfig c = small_config(2, 2, true, true);
  const auto layout = attn::train::parameter_layout(c);
  std::vector<std::string> names;
  for (const auto& p : layout) {
    names.push_back(p.name);
  }
  const std::vector<std::string> layer0 = {
      "layer0.ln1.gain",  "layer0.ln1.bias",  "layer0.head0.W_Q", "layer0.head0.W_K",
      "layer0.head0.W_V", "layer0.head1.W_Q", "layer0.head1.W_K", "layer0.head1.W_V",
      "layer0.W_O",       "layer0.ln2.gain",  "layer0.ln2.bias",  "layer0.mlp.W_in",
      "layer0.mlp.b_in",  "layer0.mlp.W_out", "layer0.mlp.b_out"};
  ASSERT_EQ(names.size(), 2 + 2 * layer0.size() + 3);
  EXPECT_EQ(names[0], "embed.token");
  EXPECT_EQ(names[1], "embed.position");
  for (std::size_t i = 0; i < layer0.size(); ++i) {
    EXPECT_EQ(names[2 + i], layer0[i]);
    std::string layer1 = layer0[i];
    layer1[5] = '1';
    EXPECT_EQ(names[2 + layer0.size() + i], layer1);
  }
  EXPECT_EQ(names[names.size() - 3], "final_ln.gain");
  EXPECT_EQ(names.back(), "unembed");
  // shapes, offsets contiguous, decay on matrices only
  std::size_t offset = 0;
  for (const auto& p : layout) {
    EXPECT_EQ(p.offset, offset) << p.name;
    offset += p.size;
    EXPECT_EQ(p.decay, p.shape.size() == 2) << p.name;
  }
  Model m = attn::train::init_model(c, 1);
  EXPECT_EQ(m.weights.size(), offset);
  EXPECT_EQ(m.tensor("layer1.head1.W_K").shape(), (std::vector<std::size_t>{8, 4}));
  EXPECT_EQ(m.tensor("layer0.mlp.W_out").shape(), (std::vector<std::size_t>{6, 8}));
  EXPECT_EQ(m.tensor("unembed").shape(), (std::vector<std::size_t>{8, 5}));
  expect_error<attn::ValueError>([&] { m.parameter("layer2.W_O"); },
                                 "no tensor called 'layer2.W_O'");

  ModelConfig plain = small_config(1, 1, false, false);
  const auto small = attn::train::parameter_layout(plain);
  ASSERT_EQ(small.size(), 7u); // embed ×2, W_Q, W_K, W_V, W_O, unembed
  EXPECT_EQ(small[2].name, "layer0.head0.W_Q");
  EXPECT_EQ(small[5].name, "layer0.W_O");
}

TEST(train_model, initialisation_is_seeded_and_scaled_by_fan_in) {
  ModelConfig c = small_config(2, 2, true, true);
  c.d_model = 64;
  c.vocab = 50;
  const Model a = attn::train::init_model(c, 7);
  const Model b = attn::train::init_model(c, 7);
  const Model other = attn::train::init_model(c, 8);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_NE(a.weights, other.weights);
  const auto unembed = a.tensor("unembed");
  double sum2 = 0;
  for (double x : unembed) {
    sum2 += x * x;
  }
  EXPECT_NEAR(sum2 / unembed.size(), 1.0 / 64, 0.15 / 64); // variance 1/fan_in
  for (double g : a.tensor("layer1.ln2.gain")) {
    EXPECT_EQ(g, 1.0);
  }
  for (double bias : a.tensor("layer1.mlp.b_in")) {
    EXPECT_EQ(bias, 0.0);
  }
}

TEST(train_model, zero_weights_give_uniform_predictions_and_loss_ln_vocab) {
  ModelConfig c = small_config(2, 2, true, false);
  Model m = attn::train::init_model(c, 3);
  std::fill(m.weights.begin(), m.weights.end(), 0.0);
  const Batch batch = random_batch(c, 4);
  EXPECT_NEAR(attn::train::loss_reference(m, batch), std::log(5.0), 1e-15);
}

TEST(train_model, attention_weights_are_causal_rows_that_sum_to_one) {
  ModelConfig c = small_config(2, 2, false, true);
  const Model m = random_model(c, 5);
  attn::Tensor64 attention;
  const auto logits = attn::train::forward_reference(m, {0, 3, 1, 4}, &attention);
  EXPECT_EQ(logits.shape(), (std::vector<std::size_t>{4, 5}));
  ASSERT_EQ(attention.shape(), (std::vector<std::size_t>{2, 2, 4, 4}));
  for (std::size_t l = 0; l < 2; ++l) {
    for (std::size_t h = 0; h < 2; ++h) {
      for (std::size_t i = 0; i < 4; ++i) {
        double sum = 0;
        for (std::size_t j = 0; j < 4; ++j) {
          if (j > i) {
            EXPECT_EQ(attention(l, h, i, j), 0.0) << l << h << i << j;
          }
          sum += attention(l, h, i, j);
        }
        EXPECT_NEAR(sum, 1.0, 1e-14);
      }
    }
  }
  // causal: logits at position t do not depend on later tokens
  const auto changed = attn::train::forward_reference(m, {0, 3, 1, 2});
  for (std::size_t t = 0; t < 3; ++t) {
    for (std::size_t v = 0; v < 5; ++v) {
      EXPECT_EQ(changed(t, v), logits(t, v));
    }
  }
}

TEST(train_gradient, matches_finite_differences_one_layer_one_head_no_mlp_no_ln) {
  expect_gradient_matches_finite_differences(small_config(1, 1, false, false), 11);
}

TEST(train_gradient, matches_finite_differences_two_layers_two_heads_no_mlp_no_ln) {
  expect_gradient_matches_finite_differences(small_config(2, 2, false, false), 12);
}

TEST(train_gradient, matches_finite_differences_two_layers_two_heads_with_mlp) {
  expect_gradient_matches_finite_differences(small_config(2, 2, true, false), 13);
}

TEST(train_gradient, matches_finite_differences_two_layers_two_heads_with_layer_norm) {
  expect_gradient_matches_finite_differences(small_config(2, 2, false, true), 14);
}

TEST(train_gradient, matches_finite_differences_two_layers_two_heads_with_mlp_and_layer_norm) {
  expect_gradient_matches_finite_differences(small_config(2, 2, true, true), 15);
}

TEST(train_gradient, matches_finite_differences_for_a_batch_shorter_than_seq_len) {
  ModelConfig c = small_config(2, 2, true, true);
  Model model = random_model(c, 16);
  Batch batch = random_batch(c, 17);
  batch.length = 4; // positions 4, 5 unused: their embedding gradient is exactly zero
  batch.count = 2;
  batch.tokens.resize(8);
  batch.targets.assign({kNoTarget, 1, 2, 3, kNoTarget, kNoTarget, 0, 4});
  std::vector<double> grad;
  const double loss = attn::train::loss_and_gradient_reference(model, batch, grad);
  EXPECT_EQ(loss, attn::train::loss_reference(model, batch));
  const auto& pos = model.parameter("embed.position");
  for (std::size_t i = 4 * c.d_model; i < pos.size; ++i) {
    EXPECT_EQ(grad[pos.offset + i], 0.0) << "embed.position element " << i;
  }
  const double h = 1e-5;
  for (std::size_t i = 0; i < model.weights.size(); i += 7) {
    const double w = model.weights[i];
    model.weights[i] = w + h;
    const double up = attn::train::loss_reference(model, batch);
    model.weights[i] = w - h;
    const double down = attn::train::loss_reference(model, batch);
    model.weights[i] = w;
    EXPECT_NEAR((up - down) / (2 * h), grad[i], 1e-8 + 1e-6 * std::abs(grad[i])) << "weight " << i;
  }
}

TEST(train_model, an_ablated_head_is_exactly_a_head_whose_values_are_zero) {
  const ModelConfig c = small_config(2, 2, true, true);
  Model ablated = random_model(c, 21);
  Model zeroed = ablated;
  ablated.head_enabled = {1, 1, 0, 1}; // layer1.head0 off
  const auto& wv = zeroed.parameter("layer1.head0.W_V");
  std::fill(zeroed.weights.begin() + wv.offset, zeroed.weights.begin() + wv.offset + wv.size, 0.0);
  const std::vector<std::int32_t> tokens = {4, 0, 2, 2, 1};
  attn::Tensor64 att_a, att_z;
  const auto a = attn::train::forward_reference(ablated, tokens, &att_a);
  const auto z = attn::train::forward_reference(zeroed, tokens, &att_z);
  EXPECT_EQ(a, z);
  EXPECT_EQ(att_a, att_z); // its weights are still computed and reported
  const auto on = attn::train::forward_reference(random_model(c, 21), tokens);
  EXPECT_NE(a, on);

  ablated.head_enabled.pop_back();
  expect_error<attn::ShapeError>([&] { attn::train::forward_reference(ablated, tokens); },
                                 "forward: head_enabled has 3 flags; the model has layers x "
                                 "heads = 4 heads");
}

TEST(train_gradient, an_ablated_head_gets_no_gradient_and_the_rest_match_finite_differences) {
  const ModelConfig c = small_config(2, 2, true, true);
  Model model = random_model(c, 22);
  model.head_enabled = {1, 0, 1, 1}; // layer0.head1 off
  const Batch batch = random_batch(c, 23);
  std::vector<double> grad;
  attn::train::loss_and_gradient_reference(model, batch, grad);
  for (const char* name : {"layer0.head1.W_Q", "layer0.head1.W_K", "layer0.head1.W_V"}) {
    const auto& p = model.parameter(name);
    for (std::size_t i = 0; i < p.size; ++i) {
      EXPECT_EQ(grad[p.offset + i], 0.0) << name << " element " << i;
    }
  }
  const double h = 1e-5;
  for (std::size_t i = 0; i < model.weights.size(); i += 5) {
    const double w = model.weights[i];
    model.weights[i] = w + h;
    const double up = attn::train::loss_reference(model, batch);
    model.weights[i] = w - h;
    const double down = attn::train::loss_reference(model, batch);
    model.weights[i] = w;
    EXPECT_NEAR((up - down) / (2 * h), grad[i], 1e-8 + 1e-6 * std::abs(grad[i])) << "weight " << i;
  }
}

TEST(train_model, rejects_bad_configs_naming_the_field) {
  ModelConfig c = small_config(1, 2, false, false);
  c.heads = 3;
  c.d_model = 8;
  expect_error<attn::ShapeError>([&] { attn::train::validate_config(c, "createTrainer"); },
                                 "createTrainer: heads (3) must divide d_model (8)");
  for (auto field : {&ModelConfig::vocab, &ModelConfig::seq_len, &ModelConfig::layers,
                     &ModelConfig::heads, &ModelConfig::d_model}) {
    ModelConfig z = small_config(1, 1, false, false);
    z.*field = 0;
    expect_error<attn::ShapeError>([&] { attn::train::init_model(z, 1); },
                                   " is 0; it must be >= 1");
  }
  ModelConfig big = small_config(1, 1, false, false);
  big.vocab = 100000;
  big.d_model = 1024;
  expect_error<attn::MemoryError>([&] { attn::train::validate_config(big, "createTrainer"); },
                                  "the model has 209000448 weights, which need 6378 MiB");
}

TEST(train_model, rejects_bad_batches_and_tokens_naming_the_index) {
  const ModelConfig c = small_config(1, 1, false, false);
  const Model m = attn::train::init_model(c, 1);
  Batch b = random_batch(c, 2);
  std::vector<double> g;
  Batch bad = b;
  bad.tokens[7] = 5;
  expect_error<attn::ValueError>([&] { attn::train::loss_and_gradient_reference(m, bad, g); },
                                 "loss_and_gradient: tokens[1, 1] is 5; tokens are 0..4");
  bad = b;
  bad.targets[11] = -2;
  expect_error<attn::ValueError>([&] { attn::train::loss_reference(m, bad); },
                                 "loss: targets[1, 5] is -2");
  bad = b;
  std::fill(bad.targets.begin(), bad.targets.end(), kNoTarget);
  expect_error<attn::ShapeError>([&] { attn::train::loss_reference(m, bad); }, "no position");
  bad = b;
  bad.length = 7;
  expect_error<attn::ShapeError>([&] { attn::train::loss_reference(m, bad); },
                                 "longer than the model's seq_len 6");
  bad = b;
  bad.tokens.pop_back();
  expect_error<attn::ShapeError>([&] { attn::train::loss_reference(m, bad); },
                                 "must hold count x length = 18 values, got 17");
  expect_error<attn::ValueError>(
      [&] {
        attn::train::forward_reference(m, {0, -1});
      },
      "forward: tokens[1] is -1; tokens are 0..4");
  expect_error<attn::ShapeError>([&] { attn::train::forward_reference(m, {}); },
                                 "a sequence of 0 tokens; the model reads 1..6");
}

} // namespace
