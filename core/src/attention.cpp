// Scaled dot-product attention (the contract, with shapes: attn/attention.hpp).
//
// For one query row i, four passes (Vaswani et al. 2017, eq. 1):
//   pass 1, scores:       s_ij = q_i · k_j                       (kernel qk)
//   pass 2, scale + mask: x_ij = scale · s_ij + mask_ij, −inf where key j is forbidden
//   pass 3, softmax:      w_ij = softmax_j(x_ij / τ), in three steps: the row max (rmax),
//                         exp and sum (raddstoreexpminusmax), normalise (vscale)
//   pass 4, weighted sum: y_i = Σ_j w_ij v_j                     (kernel pv)
//
// The file reads in that order:
//   1. the contract: masks, Problem (the shapes of one call) and validate();
//   2. the float64 reference: the four passes as plain loops, the oracle of the tests;
//   3. the fast path, checked against the reference (tests/cpp/attention_test.cpp): per batch
//      entry and block of up to 4 query rows, passes 1–2 against K packed in panels of 8 keys,
//      then either
//        two-pass: whole rows (weights or logits asked for, τ = 0 or ∞, huge values): pass 3
//                  on each row, then pass 4; or
//        fused:    tiles of 128 keys with an online softmax (a running max and sum, FlashAttention
//                  style): passes 1–4 per tile, the output divided by the sum once at the end;
//      and attention_scores(), passes 1–2 alone.
#include "attn/attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "attention_internal.hpp"
#include "attn/error.hpp"
#include "attn/softmax.hpp"
#include "require_finite.hpp"
#include "softmax_rows.hpp"

namespace attn {

// ---- 1. The contract --------------------------------------------------------------------------

Mask Mask::causal_mask() {
  Mask m;
  m.kind = Kind::causal;
  return m;
}

Mask Mask::local(std::size_t window, bool causal) {
  Mask m;
  m.kind = Kind::window;
  m.window = window;
  m.causal = causal;
  return m;
}

Mask Mask::boolean(xt::xarray<std::uint8_t> allowed) {
  Mask m;
  m.kind = Kind::boolean;
  m.allowed = std::move(allowed);
  return m;
}

Mask Mask::add(Tensor additive) {
  Mask m;
  m.kind = Kind::additive;
  m.additive = std::move(additive);
  return m;
}

namespace {

constexpr std::size_t kMaxElements = std::size_t{1} << 28; // 1 GiB of float32

// NumPy broadcasting of two shapes; `what` names them in the error.
Shape broadcast_shapes(const char* who, const Shape& a, const Shape& b, const std::string& what) {
  const std::size_t rank = std::max(a.size(), b.size());
  Shape out(rank, 1);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::size_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const std::size_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      throw ShapeError(std::string(who) + ": " + what + " do not broadcast: " + format_shape(a) +
                       " and " + format_shape(b));
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

// Element strides of `shape` (row-major) broadcast, right-aligned, to `target`:
// 0 on axes that `shape` lacks or has as 1.
std::vector<std::size_t> broadcast_strides(const Shape& shape, const Shape& target) {
  std::vector<std::size_t> strides(target.size(), 0);
  std::size_t stride = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    const std::size_t axis = target.size() - (shape.size() - i);
    strides[axis] = shape[i] == 1 ? 0 : stride;
    stride *= shape[i];
  }
  return strides;
}

std::size_t product(const Shape& shape) {
  std::size_t n = 1;
  for (std::size_t d : shape) {
    n *= d;
  }
  return n;
}

// Everything about one call that both the fast path and the reference need.
struct Problem {
  const char* who = "attention"; // the function called, first word of every error
  Shape batch;                   // broadcast leading axes
  std::size_t batches = 1, L = 0, S = 0, E = 0, Ev = 0;
  std::vector<std::size_t> q_strides, k_strides, v_strides; // per batch axis
  std::vector<std::size_t> mask_strides;                    // per axis of batch + (L, S)
  double scale = 1;
  double v_max_abs = 0; // max |v|: decides whether the fused accumulator may overflow
  const Mask* mask = nullptr;
  std::size_t row_offset = 0; // query row i is row i + row_offset of the whole (positional masks)

  Shape with(std::size_t a, std::size_t b) const {
    Shape s = batch;
    s.push_back(a);
    s.push_back(b);
    return s;
  }

  // Offsets of batch entry b in a tensor with the given batch strides.
  std::size_t offset(std::size_t b, const std::vector<std::size_t>& strides) const {
    std::size_t off = 0;
    for (std::size_t axis = batch.size(); axis-- > 0;) {
      off += (b % batch[axis]) * strides[axis];
      b /= batch[axis];
    }
    return off;
  }

  // May query i attend to key j (positional and boolean masks)? Positional masks count the
  // query from row_offset; a boolean mask is indexed by the row of this call.
  bool allowed(std::size_t moff, std::size_t i, std::size_t j) const {
    const std::size_t at = i + row_offset;
    switch (mask->kind) {
    case Mask::Kind::causal:
      return j <= at;
    case Mask::Kind::window:
      return (at > j ? at - j : j - at) <= mask->window && (!mask->causal || j <= at);
    case Mask::Kind::boolean:
      return mask->allowed.data()[moff + i * mask_strides[batch.size()] +
                                  j * mask_strides[batch.size() + 1]] != 0;
    default:
      return true;
    }
  }

  float additive(std::size_t moff, std::size_t i, std::size_t j) const {
    return mask->kind == Mask::Kind::additive
               ? mask->additive.data()[moff + i * mask_strides[batch.size()] +
                                       j * mask_strides[batch.size() + 1]]
               : 0.0f;
  }

  // Keys [lo, hi) that any of query rows [i0, i1) may attend to (positional masks).
  std::pair<std::size_t, std::size_t> key_range(std::size_t i0, std::size_t i1) const {
    i0 += row_offset;
    i1 += row_offset;
    std::size_t lo = 0;
    std::size_t hi = S;
    if (mask->kind == Mask::Kind::causal || (mask->kind == Mask::Kind::window && mask->causal)) {
      hi = std::min(S, i1);
    }
    if (mask->kind == Mask::Kind::window) {
      lo = i0 > mask->window ? i0 - mask->window : 0;
      hi = mask->window >= S ? hi : std::min(hi, i1 + mask->window);
    }
    return {std::min(lo, hi), hi};
  }
};

// Checks q (..., L, E), k (..., S, E) and, when given, v (..., S, Ev) against
// each other and the options. `who` starts every error message: "attention" for
// scaled_dot_product_attention (and its reference), "attention_scores" for
// attention_scores, which has no v (then Ev = 0 and v takes no part in the batch).
Problem validate(const char* who, const Tensor& q, const Tensor& k, const Tensor* v,
                 const AttentionOptions& options) {
  const std::string prefix = std::string(who) + ": ";
  const Shape qs = shape_of(q), ks = shape_of(k), vs = v ? shape_of(*v) : Shape{1, 1};
  const auto need_matrix = [&](const Shape& s, const char* name, const char* form) {
    if (s.size() < 2) {
      throw ShapeError(prefix + name + " must have shape " + form + ", got " + format_shape(s));
    }
  };
  need_matrix(qs, "q", "(..., L, E)");
  need_matrix(ks, "k", "(..., S, E)");
  if (v) {
    need_matrix(vs, "v", "(..., S, Ev)");
  }

  Problem p;
  p.who = who;
  p.L = qs[qs.size() - 2];
  p.E = qs.back();
  p.S = ks[ks.size() - 2];
  p.Ev = v ? vs.back() : 0;
  if (ks.back() != p.E) {
    throw ShapeError(prefix + "q has E = " + std::to_string(p.E) +
                     " but k has E = " + std::to_string(ks.back()) + " (q " + format_shape(qs) +
                     ", k " + format_shape(ks) + ")");
  }
  if (v && vs[vs.size() - 2] != p.S) {
    throw ShapeError(prefix + "k has S = " + std::to_string(p.S) + " keys but v has " +
                     std::to_string(vs[vs.size() - 2]) + " values (k " + format_shape(ks) + ", v " +
                     format_shape(vs) + ")");
  }
  for (const auto& [t, name] : {std::pair{&q, "q"}, std::pair{&k, "k"}, std::pair{v, "v"}}) {
    if (t && t->size() == 0) {
      throw ShapeError(prefix + name + " is empty (shape " + format_shape(shape_of(*t)) + ")");
    }
  }
  const Shape q_lead(qs.begin(), qs.end() - 2), k_lead(ks.begin(), ks.end() - 2),
      v_lead(vs.begin(), vs.end() - 2);
  p.batch = broadcast_shapes(who, q_lead, k_lead, "the batch axes of q and k");
  if (v) {
    p.batch = broadcast_shapes(who, p.batch, v_lead, "the batch axes of q, k and v");
  }
  p.batches = product(p.batch);
  p.q_strides = broadcast_strides(qs, p.with(p.L, p.E));
  p.k_strides = broadcast_strides(ks, p.with(p.S, p.E));
  p.v_strides = v ? broadcast_strides(vs, p.with(p.S, p.Ev)) : std::vector<std::size_t>{};
  for (auto* strides : {&p.q_strides, &p.k_strides, &p.v_strides}) {
    strides->resize(p.batch.size());
  }

  detail::require_finite(q, who, "q");
  detail::require_finite(k, who, "k");
  if (v) {
    detail::require_finite(*v, who, "v");
    for (const float x : *v) {
      p.v_max_abs = std::max(p.v_max_abs, static_cast<double>(std::abs(x)));
    }
  }

  p.scale = options.scale.value_or(1.0 / std::sqrt(static_cast<double>(p.E)));
  if (!std::isfinite(p.scale)) {
    throw ValueError(prefix + "scale must be a finite number, got " + format_number(p.scale));
  }

  p.mask = &options.mask;
  p.row_offset = options.row_offset;
  const Shape full = p.with(p.L, p.S);
  if (options.mask.kind == Mask::Kind::boolean || options.mask.kind == Mask::Kind::additive) {
    const bool boolean = options.mask.kind == Mask::Kind::boolean;
    const Shape ms = boolean ? shape_of(options.mask.allowed) : shape_of(options.mask.additive);
    const char* name = boolean ? "boolean mask" : "additive mask";
    bool fits = ms.size() <= full.size();
    for (std::size_t i = 0; fits && i < ms.size(); ++i) {
      const std::size_t d = ms[ms.size() - 1 - i];
      fits = d == 1 || d == full[full.size() - 1 - i];
    }
    if (!fits) {
      throw ShapeError(prefix + "the " + name + " of shape " + format_shape(ms) +
                       " does not broadcast to (..., L, S) = " + format_shape(full));
    }
    p.mask_strides = broadcast_strides(ms, full);
    if (!boolean) {
      detail::require_finite(options.mask.additive, who, "additive mask", detail::Allow::masked,
                             "use -Infinity to forbid a key");
    }
  }

  // Sizes in double: batches·L·S can exceed size_t in wasm32 (65,536² = 2³²), and a wrapped
  // product would pass the check and name the wrong size.
  const double out_elements =
      static_cast<double>(p.batches) * static_cast<double>(p.L) * static_cast<double>(p.Ev);
  const double weight_elements =
      static_cast<double>(p.batches) * static_cast<double>(p.L) * static_cast<double>(p.S);
  const auto mib = [](double elements) {
    return std::to_string(static_cast<unsigned long long>(elements * 4 / 1048576));
  };
  if (!v) {
    if (weight_elements > static_cast<double>(kMaxElements)) {
      throw MemoryError(prefix + "logits of shape " + format_shape(full) + " need " +
                        mib(weight_elements) + " MiB, more than can be had");
    }
    return p;
  }
  if (out_elements > static_cast<double>(kMaxElements)) {
    throw MemoryError(prefix + "the output " + format_shape(p.with(p.L, p.Ev)) + " needs " +
                      mib(out_elements) + " MiB, more than can be had");
  }
  if ((options.return_weights || options.return_logits) &&
      weight_elements > static_cast<double>(kMaxElements)) {
    throw MemoryError(prefix + "weights of shape " + format_shape(full) + " need " +
                      mib(weight_elements) +
                      " MiB, more than can be had; leave the weights and logits out to run the "
                      "fused kernel, which never holds them");
  }
  return p;
}

} // namespace

// ---- 2. The float64 reference -----------------------------------------------------------------

AttentionResult64 scaled_dot_product_attention_reference(const Tensor& q, const Tensor& k,
                                                         const Tensor& v,
                                                         const AttentionOptions& options) {
  const Problem p = validate("attention", q, k, &v, options);
  const detail::Temperature validated(options.temperature, "attention");
  (void)validated;

  AttentionResult64 result;
  result.output = xt::zeros<double>(p.with(p.L, p.Ev));
  result.weights = Tensor64::from_shape(p.with(p.L, p.S));
  result.logits = Tensor64::from_shape(p.with(p.L, p.S));
  Tensor64 row = Tensor64::from_shape({p.S});
  for (std::size_t b = 0; b < p.batches; ++b) {
    const float* qb = q.data() + p.offset(b, p.q_strides);
    const float* kb = k.data() + p.offset(b, p.k_strides);
    const float* vb = v.data() + p.offset(b, p.v_strides);
    const std::size_t moff = p.mask_strides.empty() ? 0 : p.offset(b, p.mask_strides);
    for (std::size_t i = 0; i < p.L; ++i) {
      for (std::size_t j = 0; j < p.S; ++j) {
        // pass 1, scores: s_ij = Σ_e q_ie k_je
        double dot = 0;
        for (std::size_t e = 0; e < p.E; ++e) {
          dot += double(qb[i * p.E + e]) * double(kb[j * p.E + e]);
        }
        // pass 2, scale + mask: x_ij = scale · s_ij + additive_ij, −inf where forbidden
        row(j) = p.allowed(moff, i, j) ? p.scale * dot + p.additive(moff, i, j)
                                       : -std::numeric_limits<double>::infinity();
      }
      const std::size_t at = (b * p.L + i) * p.S;
      std::copy(row.begin(), row.end(), result.logits.data() + at);
      // pass 3, softmax: w_ij = softmax_j(x_ij / τ) (softmax_reference, float64)
      const Tensor64 w = softmax_reference(row, options.temperature);
      std::copy(w.begin(), w.end(), result.weights.data() + at);
      bool any = false;
      for (std::size_t j = 0; j < p.S; ++j) {
        any = any || row(j) != -std::numeric_limits<double>::infinity();
      }
      result.fully_masked_rows += any ? 0 : 1;
      // pass 4, weighted sum: y_i = Σ_j w_ij v_j
      double* out = result.output.data() + (b * p.L + i) * p.Ev;
      for (std::size_t j = 0; j < p.S; ++j) {
        for (std::size_t c = 0; c < p.Ev; ++c) {
          out[c] += w(j) * double(vb[j * p.Ev + c]);
        }
      }
    }
  }
  return result;
}

// ---- 3. The fast path -------------------------------------------------------------------------

namespace {

constexpr std::size_t kTile = 128; // keys per fused tile
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

[[noreturn]] void throw_logit_overflow(const Problem& p, std::size_t row) {
  throw ValueError(std::string(p.who) + ": the logits of query row " + std::to_string(row) +
                   " overflow float32 (|scale·q·k| beyond 3.4e38); scale q or k down");
}

// scores[r·ld + j] = scale·scores + additive, or −inf where forbidden,
// for query rows i0 + r and keys j0 + j. An allowed logit that is not finite
// (q·k or its scaling overflowed float32, or 0·inf) is an error, not a masked key:
// −inf there may only come from an additive −inf.
void scale_and_mask(const Problem& p, const kernels::KernelSet& ks, std::size_t moff, float* scores,
                    std::size_t ld, std::size_t rows, std::size_t i0, std::size_t j0,
                    std::size_t n) {
  const float scale = static_cast<float>(p.scale);
  for (std::size_t r = 0; r < rows; ++r) {
    float* x = scores + r * ld;
    if (p.mask->kind == Mask::Kind::none) {
      ks.vscale(x, n, scale);
      for (std::size_t j = 0; j < n; ++j) {
        if (!std::isfinite(x[j])) {
          throw_logit_overflow(p, i0 + r);
        }
      }
      continue;
    }
    for (std::size_t j = 0; j < n; ++j) {
      if (!p.allowed(moff, i0 + r, j0 + j)) {
        x[j] = kNegInf;
        continue;
      }
      const float add = p.additive(moff, i0 + r, j0 + j);
      const float logit = x[j] * scale + add;
      if (!std::isfinite(x[j] * scale) || std::isnan(logit) ||
          (std::isinf(logit) && add != kNegInf)) {
        throw_logit_overflow(p, i0 + r);
      }
      x[j] = logit;
    }
  }
}

// Passes 1–2 for query rows [i0, i0 + rows) against keys [j0, j0 + n) of one batch entry:
//   out[r·ld + j] = scale · q_{i0+r} · k_{j0+j} + mask,  −inf where forbidden
// qb is the entry's q (L, E), packed its K packed by pack_keys, moff its mask offset.
void logits_block(const Problem& p, const kernels::KernelSet& ks, const float* qb,
                  const float* packed, std::size_t moff, std::size_t i0, std::size_t rows,
                  std::size_t j0, std::size_t n, float* out, std::size_t ld) {
  ks.qk(qb + i0 * p.E, p.E, rows, packed + j0 * p.E, n, p.E, out, ld);
  scale_and_mask(p, ks, moff, out, ld, rows, i0, j0, n);
}

AttentionResult run(const Problem& p, const Tensor& q, const Tensor& k, const Tensor& v,
                    const AttentionOptions& options, const detail::Temperature& t,
                    const kernels::KernelSet& ks) {
  AttentionResult result;
  result.output = xt::zeros<float>(p.with(p.L, p.Ev));
  const Shape none = {0};
  result.weights = Tensor::from_shape(options.return_weights ? p.with(p.L, p.S) : none);
  result.logits = Tensor::from_shape(options.return_logits ? p.with(p.L, p.S) : none);
  // The fused path accumulates Σ_j exp(x_j − m)·v_j, each factor ≤ 1, before
  // dividing by the sum: up to S·max|v|, which can overflow float32 for values near
  // its limit even though the output (a convex combination) cannot. Such values
  // take the two-pass path, which normalises the weights first.
  const bool huge_values =
      p.v_max_abs * static_cast<double>(p.S) > 0.5 * std::numeric_limits<float>::max();
  const bool two_pass = options.return_weights || options.return_logits ||
                        t.kind != detail::Temperature::Kind::scaled || huge_values;
  const std::size_t ld = two_pass ? p.S : kTile;
  std::vector<float> packed(kernels::padded_keys(p.S) * p.E);
  std::vector<float> scores(kernels::kBlockRows * ld);
  // What the call allocates besides its inputs and result: measured from the buffers themselves.
  result.scratch_bytes = (packed.capacity() + scores.capacity()) * sizeof(float);

  for (std::size_t b = 0; b < p.batches; ++b) {
    const float* qb = q.data() + p.offset(b, p.q_strides);
    const float* vb = v.data() + p.offset(b, p.v_strides);
    const std::size_t moff = p.mask_strides.empty() ? 0 : p.offset(b, p.mask_strides);
    kernels::pack_keys(k.data() + p.offset(b, p.k_strides), p.S, p.E, p.E, packed.data());

    for (std::size_t i0 = 0; i0 < p.L; i0 += kernels::kBlockRows) {
      const std::size_t rows = std::min(kernels::kBlockRows, p.L - i0);
      float* out = result.output.data() + (b * p.L + i0) * p.Ev;
      if (two_pass) {
        // Two-pass: passes 1–2 on whole rows, pass 3 row by row, then pass 4.
        logits_block(p, ks, qb, packed.data(), moff, i0, rows, 0, p.S, scores.data(), ld);
        for (std::size_t r = 0; r < rows; ++r) {
          float* x = scores.data() + r * ld;
          const std::size_t at = (b * p.L + i0 + r) * p.S;
          if (options.return_logits) {
            std::copy(x, x + p.S, result.logits.data() + at);
          }
          if (!detail::softmax_row(ks, x, x, p.S, t)) {
            ++result.fully_masked_rows;
          }
          if (options.return_weights) {
            std::copy(x, x + p.S, result.weights.data() + at);
          }
        }
        ks.pv(scores.data(), ld, rows, vb, p.Ev, p.S, p.Ev, out, p.Ev); // pass 4
        continue;
      }
      // Fused: passes 1–4 per tile of keys with an online softmax; m and l are each row's
      // running max and sum, `out` the running Σ_j exp((x_j − m)/τ)·v_j.
      float m[kernels::kBlockRows], l[kernels::kBlockRows];
      std::fill(m, m + rows, kNegInf);
      std::fill(l, l + rows, 0.0f);
      auto [lo, hi] = p.key_range(i0, i0 + rows);
      lo = lo / kernels::kPanel * kernels::kPanel;
      for (std::size_t j0 = lo; j0 < hi; j0 += kTile) {
        const std::size_t n = std::min(kTile, hi - j0);
        logits_block(p, ks, qb, packed.data(), moff, i0, rows, j0, n, scores.data(), ld);
        // pass 3 on the tile: step 1 (max) and step 2 (exp and sum) against the running
        // max, rescaling what was summed so far when the max grows; step 3 waits for the end.
        for (std::size_t r = 0; r < rows; ++r) {
          float* x = scores.data() + r * ld;
          const float tile_max = ks.rmax(x, n);
          if (tile_max == kNegInf) {
            std::fill(x, x + n, 0.0f); // nothing allowed in this tile
            continue;
          }
          const float m_new = std::max(m[r], tile_max);
          const float sum = ks.raddstoreexpminusmax(x, n, m_new, t.inv, x);
          if (m[r] != kNegInf && m[r] != m_new) {
            const float correction = std::exp((m[r] - m_new) * t.inv);
            ks.vscale(out + r * p.Ev, p.Ev, correction);
            l[r] *= correction;
          }
          l[r] += sum;
          m[r] = m_new;
        }
        ks.pv(scores.data(), ld, rows, vb + j0 * p.Ev, p.Ev, n, p.Ev, out, p.Ev); // pass 4
      }
      // Step 3 of the softmax, once per row on the output: divide by the sum.
      for (std::size_t r = 0; r < rows; ++r) {
        if (l[r] == 0.0f) {
          ++result.fully_masked_rows; // the output row stays zero
        } else {
          ks.vscale(out + r * p.Ev, p.Ev, 1.0f / l[r]);
        }
      }
    }
  }
  return result;
}

} // namespace

namespace detail {

AttentionResult attention_with(const kernels::KernelSet& ks, const Tensor& q, const Tensor& k,
                               const Tensor& v, const AttentionOptions& options) {
  const Problem p = validate("attention", q, k, &v, options);
  const Temperature t(options.temperature, "attention");
  return run(p, q, k, v, options, t, ks);
}

Tensor attention_scores_with(const kernels::KernelSet& ks, const Tensor& q, const Tensor& k,
                             const AttentionOptions& options) {
  const Problem p = validate("attention_scores", q, k, nullptr, options);
  Tensor logits = Tensor::from_shape(p.with(p.L, p.S));
  std::vector<float> packed(kernels::padded_keys(p.S) * p.E);
  for (std::size_t b = 0; b < p.batches; ++b) {
    const float* qb = q.data() + p.offset(b, p.q_strides);
    const std::size_t moff = p.mask_strides.empty() ? 0 : p.offset(b, p.mask_strides);
    kernels::pack_keys(k.data() + p.offset(b, p.k_strides), p.S, p.E, p.E, packed.data());
    for (std::size_t i0 = 0; i0 < p.L; i0 += kernels::kBlockRows) {
      const std::size_t rows = std::min(kernels::kBlockRows, p.L - i0);
      logits_block(p, ks, qb, packed.data(), moff, i0, rows, 0, p.S,
                   logits.data() + (b * p.L + i0) * p.S, p.S);
    }
  }
  return logits;
}

} // namespace detail

Tensor attention_scores(const Tensor& q, const Tensor& k, const AttentionOptions& options) {
  return detail::attention_scores_with(kernels::best(), q, k, options);
}

AttentionResult scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v,
                                             const AttentionOptions& options) {
  return detail::attention_with(kernels::best(), q, k, v, options);
}

} // namespace attn
