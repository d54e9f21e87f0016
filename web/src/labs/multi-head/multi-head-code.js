/**
 * The multi-head lesson's code cell (a PyTorch template; attn-code fills in the {{placeholders}}
 * from multi-head-model.js codeParams): the notebook's batched product and its two assertions.
 */
export const MULTI_HEAD_TORCH = `import torch

B, h, T, d_v = {{B}}, {{h}}, {{T}}, {{dv}}  # batch, heads, sequence length, size per head

V = torch.randn(B, h, T, d_v)   # values: one (T, d_v) matrix per sequence and head
S = torch.randn(B, h, T, T)     # logits: one (T, T) matrix per sequence and head
A = torch.softmax(S, dim=-1)    # over the last axis (the positions j mixed in): every row sums to 1

Y = torch.matmul(A, V)          # A @ V: B*h = {{pairs}} products (T, T) @ (T, d_v), broadcast over (B, h)
print(f"Batched Attention Matrix A shape: {A.shape}")   # torch.Size({{ashape}})
print(f"Batched Value Matrix V shape: {V.shape}")       # torch.Size({{vshape}})
print(f"Batched Output Matrix Y shape: {Y.shape}")      # torch.Size({{yshape}})

assert torch.allclose(A.sum(dim=-1), torch.ones(B, h, T)), "All rows across all batches/heads must sum to 1.0!"
assert Y.shape == (B, h, T, d_v), "Output tensor shape must match (B, h, T, dv)!"
# The same product written with explicit indices: sum over the axis j
assert torch.allclose(Y, torch.einsum("bhij,bhjd->bhid", A, V), atol=1e-6)
print("[OK] Multi-head batched tensor assertions verified successfully.")`;
