/**
 * The retrieval lesson's code cells (PyTorch templates; attn-code fills in the {{placeholders}}):
 * the source's retrieval cell for one queried token, and the query mixed from tokens.
 */

/** {{token}}: the queried token. */
export const RETRIEVAL_TORCH = `import numpy as np
import torch
import torch.nn.functional as F

def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = Q @ K.transpose(-2, -1) / np.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float('-inf'))
    weights = F.softmax(scores, dim=-1)
    return weights @ V, weights

vocab = torch.eye(6) * 5.0                        # 6 distinct tokens, scaled by 5
seq = vocab[[0, 1, 2, 3, 4]].unsqueeze(0)         # keys = values: tokens 0..4
query = vocab[{{token}}].unsqueeze(0).unsqueeze(0)        # the query is token {{token}}

out_retrieve, w_retrieve = attention(query, seq, seq)
retrieved_token = out_retrieve[0, 0].argmax().item()

print(f'attention weights over the 5 sequence positions: {w_retrieve[0, 0].round(decimals=3).tolist()}')
print(f'retrieved token id: {retrieved_token}  (queried for token {{token}})')`;

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
