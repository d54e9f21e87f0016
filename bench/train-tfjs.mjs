// The TensorFlow.js peer of bench/train.bench.mjs: attnbook's training model
// (core/include/attn/train/model.hpp) written in TensorFlow.js 4.22 for its wasm backend,
// with the task data drawn in JS from the layouts in core/include/attn/train/tasks.hpp, and for
// the text task from the rule of core/include/attn/train/text.hpp (textCorpus, textWindow).
//
//   x₀      = onehot(tokens) E + P[0..T)               E (V, D), P (T, D)
//   per layer:
//     a     = LN₁(x) or x
//     q, k, v = a W_Q, a W_K, a W_V                    (D, D) each: the heads' (D, D/H) column blocks
//     o     = softmax(q kᵀ / √d_h + causal) v          per head, as one batched matMul of (B·H, T, d_h)
//     x     = x + [o_1 … o_H] W_O                      W_O (D, D), no attention biases
//     if mlp: x = x + GELU_tanh(LN₂(x) W_in + b_in) W_out + b_out
//   logits  = LN_f(x) U                                U (D, V)
//   loss    = mean cross-entropy over the answer positions
//
// Two things are written around tfjs-backend-wasm 4.22: it has no kernel behind tf.gather's
// gradient (UnsortedSegmentSum), so the embedding is a one-hot matrix times E and the loss picks
// the answer positions with a one-hot target mask; and TensorFlow.js has no AdamW, so the update
// is written out (bias-corrected Adam moments, then decoupled decay lr·λ·w on the matrices, as
// torch.optim.AdamW and attnbook's core order it). k is transposed explicitly before its matMul:
// tfjs-backend-wasm sends a matMul with transposeB to a scalar loop (see attention.bench.mjs).
//
// Losses are reported in the task's unit, as attnbook reports them: bits per character for the
// text task (nats / ln 2), nats for the others. The gradient is always that of the loss in nats.

// Token ids of the task layouts (core/src/train/tasks.cpp).
const DIGIT_SEPARATOR = 10;
const LOOKUP_PAIRS = 4;
const LOOKUP_KEYS = 8;
const LOOKUP_VALUE0 = 8;
const LOOKUP_QUERY = 18;
const RETRIEVAL_QUERY0 = 4;

/** mulberry32: a small seeded generator; below(n) is uniform on 0 .. n − 1. */
export function makeRng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, below: (n) => Math.floor(next() * n) };
}

/** One example of a task: { input (P tokens), answer (A tokens) }. */
export function sampleTask(id, rng) {
  if (id === 'reverse' || id === 'sort') {
    const digits = Array.from({ length: 6 }, () => rng.below(10));
    const answer = id === 'reverse' ? [...digits].reverse() : [...digits].sort((a, b) => a - b);
    return { input: [...digits, DIGIT_SEPARATOR], answer };
  }
  if (id === 'lookup') {
    const keys = Array.from({ length: LOOKUP_KEYS }, (_, k) => k);
    const input = [];
    const values = [];
    for (let i = 0; i < LOOKUP_PAIRS; i++) {
      const j = i + rng.below(LOOKUP_KEYS - i); // distinct keys: partial Fisher–Yates
      [keys[i], keys[j]] = [keys[j], keys[i]];
      values.push(LOOKUP_VALUE0 + rng.below(10));
      input.push(keys[i], values[i]);
    }
    const q = rng.below(LOOKUP_PAIRS);
    return { input: [...input, LOOKUP_QUERY, keys[q]], answer: [values[q]] };
  }
  if (id === 'retrieval2d') {
    const a = rng.below(2);
    const b = 2 + rng.below(2);
    const aFirst = rng.below(2) === 0;
    const group = rng.below(2);
    return { input: [aFirst ? a : b, aFirst ? b : a, RETRIEVAL_QUERY0 + group], answer: [group === 0 ? a : b] };
  }
  throw new Error(`unknown task '${id}'`);
}

/**
 * The text task's corpus as attnbook's TextCorpus makes it (core/src/train/text.cpp): `ids`, one
 * per character (code point) of `text`, its index in `alphabet` or alphabet's length (the unknown
 * id) for one outside it; `trainEnd`, where the held-out last tenth starts (nothing is held out
 * from a text shorter than 10·(T + 1) characters); `probe`, the ids the repeated spans draw from
 * (the alphabet's ASCII letters when it has two, else every id but whitespace).
 */
export function textCorpus(text, alphabet, T) {
  const chars = [...alphabet];
  const index = new Map(chars.map((c, i) => [c, i]));
  const ids = Int32Array.from([...text], (c) => index.get(c) ?? chars.length);
  const tenth = Math.floor(ids.length / 10);
  const heldOut = tenth >= T + 1 ? tenth : 0;
  const idsOf = (test) => chars.flatMap((c, i) => (test(c) ? [i] : []));
  let probe = idsOf((c) => /^[A-Za-z]$/.test(c));
  if (probe.length < 2) probe = idsOf((c) => !/^[ \t\n\r\u00a0]$/.test(c));
  if (probe.length < 2) probe = [0, 1];
  return { ids, trainEnd: ids.length - heldOut, heldOut, probe, vocab: chars.length + 1 };
}

/** T + 1 ids of ids[first, first + n) from a uniform start (wrapping round when n ≤ T). */
function windowOf(ids, first, n, T, rng) {
  const start = rng.below(n > T ? n - T : n);
  return Array.from({ length: T + 1 }, (_, i) => ids[first + ((start + i) % n)]);
}

/**
 * Training window `index` of a batch, as { input: [w₀], answer: [w₁ … w_T] } (every position is
 * scored): even indices plain training text from a uniform start; odd ones a span of s random
 * probe letters, s uniform in [min(8, ⌈(T+1)/2⌉), ⌈(T+1)/2⌉], written again and again.
 */
export function textWindow(corpus, index, T, rng) {
  let w;
  if (index % 2 === 0) {
    w = windowOf(corpus.ids, 0, corpus.trainEnd, T, rng);
  } else {
    const most = (T + 2) >> 1;
    const least = Math.min(8, most);
    const span = least + rng.below(most - least + 1);
    w = Array.from({ length: span }, () => corpus.probe[rng.below(corpus.probe.length)]);
    for (let i = span; i <= T; i++) w.push(w[i - span]);
  }
  return { input: [w[0]], answer: w.slice(1) };
}

/** A held-out window (the training text when nothing is held out), as textWindow returns it. */
export function heldOutWindow(corpus, T, rng) {
  const first = corpus.heldOut > 0 ? corpus.trainEnd : 0;
  const w = windowOf(corpus.ids, first, corpus.ids.length - first, T, rng);
  return { input: [w[0]], answer: w.slice(1) };
}

/**
 * A batch as the model reads it: the one-hot tokens (count·T, V) of s = input ++ answer without
 * its last token, and the one-hot targets s[t + 1] at the answer positions t ≥ P − 1 (zero rows
 * elsewhere), with the number of scored positions.
 */
export function batchOf(task, examples) {
  const V = task.vocab;
  const T = task.seqLen;
  const P = task.inputLength;
  const tokens = new Float32Array(examples.length * T * V);
  const targets = new Float32Array(examples.length * T * V);
  let scored = 0;
  examples.forEach((e, n) => {
    const s = [...e.input, ...e.answer];
    for (let t = 0; t < T; t++) {
      const row = (n * T + t) * V;
      tokens[row + s[t]] = 1;
      if (t + 1 >= P) {
        targets[row + s[t + 1]] = 1;
        scored++;
      }
    }
  });
  return { count: examples.length, tokens, targets, scored };
}

/**
 * A trainer for one task's default model, shaped like attnbook's: step(count) → { step, loss }
 * (the last step's), evaluate({ samples, seed }) → { loss, accuracy }, dispose(); and for the
 * same-model check weights(), setWeights(named) and loss(examples). Weights N(0, 1/fan_in) as
 * attnbook's init_model (fan_in = D for the embeddings, M for W_out); gains 1, biases 0. The text
 * task needs `text`, the corpus (its alphabet is task.alphabet).
 */
export function createTfTrainer(tf, task, { seed = 1, text = null } = {}) {
  const d = task.defaults;
  const { vocab: V, seqLen: T } = task;
  let corpus = null;
  if (task.id === 'text') {
    if (typeof text !== 'string') throw new Error('createTfTrainer: the text task needs { text }');
    corpus = textCorpus(text, task.alphabet, T);
    if (corpus.vocab !== V || (task.heldOut !== undefined && corpus.heldOut !== task.heldOut)) {
      throw new Error(
        `createTfTrainer: the corpus gives vocab ${corpus.vocab} and ${corpus.heldOut} held-out characters, ` +
          `the task ${V} and ${task.heldOut}`,
      );
    }
  }
  /** What a loss in nats is multiplied by to report it: 1 / ln 2 (bits) for text, as attnbook's. */
  const unit = corpus ? 1 / Math.LN2 : 1;
  /** Example `n` of a training batch. */
  const draw = corpus ? (n, rng) => textWindow(corpus, n, T, rng) : (_, rng) => sampleTask(task.id, rng);
  const D = d.dModel;
  const H = d.heads;
  const dh = D / H;
  const M = d.dMlp || 4 * D;
  const B = d.batchSize;
  const vars = [];
  let initSeed = seed * 1000;
  const param = (name, shape, { fanIn = 0, fill = 0, decay = false } = {}) => {
    const value = fanIn
      ? tf.randomNormal(shape, 0, 1 / Math.sqrt(fanIn), 'float32', initSeed++)
      : tf.fill(shape, fill, 'float32');
    const zeros = tf.zerosLike(value);
    const p = { name, w: tf.variable(value), m: tf.variable(zeros), v: tf.variable(zeros), decay };
    tf.dispose([value, zeros]); // the variables hold their own references to the data
    vars.push(p);
    return p.w;
  };
  const E = param('embed.token', [V, D], { fanIn: D, decay: true });
  const Pos = param('embed.position', [T, D], { fanIn: D, decay: true });
  const layers = Array.from({ length: d.layers }, (_, i) => {
    const l = {};
    const at = (name) => `layer${i}.${name}`;
    if (d.layerNorm) [l.ln1g, l.ln1b] = [param(at('ln1.gain'), [D], { fill: 1 }), param(at('ln1.bias'), [D])];
    [l.WQ, l.WK, l.WV, l.WO] = ['W_Q', 'W_K', 'W_V', 'W_O'].map((n) => param(at(n), [D, D], { fanIn: D, decay: true }));
    if (d.mlp) {
      if (d.layerNorm) [l.ln2g, l.ln2b] = [param(at('ln2.gain'), [D], { fill: 1 }), param(at('ln2.bias'), [D])];
      l.Win = param(at('mlp.W_in'), [D, M], { fanIn: D, decay: true });
      l.bin = param(at('mlp.b_in'), [M]);
      l.Wout = param(at('mlp.W_out'), [M, D], { fanIn: M, decay: true });
      l.bout = param(at('mlp.b_out'), [D]);
    }
    return l;
  });
  const [lnfg, lnfb] = d.layerNorm ? [param('final_ln.gain', [D], { fill: 1 }), param('final_ln.bias', [D])] : [];
  const U = param('unembed', [D, V], { fanIn: D, decay: true });
  // additive causal mask (T, T): 0 where a query may attend, −1e9 above the diagonal
  const maskData = new Float32Array(T * T);
  for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) maskData[i * T + j] = -1e9;
  const mask = tf.tensor2d(maskData, [T, T]);
  const scale = 1 / Math.sqrt(dh);
  const gelu = (x) =>
    tf.mul(
      tf.mul(x, 0.5),
      tf.add(1, tf.tanh(tf.mul(Math.sqrt(2 / Math.PI), tf.add(x, tf.mul(0.044715, tf.mul(x, tf.square(x))))))),
    );
  const norm = (x, gain, bias) => {
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, 1e-5))), gain), bias);
  };

  /** one-hot tokens (n·len, V) -> logits (n·len, V) */
  function forward(onehot, n, len) {
    const pos = len === T ? Pos : tf.slice(Pos, [0, 0], [len, D]);
    const causal = len === T ? mask : tf.slice(mask, [0, 0], [len, len]);
    let x = tf.reshape(tf.add(tf.reshape(tf.matMul(onehot, E), [n, len, D]), pos), [n * len, D]);
    const heads = (y) => tf.reshape(tf.transpose(tf.reshape(y, [n, len, H, dh]), [0, 2, 1, 3]), [n * H, len, dh]);
    for (const l of layers) {
      const a = d.layerNorm ? norm(x, l.ln1g, l.ln1b) : x;
      const q = heads(tf.matMul(a, l.WQ));
      const kT = tf.transpose(heads(tf.matMul(a, l.WK)), [0, 2, 1]);
      const v = heads(tf.matMul(a, l.WV));
      const weights = tf.softmax(tf.add(tf.mul(tf.matMul(q, kT), scale), causal));
      const o = tf.reshape(tf.transpose(tf.reshape(tf.matMul(weights, v), [n, H, len, dh]), [0, 2, 1, 3]), [
        n * len,
        D,
      ]);
      x = tf.add(x, tf.matMul(o, l.WO));
      if (d.mlp) {
        const m = d.layerNorm ? norm(x, l.ln2g, l.ln2b) : x;
        x = tf.add(x, tf.add(tf.matMul(gelu(tf.add(tf.matMul(m, l.Win), l.bin)), l.Wout), l.bout));
      }
    }
    const f = d.layerNorm ? norm(x, lnfg, lnfb) : x;
    return tf.matMul(f, U);
  }

  const lossOf = (logits, targets, scored) => tf.div(tf.neg(tf.sum(tf.mul(tf.logSoftmax(logits), targets))), scored);

  const rng = makeRng(seed + 1);
  const weights = vars.map((p) => p.w);
  const { learningRate: lr, weightDecay: wd } = d;
  const [beta1, beta2, eps] = [0.9, 0.999, 1e-8];
  let steps = 0;

  /** One AdamW step; returns the loss tensor (the caller disposes it). */
  function stepOnce() {
    const batch = batchOf(
      task,
      Array.from({ length: B }, (_, n) => draw(n, rng)),
    );
    return tf.tidy(() => {
      const onehot = tf.tensor2d(batch.tokens, [B * T, V]);
      const targets = tf.tensor2d(batch.targets, [B * T, V]);
      const { value, grads } = tf.variableGrads(() => lossOf(forward(onehot, B, T), targets, batch.scored), weights);
      steps++;
      const c1 = 1 / (1 - beta1 ** steps);
      const c2 = 1 / (1 - beta2 ** steps);
      for (const p of vars) {
        const g = grads[p.w.name];
        p.m.assign(tf.add(tf.mul(p.m, beta1), tf.mul(g, 1 - beta1)));
        p.v.assign(tf.add(tf.mul(p.v, beta2), tf.mul(tf.square(g), 1 - beta2)));
        const w = p.decay && wd > 0 ? tf.mul(p.w, 1 - lr * wd) : p.w;
        p.w.assign(tf.sub(w, tf.div(tf.mul(p.m, lr * c1), tf.add(tf.sqrt(tf.mul(p.v, c2)), eps))));
      }
      return value;
    });
  }

  return {
    parameters: vars.reduce((sum, p) => sum + p.w.size, 0),
    /** The weights by name ({ shape, data: number[] }; W_Q, W_K, W_V hold every head's columns). */
    weights: () =>
      Object.fromEntries(vars.map((p) => [p.name, { shape: p.w.shape, data: Array.from(p.w.dataSync()) }])),
    /** Replaces the weights with `named` (the form weights() returns); the moments are kept. */
    setWeights(named) {
      for (const p of vars) {
        const given = named[p.name];
        if (!given || given.shape.join() !== p.w.shape.join()) {
          throw new Error(`setWeights: ${p.name} (${p.w.shape}) missing or of another shape`);
        }
        tf.tidy(() => p.w.assign(tf.tensor(given.data, p.w.shape, 'float32')));
      }
    },
    /** The loss of a batch of examples (bits for text), no step: to compare the model with another implementation. */
    loss(examples) {
      const b = batchOf(task, examples);
      const n = examples.length;
      return (
        unit *
        tf.tidy(
          () =>
            lossOf(
              forward(tf.tensor2d(b.tokens, [n * T, V]), n, T),
              tf.tensor2d(b.targets, [n * T, V]),
              b.scored,
            ).dataSync()[0],
        )
      );
    },
    /** count steps; the loss of the last one (read once, as attnbook's step(count) returns it) */
    step(count = 1) {
      let loss;
      for (let i = 0; i < count; i++) {
        loss?.dispose();
        loss = stepOnce();
      }
      const value = loss.dataSync()[0];
      loss.dispose();
      return { step: steps, loss: unit * value };
    },
    /**
     * Teacher-forced loss and greedy answer-token accuracy on `samples` fresh examples; for text,
     * the loss (bits) and next-character accuracy at every position of held-out windows.
     */
    evaluate({ samples = 256, seed: evalSeed = 12345 } = {}) {
      const erng = makeRng(evalSeed);
      if (corpus) {
        const examples = Array.from({ length: samples }, () => heldOutWindow(corpus, T, erng));
        const batch = batchOf(task, examples);
        const [loss, predicted] = tf.tidy(() => {
          const logits = forward(tf.tensor2d(batch.tokens, [samples * T, V]), samples, T);
          const l = lossOf(logits, tf.tensor2d(batch.targets, [samples * T, V]), batch.scored);
          return [l.dataSync()[0], tf.argMax(logits, -1).dataSync()];
        });
        let right = 0;
        examples.forEach((e, n) => e.answer.forEach((tok, t) => (right += predicted[n * T + t] === tok ? 1 : 0)));
        return { loss: unit * loss, accuracy: right / (samples * T) };
      }
      const examples = Array.from({ length: samples }, () => sampleTask(task.id, erng));
      const batch = batchOf(task, examples);
      const loss = tf.tidy(
        () =>
          lossOf(
            forward(tf.tensor2d(batch.tokens, [samples * T, V]), samples, T),
            tf.tensor2d(batch.targets, [samples * T, V]),
            batch.scored,
          ).dataSync()[0],
      );
      const P = task.inputLength;
      const seqs = examples.map((e) => [...e.input]);
      for (let i = 0; i < task.answerLength; i++) {
        const len = P + i;
        const onehot = new Float32Array(samples * len * V);
        seqs.forEach((s, n) => s.forEach((tok, t) => (onehot[(n * len + t) * V + tok] = 1)));
        const next = tf.tidy(() => {
          const logits = tf.reshape(forward(tf.tensor2d(onehot, [samples * len, V]), samples, len), [samples, len, V]);
          return tf.argMax(tf.squeeze(tf.slice(logits, [0, len - 1, 0], [samples, 1, V]), [1]), -1).dataSync();
        });
        seqs.forEach((s, n) => s.push(next[n]));
      }
      let right = 0;
      examples.forEach((e, n) => e.answer.forEach((tok, i) => (right += seqs[n][P + i] === tok ? 1 : 0)));
      return { loss, accuracy: right / (samples * task.answerLength) };
    },
    dispose() {
      for (const p of vars) [p.w, p.m, p.v].forEach((t) => t.dispose());
      mask.dispose();
    },
  };
}
