// AdamW on a flat float64 weight vector (see attn/train/adamw.hpp).
#include "attn/train/adamw.hpp"

#include <cmath>
#include <utility>

#include "attn/error.hpp"
#include "attn/tensor.hpp"

namespace attn::train {
namespace {

void require(bool ok, const std::string& fn, const char* name, double value, const char* domain) {
  if (!ok) {
    throw ValueError(fn + ": " + name + " is " + format_number(value) + "; it must be " + domain);
  }
}

} // namespace

void validate_adamw(const AdamWOptions& o, const std::string& fn) {
  require(std::isfinite(o.learning_rate) && o.learning_rate >= 0, fn, "learningRate",
          o.learning_rate, "finite and >= 0");
  require(o.beta1 >= 0 && o.beta1 < 1, fn, "beta1", o.beta1, "in [0, 1)");
  require(o.beta2 >= 0 && o.beta2 < 1, fn, "beta2", o.beta2, "in [0, 1)");
  require(std::isfinite(o.eps) && o.eps > 0, fn, "eps", o.eps, "finite and > 0");
  require(std::isfinite(o.weight_decay) && o.weight_decay >= 0, fn, "weightDecay", o.weight_decay,
          "finite and >= 0");
}

AdamW::AdamW(std::size_t size, const AdamWOptions& options)
    : options_(options), m_(size, 0.0), v_(size, 0.0) {
  validate_adamw(options, "AdamW");
}

AdamW::AdamW(const AdamWOptions& options, std::uint64_t steps, std::vector<double> m,
             std::vector<double> v, const std::string& fn)
    : options_(options), t_(steps), m_(std::move(m)), v_(std::move(v)) {
  validate_adamw(options, fn);
  if (m_.size() != v_.size()) {
    throw ShapeError(fn + ": the moments have " + std::to_string(m_.size()) + " and " +
                     std::to_string(v_.size()) + " entries; they must match");
  }
  for (std::size_t i = 0; i < m_.size(); ++i) {
    if (!std::isfinite(m_[i])) {
      throw ValueError(fn + ": m[" + std::to_string(i) + "] is " + format_number(m_[i]) +
                       "; moments must be finite");
    }
    if (!std::isfinite(v_[i]) || v_[i] < 0) {
      throw ValueError(fn + ": v[" + std::to_string(i) + "] is " + format_number(v_[i]) +
                       "; second moments must be finite and >= 0");
    }
  }
}

void AdamW::step(std::vector<double>& weights, const std::vector<double>& gradient,
                 const std::vector<std::uint8_t>& decay) {
  check_sizes(weights.size(), gradient.size(), decay.size());
  update(weights, decay, [&](std::size_t i) { return gradient[i]; });
}

void AdamW::step_sum(std::vector<double>& weights,
                     const std::vector<const std::vector<float>*>& parts,
                     const std::vector<std::uint8_t>& decay) {
  if (parts.empty()) {
    throw ShapeError("AdamW::step_sum: no gradient parts");
  }
  for (const std::vector<float>* part : parts) {
    check_sizes(weights.size(), part->size(), decay.size());
  }
  const std::size_t k = parts.size();
  const std::vector<float>* const* p = parts.data();
  // the float64 sum of the parts, part 0 first: the additions summing them into a vector would do
  update(weights, decay, [&](std::size_t i) {
    double g = static_cast<double>((*p[0])[i]);
    for (std::size_t j = 1; j < k; ++j) {
      g += static_cast<double>((*p[j])[i]);
    }
    return g;
  });
}

void AdamW::check_sizes(std::size_t weights, std::size_t gradient, std::size_t decay) const {
  const std::size_t n = m_.size();
  if (weights != n || gradient != n || decay != n) {
    throw ShapeError("AdamW::step: weights, gradient and decay must have " + std::to_string(n) +
                     " entries, got " + std::to_string(weights) + ", " + std::to_string(gradient) +
                     " and " + std::to_string(decay));
  }
}

template <typename Gradient>
void AdamW::update(std::vector<double>& weights, const std::vector<std::uint8_t>& decay,
                   Gradient gradient) {
  const std::size_t n = m_.size();
  ++t_;
  const double lr = options_.learning_rate;
  const double b1 = options_.beta1, b2 = options_.beta2;
  const double correction1 = 1.0 - std::pow(b1, static_cast<double>(t_));
  const double correction2 = 1.0 - std::pow(b2, static_cast<double>(t_));
  const double shrink = 1.0 - lr * options_.weight_decay;
  for (std::size_t i = 0; i < n; ++i) {
    const double g = gradient(i);
    m_[i] = b1 * m_[i] + (1.0 - b1) * g;
    v_[i] = b2 * v_[i] + (1.0 - b2) * g * g;
    const double m_hat = m_[i] / correction1;
    const double v_hat = v_[i] / correction2;
    // w − lr·λ·w where decay[i] (times 1, exactly w, elsewhere): no branch, so the loop vectorises
    weights[i] *= decay[i] ? shrink : 1.0;
    weights[i] -= lr * m_hat / (std::sqrt(v_hat) + options_.eps);
  }
}

} // namespace attn::train
