/**
 * The retrieval lesson's code cells (PyTorch templates; attn-code fills in the {{placeholders}}):
 * the source's retrieval cell for one queried token, and the query mixed from tokens.
 */
import { NOTEBOOK_ATTENTION } from '../common/notebook-code.js';

/** {{token}}: the queried token. */
export const RETRIEVAL_TORCH = `${NOTEBOOK_ATTENTION}

vocab = torch.eye(6) * 5.0                        # 6 distinct tokens, scaled by 5
seq = vocab[[0, 1, 2, 3, 4]].unsqueeze(0)         # keys = values: tokens 0..4
query = vocab[{{token}}].unsqueeze(0).unsqueeze(0)        # the query is token {{token}}

out_retrieve, w_retrieve = attention(query, seq, seq)
retrieved_token = out_retrieve[0, 0].argmax().item()

print(f'attention weights over the 5 sequence positions: {w_retrieve[0, 0].round(decimals=3).tolist()}')
print(f'retrieved token id: {retrieved_token}  (queried for token {{token}})')`;

/** The weights as a heatmap with Matplotlib, as the source drew them: run after RETRIEVAL_TORCH. */
export const RETRIEVAL_PLOT = `# needs: retrieve
import matplotlib.pyplot as plt

plt.figure(figsize=(5, 1.5))
plt.imshow(w_retrieve[0].numpy(), cmap="viridis", aspect="auto", vmin=0, vmax=1)
plt.xlabel("sequence position (key)"); plt.yticks([])
plt.title("Attention weights: query = token {{token}}")
plt.colorbar(fraction=0.02)
plt.show()`;

/** {{mix}}: the amount of each token in the query. */
export const BUILDER_TORCH = `import numpy as np
import torch
import torch.nn.functional as F

vocab = torch.eye(6) * 5.0
seq = vocab[[0, 1, 2, 3, 4]]   # keys = values, (5, 6)
# the amount of each token; q = sum_t mix[t] * vocab[t]
mix = torch.tensor({{mix}}, dtype=torch.float32)
query = mix @ vocab            # (6,)

dots = seq @ query             # q . k_j for each position j
scores = dots / np.sqrt(6)     # scaled by 1/sqrt(d_k), d_k = 6
weights = F.softmax(scores, dim=-1)
out = weights @ seq
print("q . k_j:", dots.tolist())
print("weights:", weights.round(decimals=5).tolist())
print("retrieved token id:", out.argmax().item())`;
