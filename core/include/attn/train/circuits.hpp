// attn/train/circuits.hpp — a head's circuits over the vocabulary, read off the weights of an
// attention-only model (no MLP, no LayerNorm), after Elhage et al. 2021, "A Mathematical Framework
// for Transformer Circuits". E is embed.token (V, D), U unembed (D, V); head h of layer l has
// W_Q, W_K, W_V (D, d_h) and its d_h rows W_O^h of layer l's W_O (D, D).
//
//   OV circuit  (V, V) = E W_V W_O^h U: row a is what attending to a token a adds to the logits
//               (a diagonal that stands out: the head copies what it attends to).
//   QK circuit  through a source head s of layer 0 (K-composition), (V, V):
//               (E W_Q) (E W_V^s W_O^s W_K)ᵀ / √d_h: row a scores the keys whose residual holds
//               what head s wrote when it read b. With s a previous-token head, entry [a, b] is how
//               much a query token a looks for a position that follows a b (an induction head's
//               diagonal).
#pragma once

#include <cstddef>

#include "attn/tensor.hpp"
#include "attn/train/model.hpp"

namespace attn::train {

/// The OV circuit of head `head` of layer `layer` (above). Throws ShapeError for an index out of
/// range and ValueError for a model with an MLP or LayerNorm (its circuits are not these products).
Tensor64 ov_circuit(const Model& model, std::size_t layer, std::size_t head);

/// The QK circuit of head `head` of layer `layer` (≥ 1) through head `source` of layer 0 (above).
/// Throws as ov_circuit does, and ShapeError for layer 0 (nothing before it to compose with).
Tensor64 qk_circuit(const Model& model, std::size_t layer, std::size_t head, std::size_t source);

} // namespace attn::train
