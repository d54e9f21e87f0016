// attn/heads.hpp — reshaping between one model dimension and h attention heads.
//
// The model dimension h·d is split into h heads of d features each (Vaswani et
// al. 2017, §3.2.2); every head attends on its own, then the heads are joined.
#pragma once

#include <cstddef>

#include "attn/tensor.hpp"

namespace attn {

/// x (B, T, h·d) -> (B, h, T, d): out[b, i, t, c] = x[b, t, i·d + c].
/// Throws ShapeError when x is not rank 3, is empty, heads is 0, or the last axis
/// is not divisible by heads.
Tensor split_heads(const Tensor& x, std::size_t heads);

/// x (B, h, T, d) -> (B, T, h·d), the inverse of split_heads.
/// Throws ShapeError when x is not rank 4 or is empty.
Tensor merge_heads(const Tensor& x);

} // namespace attn
