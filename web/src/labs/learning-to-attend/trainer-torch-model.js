/**
 * The trainer lab's PyTorch cell (lesson learning-to-attend): how many steps it trains for within
 * its budget of work, its parameters for the lab's settings, and its code. No DOM. Unit-tested in
 * Node (tests/js/labs-learning-to-attend.test.js); run in Python by tests/python.
 */
import { flopsPerStep } from './trainer-cost-model.js';
import { LAYOUTS } from './trainer-model.js';

/** Steps the PyTorch cell trains for: enough for the default model of each task. */
export const TORCH_STEPS = { reverse: 300, sort: 400, lookup: 800 };

/**
 * Floating-point work the PyTorch cell may do (about 30 GFLOP, some 12 s of one core with Debian's
 * generic BLAS): larger models train for fewer steps, in multiples of 50, at least 100, so that the
 * cell finishes in well under 30 s whatever the settings.
 */
export const TORCH_BUDGET_FLOP = 31e9;

/** Steps the PyTorch cell trains for with these settings. */
export function torchSteps(settings) {
  const affordable = Math.floor(TORCH_BUDGET_FLOP / flopsPerStep(settings) / 50) * 50;
  return Math.max(100, Math.min(TORCH_STEPS[settings.task], affordable));
}

/** The PyTorch cell's parameters for the lab's settings. */
export const torchParams = (settings) => ({
  task: settings.task,
  layers: settings.layers,
  heads: Number(settings.heads),
  d_model: Number(settings.dModel),
  mlp: LAYOUTS[settings.task].mlp,
  lr: Number(settings.learningRate),
  seed: settings.seed,
  steps: torchSteps(settings),
});

/** The same tiny model and training loop in PyTorch ({{…}} filled in by attn-code). */
export const TRAINER_TORCH = `import math
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
torch.set_flush_denormal(True)  # tiny gradients late in training would otherwise run slowly
torch.manual_seed({{seed}})
task, layers, heads, d_model, mlp = {{task}}, {{layers}}, {{heads}}, {{d_model}}, {{mlp}}
lr, steps, batch = {{lr}}, {{steps}}, 32

# the tasks' tokens: digits 0-9 and '=' (10); lookup: keys a-h (0-7), values 0-9 (8-17), '?' (18)
vocab = 19 if task == 'lookup' else 11
P = 10 if task == 'lookup' else 7  # input length, separator included
A = 1 if task == 'lookup' else 6   # answer length
T = P + A - 1                      # positions the model reads

def examples(n):
    """n fresh inputs (n, P) and their answers (n, A)."""
    if task == 'lookup':
        keys = torch.rand(n, 8).argsort(dim=1)[:, :4]     # four different keys
        values = torch.randint(8, 18, (n, 4))
        pick = torch.randint(0, 4, (n, 1))
        pairs = torch.stack([keys, values], dim=2).reshape(n, 8)
        query = keys.gather(1, pick)
        return torch.cat([pairs, torch.full((n, 1), 18), query], 1), values.gather(1, pick)
    digits = torch.randint(0, 10, (n, 6))
    answer = digits.flip(1) if task == 'reverse' else digits.sort(dim=1).values
    return torch.cat([digits, torch.full((n, 1), 10)], 1), answer

def batch_of(n):
    inputs, answers = examples(n)
    s = torch.cat([inputs, answers], 1)
    targets = s[:, 1:].clone()
    targets[:, : P - 1] = -1                               # loss only on the answer tokens
    return s[:, :-1], targets

def param(*shape, scale):
    return torch.nn.Parameter(torch.randn(*shape) * scale)

D, dh = d_model, d_model // heads
W = {'tok': param(vocab, D, scale=0.1), 'pos': param(T, D, scale=0.1), 'out': param(D, vocab, scale=D ** -0.5)}
for l in range(layers):
    for name in ('Q', 'K', 'V'):
        W[f'{l}.{name}'] = param(D, heads * dh, scale=D ** -0.5)  # the heads' (D, dh) blocks side by side
    W[f'{l}.O'] = param(D, D, scale=D ** -0.5)
    if mlp:
        W[f'{l}.in'], W[f'{l}.b_in'] = param(D, 4 * D, scale=D ** -0.5), param(4 * D, scale=0.0)
        W[f'{l}.out'], W[f'{l}.b_out'] = param(4 * D, D, scale=(4 * D) ** -0.5), param(D, scale=0.0)
causal = torch.tril(torch.ones(T, T, dtype=torch.bool))

def forward(x, enabled=None):
    h = W['tok'][x] + W['pos'][: x.shape[1]]                  # (B, T, D)
    maps = []
    for l in range(layers):
        B, n = x.shape
        q, k, v = ((h @ W[f'{l}.{m}']).view(B, n, heads, dh).transpose(1, 2) for m in 'QKV')
        scores = q @ k.transpose(-2, -1) / math.sqrt(dh)    # (B, H, T, T)
        a = F.softmax(scores.masked_fill(~causal[:n, :n], float('-inf')), dim=-1)
        o = a @ v                                           # (B, H, T, dh)
        if enabled is not None:
            o = o * enabled[l].view(1, heads, 1, 1)         # a knocked-out head adds nothing
        h = h + o.transpose(1, 2).reshape(*h.shape) @ W[f'{l}.O']
        if mlp:
            h = h + F.gelu(h @ W[f'{l}.in'] + W[f'{l}.b_in'], approximate='tanh') @ W[f'{l}.out'] + W[f'{l}.b_out']
        maps.append(a)
    return h @ W['out'], maps

opt = torch.optim.AdamW(W.values(), lr=lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0)
for step in range(1, steps + 1):
    x, y = batch_of(batch)
    logits, _ = forward(x)
    loss = F.cross_entropy(logits.reshape(-1, vocab), y.reshape(-1), ignore_index=-1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f'step {step}: loss {loss.item():.3f}')

@torch.no_grad()
def answer(inputs, enabled=None):
    s = inputs
    for _ in range(A):                                      # greedy, one token at a time
        logits, maps = forward(s, enabled)
        s = torch.cat([s, logits[:, -1].argmax(-1, keepdim=True)], 1)
    return s[:, P:], maps

inputs, answers = examples(256)
out, maps = answer(inputs)
print(f'accuracy {(out == answers).float().mean().item():.3f}')
print('input', inputs[0].tolist(), 'answer', out[0].tolist())
enabled = torch.ones(layers, heads)
enabled[0, 0] = 0                                           # knock out layer 0, head 0
knocked, _ = answer(inputs, enabled)
print(f'accuracy without layer 0, head 0: {(knocked == answers).float().mean().item():.3f}')
print('layer 0, head 0, the last row of its weights:', maps[0][0, 0, -1].numpy().round(2))`;
