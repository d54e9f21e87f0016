/**
 * The PyTorch code cells of the causal-masking labs ({{name}} placeholders, filled in by
 * attn-code), and their parameters from a lab's result: this page's Q, K, V (and mask).
 */
import { NOTEBOOK_ATTENTION } from '../common/notebook-code.js';
import { nested } from '../common/qkv-lab.js';

/** The causal example: the notebook's tril mask against PyTorch's is_causal=True. */
export const CAUSAL_CODE = `${NOTEBOOK_ATTENTION}

B, T, D = 2, 5, 8
Q = torch.tensor({{Q}})  # this page's Q, K, V (seed {{seed}})
K = torch.tensor({{K}})
V = torch.tensor({{V}})

causal_mask = torch.tril(torch.ones(T, T))  # 1 where position i may attend to position j <= i
out_causal, w_causal = attention(Q, K, V, mask=causal_mask)
out_torch_causal = F.scaled_dot_product_attention(Q, K, V, is_causal=True)

future_weight = w_causal[:, 0, 1:].abs().sum().item()  # position 0 attending to positions 1..T-1
print(f'total attention weight from position 0 onto FUTURE positions: {future_weight:.6f}  (should be exactly 0)')
print(f'max abs diff vs F.scaled_dot_product_attention(..., is_causal=True): '
      f'{(out_causal - out_torch_causal).abs().max().item():.2e}')`;

/** The causal weights of batch {{batch}} as a heatmap with Matplotlib, as the source drew them: run after CAUSAL_CODE. */
export const CAUSAL_PLOT_CODE = `# needs: causal
import matplotlib.pyplot as plt

b = {{batch}}   # the batch the page shows
plt.figure(figsize=(4, 3.5))
plt.imshow(w_causal[b].numpy(), cmap="viridis", vmin=0, vmax=1)
plt.xlabel("key position"); plt.ylabel("query position")
plt.title(f"Causal attention weights, batch {b}\\n(every row attends only to itself and the past)")
plt.colorbar(fraction=0.046)
plt.show()`;

/** The painted mask, by hand and through PyTorch's kernel. */
export const MASK_CODE = `import math
import torch
import torch.nn.functional as F

Q = torch.tensor({{Q}})  # this page's Q, K, V (seed {{seed}}), shape (2, 5, 8)
K = torch.tensor({{K}})
V = torch.tensor({{V}})
mask = torch.tensor({{mask}}, dtype=torch.bool)  # True = may attend (the painted mask)

# the manual formula with the mask
scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
scores = scores.masked_fill(~mask, float('-inf'))
weights = torch.softmax(scores, dim=-1)  # a row with no allowed key: softmax of all -inf = NaN
print(weights[0])

# PyTorch's kernel with the same boolean mask (recent versions give zeros for a fully masked row, older ones NaN)
out = F.scaled_dot_product_attention(Q, K, V, attn_mask=mask)
print(out[0])`;

/** The code cells' parameters from a result with seed, q, k, v (and allowed, for the mask). */
export function codeParams(r) {
  if (!r) return null;
  const params = { seed: r.seed, Q: nested(r.q), K: nested(r.k), V: nested(r.v) };
  if (r.allowed) params.mask = r.allowed.map((row) => row.map(Boolean));
  return params;
}
