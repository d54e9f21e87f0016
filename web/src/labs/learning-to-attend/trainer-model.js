/**
 * The trainer lab's model (lesson learning-to-attend): the settings a learner may choose and their
 * limits, the size, memory and time each configuration costs, the tasks' tokens as text, the fixed
 * probe sequences, reading and checking a learner's own input, the attention of one head as rows,
 * the curves, the text alternative and the PyTorch code. No DOM and no maths of its own: training,
 * prediction and attention are the engine's (engine/trainer.js). Unit-tested in Node
 * (tests/js/labs-learning-to-attend.test.js).
 */

/** The tasks this lab trains (the engine's ids), in the order of the menu. */
export const TASKS = ['reverse', 'sort', 'lookup'];
export const TASK_TITLES = { reverse: 'Reverse six digits', sort: 'Sort six digits', lookup: 'Look up a key' };

/** The choices of each setting: layers × heads stays at most 8 heads. */
export const LAYERS = { min: 1, max: 2 };
export const HEADS = ['1', '2', '4'];
export const WIDTHS = ['16', '32', '64'];
export const RATES = ['0.001', '0.003', '0.01', '0.03'];
export const SEEDS = { min: 0, max: 999 };
/** The most steps a permalink or the Train button goes to. */
export const MAX_STEPS = 5000;

/** The engine's task layouts (core/include/attn/train/tasks.hpp), as the lab needs them. */
export const LAYOUTS = {
  reverse: { vocab: 11, inputLength: 7, answerLength: 6, mlp: false, layers: 1, separator: 10 },
  sort: { vocab: 11, inputLength: 7, answerLength: 6, mlp: true, layers: 1, separator: 10 },
  lookup: { vocab: 19, inputLength: 10, answerLength: 1, mlp: false, layers: 2, separator: 18 },
};

/** About how many steps the default model of each task takes to reach 97 % (tasks.hpp's table). */
export const STEPS_TO_97 = { reverse: 'fewer than 100', sort: '100 to 200', lookup: '300 to 500' };

/** Attention positions: the input and every answer token but the last. */
export const seqLen = (task) => LAYOUTS[task].inputLength + LAYOUTS[task].answerLength - 1;

/** A token of `task` as text: digits, '=', keys a–h, values 0–9, '?'. */
export function tokenText(task, id) {
  if (task === 'lookup') {
    if (id < 8) return 'abcdefgh'[id];
    if (id < 18) return String(id - 8);
    return '?';
  }
  return id === 10 ? '=' : String(id);
}

/** The sequence a head attends over: input ++ answer[0 .. A − 2]. */
export const attendedTokens = (task, input, answer) => [...input, ...answer.slice(0, LAYOUTS[task].answerLength - 1)];

/** Labels of the attended positions, "position:token". */
export const positionLabels = (task, input, answer) =>
  attendedTokens(task, input, answer).map((id, i) => `${i}:${tokenText(task, id)}`);

/** The fixed probe inputs whose attention the heatmaps show while the model trains. */
export const PROBES = {
  reverse: [3, 1, 4, 1, 5, 9, 10],
  sort: [5, 2, 8, 2, 7, 1, 10],
  // a→3, c→7, f→1, h→5, '?', c: the answer is 7
  lookup: [0, 11, 2, 15, 5, 9, 7, 13, 18, 2],
};

/** The right answer to an input of `task` (token ids), or null if the input is not one of the task's. */
export function expectedAnswer(task, input) {
  if (task === 'reverse') return input.slice(0, 6).reverse();
  if (task === 'sort') return input.slice(0, 6).sort((a, b) => a - b);
  const query = input[9];
  for (let i = 0; i < 8; i += 2) if (input[i] === query) return [input[i + 1]];
  return null;
}

/** An input as the learner types it: "314159" for reverse and sort, "a3 c7 f1 h5 ? c" for lookup. */
export function inputText(task, input) {
  if (task !== 'lookup') return input.slice(0, 6).join('');
  const pairs = [0, 2, 4, 6].map((i) => tokenText(task, input[i]) + tokenText(task, input[i + 1]));
  return `${pairs.join(' ')} ? ${tokenText(task, input[9])}`;
}

/**
 * A learner's text as an input of `task`: { input } (token ids, the separator included) or
 * { error } in plain words. Spaces and commas are ignored.
 */
export function parseInput(task, text) {
  const chars = String(text).toLowerCase().replace(/[\s,]/g, '').replace(/=$/, '');
  if (task !== 'lookup') {
    if (!/^\d*$/.test(chars)) return { error: 'Type digits 0 to 9 only, six of them.' };
    if (chars.length !== 6) return { error: `Type six digits; that is ${chars.length}.` };
    return { input: [...chars].map(Number).concat(10) };
  }
  const m = chars.match(/^([a-h]\d)([a-h]\d)([a-h]\d)([a-h]\d)\?([a-h])$/);
  if (!m)
    return { error: 'Type four pairs of a key (a to h) and a digit, then ? and one of the keys: a3 c7 f1 h5 ? c' };
  const keys = m.slice(1, 5).map((p) => p.charCodeAt(0) - 97);
  if (new Set(keys).size !== 4) return { error: 'The four keys must be different.' };
  const query = m[5].charCodeAt(0) - 97;
  if (!keys.includes(query)) return { error: `The key after ? must be one of the four: ${m[5]} is not.` };
  const input = [];
  m.slice(1, 5).forEach((p, i) => input.push(keys[i], 8 + Number(p[1])));
  return { input: [...input, 18, query] };
}

/** The model's answer against the right one, token by token: [{ text, right, ok }]. */
export function judgeAnswer(task, input, output) {
  const expected = expectedAnswer(task, input) ?? [];
  return output.map((id, i) => ({
    text: tokenText(task, id),
    right: expected[i] === undefined ? '?' : tokenText(task, expected[i]),
    ok: expected[i] === id,
  }));
}

/** The resolved trainer options for the lab's settings (the rest are the task's defaults). */
export function trainerOptions({ task, layers, heads, dModel, learningRate, seed }) {
  return {
    task,
    seed,
    layers,
    heads: Number(heads),
    dModel: Number(dModel),
    learningRate: Number(learningRate),
  };
}

/** The lab's settings for a trainer config, or null (with why) if the lab cannot show it. */
export function settingsOf(config) {
  const t = LAYOUTS[config.task];
  const why = !t
    ? `the task ${config.task} is not one this lab trains`
    : config.layers < LAYERS.min || config.layers > LAYERS.max
      ? `it has ${config.layers} layers; the lab sets 1 or 2`
      : !HEADS.includes(String(config.heads))
        ? `it has ${config.heads} heads per layer; the lab sets 1, 2 or 4`
        : !WIDTHS.includes(String(config.dModel))
          ? `its width is ${config.dModel}; the lab sets 16, 32 or 64`
          : !RATES.includes(String(config.learningRate))
            ? `its learning rate is ${config.learningRate}; the lab sets ${RATES.join(', ')}`
            : config.seed < SEEDS.min || config.seed > SEEDS.max
              ? `its seed is ${config.seed}; the lab sets 0 to 999`
              : config.mlp !== t.mlp || config.layerNorm || config.batchSize !== 32 || config.weightDecay !== 0
                ? 'it was made with options (MLP, LayerNorm, batch, weight decay) this lab keeps at the task defaults'
                : '';
  if (why) return { error: `This state cannot be shown here: ${why}.` };
  return {
    settings: {
      task: config.task,
      layers: config.layers,
      heads: String(config.heads),
      dModel: String(config.dModel),
      learningRate: String(config.learningRate),
      seed: config.seed,
    },
  };
}

/** How many weights the model has (the engine's layout: embeddings, heads, W_O, MLP, unembedding). */
export function parameterCount({ task, layers, heads, dModel }) {
  const { vocab, mlp } = LAYOUTS[task];
  const D = Number(dModel);
  const T = seqLen(task);
  const M = 4 * D;
  const perHead = 3 * D * (D / Number(heads));
  const perLayer = Number(heads) * perHead + D * D + (mlp ? D * M + M + M * D + D : 0);
  return vocab * D + T * D + layers * perLayer + D * vocab;
}

/** Bytes training keeps: four float64 copies of every weight (weights, gradient, two AdamW moments). */
export const trainingBytes = (settings) => 32 * parameterCount(settings);

/**
 * Floating-point operations of one training step (batch 32): forward and backward through every
 * matrix product (6 per weight per token) and the attention itself (scores and mixing, 12 T²D per
 * layer and sequence, forward and backward).
 */
export function flopsPerStep(settings) {
  const T = seqLen(settings.task);
  const D = Number(settings.dModel);
  const tokens = 32 * T;
  const embed = (LAYOUTS[settings.task].vocab + T) * D;
  return 6 * (parameterCount(settings) - embed) * tokens + 32 * settings.layers * 12 * T * T * D;
}

/** The speed the estimate assumes: wasm SIMD on one thread (about 1 ms a step for the default reverse model). */
export const ASSUMED_GFLOPS = 10;

/** Estimated milliseconds per step at `gflops` (measured on this machine, else ASSUMED_GFLOPS). */
export const msPerStep = (settings, gflops = ASSUMED_GFLOPS) => flopsPerStep(settings) / (gflops * 1e6);

/** "12 KiB", "1.4 MiB". */
export function formatBytes(bytes) {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** "0.4 s", "12 s", "2.5 min". */
export function formatSeconds(s) {
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 120) return `${Math.round(s)} s`;
  return `${(s / 60).toFixed(1)} min`;
}

/** The cost line shown beside the settings. */
export function costSummary(settings, gflops) {
  const weights = parameterCount(settings);
  const ms = msPerStep(settings, gflops);
  return {
    weights,
    bytes: trainingBytes(settings),
    msPerStep: ms,
    text: `${weights.toLocaleString('en')} weights, ${formatBytes(trainingBytes(settings))} to train; about ${ms < 1 ? ms.toFixed(2) : ms.toFixed(1)} ms a step, ${formatSeconds((ms * 1000) / 1000)} for 1,000 steps, ${formatSeconds((ms * MAX_STEPS) / 1000)} for ${MAX_STEPS.toLocaleString('en')}`,
  };
}

/**
 * One head's weights from predict's attention (layers, heads, T, T; a { data, shape } tensor) as
 * rows of numbers.
 */
export function headRows(attention, layer, head) {
  const [, H, T] = attention.shape;
  const start = (layer * H + head) * T * T;
  return Array.from({ length: T }, (_, r) => Array.from(attention.data.subarray(start + r * T, start + (r + 1) * T)));
}

/**
 * What the lab verifies about predict's attention (layers, heads, T, T): every row sums to 1 and
 * no weight falls on a later position (causal). { maxRowSumError, maxFutureWeight }.
 */
export function attentionFacts(attention) {
  const T = attention.shape[2];
  let maxRowSumError = 0;
  let maxFutureWeight = 0;
  for (let start = 0; start < attention.data.length; start += T) {
    const row = (start / T) % T;
    let sum = 0;
    for (let c = 0; c < T; c++) {
      const w = attention.data[start + c];
      sum += w;
      if (c > row) maxFutureWeight = Math.max(maxFutureWeight, Math.abs(w));
    }
    maxRowSumError = Math.max(maxRowSumError, Math.abs(sum - 1));
  }
  return { maxRowSumError, maxFutureWeight };
}

/** The lab's checks, as data for checkCells (cells/base/lab.js). */
export function trainerChecks(attention) {
  const facts = attentionFacts(attention);
  return [
    {
      name: 'row-sums',
      label: 'max |row sum − 1| over every head’s weights on the probe',
      threshold: 1e-5,
      value: facts.maxRowSumError,
    },
    {
      name: 'causal',
      label: 'largest weight on a later position (causal mask)',
      comparison: 'eq',
      threshold: 0,
      value: facts.maxFutureWeight,
    },
  ];
}

/** Where row `row` of a head puts most of its weight: { col, weight }. */
export function strongestKey(rows, row) {
  let col = 0;
  rows[row].forEach((w, c) => {
    if (w > rows[row][col]) col = c;
  });
  return { col, weight: rows[row][col] };
}

/** The x range of the curves: at least 100 steps, doubling as training goes on. */
export function curveDomain(step) {
  let max = 100;
  while (max < step) max *= 2;
  return [0, max];
}

/**
 * How training paces itself: 'watch' takes blocks of 5 steps and at least PACE_MS per block, so a
 * learner can follow the maps (about 60 steps a second); 'fast' takes blocks of 25 steps, one per frame.
 */
export const PACES = { watch: { block: 5, minMs: 80 }, fast: { block: 25, minMs: 0 } };

/** The curves as line-chart series: loss and accuracy against the step (points without one left out). */
export const curveSeries = (history) => ({
  loss: [history.filter((h) => Number.isFinite(h.loss)).map((h) => [h.step, h.loss])],
  accuracy: [history.filter((h) => Number.isFinite(h.accuracy)).map((h) => [h.step, h.accuracy])],
});

export const percent = (x) => `${(100 * x).toFixed(1)} %`;

/** The heads as { layer, head, key, name }, layer-major. */
export const headList = (layers, heads) =>
  Array.from({ length: layers * Number(heads) }, (_, i) => {
    const layer = Math.floor(i / Number(heads));
    const head = i % Number(heads);
    return { layer, head, key: `${layer}.${head}`, name: `layer ${layer}, head ${head}` };
  });

/** The text alternative of the lab. */
export function describeTrainer({ settings, step, loss, accuracy, probe }) {
  const parts = [
    `${TASK_TITLES[settings.task]}: a model of ${settings.layers} layer${settings.layers > 1 ? 's' : ''} with ${settings.heads} head${settings.heads === '1' ? '' : 's'} each, width ${settings.dModel}, learning rate ${settings.learningRate}, seed ${settings.seed}, after ${step} steps`,
  ];
  if (Number.isFinite(loss)) parts.push(`loss ${loss.toFixed(3)}`);
  if (Number.isFinite(accuracy)) parts.push(`accuracy ${percent(accuracy)}`);
  if (probe) {
    const answer = judgeAnswer(settings.task, probe.input, probe.output);
    parts.push(
      `its answer to ${inputText(settings.task, probe.input)} is ${answer.map((a) => a.text).join(' ')} (${answer.every((a) => a.ok) ? 'right' : 'wrong'})`,
    );
  }
  return `${parts.join('; ')}.`;
}

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
