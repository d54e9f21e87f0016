// Internal: attention with a chosen kernel set (the tests run every set).
#pragma once

#include "attn/attention.hpp"
#include "kernels/kernels.hpp"

namespace attn::detail {

/// scaled_dot_product_attention() computed with kernel set `ks`.
AttentionResult attention_with(const kernels::KernelSet& ks, const Tensor& q, const Tensor& k,
                               const Tensor& v, const AttentionOptions& options);

/// attention_scores() computed with kernel set `ks`.
Tensor attention_scores_with(const kernels::KernelSet& ks, const Tensor& q, const Tensor& k,
                             const AttentionOptions& options);

} // namespace attn::detail
