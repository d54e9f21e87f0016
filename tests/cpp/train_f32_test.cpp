// The training model's float32 path against the float64 reference, for every kernel set of this
// build: the loss, the gradient of every parameter tensor, the logits and attention weights, head
// ablation and the errors; and that the check itself fails on a wrong gradient.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "attn/error.hpp"
#include "attn/train/model.hpp"
#include "kernels/kernels.hpp"
#include "test_util.hpp"
#include "train/model_f32.hpp"
#include "train_test_models.hpp"

namespace attn::kernels {
void PrintTo(const KernelSet* ks, std::ostream* os);
} // namespace attn::kernels

namespace {

using attn::kernels::KernelSet;
using attn::test::expect_error;
using attn::test::random_batch;
using attn::test::random_model;
using attn::test::small_config;
using attn::train::Batch;
using attn::train::Model;
using attn::train::ModelConfig;

// The stated bound, per parameter tensor:
//   max_i |g32_i − g64_i| ≤ tolerance · max_i |g64_i|,  tolerance = max(1e-4, 2e-5 · s_max)
// where s_max is the largest |attention logit| (q·k/√d_h) of the model on the batch. Why: float32
// carries 24 bits (2⁻²⁴ ≈ 6e-8 a rounding). A gradient element is a sum over the batch of
// products through every layer, and the backward pass subtracts nearly equal terms (softmax,
// LayerNorm), so errors of 1e-6 to 1e-5 of the tensor's largest entry are typical here. A logit s
// is itself rounded with an absolute error of about |s|·2⁻²⁴, which every softmax weight, and the
// W_Q, W_K gradient made of them, inherit: the two-layer MLP model without LN has logits up to 330
// and errors up to 4e-4 · max |g| in layer 1's W_Q. Measured over these models: at most
// 1e-5 · max |g| when s_max < 20, and at most 3e-6 · s_max · max |g| above. The bound is 7 to 10
// times the worst measured error; a wrong or missing term in the backward pass moves a tensor's
// gradient by a sizeable fraction of max |g| (the_gradient_check_fails_... shows 3 times the bound
// in one element is caught).
constexpr double kGradientTolerance = 1e-4;
constexpr double kGradientTolerancePerLogit = 2e-5;
// The loss: |loss32 − loss64| ≤ 1e-5 · loss64 (measured ≤ 3e-7).
constexpr double kLossTolerance = 1e-5;

// The largest |q·k|/√d_h over the layers, sequences, heads and causal pairs that the float32
// forward pass left in ws.
double max_attention_logit(const Model& model, const Batch& batch,
                           const attn::train::detail::F32Workspace& ws) {
  const ModelConfig& c = model.config;
  const std::size_t D = c.d_model, dh = D / c.heads, T = batch.length;
  double s_max = 0;
  for (std::size_t l = 0; l < c.layers; ++l) {
    const float* qkv = ws.layers[l].qkv.data();
    for (std::size_t b = 0; b < batch.count; ++b) {
      for (std::size_t h = 0; h < c.heads; ++h) {
        for (std::size_t i = 0; i < T; ++i) {
          for (std::size_t j = 0; j <= i; ++j) {
            double s = 0;
            for (std::size_t d = 0; d < dh; ++d) {
              s += double(qkv[(b * T + i) * 3 * D + h * dh + d]) *
                   qkv[(b * T + j) * 3 * D + D + h * dh + d];
            }
            s_max = std::max(s_max, std::abs(s) / std::sqrt(double(dh)));
          }
        }
      }
    }
  }
  return s_max;
}

double gradient_tolerance(double s_max) {
  return std::max(kGradientTolerance, kGradientTolerancePerLogit * s_max);
}

// Every tensor of `got` within the bound of `want`; a failure names the kernel set, the tensor,
// the worst index and both values.
::testing::AssertionResult gradients_agree(const Model& model, const std::vector<double>& got,
                                           const std::vector<double>& want, const KernelSet& ks,
                                           double tolerance, double* worst_relative = nullptr) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << ks.name << ": gradient of " << got.size()
                                         << " values, the reference has " << want.size();
  }
  std::ostringstream failures;
  double worst = 0;
  for (const auto& p : model.layout) {
    double max_g = 0, max_err = 0;
    std::size_t at = 0;
    for (std::size_t i = 0; i < p.size; ++i) {
      max_g = std::max(max_g, std::abs(want[p.offset + i]));
      const double err = std::abs(got[p.offset + i] - want[p.offset + i]);
      if (err > max_err) {
        max_err = err;
        at = i;
      }
    }
    if (max_g > 0) {
      worst = std::max(worst, max_err / max_g);
    }
    if (max_err > tolerance * max_g || (max_g == 0 && max_err > 0)) {
      failures.precision(9);
      failures << "\n  kernel set " << ks.name << ": " << p.name << attn::format_index(p.shape, at)
               << ": float32 " << got[p.offset + at] << ", float64 " << want[p.offset + at]
               << " (error " << max_err << " > " << kGradientTolerance << " x max |g| " << max_g
               << ")";
    }
  }
  if (worst_relative) {
    *worst_relative = worst;
  }
  if (failures.tellp() != 0) {
    return ::testing::AssertionFailure() << "float32 gradient differs:" << failures.str();
  }
  return ::testing::AssertionSuccess();
}

class train_f32 : public ::testing::TestWithParam<const KernelSet*> {
protected:
  // The float32 loss and gradient of the set against the reference on the same weights and
  // batch; every tensor must have a non-zero gradient (none dropped), as in the reference test.
  void expect_matches_reference(const Model& model, const Batch& batch) {
    const KernelSet& ks = *GetParam();
    std::vector<double> g64, g32;
    const double loss64 = attn::train::loss_and_gradient_reference(model, batch, g64);
    attn::train::detail::F32Workspace ws;
    const double loss32 =
        attn::train::detail::loss_and_gradient_f32(ks, model, batch, &g32, ws, "loss_and_gradient");
    EXPECT_NEAR(loss32, loss64, kLossTolerance * loss64) << ks.name << ": the loss";
    double worst = 0;
    const double s_max = max_attention_logit(model, batch, ws);
    EXPECT_TRUE(gradients_agree(model, g32, g64, ks, gradient_tolerance(s_max), &worst))
        << "largest attention logit " << s_max;
    RecordProperty("max_relative_gradient_error", std::to_string(worst));
    RecordProperty("max_attention_logit", std::to_string(s_max));
    for (const auto& p : model.layout) {
      double max_g = 0;
      for (std::size_t i = 0; i < p.size; ++i) {
        max_g = std::max(max_g, std::abs(g64[p.offset + i]));
      }
      const bool ablated = p.name.find("head") != std::string::npos &&
                           !model.head_on(std::stoul(p.name.substr(5)),
                                          std::stoul(p.name.substr(p.name.find("head") + 4)));
      if (!ablated) {
        EXPECT_GT(max_g, 1e-6) << p.name << ": reference gradient is (nearly) zero everywhere";
      }
    }
    // a second call on the same workspace gives bitwise the same (no state leaks between calls)
    std::vector<double> again;
    EXPECT_EQ(attn::train::detail::loss_and_gradient_f32(ks, model, batch, &again, ws,
                                                         "loss_and_gradient"),
              loss32);
    EXPECT_EQ(again, g32);
  }
};

TEST_P(train_f32, gradient_matches_reference_one_layer_one_head_no_mlp_no_ln) {
  const ModelConfig c = small_config(1, 1, false, false);
  expect_matches_reference(random_model(c, 11), random_batch(c, 12));
}

TEST_P(train_f32, gradient_matches_reference_two_layers_two_heads_no_mlp_no_ln) {
  const ModelConfig c = small_config(2, 2, false, false);
  expect_matches_reference(random_model(c, 12), random_batch(c, 13));
}

TEST_P(train_f32, gradient_matches_reference_two_layers_two_heads_with_mlp) {
  const ModelConfig c = small_config(2, 2, true, false);
  expect_matches_reference(random_model(c, 13), random_batch(c, 14));
}

TEST_P(train_f32, gradient_matches_reference_two_layers_two_heads_with_layer_norm) {
  const ModelConfig c = small_config(2, 2, false, true);
  expect_matches_reference(random_model(c, 14), random_batch(c, 15));
}

TEST_P(train_f32, gradient_matches_reference_two_layers_two_heads_with_mlp_and_layer_norm) {
  const ModelConfig c = small_config(2, 2, true, true);
  expect_matches_reference(random_model(c, 15), random_batch(c, 16));
}

TEST_P(train_f32, gradient_matches_reference_with_an_ablated_head_which_gets_exactly_zero) {
  const ModelConfig c = small_config(2, 2, true, true);
  Model model = random_model(c, 22);
  model.head_enabled = {1, 0, 1, 1}; // layer0.head1 off
  const Batch batch = random_batch(c, 23);
  expect_matches_reference(model, batch);
  std::vector<double> g;
  attn::train::detail::F32Workspace ws;
  attn::train::detail::loss_and_gradient_f32(*GetParam(), model, batch, &g, ws, "loss");
  for (const char* name : {"layer0.head1.W_Q", "layer0.head1.W_K", "layer0.head1.W_V"}) {
    const auto& p = model.parameter(name);
    for (std::size_t i = 0; i < p.size; ++i) {
      EXPECT_EQ(g[p.offset + i], 0.0) << name << " element " << i;
    }
  }
}

// A task-sized model (D = 32, 2 heads of 16, M = 128, T = 12, vocab 11, batch 8) with both MLP and
// LN and a shorter batch: the kernels' full blocks and every tail, as training runs them.
TEST_P(train_f32, gradient_matches_reference_for_a_task_sized_model_and_a_short_batch) {
  ModelConfig c;
  c.vocab = 11;
  c.seq_len = 12;
  c.layers = 2;
  c.heads = 2;
  c.d_model = 32;
  c.mlp = true;
  c.layer_norm = true;
  const Model model = random_model(c, 31);
  Batch batch = random_batch(c, 32);
  expect_matches_reference(model, batch);
  batch.length = 9;
  batch.count = 2;
  batch.tokens.resize(18);
  batch.targets.assign(18, attn::train::kNoTarget);
  batch.targets[5] = 3;
  batch.targets[17] = 10;
  expect_matches_reference(model, batch);
}

TEST_P(train_f32, logits_and_attention_match_reference_and_are_causal) {
  const ModelConfig c = small_config(2, 2, true, true);
  Model model = random_model(c, 5);
  model.head_enabled = {1, 1, 0, 1};
  const std::vector<std::int32_t> tokens = {0, 3, 1, 4, 2};
  attn::Tensor64 att64, att32;
  const auto l64 = attn::train::forward_reference(model, tokens, &att64);
  attn::train::detail::F32Workspace ws;
  const auto l32 = attn::train::detail::forward_f32(*GetParam(), model, tokens, &att32, ws);
  EXPECT_TRUE(attn::test::all_close(l32, l64, 1e-5, 1e-5)) << GetParam()->name;
  EXPECT_TRUE(attn::test::all_close(att32, att64, 1e-5, 1e-6)) << GetParam()->name;
  for (std::size_t i = 0; i < 5; ++i) {
    for (std::size_t j = i + 1; j < 5; ++j) {
      EXPECT_EQ(att32(1, 0, i, j), 0.0);
    }
  }
  // causal, and a sequence's logits do not depend on the batch it is in or on later tokens
  const auto shorter =
      attn::train::detail::forward_f32(*GetParam(), model, {0, 3, 1, 4}, nullptr, ws);
  for (std::size_t t = 0; t < 4; ++t) {
    for (std::size_t v = 0; v < c.vocab; ++v) {
      EXPECT_EQ(shorter(t, v), l32(t, v)) << t << ", " << v;
    }
  }
}

// The check of this file fails for a gradient that is wrong by more than the bound in one element,
// and names the tensor, the element, both values and the kernel set.
TEST_P(train_f32, the_gradient_check_fails_for_a_perturbed_gradient_and_names_it) {
  const ModelConfig c = small_config(2, 2, true, true);
  const Model model = random_model(c, 15);
  const Batch batch = random_batch(c, 16);
  std::vector<double> g64, g32;
  attn::train::loss_and_gradient_reference(model, batch, g64);
  attn::train::detail::F32Workspace ws;
  attn::train::detail::loss_and_gradient_f32(*GetParam(), model, batch, &g32, ws, "loss");
  const double tolerance = gradient_tolerance(max_attention_logit(model, batch, ws));
  ASSERT_TRUE(gradients_agree(model, g32, g64, *GetParam(), tolerance));
  const auto& p = model.parameter("layer1.ln2.bias");
  double max_g = 0;
  for (std::size_t i = 0; i < p.size; ++i) {
    max_g = std::max(max_g, std::abs(g64[p.offset + i]));
  }
  g32[p.offset + 3] += 3 * tolerance * max_g;
  const auto result = gradients_agree(model, g32, g64, *GetParam(), tolerance);
  EXPECT_FALSE(result);
  const std::string message = result.message();
  EXPECT_NE(message.find("layer1.ln2.bias[3]"), std::string::npos) << message;
  EXPECT_NE(message.find(GetParam()->name), std::string::npos) << message;
}

TEST_P(train_f32, rejects_what_the_reference_rejects_with_the_same_words) {
  const ModelConfig c = small_config(1, 1, false, false);
  const Model m = attn::train::init_model(c, 1);
  Batch bad = random_batch(c, 2);
  bad.tokens[7] = 5;
  std::vector<double> g;
  attn::train::detail::F32Workspace ws;
  expect_error<attn::ValueError>(
      [&] {
        attn::train::detail::loss_and_gradient_f32(*GetParam(), m, bad, &g, ws,
                                                   "loss_and_gradient");
      },
      "loss_and_gradient: tokens[1, 1] is 5; tokens are 0..4");
  expect_error<attn::ValueError>([&] { attn::train::loss_and_gradient_f32(m, bad, g); },
                                 "loss_and_gradient: tokens[1, 1] is 5; tokens are 0..4");
  bad = random_batch(c, 2);
  std::fill(bad.targets.begin(), bad.targets.end(), attn::train::kNoTarget);
  expect_error<attn::ShapeError>([&] { attn::train::loss_f32(m, bad); }, "loss: no position");
  expect_error<attn::ValueError>(
      [&] {
        attn::train::forward_f32(m, {0, -1});
      },
      "forward: tokens[1] is -1; tokens are 0..4");
  expect_error<attn::ShapeError>([&] { attn::train::forward_f32(m, {}); },
                                 "a sequence of 0 tokens; the model reads 1..6");
  Model masked = m;
  masked.head_enabled = {1, 1};
  expect_error<attn::ShapeError>([&] { attn::train::forward_f32(masked, {0}); },
                                 "forward: head_enabled has 2 flags");
}

INSTANTIATE_TEST_SUITE_P(kernels, train_f32, ::testing::ValuesIn(attn::kernels::available()),
                         [](const ::testing::TestParamInfo<const KernelSet*>& info) {
                           return std::string(info.param->name);
                         });

} // namespace
