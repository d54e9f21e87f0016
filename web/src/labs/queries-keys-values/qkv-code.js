/**
 * The queries-keys-values lesson's code cells (templates; attn-code fills in the {{placeholders}}
 * as Python): the hand-set 2-D world in NumPy, and the retrieval2d model trained in PyTorch.
 */

/** {{angleQ}}, {{scaleQ}}, {{angleK}}, {{scaleK}}: the world lab's sliders. */
export const WORLD_NUMPY = `import numpy as np

X = np.array([[2, 0], [1, 2], [-0.5, 1], [-2, -0.5], [1, -1.5]])  # embeddings x_0 .. x_4, one per row

def projection(degrees, length):
    """length * R(theta): x @ W turns x by theta (counter-clockwise) and makes it length times longer."""
    t = np.radians(degrees)
    return length * np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])

W_Q = projection({{angleQ}}, {{scaleQ}})   # what a position looks for
W_K = projection({{angleK}}, {{scaleK}})   # what a position offers
Q, K = X @ W_Q, X @ W_K
dots = Q @ K.T                            # dots[i, j] = q_i . k_j

scores = dots / np.sqrt(2)                # scaled by 1/sqrt(d_k), d_k = 2
weights = np.exp(scores - scores.max(axis=1, keepdims=True))
weights /= weights.sum(axis=1, keepdims=True)   # softmax of each row

print("q_2 . k_j:", dots[2].round(2))
print("weights of query 2:", weights[2].round(3))
print("each query picks key:", dots.argmax(axis=1))`;

/** {{seed}}, {{steps}}: the training lab's seed, and its steps (or, at step 0, the TRAIN_STEPS of one press of Train). */
export const TRAIN_TORCH = `import math
import torch
import torch.nn.functional as F

# retrieval2d: tokens 0, 1 form group A, 2, 3 group B; 4 is 'A?', 5 is 'B?'.
# The input is an A item and a B item in random order, then a query; the answer is the queried group's item.
# The model: 1 layer, 1 head, d_model 2, no MLP. PyTorch's random numbers are not attnbook's,
# so the weights differ from the page's; the solution it finds is of the same kind.
torch.manual_seed({{seed}})
V, T, D = 6, 3, 2

def batch(n):
    a = torch.randint(0, 2, (n,))
    b = 2 + torch.randint(0, 2, (n,))
    a_first = torch.randint(0, 2, (n,)).bool()
    group = torch.randint(0, 2, (n,))
    tokens = torch.stack([torch.where(a_first, a, b), torch.where(a_first, b, a), 4 + group], dim=1)
    return tokens, torch.where(group == 0, a, b)

shapes = {'embed.token': (V, D), 'embed.position': (T, D), 'W_Q': (D, D), 'W_K': (D, D),
          'W_V': (D, D), 'W_O': (D, D), 'unembed': (D, V)}
p = {name: (torch.randn(*shape) / math.sqrt(D)).requires_grad_() for name, shape in shapes.items()}
causal = torch.ones(T, T, dtype=torch.bool).tril()

def forward(tokens):
    x = p['embed.token'][tokens] + p['embed.position']            # (n, T, D)
    q, k, v = x @ p['W_Q'], x @ p['W_K'], x @ p['W_V']             # the three projections
    scores = (q @ k.transpose(-2, -1) / math.sqrt(D)).masked_fill(~causal, float('-inf'))
    weights = F.softmax(scores, dim=-1)
    x = x + (weights @ v) @ p['W_O']
    return x[:, -1] @ p['unembed'], weights[:, -1]                # the answer's logits; the query's weights

opt = torch.optim.AdamW(p.values(), lr=0.1, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0)
steps = {{steps}}   # the page's steps; before it has trained, the 400 of one press of Train
for step in range(steps):
    tokens, answer = batch(32)
    loss = F.cross_entropy(forward(tokens)[0], answer)
    opt.zero_grad()
    loss.backward()
    opt.step()

# every one of the 16 inputs, and the position holding the answer
inputs, right = [], []
for a in (0, 1):
    for b in (2, 3):
        for first, second in ((a, b), (b, a)):
            for g in (0, 1):
                inputs.append([first, second, 4 + g])
                right.append([first, second].index(a if g == 0 else b))
with torch.no_grad():
    logits, weights = forward(torch.tensor(inputs))
    answers = torch.tensor([row[i] for row, i in zip(inputs, right)])
    on_right = weights[torch.arange(16), torch.tensor(right)]
print(f"after {steps} steps: {int((logits.argmax(-1) == answers).sum())} of 16 inputs answered right")
print(f"weight of the query on the right item: mean {on_right.mean():.3f}, least {on_right.min():.3f}")
print("W_Q =", p['W_Q'].detach().double().numpy().round(2).tolist())
print("W_K =", p['W_K'].detach().double().numpy().round(2).tolist())`;
