/**
 * The PyTorch cell of lesson heads-that-copy: attnbook's `text` task (a two-layer, attention-only
 * transformer reading characters) trained in PyTorch, then the copying probe that shows its
 * induction head (Olsson et al. 2022; Elhage et al. 2021). The model, data rule and probe are
 * attnbook's (core/src/train/text.cpp, probe.cpp, model.cpp; bench/train_torch.py). No DOM.
 * Unit-tested in Node (tests/js/labs-heads-that-copy-torch.test.js).
 */

/**
 * Steps the cell trains for: 35-40 s of one core here (Debian's torch with its reference BLAS),
 * enough to see the induction head forming (second-copy accuracy 0.48 for seed 1, 0.62 for seed 2).
 */
export const COPY_TORCH_STEPS = 600;

/** The cell's parameters ({{seed}}, {{steps}} in COPY_TORCH). */
export const copyTorchParams = ({ seed }) => ({ seed, steps: COPY_TORCH_STEPS });

/** attnbook's text task and copying probe in PyTorch ({{…}} filled in by attn-code). */
export const COPY_TORCH = `import math
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
torch.set_flush_denormal(True)  # tiny gradients late in training would otherwise run slowly
torch.manual_seed({{seed}})
steps = {{steps}}  # a step took about 55 ms of one core here (Debian's torch 1.13, reference BLAS)
# The induction head forms between steps 400 and 700: second-copy accuracy climbed from 0.15 to
# 0.6-0.7 there for seeds 1 and 2, and passed 0.8 at steps 1,500 and 1,200 (95 and 75 s of one
# core here). Raise steps to 1500 to watch it settle.
layers, heads, D, T, batch, lr = 2, 2, 32, 64, 32, 1e-2  # attnbook's text task: context T = 64
dh = D // heads

# The lab trains on the course's own prose (some 76,000 characters), which this cell cannot
# carry. Two paragraphs read as they stand are soon learnt by heart, and a model busy memorising
# its text is slow to find the induction head (with one paragraph, second-copy accuracy was still
# 0.23 at step 2,000 here). So their words are drawn in random order into a long text instead.
words = """
a language model reads a line one character at a time and guesses the next one. at first it learns
only which letters like to follow which: after a space, a t is likely; after a q, nearly always a
u. a single layer of attention can do little more than that. with two layers something new is
possible. a head in the first layer looks one step back and writes, at every position, which
character came just before it. a head in the second layer then searches the past for a position
whose previous character is the current one, and copies what it finds there. once a name such as
(zorbul) has appeared in a text, the second time the model sees z, o, r it no longer has to guess:
it has read this before. the pair of heads is called an induction head. it is a small circuit, but
it is where in-context learning begins: using what the prompt says, not only what the weights
remember from training. the heads form quite suddenly, and the loss drops when they do; knock out
the head that looks back, and the copying is gone. nobody tells the model to build this machine.
gradient descent finds it because the training windows reward it: half of them repeat a random
string of letters, and after the first lap every letter can be read off one period back. a model
that keeps guessing pays about four and a half bits for each letter; a model that copies pays
almost nothing. the plain windows teach spelling, punctuation and the rhythm of short english
words, which is why the loss keeps falling slowly long after the copying has been learned. watch
the two curves together: a long flat stretch, a sharp bend, then a new, lower plateau. researchers
who trained far larger models saw the same bend, at the same moment that their models got better
at using long prompts, and argued that these small heads explain much of it.
""".split()
text = ' '.join(words[i] for i in torch.randint(0, len(words), (10000,)).tolist())
alphabet = " !'(),-.0123456789:;?abcdefghijklmnopqrstuvwxyz"
vocab = len(alphabet) + 1                                  # the last id: any other character
ids = torch.tensor([alphabet.find(c) if c in alphabet else len(alphabet) for c in text])
letters = torch.tensor([alphabet.index(c) for c in 'abcdefghijklmnopqrstuvwxyz'])

def batch_of(n, step):
    """n windows of T + 1 characters, as (tokens, next characters), each (n, T): the even ones
    plain text, the odd ones a span of s characters written again and again (s from 8 to 33), so
    that copying what came before pays: s random letters, or from step 1,500 on, in every other
    one, s characters of the text (the lab's curriculum: first the heads form, then they learn
    to copy prose too)."""
    w = torch.empty(n, T + 1, dtype=torch.long)
    starts = torch.randint(0, len(ids) - T, ((n + 1) // 2, 1))
    w[0::2] = ids[starts + torch.arange(T + 1)]
    most = (T + 2) // 2
    spans = torch.randint(min(8, most), most + 1, (n // 2, 1))
    span = letters[torch.randint(0, 26, (n // 2, most))]
    if step > 1500:
        at = torch.randint(0, len(ids) - most, (n // 4, 1))
        span[1::2] = ids[at + torch.arange(most)]
    w[1::2] = span.gather(1, torch.arange(T + 1) % spans)
    return w[:, :-1], w[:, 1:]

def param(*shape):
    return torch.nn.Parameter(torch.randn(*shape) / math.sqrt(D))  # N(0, 1/D), as attnbook

# attention only: no MLP, no LayerNorm; Q, K, V hold the heads' (D, dh) blocks side by side
W = {'tok': param(vocab, D), 'pos': param(T, D), 'out': param(D, vocab)}
for l in range(layers):
    for m in 'QKVO':
        W[f'{l}.{m}'] = param(D, D)
causal = torch.tril(torch.ones(T, T, dtype=torch.bool))

def forward(x, enabled=None):
    """tokens (B, n) -> logits (B, n, vocab) and each layer's weights (B, heads, n, n)."""
    B, n = x.shape
    h = W['tok'][x] + W['pos'][:n]                         # (B, n, D): the residual stream
    maps = []
    for l in range(layers):
        q, k, v = ((h @ W[f'{l}.{m}']).view(B, n, heads, dh).transpose(1, 2) for m in 'QKV')
        scores = q @ k.transpose(-2, -1) / math.sqrt(dh)  # (B, heads, n, n)
        a = F.softmax(scores.masked_fill(~causal[:n, :n], float('-inf')), dim=-1)
        o = a @ v                                         # (B, heads, n, dh)
        if enabled is not None:
            o = o * enabled[l].view(1, heads, 1, 1)       # a knocked-out head adds nothing
        h = h + o.transpose(1, 2).reshape(B, n, D) @ W[f'{l}.O']
        maps.append(a)
    return h @ W['out'], maps

opt = torch.optim.AdamW(W.values(), lr=lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0)
for step in range(1, steps + 1):
    x, y = batch_of(batch, step)
    logits, _ = forward(x)
    loss = F.cross_entropy(logits.reshape(-1, vocab), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f'step {step}: loss {loss.item() / math.log(2):.3f} bits/char')

# The copying probe: 64 strings of 20 random letters, each written twice (40 characters).
L = 20
r = letters[torch.randint(0, 26, (64, L), generator=torch.Generator().manual_seed(7))]
s = torch.cat([r, r], 1)
queries = torch.arange(L, 2 * L - 1)                       # the second copy's, L + i

@torch.no_grad()
def probe(enabled=None):
    logits, maps = forward(s, enabled)
    right = logits.argmax(-1)[:, :-1] == s[:, 1:]          # each next character guessed right?
    a = torch.stack(maps)                                  # (layers, 64, heads, 2L, 2L)
    previous = a[:, :, :, queries, queries - 1].mean((1, 3))      # on the character before
    prefix = a[:, :, :, queries, queries - L + 1].mean((1, 3))    # after its first occurrence
    return right[:, : L - 1].float().mean(), right[:, L:].float().mean(), previous, prefix

first, second, previous, prefix = probe()
print(f'first copy accuracy {first:.3f} (nothing to copy from yet)')
print(f'second copy accuracy {second:.3f}')
for l in range(layers):
    for hd in range(heads):
        print(f'layer {l}, head {hd}: previous-token {previous[l, hd]:.2f}, '
              f'prefix-matching {prefix[l, hd]:.2f}')
enabled = torch.ones(layers, heads)
enabled[0] = (previous[0] < 0.3).float()                  # knock out layer 0's previous-token heads
knocked = probe(enabled)[1]
print(f'second copy with {int(layers * heads - enabled.sum())} previous-token head(s) '
      f'knocked out: {knocked:.3f}')`;
