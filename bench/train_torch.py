#!/usr/bin/python3
"""The PyTorch peer of bench/train.bench.mjs: trains each task's default model on one CPU thread.

Run with Debian's interpreter (python3-torch 1.13), not whichever python3 is first on PATH:

    /usr/bin/python3 bench/train_torch.py < request.json

The request (JSON on stdin) carries the tasks exactly as attn.trainingTasks() describes them and
the timing plan, so the sizes and hyper-parameters never drift from attnbook's:

    {"tasks": [{"id": "reverse", "vocab": 11, "inputLength": 7, "answerLength": 6, "seqLen": 12,
                "defaults": {"layers": 1, "heads": 2, "dModel": 32, "mlp": false, "dMlp": 0,
                             "layerNorm": false, "learningRate": 0.01, "weightDecay": 0,
                             "batchSize": 32}}],
     "timing": {"warmupSteps": 100, "samples": 9, "stepsPerSample": 40},
     "seed": 1, "evalSamples": 256}

The text task (its entry carries "alphabet" and "heldOut") also needs the corpus, the request's
"corpus": the text as one string, which is encoded and split here by attnbook's rule.

It prints one JSON document on stdout: per task the median steps/s of the timed samples, every
sample's steps/s, the loss of the first and the last step, and the teacher-forced loss and greedy
answer-token accuracy on fresh examples after training (to show that it learns); for the text
task the loss and the next-character accuracy at every position of held-out windows. Losses are in
the task's unit, as attnbook reports them: bits per character for text (nats / ln 2), else nats.

A request {"check": {"task": ..., "weights": {name: {"shape", "data"}}, "examples": [{"input",
"answer"}]}} instead prints {"loss": ...}: the loss of those weights on those examples, to check
that this model is attnbook's (bench/train.bench.mjs compares it with attnbook's own loss).

The model is attnbook's (core/include/attn/train/model.hpp): token and learned position
embeddings; per layer [pre-LN] causal multi-head self-attention without biases (the heads' W_Q,
W_K, W_V side by side as the column blocks of one (D, D) matrix each: the same weights and
arithmetic as per-head (D, D/H) matrices), W_O, residual; [an MLP x + GELU_tanh(x W_in + b_in)
W_out + b_out]; [final LN]; logits = f U. The loss is the mean cross-entropy over the answer
positions. AdamW (torch.optim.AdamW: bias-corrected, decoupled decay) decays the matrices only.
The task data is drawn here with torch's generator from the layouts in attn/train/tasks.hpp and,
for text, the rule of attn/train/text.hpp (text_corpus, sample_text): the same shapes and work as
attnbook's batches, not the same numbers.
"""

import json
import math
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F


# Token ids of the task layouts (core/src/train/tasks.cpp).
DIGIT_SEPARATOR = 10  # '=' in reverse and sort
LOOKUP_PAIRS = 4
LOOKUP_KEYS = 8  # ids 0-7
LOOKUP_VALUE0 = 8  # ids 8-17
LOOKUP_QUERY = 18  # '?'
RETRIEVAL_QUERY0 = 4  # 'A?' = 4, 'B?' = 5


def sample_task(task_id, count, generator):
    """count examples of a task: (input (count, P), answer (count, A)) as int64 tensors."""
    if task_id in ("reverse", "sort"):
        digits = torch.randint(0, 10, (count, 6), generator=generator)
        answer = digits.flip(1) if task_id == "reverse" else digits.sort(1).values
        separator = torch.full((count, 1), DIGIT_SEPARATOR, dtype=torch.int64)
        return torch.cat([digits, separator], 1), answer
    if task_id == "lookup":
        keys = torch.rand(count, LOOKUP_KEYS, generator=generator).argsort(1)[:, :LOOKUP_PAIRS]
        values = LOOKUP_VALUE0 + torch.randint(0, 10, (count, LOOKUP_PAIRS), generator=generator)
        query = torch.randint(0, LOOKUP_PAIRS, (count, 1), generator=generator)
        pairs = torch.stack([keys, values], 2).reshape(count, 2 * LOOKUP_PAIRS)
        question = torch.full((count, 1), LOOKUP_QUERY, dtype=torch.int64)
        inputs = torch.cat([pairs, question, keys.gather(1, query)], 1)
        return inputs, values.gather(1, query)
    if task_id == "retrieval2d":
        a = torch.randint(0, 2, (count,), generator=generator)
        b = 2 + torch.randint(0, 2, (count,), generator=generator)
        a_first = torch.randint(0, 2, (count,), generator=generator) == 0
        group = torch.randint(0, 2, (count,), generator=generator)
        first = torch.where(a_first, a, b)
        second = torch.where(a_first, b, a)
        inputs = torch.stack([first, second, RETRIEVAL_QUERY0 + group], 1)
        return inputs, torch.where(group == 0, a, b).unsqueeze(1)
    raise ValueError(f"unknown task '{task_id}'")


def text_corpus(text, alphabet, T):
    """The text task's corpus as attnbook's TextCorpus makes it (core/src/train/text.cpp): ids of
    the characters (code points; the alphabet's index, or len(alphabet) for one outside it), the
    end of the training part (the last tenth is held out when the text has >= 10 (T + 1)
    characters) and the ids the repeated spans draw from (the ASCII letters when there are two)."""
    index = {c: i for i, c in enumerate(alphabet)}
    ids = torch.tensor([index.get(c, len(alphabet)) for c in text], dtype=torch.int64)
    tenth = len(ids) // 10
    held_out = tenth if tenth >= T + 1 else 0
    probe = [i for i, c in enumerate(alphabet) if c.isascii() and c.isalpha()]
    if len(probe) < 2:
        probe = [i for i, c in enumerate(alphabet) if c not in " \t\n\r\u00a0"]
    if len(probe) < 2:
        probe = [0, 1]
    return {"ids": ids, "train_end": len(ids) - held_out, "held_out": held_out,
            "probe": torch.tensor(probe), "vocab": len(alphabet) + 1}


def windows_of(ids, first, n, T, count, generator):
    """count windows of T + 1 ids of ids[first, first + n) from uniform starts (wrapping when
    n <= T)."""
    starts = torch.randint(0, n - T if n > T else n, (count, 1), generator=generator)
    return ids[first + (starts + torch.arange(T + 1)) % n]


def sample_text(corpus, count, T, generator):
    """count training windows of the text task, (input (count, 1), answer (count, T)): the even
    rows plain training text, the odd ones a span of s random probe letters (s uniform in
    [min(8, ceil((T+1)/2)), ceil((T+1)/2)]) written again and again."""
    windows = torch.empty(count, T + 1, dtype=torch.int64)
    windows[0::2] = windows_of(corpus["ids"], 0, corpus["train_end"], T, (count + 1) // 2,
                               generator)
    repeats = count // 2
    most = (T + 2) // 2
    least = min(8, most)
    spans = torch.randint(least, most + 1, (repeats, 1), generator=generator)
    probe = corpus["probe"]
    letters = probe[torch.randint(0, len(probe), (repeats, most), generator=generator)]
    windows[1::2] = letters.gather(1, torch.arange(T + 1) % spans)
    return windows[:, :1], windows[:, 1:]


def held_out_text(corpus, count, T, generator):
    """count held-out windows (the training text when nothing is held out), as sample_text."""
    first = corpus["train_end"] if corpus["held_out"] > 0 else 0
    windows = windows_of(corpus["ids"], first, len(corpus["ids"]) - first, T, count, generator)
    return windows[:, :1], windows[:, 1:]


def loss_unit(task):
    """What a loss in nats is multiplied by to report it: 1 / ln 2 (bits) for text, as attnbook's
    step() and evaluate() report it; 1 (nats) for the other tasks."""
    return 1 / math.log(2) if task["id"] == "text" else 1.0


def batch_of(task, inputs, answer):
    """tokens (count, T) = (input ++ answer) without its last token; targets -1 before P - 1."""
    sequence = torch.cat([inputs, answer], 1)
    tokens = sequence[:, :-1]
    targets = sequence[:, 1:].clone()
    targets[:, : task["inputLength"] - 1] = -1
    return tokens, targets


class Transformer(torch.nn.Module):
    """attnbook's decoder-only transformer (see the module docstring)."""

    def __init__(self, vocab, seq_len, layers, heads, d_model, mlp, d_mlp, layer_norm):
        super().__init__()
        D, M = d_model, d_mlp or 4 * d_model
        self.heads, self.mlp, self.layer_norm = heads, mlp, layer_norm

        def matrix(rows, cols, fan_in=None):  # N(0, 1/fan_in) as attnbook's init_model
            return torch.nn.Parameter(torch.randn(rows, cols) / math.sqrt(fan_in or rows))

        def ones(n):
            return torch.nn.Parameter(torch.ones(n))

        def zeros(n):
            return torch.nn.Parameter(torch.zeros(n))

        self.token = matrix(vocab, D, fan_in=D)  # the embeddings use fan_in = D too
        self.position = matrix(seq_len, D, fan_in=D)
        self.blocks = torch.nn.ModuleList()
        for _ in range(layers):
            block = torch.nn.Module()
            block.W_Q, block.W_K, block.W_V, block.W_O = (matrix(D, D) for _ in range(4))
            if layer_norm:
                block.ln1_gain, block.ln1_bias = ones(D), zeros(D)
            if mlp:
                if layer_norm:
                    block.ln2_gain, block.ln2_bias = ones(D), zeros(D)
                block.W_in, block.b_in = matrix(D, M), zeros(M)
                block.W_out, block.b_out = matrix(M, D), zeros(D)
            self.blocks.append(block)
        if layer_norm:
            self.final_gain, self.final_bias = ones(D), zeros(D)
        self.unembed = matrix(D, vocab)
        causal = torch.ones(seq_len, seq_len, dtype=torch.bool).tril()
        self.register_buffer("causal", causal, persistent=False)

    def norm(self, x, gain, bias):
        return F.layer_norm(x, (x.shape[-1],), gain, bias, 1e-5)

    def forward(self, tokens):
        """tokens (B, T) -> logits (B, T, V)."""
        B, T = tokens.shape
        H = self.heads
        x = F.embedding(tokens, self.token) + self.position[:T]
        for block in self.blocks:
            a = self.norm(x, block.ln1_gain, block.ln1_bias) if self.layer_norm else x
            D = x.shape[-1]
            dh = D // H
            q = (a @ block.W_Q).view(B, T, H, dh).transpose(1, 2)  # (B, H, T, dh)
            k = (a @ block.W_K).view(B, T, H, dh).transpose(1, 2)
            v = (a @ block.W_V).view(B, T, H, dh).transpose(1, 2)
            scores = (q @ k.transpose(-2, -1)) / math.sqrt(dh)  # (B, H, T, T)
            scores = scores.masked_fill(~self.causal[:T, :T], float("-inf"))
            o = scores.softmax(-1) @ v  # (B, H, T, dh)
            x = x + o.transpose(1, 2).reshape(B, T, D) @ block.W_O
            if self.mlp:
                m = self.norm(x, block.ln2_gain, block.ln2_bias) if self.layer_norm else x
                hidden = F.gelu(m @ block.W_in + block.b_in, approximate="tanh")
                x = x + hidden @ block.W_out + block.b_out
        f = self.norm(x, self.final_gain, self.final_bias) if self.layer_norm else x
        return f @ self.unembed


def loss_of(model, tokens, targets):
    """Mean cross-entropy over the positions with a target (the answer positions)."""
    logits = model(tokens)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1),
                           ignore_index=-1)


def make_trainer(task, seed, corpus=None):
    """The model and its step(); the text task's step draws its windows from `corpus`."""
    d = task["defaults"]
    torch.manual_seed(seed)
    model = Transformer(
        task["vocab"], task["seqLen"], d["layers"], d["heads"], d["dModel"],
        d["mlp"], d["dMlp"], d["layerNorm"],
    )
    matrices = [p for p in model.parameters() if p.dim() == 2]
    vectors = [p for p in model.parameters() if p.dim() != 2]
    groups = [{"params": matrices, "weight_decay": d["weightDecay"]}]
    if vectors:
        groups.append({"params": vectors, "weight_decay": 0.0})
    optimiser = torch.optim.AdamW(
        groups, lr=d["learningRate"], betas=(0.9, 0.999), eps=1e-8, foreach=True
    )
    generator = torch.Generator().manual_seed(seed + 1)
    if task["id"] == "text":
        def draw():
            return sample_text(corpus, d["batchSize"], task["seqLen"], generator)
    else:
        def draw():
            return sample_task(task["id"], d["batchSize"], generator)

    def step():
        tokens, targets = batch_of(task, *draw())
        loss = loss_of(model, tokens, targets)
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        optimiser.step()
        return loss

    return model, step


@torch.no_grad()
def evaluate(model, task, samples, seed, corpus=None):
    """Teacher-forced loss and greedy answer-token accuracy on fresh examples; for text, the loss
    (bits) and the next-character accuracy at every position of held-out windows."""
    generator = torch.Generator().manual_seed(seed)
    if task["id"] == "text":
        tokens, targets = batch_of(task, *held_out_text(corpus, samples, task["seqLen"], generator))
        logits = model(tokens)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
        right = (logits.argmax(-1) == targets).double().mean().item()
        return {"loss": loss.item() * loss_unit(task), "accuracy": right}
    inputs, answer = sample_task(task["id"], samples, generator)
    tokens, targets = batch_of(task, inputs, answer)
    loss = loss_of(model, tokens, targets)
    sequence = inputs
    for _ in range(task["answerLength"]):
        sequence = torch.cat([sequence, model(sequence)[:, -1].argmax(-1, keepdim=True)], 1)
    predicted = sequence[:, task["inputLength"]:]
    return {"loss": loss.item(), "accuracy": (predicted == answer).double().mean().item()}


def bench_task(task, timing, seed, eval_samples, text=None):
    corpus = None
    if task["id"] == "text":
        if text is None:
            raise ValueError("the text task needs the request's \"corpus\"")
        corpus = text_corpus(text, task["alphabet"], task["seqLen"])
        held_out = task.get("heldOut", corpus["held_out"])
        if corpus["vocab"] != task["vocab"] or corpus["held_out"] != held_out:
            raise ValueError(f"the corpus gives vocab {corpus['vocab']} and {corpus['held_out']} "
                             f"held-out characters, the task {task['vocab']} and "
                             f"{task.get('heldOut')}")
    model, step = make_trainer(task, seed, corpus)
    unit = loss_unit(task)
    first_loss = step().item()
    for _ in range(timing["warmupSteps"] - 1):
        step()
    rates = []
    for _ in range(timing["samples"]):
        start = time.perf_counter()
        for _ in range(timing["stepsPerSample"]):
            loss = step()
        last_loss = loss.item()  # one read per sample, as attnbook's step(count) returns its loss
        rates.append(timing["stepsPerSample"] / (time.perf_counter() - start))
    steps = timing["warmupSteps"] + timing["samples"] * timing["stepsPerSample"]
    return {
        "id": task["id"],
        "stepsPerSecond": statistics.median(rates),
        "samples": rates,
        "steps": steps,
        "parameters": sum(p.numel() for p in model.parameters()),
        "lossUnit": "bits" if task["id"] == "text" else "nats",
        "firstLoss": first_loss * unit,
        "lastLoss": last_loss * unit,
        "evaluation": evaluate(model, task, eval_samples, 12345, corpus),
    }


def check_loss(check):
    """The loss of given weights (attnbook's tensor names, the heads side by side in W_Q, W_K,
    W_V) on given examples, in the task's unit: to compare this model with another
    implementation's."""
    task = check["task"]
    model, _ = make_trainer(task, 1)
    names = {"embed.token": "token", "embed.position": "position", "unembed": "unembed",
             "final_ln.gain": "final_gain", "final_ln.bias": "final_bias"}
    state = {}
    for name, tensor in check["weights"].items():
        if name.startswith("layer"):
            layer, rest = name.split(".", 1)
            key = f"blocks.{layer[5:]}.{rest.replace('.', '_').replace('mlp_', '')}"
        else:
            key = names[name]
        state[key] = torch.tensor(tensor["data"], dtype=torch.float32).reshape(tensor["shape"])
    model.load_state_dict(state)
    inputs = torch.tensor([e["input"] for e in check["examples"]])
    answer = torch.tensor([e["answer"] for e in check["examples"]])
    tokens, targets = batch_of(task, inputs, answer)
    with torch.no_grad():
        return loss_of(model, tokens, targets).item() * loss_unit(task)


def blas_libraries():
    """The BLAS and LAPACK libraries this process has mapped, resolved to their files: Debian's
    torch calls whichever libblas.so.3 the alternatives system points to (the reference netlib
    BLAS of libblas3 unless OpenBLAS or another is installed)."""
    torch.ones(2, 2) @ torch.ones(2, 2)
    found = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            if "blas" in path or "lapack" in path:
                found.add(os.path.realpath(path))
    return sorted(found)


def main():
    request = json.load(sys.stdin)
    torch.set_num_threads(1)
    if "check" in request:
        json.dump({"loss": check_loss(request["check"])}, sys.stdout)
        print()
        return
    results = [
        bench_task(task, request["timing"], request.get("seed", 1), request.get("evalSamples", 256),
                   request.get("corpus"))
        for task in request["tasks"]
    ]
    json.dump({
        "torch": torch.__version__,
        "python": sys.version.split()[0],
        "threads": torch.get_num_threads(),
        "blas": blas_libraries(),
        "results": results,
    }, sys.stdout)
    print()


if __name__ == "__main__":
    main()
