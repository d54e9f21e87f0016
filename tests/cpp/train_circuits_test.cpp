// A head's OV and QK circuits (attn/train/circuits.hpp): the OV circuit is exactly what a head adds
// to the logits when it attends to one token (checked against the forward pass), the QK circuit is
// the product it names (one entry written out), and both refuse models and heads they do not fit.
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "attn/error.hpp"
#include "attn/train/circuits.hpp"
#include "attn/train/model.hpp"
#include "test_util.hpp"

namespace {

using attn::test::expect_error;
using attn::train::Model;
using attn::train::ModelConfig;

Model small_model(std::size_t layers) {
  ModelConfig c;
  c.vocab = 5;
  c.seq_len = 4;
  c.layers = layers;
  c.heads = 2;
  c.d_model = 4;
  return attn::train::init_model(c, 3);
}

double& weight(Model& m, const char* name, std::size_t i) {
  return m.weights[m.parameter(name).offset + i];
}

TEST(train_circuits, ov_is_what_a_head_adds_to_the_logits_when_it_reads_one_token) {
  Model m = small_model(1);
  const auto& pos = m.parameter("embed.position");
  std::fill(m.weights.begin() + static_cast<std::ptrdiff_t>(pos.offset),
            m.weights.begin() + static_cast<std::ptrdiff_t>(pos.offset + pos.size), 0.0);
  m.head_enabled = {1, 0}; // head 0 alone: a one-token sequence attends to itself with weight 1
  const attn::Tensor64 ov = attn::train::ov_circuit(m, 0, 0);
  ASSERT_EQ(ov.shape(), (attn::Shape{5, 5}));
  for (std::int32_t a = 0; a < 5; ++a) {
    const attn::Tensor64 logits = attn::train::forward_reference(m, {a});
    for (std::size_t b = 0; b < 5; ++b) {
      double direct = 0; // E[a] U: the residual path
      for (std::size_t d = 0; d < 4; ++d) {
        direct += weight(m, "embed.token", static_cast<std::size_t>(a) * 4 + d) *
                  weight(m, "unembed", d * 5 + b);
      }
      EXPECT_NEAR(logits(0, b) - direct, ov(static_cast<std::size_t>(a), b), 1e-12)
          << "token " << a << ", logit " << b;
    }
  }
}

TEST(train_circuits, qk_through_a_first_layer_head_is_the_product_it_names) {
  Model m = small_model(2);
  const attn::Tensor64 qk = attn::train::qk_circuit(m, 1, 1, 0);
  ASSERT_EQ(qk.shape(), (attn::Shape{5, 5}));
  // entry [2, 3]: (E[2] W_Q^{1,1}) · (E[3] W_V^{0,0} W_O^{0,0} W_K^{1,1}) / √2, written out
  const auto E = m.tensor("embed.token"), WQ = m.tensor("layer1.head1.W_Q"),
             WK = m.tensor("layer1.head1.W_K"), WV = m.tensor("layer0.head0.W_V"),
             WO = m.tensor("layer0.W_O");
  double q[2] = {0, 0}, v[2] = {0, 0}, r[4] = {0, 0, 0, 0}, k[2] = {0, 0};
  for (std::size_t e = 0; e < 2; ++e) {
    for (std::size_t d = 0; d < 4; ++d) {
      q[e] += E(2, d) * WQ(d, e);
      v[e] += E(3, d) * WV(d, e);
    }
  }
  for (std::size_t d = 0; d < 4; ++d) {
    r[d] = v[0] * WO(0, d) + v[1] * WO(1, d); // head 0's rows of W_O
  }
  for (std::size_t e = 0; e < 2; ++e) {
    for (std::size_t d = 0; d < 4; ++d) {
      k[e] += r[d] * WK(d, e);
    }
  }
  EXPECT_NEAR(qk(2, 3), (q[0] * k[0] + q[1] * k[1]) / std::sqrt(2.0), 1e-12);
}

TEST(train_circuits, refuse_other_models_and_heads_out_of_range) {
  Model m = small_model(2);
  expect_error<attn::ShapeError>([&] { attn::train::ov_circuit(m, 2, 0); },
                                 "ovCircuit: layer 2 is out of range; the model has layers 0..1");
  expect_error<attn::ShapeError>([&] { attn::train::ov_circuit(m, 0, 2); },
                                 "ovCircuit: head 2 is out of range");
  expect_error<attn::ShapeError>([&] { attn::train::qk_circuit(m, 0, 0, 1); },
                                 "qkCircuit: layer 0 has no earlier head");
  expect_error<attn::ShapeError>([&] { attn::train::qk_circuit(m, 1, 0, 3); },
                                 "qkCircuit: head 3 is out of range");
  ModelConfig c = m.config;
  c.layer_norm = true;
  const Model ln = attn::train::init_model(c, 1);
  expect_error<attn::ValueError>([&] { attn::train::ov_circuit(ln, 0, 0); },
                                 "ovCircuit: circuits are read off attention-only models; this one "
                                 "has LayerNorm");
}

} // namespace
