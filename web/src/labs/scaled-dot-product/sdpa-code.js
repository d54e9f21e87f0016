/**
 * The code cells of the scaled-dot-product lesson (Python templates; attn-code fills in the
 * {{placeholders}}): the notebook's formula against F.scaled_dot_product_attention in PyTorch,
 * the same in NumPy, and the four passes for one query row.
 */

/** {{seed}}, {{Q}}, {{K}}, {{V}}: this page's inputs as nested lists. */
export const SDPA_TORCH = `import math
import torch
import torch.nn.functional as F

def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = Q @ K.transpose(-2, -1) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float('-inf'))
    weights = F.softmax(scores, dim=-1)
    return weights @ V, weights

B, T, D = 2, 5, 8  # batch, sequence length, dimension
# This page's Q, K, V (seed {{seed}}, rounded to 4 decimals). The notebook draws
# its own with torch.manual_seed(0); Q = torch.randn(B, T, D); K = ...; V = ...
Q = torch.tensor({{Q}})
K = torch.tensor({{K}})
V = torch.tensor({{V}})

out, weights = attention(Q, K, V)
out_torch = F.scaled_dot_product_attention(Q, K, V)
out64, _ = attention(Q.double(), K.double(), V.double())  # a float64 reference

print(f'output shape: {tuple(out.shape)}')
print(f'each attention-weight row sums to 1: {torch.allclose(weights.sum(-1), torch.ones(B, T))}')
print(f'max abs diff vs F.scaled_dot_product_attention: {(out - out_torch).abs().max().item():.2e}')
print(f'max abs diff vs float64: {(out_torch.double() - out64).abs().max().item():.2e}')`;

/** {{Q}}, {{K}}, {{V}} as above. */
export const SDPA_NUMPY = `import numpy as np

Q = np.array({{Q}}, dtype=np.float32)  # (B, T, D)
K = np.array({{K}}, dtype=np.float32)
V = np.array({{V}}, dtype=np.float32)

def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))  # max-subtracted: exp never overflows
    return e / e.sum(axis=-1, keepdims=True)

d_k = Q.shape[-1]
scores = Q @ K.transpose(0, 2, 1)          # (B, T, T): QKᵀ
weights = softmax(scores / np.sqrt(d_k))   # each row sums to 1
out = weights @ V                          # (B, T, D)
assert out.shape == (2, 5, 8)
assert np.allclose(weights.sum(-1), 1.0)`;

/** {{batch}}, {{row}}: the batch and query row of the step-through. */
export const STEPS_NUMPY = `# needs: sdpa
import numpy as np
# Q, K, V: the (2, 5, 8) arrays of the code cells above
b, i = {{batch}}, {{row}}                  # batch and query row
q, K_b, V_b = Q[b, i], K[b], V[b]
d_k = q.shape[-1]

s = K_b @ q                    # pass 1: scores s_j = q_i · k_j, shape (T,)
s_scaled = s / np.sqrt(d_k)    # pass 2: scale by 1/sqrt(d_k)
e = np.exp(s_scaled - s_scaled.max())
w = e / e.sum()                # pass 3: softmax, sums to 1
y = w @ V_b                    # pass 4: weighted sum of the values, shape (D,)
print(np.round(s, 4), np.round(s_scaled, 4), np.round(w, 4), np.round(y, 4), sep='\\n')`;
