// Internal row kernels of the core. Not part of the public API.
//
// Each hot loop exists per instruction set, named <op>_f32__<isa>, in a file
// named for that instruction set (softmax_scalar.cpp, ...). Callers have
// validated their input: no NaN, no +inf; −inf marks a masked position.
#pragma once

#include <cstddef>

namespace attn::kernels {

/// Pass 1 of softmax: m = max_i x[i]; −inf when every entry is −inf.
float rmax_f32__scalar(const float* x, std::size_t n);

/// Pass 2 of softmax: y[i] = exp((x[i] − m)·s); returns Σ_i y[i].
/// Requires m finite and s ≥ 0 finite, so every exponent is ≤ 0 and nothing overflows.
float raddstoreexpminusmax_f32__scalar(const float* x, std::size_t n, float m, float s, float* y);

/// Pass 3 of softmax: y[i] *= c.
void vscale_f32__scalar(float* y, std::size_t n, float c);

} // namespace attn::kernels
