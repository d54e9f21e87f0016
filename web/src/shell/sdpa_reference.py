# PyTorch 2 has F.scaled_dot_product_attention; on PyTorch 1.13 this cell supplies it, as PyTorch 2 documents it.
import math

import torch
import torch.nn.functional as F


def _scaled_dot_product_attention(
    query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False
):
    # attn_mask: boolean (True = may attend) or a float mask added to the scores, broadcastable to
    # (..., L, S). is_causal: row i attends to keys 0..i. scale: 1/sqrt(E) by default. A row whose
    # keys are all masked gives NaN, as in the documented reference.
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    attn_bias = torch.zeros(L, S, dtype=query.dtype, device=query.device)
    if is_causal:
        allowed = torch.ones(L, S, dtype=torch.bool, device=query.device).tril(diagonal=0)
        attn_bias = attn_bias.masked_fill(allowed.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            attn_bias = attn_bias.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            attn_bias = attn_mask + attn_bias
    if enable_gqa:
        key = key.repeat_interleave(query.size(-3) // key.size(-3), -3)
        value = value.repeat_interleave(query.size(-3) // value.size(-3), -3)
    attn_weight = torch.softmax(query @ key.transpose(-2, -1) * scale_factor + attn_bias, dim=-1)
    attn_weight = torch.dropout(attn_weight, dropout_p, train=True)
    return attn_weight @ value


if not hasattr(F, "scaled_dot_product_attention"):
    F.scaled_dot_product_attention = _scaled_dot_product_attention
