/**
 * The convex-combinations lab's code cells: the notebook's loop against α @ V in NumPy and in
 * PyTorch, with {{V}}, {{alpha}} and {{y}} filled in by attn-code.
 */

export const NUMPY_CODE = `import numpy as np

V = np.array({{V}}, dtype=np.float32)   # (T, d_v): one value vector per row
alpha = np.array({{alpha}}, dtype=np.float32)   # (T,)

assert (alpha >= 0).all(), "Weights must be non-negative!"
assert np.isclose(alpha.sum(), 1.0), "Weights must sum to 1.0!"

# 1. Loop: y = sum_j alpha_j * v_j
y_sum = np.zeros(V.shape[1], dtype=np.float32)
for j in range(len(alpha)):
    y_sum += alpha[j] * V[j]

# 2. Vector-matrix product: (T,) @ (T, d_v) -> (d_v,)
y_matrix = alpha @ V

print(y_matrix)   # about {{y}}
assert np.allclose(y_sum, y_matrix), "Loop sum and matrix product must agree!"
print("[OK] Loop sum and matrix multiplication verified.")`;

export const TORCH_CODE = `import torch

V = torch.tensor({{V}}, dtype=torch.float32)   # (T, d_v)
alpha = torch.tensor({{alpha}}, dtype=torch.float32)   # (T,)

assert (alpha >= 0).all(), "Weights must be non-negative!"
assert torch.isclose(alpha.sum(), torch.tensor(1.0)), "Weights must sum to 1.0!"

y_sum = torch.zeros(V.shape[1])
for j in range(len(alpha)):
    y_sum += alpha[j] * V[j]

y_matrix = alpha.unsqueeze(0) @ V   # (1, T) @ (T, d_v) -> (1, d_v)

print(y_matrix.squeeze(0).tolist())   # about {{y}}
assert torch.allclose(y_sum, y_matrix.squeeze(0))
print("[OK] Loop sum and matrix multiplication verified.")`;
