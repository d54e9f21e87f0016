// Internal to the training core (not public API): the float32 forward and backward passes over a
// whole batch, on a chosen kernel set, with their scratch buffers. The public entry points
// (loss_and_gradient_f32, loss_f32, forward_f32 in attn/train/model.hpp) run these on
// kernels::best() with a fresh workspace; the Trainer keeps one workspace for its lifetime, so a
// step allocates nothing once the buffers have grown to the batch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../kernels/kernels.hpp"
#include "attn/train/model.hpp"
#include "model_internal.hpp"

namespace attn::train::detail {

/// What a pre-LayerNorm keeps for N rows: y (N, D), the input of the block after it (a copy of x
/// without LayerNorm), and with LayerNorm x̂ (N, D) and 1/σ (N) for the backward pass.
struct NormBuffers {
  std::vector<float> y, xhat, rstd;
};

/// The activations of one layer for N = count·T rows (row r = b·T + t).
struct LayerBuffers {
  NormBuffers ln1;             ///< a = LN₁(x) or x: the attention input
  std::vector<float> qkv;      ///< (N, 3D): [q heads | k heads | v heads], head h at h·d_h
  std::vector<float> p;        ///< attention weights (count, H, T, T), 0 above the diagonal
  std::vector<float> o;        ///< (N, D) heads side by side (0 for an ablated head)
  NormBuffers ln2;             ///< m = LN₂(x) or x: the MLP input
  std::vector<float> h, g, th; ///< (N, M) pre-activation, GELU, tanh u
};

/// Everything the float32 passes write: the float32 copy of the weights, the activations, the
/// float32 gradient and the backward pass's scratch. Buffers only grow (std::vector::resize keeps
/// capacity), so repeated calls with one batch shape allocate nothing.
struct F32Workspace {
  // weights: `w` in layout order; W_Q, W_K, W_V of every head of layer l packed side by side in
  // wqkv[l] (D, 3D) so the projections of a layer are one product
  std::vector<float> w;
  std::vector<std::vector<float>> wqkv;
  // the transposes for the backward pass's dx = dy Wᵀ as plain products: Wᵀ of unembed, W_O,
  // W_in, W_out at W's offset in wt (the rest of wt unused), and wqkvT[l] = wqkv[l]ᵀ (3D, D)
  std::vector<float> wt;
  std::vector<std::vector<float>> wqkvT;
  Offsets off;        ///< where each tensor starts in w (offsets_of of `config`)
  ModelConfig config; ///< the model shape `off` belongs to
  bool has_offsets = false;
  // forward, for count sequences of T tokens
  std::size_t count = 0, T = 0;
  std::vector<LayerBuffers> layers;
  std::vector<float> x;      ///< (N, D) the residual stream
  NormBuffers lnf;           ///< f = LN_f(x) (unused without LN: f is x itself)
  std::vector<float> logits; ///< (N, V)
  // backward
  std::vector<float> grad;              ///< layout order, float32
  std::vector<std::vector<float>> gqkv; ///< per layer (D, 3D)
  std::vector<float> dlogits;           ///< (N, V)
  std::vector<float> dx, dy, dqkv, dh;  ///< (N, D), (N, D), (N, 3D), (N, M)
  std::vector<float> dp;                ///< (T, T)
  std::vector<float> ce;                ///< (V) one row's exp in the cross-entropy
  std::vector<std::int32_t> tokens;     ///< greedy decoding's sequences
};

/// Converts model.weights to float32 in ws.w and ws.wqkv (call after every weight change).
void load_weights_f32(const Model& model, F32Workspace& ws);

/// Forward pass of `count` sequences of T tokens (row-major, already validated) with the weights
/// (and offsets) that load_weights_f32 left in ws: fills ws.logits (count·T, V), the activations
/// and the attention weights (ws.layers[l].p).
void forward_batch_f32(const kernels::KernelSet& ks, const Model& model, const std::int32_t* tokens,
                       std::size_t count, std::size_t T, F32Workspace& ws);

/// Σ over the rows r < N with targets[r] ≠ kNoTarget of the cross-entropy log Σ exp(z) − z_target
/// of logits (N, V), in float64. With `dlogits` (N, V), also writes (softmax(z) − onehot) · weight
/// there (0 at the rows without a target).
double cross_entropy_f32(const kernels::KernelSet& ks, const float* logits, std::size_t V,
                         const std::int32_t* targets, std::size_t N, double weight, float* dlogits,
                         F32Workspace& ws);

/// Greedy decoding of `count` inputs (count, P) at once with the weights in ws: A forward passes,
/// the a-th over the P + a tokens input ++ answer[0 .. a − 1] of every sequence, each appending
/// the argmax of the first `choices` logits of the last position (lowest id on ties) to
/// answers (count, A). A sequence's answer does not depend on the others in the batch (the kernels
/// compute each row alone), so this equals decoding each input by itself. ws.layers[l].p holds
/// the attention weights of the last pass, (count, H, P + A − 1, P + A − 1).
void greedy_decode_f32(const kernels::KernelSet& ks, const Model& model, const std::int32_t* inputs,
                       std::size_t count, std::size_t P, std::size_t A, std::size_t choices,
                       std::int32_t* answers, F32Workspace& ws);

/// loss_and_gradient_reference's contract on the float32 path (same layout, loss, head ablation
/// and errors, `fn` starting them): converts the weights, runs forward and, when `gradient` is
/// given, backward; the gradient comes back in float64, in layout order.
double loss_and_gradient_f32(const kernels::KernelSet& ks, const Model& model, const Batch& batch,
                             std::vector<double>* gradient, F32Workspace& ws,
                             const std::string& fn);

/// One micro-batch of a data-parallel step (trainer.hpp, kMicroBatchSize), with the weights that
/// load_weights_f32 left in ws: forward and backward over `batch` (validated, `fn` starting the
/// errors), its cross-entropy summed over its answer tokens and multiplied by `weight` (1 / the
/// answer tokens of the whole step). Writes that weighted loss's float32 gradient to `gradient`
/// (layout order) and returns the weighted loss.
double part_gradient_f32(const kernels::KernelSet& ks, const Model& model, const Batch& batch,
                         double weight, std::vector<float>& gradient, F32Workspace& ws,
                         const std::string& fn);

/// forward_reference's contract on the float32 path (errors start with "forward").
Tensor64 forward_f32(const kernels::KernelSet& ks, const Model& model,
                     const std::vector<std::int32_t>& tokens, Tensor64* attention,
                     F32Workspace& ws);

} // namespace attn::train::detail
