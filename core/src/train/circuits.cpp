// A head's OV and QK circuits over the vocabulary (attn/train/circuits.hpp), in float64 from the
// model's weights.
#include "attn/train/circuits.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "../message.hpp"
#include "attn/error.hpp"
#include "model_internal.hpp"

namespace attn::train {
namespace {

// C (n, m) = A (n, k) · B (k, m), B's rows `stride` apart (a block of a wider matrix)
std::vector<double> product(const double* A, const double* B, std::size_t n, std::size_t k,
                            std::size_t m, std::size_t stride) {
  std::vector<double> C(n * m, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t p = 0; p < k; ++p) {
      for (std::size_t j = 0; j < m; ++j) {
        C[i * m + j] += A[i * k + p] * B[p * stride + j];
      }
    }
  }
  return C;
}

void check(const Model& model, std::size_t layer, std::size_t head, const char* fn) {
  const ModelConfig& c = model.config;
  if (c.mlp || c.layer_norm) {
    fail<ValueError>({fn, ": circuits are read off attention-only models; this one has ",
                      c.mlp ? "an MLP" : "LayerNorm"});
  }
  if (layer >= c.layers) {
    fail<ShapeError>(
        {fn, ": layer ", layer, " is out of range; the model has layers 0..", c.layers - 1});
  }
  if (head >= c.heads) {
    fail<ShapeError>(
        {fn, ": head ", head, " is out of range; each layer has heads 0..", c.heads - 1});
  }
}

// E W_V^h W_O^h (V, D): what head h of `layer` writes to the residual when it reads a token.
std::vector<double> written(const Model& model, const detail::Offsets& off, std::size_t layer,
                            std::size_t head) {
  const ModelConfig& c = model.config;
  const std::size_t V = c.vocab, D = c.d_model, dh = D / c.heads;
  const double* w = model.weights.data();
  const std::vector<double> ev =
      product(w + off.token, w + off.layers[layer].W_V[head], V, D, dh, dh);
  return product(ev.data(), w + off.layers[layer].W_O + head * dh * D, V, dh, D, D);
}

Tensor64 as_tensor(const std::vector<double>& values, std::size_t V) {
  Tensor64 out = Tensor64::from_shape({V, V});
  std::copy(values.begin(), values.end(), out.data());
  return out;
}

} // namespace

Tensor64 ov_circuit(const Model& model, std::size_t layer, std::size_t head) {
  check(model, layer, head, "ovCircuit");
  const ModelConfig& c = model.config;
  const detail::Offsets off = detail::offsets_of(model);
  const std::vector<double> out = written(model, off, layer, head);
  return as_tensor(
      product(out.data(), model.weights.data() + off.unembed, c.vocab, c.d_model, c.vocab, c.vocab),
      c.vocab);
}

Tensor64 qk_circuit(const Model& model, std::size_t layer, std::size_t head, std::size_t source) {
  check(model, layer, head, "qkCircuit");
  check(model, 0, source, "qkCircuit");
  if (layer == 0) {
    throw ShapeError("qkCircuit: layer 0 has no earlier head to compose with; give layer 1..");
  }
  const ModelConfig& c = model.config;
  const std::size_t V = c.vocab, D = c.d_model, dh = D / c.heads;
  const detail::Offsets off = detail::offsets_of(model);
  const double* w = model.weights.data();
  const std::vector<double> q =
      product(w + off.token, w + off.layers[layer].W_Q[head], V, D, dh, dh);
  const std::vector<double> src = written(model, off, 0, source);
  const std::vector<double> k = product(src.data(), w + off.layers[layer].W_K[head], V, D, dh, dh);
  const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
  std::vector<double> out(V * V, 0.0);
  for (std::size_t a = 0; a < V; ++a) {
    for (std::size_t b = 0; b < V; ++b) {
      double s = 0;
      for (std::size_t d = 0; d < dh; ++d) {
        s += q[a * dh + d] * k[b * dh + d];
      }
      out[a * V + b] = s * scale;
    }
  }
  return as_tensor(out, V);
}

} // namespace attn::train
