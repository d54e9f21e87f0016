/**
 * The attention-matrix lab's code cells: PyTorch and NumPy with the page's V and S filled in
 * ({{seed}}, {{V}}, {{S}}, {{row}}), and the notebook's heatmap in Matplotlib.
 */

export const TORCH_CODE = `import torch

T, d_v = 5, 4
# V and S as drawn on this page (seed {{seed}}, rounded to 2 decimals);
# the notebook draws them with torch.randn(T, d_v) and torch.randn(T, T)
V = torch.tensor({{V}}, dtype=torch.float32)  # (T, d_v): row j is the value v_j
S = torch.tensor({{S}}, dtype=torch.float32)  # (T, T): S[i, j] scores position j for query i

# Softmax strictly over the last dimension, so each row of A sums to 1
A = torch.softmax(S, dim=-1)
row_sums = A.sum(dim=-1)
print(f"Attention Matrix A shape: {A.shape}")
print(f"Row sums of A: {row_sums.tolist()}")
assert torch.allclose(row_sums, torch.ones(T)), "Every row of A must sum to 1.0!"

Y = A @ V  # (T, T) @ (T, d_v) -> (T, d_v)
print(f"Output Matrix Y shape: {Y.shape} [Preserves (T, dv)]")
assert Y.shape == (T, d_v), "Output Y must match shape (T, dv)!"

# Row i of Y is a convex combination of the rows of V
i = {{row}}
y_i = sum(A[i, j] * V[j] for j in range(T))
assert torch.allclose(y_i, Y[i])`;

export const NUMPY_CODE = `import numpy as np

V = np.array({{V}}, dtype=np.float32)  # (T, d_v)
S = np.array({{S}}, dtype=np.float32)  # (T, T)

def softmax(s, axis=-1):
    e = np.exp(s - s.max(axis=axis, keepdims=True))  # subtract the row max: exp never overflows
    return e / e.sum(axis=axis, keepdims=True)

A = softmax(S)        # row-stochastic: A >= 0, rows sum to 1
Y = A @ V             # (5, 5) @ (5, 4) -> (5, 4)
assert np.allclose(A.sum(axis=-1), 1.0)
assert Y.shape == (5, 4)`;

export const PLOT_CODE = `# needs: am
import matplotlib.pyplot as plt

T = A.shape[0]
plt.imshow(A, cmap="viridis", vmin=0, vmax=1.0)
plt.colorbar(label="Attention Weight $A_{ij}$")
labels = [f"Token {i}" for i in range(T)]
plt.xticks(range(T), labels)
plt.yticks(range(T), labels)
plt.xlabel("Keys / Values (Source Position $j$)")
plt.ylabel("Queries (Target Position $i$)")
for i in range(T):
    for j in range(T):
        val = float(A[i, j])
        plt.text(j, i, f"{val:.2f}", ha="center", va="center",
                 color="black" if val > 0.4 else "white")
plt.show()`;
