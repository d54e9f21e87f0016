/**
 * Python the code cells of several lessons share (not an element): the source notebook's
 * ("Lesson 44: The Attention Mechanism") attention function in PyTorch, with its imports, so a
 * code cell that uses it starts with NOTEBOOK_ATTENTION and goes on with its own lines.
 */

/** Imports and `attention(Q, K, V, mask=None) -> (output, weights)`, softmax(QKᵀ/√d_k + mask) V. */
export const NOTEBOOK_ATTENTION = `import math
import torch
import torch.nn.functional as F

def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = Q @ K.transpose(-2, -1) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float('-inf'))
    weights = F.softmax(scores, dim=-1)
    return weights @ V, weights`;
