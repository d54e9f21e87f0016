// The copying probe (attn/train/text.hpp): accuracy on a random string written twice, and each
// head's previous-token and prefix-matching scores, on the float32 path with one batched pass.
#include <string>
#include <vector>

#include "../message.hpp"
#include "attn/error.hpp"
#include "attn/train/text.hpp"
#include "model_f32.hpp"

namespace attn::train {
namespace {

struct ProbeRun {
  double first = 0, second = 0;         // accuracies
  std::vector<double> previous, prefix; // per head (layer-major)
};

// One batched forward pass over the probe strings (count, 2·length): argmax accuracies and the
// heads' mean weights over the second copy's queries.
ProbeRun run_probe(const Model& model, const std::vector<std::int32_t>& tokens, std::size_t count,
                   std::size_t length, detail::F32Workspace& ws) {
  const ModelConfig& c = model.config;
  const std::size_t T = 2 * length, V = c.vocab, heads = c.layers * c.heads;
  const kernels::KernelSet& ks = kernels::best();
  detail::load_weights_f32(model, ws);
  detail::forward_batch_f32(ks, model, tokens.data(), count, T, ws);
  ProbeRun run;
  run.previous.assign(heads, 0.0);
  run.prefix.assign(heads, 0.0);
  const auto argmax = [&](std::size_t row) {
    return detail::argmax_row(ws.logits.data() + row * V, V);
  };
  std::size_t right1 = 0, right2 = 0;
  for (std::size_t b = 0; b < count; ++b) {
    const std::int32_t* s = tokens.data() + b * T;
    for (std::size_t i = 0; i + 1 < length; ++i) {
      right1 += argmax(b * T + i) == s[i + 1];
      right2 += argmax(b * T + length + i) == s[length + i + 1];
      const std::size_t query = length + i;
      for (std::size_t l = 0; l < c.layers; ++l) {
        for (std::size_t h = 0; h < c.heads; ++h) {
          const float* row = ws.layers[l].p.data() + ((b * c.heads + h) * T + query) * T;
          run.previous[l * c.heads + h] += row[query - 1];
          run.prefix[l * c.heads + h] += row[i + 1];
        }
      }
    }
  }
  const double n = static_cast<double>(count * (length - 1));
  run.first = static_cast<double>(right1) / n;
  run.second = static_cast<double>(right2) / n;
  for (std::size_t k = 0; k < heads; ++k) {
    run.previous[k] /= n;
    run.prefix[k] /= n;
  }
  return run;
}

} // namespace

CopyingProbe copying_probe(const Model& model, const std::vector<std::int32_t>& symbols,
                           std::size_t length, std::size_t count, std::uint64_t seed) {
  const ModelConfig& c = model.config;
  const std::string fn = "copyingProbe";
  if (length < 2 || 2 * length > c.seq_len) {
    fail<ShapeError>({fn, ": strings of ", length, " symbols written twice need 4..", c.seq_len,
                      " positions; the model reads ", c.seq_len});
  }
  if (count == 0 || symbols.empty()) {
    fail<ShapeError>(
        {fn, ": no strings to probe (count ", count, ", ", symbols.size(), " symbols)"});
  }
  for (std::size_t i = 0; i < symbols.size(); ++i) {
    if (symbols[i] < 0 || static_cast<std::size_t>(symbols[i]) >= c.vocab) {
      fail<ValueError>({fn, ": symbols[", i, "] is ", symbols[i], "; ids are 0..", c.vocab - 1});
    }
  }
  detail::validate_head_mask(model, fn);
  // the strings: `length` uniform symbols, then the same again
  Rng rng(seed, 0);
  std::vector<std::int32_t> tokens(count * 2 * length);
  for (std::size_t b = 0; b < count; ++b) {
    std::int32_t* s = tokens.data() + b * 2 * length;
    for (std::size_t i = 0; i < length; ++i) {
      s[i] = s[length + i] = symbols[rng.below(static_cast<std::uint32_t>(symbols.size()))];
    }
  }
  detail::F32Workspace ws;
  const ProbeRun run = run_probe(model, tokens, count, length, ws);
  CopyingProbe out;
  out.first_copy_accuracy = run.first;
  out.second_copy_accuracy = run.second;
  out.previous_token = run.previous;
  out.prefix_matching = run.prefix;
  // knock out every previous-token head of the first layer, on top of the model's own mask
  Model knocked = model;
  if (knocked.head_enabled.empty()) {
    knocked.head_enabled.assign(c.layers * c.heads, 1);
  }
  for (std::size_t k = c.heads; k < c.layers * c.heads; ++k) {
    out.induction_heads += run.prefix[k] >= kInductionHead;
  }
  for (std::size_t h = 0; h < c.heads; ++h) {
    if (run.previous[h] >= kPreviousTokenHead) {
      knocked.head_enabled[h] = 0;
      ++out.previous_token_heads;
    }
  }
  out.knocked_out_accuracy = out.previous_token_heads == 0
                                 ? run.second
                                 : run_probe(knocked, tokens, count, length, ws).second;
  return out;
}

} // namespace attn::train
