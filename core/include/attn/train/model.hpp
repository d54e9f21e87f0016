// attn/train/model.hpp — a small decoder-only transformer: configuration, named parameters,
// seeded initialisation, and the float64 reference forward and backward passes.
//
// The model (pre-LayerNorm GPT style when layer_norm is on; Vaswani et al. 2017 for attention):
//
//   x₀[t]   = E[token_t] + P[t]                                 embed.token (V, D), embed.position
//   (T, D) for each layer l:
//     a      = LN₁(x) or x                                       layerL.ln1.{gain, bias} (D)
//     for each head h (d_h = D / H):
//       q = a W_Q,  k = a W_K,  v = a W_V                        layerL.headH.W_{Q,K,V} (D, d_h)
//       o_h = softmax(q kᵀ / √d_h, causal) v                     (T, d_h)
//     x      = x + [o_1 … o_H] W_O                               layerL.W_O (D, D)
//     if mlp:
//       m    = LN₂(x) or x                                       layerL.ln2.{gain, bias} (D)
//       x    = x + GELU(m W_in + b_in) W_out + b_out             layerL.mlp.{W_in (D, M), b_in (M),
//                                                                           W_out (M, D), b_out
//                                                                           (D)}
//   f       = LN_f(x) or x                                       final_ln.{gain, bias} (D)
//   logits  = f U                                                unembed (D, V)
//
// Matrices act on row vectors (x W), as in PyTorch's x @ W. LN is y = gain·(x − mean)/√(var + 1e-5)
// + bias with the population variance. GELU is the tanh form 0.5·x·(1 + tanh(√(2/π)(x +
// 0.044715x³))) (smooth everywhere, so finite differences check it). Attention has no biases.
//
// The loss is softmax cross-entropy at the positions whose target is not kNoTarget, averaged over
// those positions in the whole batch: a task puts its answer tokens there (predict token t + 1 from
// positions 0..t), so the prompt is read but not scored.
//
// Every weight lives in one flat float64 vector in layout order; the gradient and the optimiser
// moments use the same layout. The *_reference functions are plain loops in float64, the oracle;
// the *_f32 functions are the fast path with the same contract: float32 compute on a float32 copy
// of the weights, with the matrix products, softmax steps and GELU in the SIMD kernels of the
// build (src/kernels/, kernels::best()), the gradient returned in float64.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/tensor.hpp"

namespace attn::train {

/// Shape of a model. Every size must be ≥ 1; heads must divide d_model.
struct ModelConfig {
  std::size_t vocab = 0;   ///< token ids 0 .. vocab − 1 (V)
  std::size_t seq_len = 0; ///< positions with a learned embedding: the longest sequence (T)
  std::size_t layers = 1;  ///< transformer blocks (L)
  std::size_t heads = 1;   ///< attention heads per layer (H)
  std::size_t d_model = 0; ///< residual width (D); each head has d_head = D / H
  bool mlp = false;        ///< an MLP block after the attention of every layer
  std::size_t d_mlp = 0;   ///< MLP hidden width (M); 0 means 4·D
  bool layer_norm = false; ///< pre-LayerNorm before attention, MLP and the unembedding
};

/// Most weights a model may have: 2^24 (16.8 M). Training keeps four float64 copies (weights,
/// gradient, two AdamW moments) = 32 bytes a weight, so the limit is 512 MiB.
constexpr std::uint64_t kMaxParameters = std::uint64_t(1) << 24;

/// Target value meaning "no loss at this position".
constexpr std::int32_t kNoTarget = -1;

/// One named tensor inside the flat weight vector.
struct ParameterInfo {
  std::string name;       ///< e.g. "embed.token", "layer0.head1.W_Q", "unembed"
  Shape shape;            ///< row-major
  std::size_t offset = 0; ///< first element in the flat vector
  std::size_t size = 0;   ///< element count
  bool decay = false;     ///< AdamW weight decay applies (the matrices, not biases or LN gains)
};

/// Throws ShapeError naming the field for sizes of 0 or heads not dividing d_model, and
/// MemoryError (saying how many weights and bytes it would need) beyond kMaxParameters.
/// `fn` starts the message, e.g. "createTrainer: heads (3) must divide d_model (32)".
void validate_config(const ModelConfig& config, const std::string& fn);

/// The parameter tensors of a model, in layout order:
///   embed.token, embed.position,
///   per layer l: [layerL.ln1.gain, layerL.ln1.bias,] layerL.headH.W_Q, W_K, W_V for each head,
///                layerL.W_O, [layerL.ln2.gain, layerL.ln2.bias,]
///                [layerL.mlp.W_in, layerL.mlp.b_in, layerL.mlp.W_out, layerL.mlp.b_out],
///   [final_ln.gain, final_ln.bias,] unembed.
/// Validates the config.
std::vector<ParameterInfo> parameter_layout(const ModelConfig& config);

/// A model: its config, its layout and its weights (one flat float64 vector).
struct Model {
  ModelConfig config;
  std::vector<ParameterInfo> layout;
  std::vector<double> weights;
  /// Head ablation, (layers · heads) flags in layer-major order: 0 zeroes that head's output o_h
  /// (its attention weights are still computed and reported; its W_Q, W_K, W_V get no gradient).
  /// Empty means every head is on.
  std::vector<std::uint8_t> head_enabled;

  /// Whether head h of layer l contributes (head_enabled above).
  bool head_on(std::size_t layer, std::size_t head) const {
    return head_enabled.empty() || head_enabled[layer * config.heads + head] != 0;
  }

  /// The tensor called `name`; throws ValueError naming it when there is none.
  const ParameterInfo& parameter(const std::string& name) const;
  /// A copy of that tensor's weights with its shape.
  Tensor64 tensor(const std::string& name) const;
};

/// Seeded initialisation, one Rng(seed, stream 0) normal draw per weight in layout order:
/// embeddings, W_Q, W_K, W_V, W_O, W_in, W_out and unembed ~ N(0, 1/fan_in) with fan_in = D
/// (M for W_out); LN gains 1; biases 0. Validates the config.
Model init_model(const ModelConfig& config, std::uint64_t seed);

/// A batch of sequences of one length: tokens and targets are (count, length), row-major.
/// targets[b, t] is the token expected after position t, or kNoTarget.
struct Batch {
  std::size_t count = 0;
  std::size_t length = 0;
  std::vector<std::int32_t> tokens;
  std::vector<std::int32_t> targets;
};

/// Logits of one sequence: tokens (T ≤ seq_len), each in [0, vocab) -> (T, V).
/// When `attention` is given it receives the weights (layers, heads, T, T).
/// Throws ShapeError (empty or longer than seq_len) and ValueError (a token out of range,
/// naming its index and value).
Tensor64 forward_reference(const Model& model, const std::vector<std::int32_t>& tokens,
                           Tensor64* attention = nullptr);

/// Mean cross-entropy over the scored positions of the batch (nats).
/// Throws for a malformed batch (see loss_and_gradient_reference).
double loss_reference(const Model& model, const Batch& batch);

/// The same loss and its gradient with respect to every weight, by the hand-written backward
/// pass; `gradient` is resized to the layout and overwritten.
/// Throws ShapeError (count or length 0, length > seq_len, token/target vectors of the wrong
/// size, no scored position) and ValueError (a token or target out of range, naming [b, t]).
double loss_and_gradient_reference(const Model& model, const Batch& batch,
                                   std::vector<double>& gradient);

/// forward_reference on the float32 path (the same contract and errors; logits and attention
/// weights are float32 values returned in float64 containers).
Tensor64 forward_f32(const Model& model, const std::vector<std::int32_t>& tokens,
                     Tensor64* attention = nullptr);

/// loss_reference on the float32 path (the per-position cross-entropy is summed in float64).
double loss_f32(const Model& model, const Batch& batch);

/// loss_and_gradient_reference on the float32 path: the same loss, layout and errors; the
/// gradient is computed in float32 and returned in float64. Matches the reference gradient within
/// max(1e-4, 2e-5 · s_max) · max |g| per tensor, s_max the largest attention logit
/// (tests/cpp/train_f32_test.cpp says why).
double loss_and_gradient_f32(const Model& model, const Batch& batch, std::vector<double>& gradient);

} // namespace attn::train
