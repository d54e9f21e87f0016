// attn/train/adamw.hpp — the AdamW optimiser (Loshchilov & Hutter 2019, "Decoupled Weight Decay
// Regularization"; Adam: Kingma & Ba 2015), on a flat float64 weight vector.
//
// Step t (counting from 1), for every weight w with gradient g:
//   m ← β₁·m + (1 − β₁)·g            v ← β₂·v + (1 − β₂)·g²
//   m̂ = m / (1 − β₁ᵗ)                 v̂ = v / (1 − β₂ᵗ)                 (bias correction)
//   w ← w − lr·λ·w  (decay weights only)   then   w ← w − lr · m̂ / (√v̂ + ε)
// The decay is decoupled: it shrinks the weight directly and never enters m or v. This is
// PyTorch's torch.optim.AdamW in that order (decay first, then the Adam update).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attn::train {

struct AdamWOptions {
  double learning_rate = 1e-3; ///< lr: finite and ≥ 0
  double beta1 = 0.9;          ///< β₁ in [0, 1)
  double beta2 = 0.999;        ///< β₂ in [0, 1)
  double eps = 1e-8;           ///< ε: finite and > 0
  double weight_decay = 0.01;  ///< λ: finite and ≥ 0
};

/// Throws ValueError naming the option and its value when one is outside its domain.
/// `fn` starts the message, e.g. "createTrainer: learningRate is -0.1; it must be finite and >= 0".
void validate_adamw(const AdamWOptions& options, const std::string& fn);

/// Optimiser state for `size` weights: both moments start at 0, the step count at 0.
class AdamW {
public:
  /// Validates the options (fn "AdamW").
  AdamW(std::size_t size, const AdamWOptions& options);

  /// Resumes a saved optimiser (steps() and both moments as they were): continues exactly.
  /// Throws ShapeError (m and v of different sizes) or ValueError (a moment not finite, a
  /// second moment < 0, naming "m[i]" or "v[i]"), with `fn` starting the message.
  AdamW(const AdamWOptions& options, std::uint64_t steps, std::vector<double> m,
        std::vector<double> v, const std::string& fn = "AdamW");

  /// One step, as at the top of this file. weights, gradient and decay have `size` entries;
  /// decay[i] != 0 marks the weights that are decayed. Throws ShapeError on a size mismatch.
  void step(std::vector<double>& weights, const std::vector<double>& gradient,
            const std::vector<std::uint8_t>& decay);

  /// step() on the float64 sum of float32 gradient parts added in order, parts[0] first: for
  /// each weight ((g₀ + g₁) + g₂) + …, bitwise what summing the parts into a float64 vector one
  /// after the other and step()ping on it gives, without the vector and its passes over memory.
  /// Throws ShapeError for no parts or a part of the wrong size.
  void step_sum(std::vector<double>& weights, const std::vector<const std::vector<float>*>& parts,
                const std::vector<std::uint8_t>& decay);

  const AdamWOptions& options() const {
    return options_;
  }
  std::uint64_t steps() const {
    return t_;
  }
  const std::vector<double>& first_moment() const {
    return m_;
  }
  const std::vector<double>& second_moment() const {
    return v_;
  }

private:
  void check_sizes(std::size_t weights, std::size_t gradient, std::size_t decay) const;
  template <typename Gradient>
  void update(std::vector<double>& weights, const std::vector<std::uint8_t>& decay,
              Gradient gradient);

  AdamWOptions options_;
  std::uint64_t t_ = 0;
  std::vector<double> m_;
  std::vector<double> v_;
};

} // namespace attn::train
