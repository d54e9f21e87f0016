// The text task through the engine (issue 38 §2): trainingTasks' entry and its alphabet, the
// default corpus, encode / decode / unknownCharacters, predict at every position with attention
// (layers, heads, T, T), evaluate in bits per character, exportState carrying the text, the pool
// training it bit for bit as one thread does, the copying probe, and every bad text refused with
// an AttentionError naming what is wrong, the module usable afterwards.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_TEXT } from 'attnbook';
import { refuses, trainerSuite } from './trainer-helpers.js';

let attn;
const suite = trainerSuite((loaded) => {
  attn = loaded;
});
const { trainer } = suite;

const ALPHABET = " !'(),-.0123456789:;?abcdefghijklmnopqrstuvwxyz";

describe('the text task', () => {
  test('trainingTasks lists it with its fixed alphabet; the default corpus is written in it', () => {
    const info = attn.trainingTasks().find((t) => t.id === 'text');
    assert.equal(info.alphabet, ALPHABET);
    assert.equal(info.vocab, ALPHABET.length + 1);
    assert.deepEqual([info.inputLength, info.answerLength, info.seqLen], [1, 64, 64]);
    assert.deepEqual([info.defaults.layers, info.defaults.mlp, info.defaults.layerNorm], [2, false, false]);
    assert.ok(DEFAULT_TEXT.length > 50000, `${DEFAULT_TEXT.length} characters`);
    assert.deepEqual(
      [...new Set(DEFAULT_TEXT)].filter((c) => !ALPHABET.includes(c)),
      [],
    );
    for (const c of 'abcdefghijklmnopqrstuvwxyz') assert.ok(DEFAULT_TEXT.includes(c), c);
  });

  test('createTrainer without a text trains on the default corpus; its task says how', () => {
    const t = trainer({ task: 'text', seed: 1, batchSize: 4 });
    assert.equal(t.config.text, DEFAULT_TEXT);
    assert.equal(t.task.alphabet, ALPHABET);
    assert.equal(t.task.heldOut, Math.floor(DEFAULT_TEXT.length / 10));
    assert.ok(t.task.unigramBits > 4 && t.task.unigramBits < 4.5, `${t.task.unigramBits} bits`);
    const { loss } = t.step(1);
    assert.ok(Math.abs(loss - Math.log2(48)) < 0.5, `first loss ${loss} bits, about log2 48 for uniform guesses`);
    const e = t.evaluate({ samples: 8 });
    assert.ok(e.loss > 4 && e.loss < 6.5 && e.accuracy >= 0 && e.accuracy <= 1, JSON.stringify(e));
  });

  test('a text of its own has its own alphabet in code-point order, and encode / decode / unknownCharacters', () => {
    const t = trainer({ task: 'text', text: 'Mr Dursley, Mr Dursley!', batchSize: 2 });
    assert.equal(t.task.alphabet, ' !,DMelrsuy');
    assert.equal(t.task.vocab, 12);
    assert.equal(t.task.heldOut, 0);
    assert.deepEqual(t.encode('Mr D'), [4, 7, 0, 3]);
    assert.deepEqual(t.encode('Mrs Q'), [4, 7, 8, 0, 11]);
    assert.equal(t.decode([4, 7, 0, 3, 11]), 'Mr D\uFFFD');
    assert.deepEqual(t.unknownCharacters('Mrs Quirrell 👋'), ['Q', 'i', '👋']);
    assert.deepEqual(t.encode('👋'), [11], 'one id per code point');
    refuses(() => t.decode([0, 12]), 'ValueError', /^decode: ids\[1\] is 12; text tokens are 0\.\.11$/);
    refuses(() => t.encode(42), 'TypeError', /^encode: text must be a string, got number 42/);
    const reverse = trainer({ task: 'reverse' });
    refuses(
      () => reverse.encode('ab'),
      'ValueError',
      /^encode: only a text trainer has an alphabet; this trainer's task is reverse$/,
    );
  });

  test('predict: the likeliest next character after every position of an input of any length, and attention (layers, heads, T, T)', () => {
    const t = trainer({ task: 'text', seed: 2, batchSize: 4 });
    t.step(5);
    for (const text of ['a', 'the cat', 'mr dursley of number four, privet drive'.slice(0, 39)]) {
      const ids = t.encode(text);
      const { output, attention } = t.predict(ids);
      const T = ids.length;
      assert.equal(output.length, T);
      assert.deepEqual(attention.shape, [2, 2, T, T]);
      // row-major [((layer · heads + head) · T + query) · T + key]; each row sums to 1 over keys ≤ query
      for (let lh = 0; lh < 4; lh++) {
        for (let q = 0; q < T; q++) {
          let sum = 0;
          for (let k = 0; k < T; k++) {
            const w = attention.data[(lh * T + q) * T + k];
            if (k > q) assert.equal(w, 0, `masked key ${k} of query ${q}`);
            sum += w;
          }
          assert.ok(Math.abs(sum - 1) < 1e-5, `row ${q} of head ${lh} sums to ${sum}`);
        }
      }
      // a prefix predicts what the whole does at its positions (causal)
      assert.deepEqual(t.predict(ids.slice(0, 1)).output, output.slice(0, 1));
    }
    refuses(
      () => t.predict(new Array(65).fill(0)),
      'ShapeError',
      /^predict: a sequence of 65 tokens; the model reads 1\.\.64$/,
    );
    refuses(() => t.predict([0, 48]), 'ValueError', /^predict: input\[1\] is 48; text tokens are 0\.\.47$/);
  });

  test('exportState carries the text; loadTrainer continues bit for bit', () => {
    const t = trainer({ task: 'text', text: 'abc abd abe abf abg abh '.repeat(40), seed: 3, batchSize: 4 });
    t.step(3);
    const saved = JSON.parse(JSON.stringify(t.exportState()));
    assert.equal(saved.config.text, t.config.text);
    const u = attn.loadTrainer(saved);
    suite.keep(u);
    t.step(4);
    u.step(4);
    assert.deepEqual(u.exportState(), t.exportState());
    const { text, ...withoutText } = saved.config;
    assert.ok(text);
    refuses(
      () => attn.loadTrainer({ ...saved, config: withoutText }),
      'TypeError',
      /^loadTrainer: state\.config\.text is missing$/,
    );
  });

  test('refuses bad texts with errors that say what is wrong, and stays usable', () => {
    const bad = [
      [{ text: '' }, 'ValueError', /^createTrainer: the text is empty; give at least two different characters$/],
      [{ text: 'x' }, 'ValueError', /^createTrainer: the text has only the character 'x'; it needs at least two/],
      [{ text: 'zzzz' }, 'ValueError', /only the character 'z'/],
      [
        { text: 'a'.repeat((1 << 20) + 1) },
        'ValueError',
        /^createTrainer: text has 1048577 bytes of UTF-8; at most 1048576 \(1 MiB\)/,
      ],
      [
        { text: Array.from({ length: 129 }, (_, i) => String.fromCodePoint(0x100 + i)).join('') },
        'ValueError',
        /^createTrainer: the text has 129 different characters; at most 128 are supported/,
      ],
      [{ text: 'ab\uD800c' }, 'ValueError', /^createTrainer: text has a lone surrogate \(U\+D800\) at index 2$/],
      [{ text: 7 }, 'TypeError', /^createTrainer: text must be a string, got number 7/],
    ];
    for (const [options, kind, message] of bad)
      refuses(() => attn.createTrainer({ task: 'text', ...options }), kind, message);
    refuses(
      () => attn.createTrainer({ task: 'sort', text: 'abc' }),
      'ValueError',
      /^createTrainer: text is only for the text task; this trainer's task is sort$/,
    );
    const t = trainer({ task: 'text', text: 'ab', batchSize: 2 });
    assert.equal(t.task.alphabet, ALPHABET);
    assert.ok(Number.isFinite(t.step(2).loss));
  });

  test('head knock-outs and copyingProbe: per-head scores, layer-major, and the probe refusing bad options', () => {
    const t = trainer({ task: 'text', seed: 4, batchSize: 4 });
    const probe = t.copyingProbe({ count: 8 });
    assert.deepEqual(Object.keys(probe), [
      'firstCopyAccuracy',
      'secondCopyAccuracy',
      'previousToken',
      'prefixMatching',
      'previousTokenHeads',
      'inductionHeads',
      'knockedOutAccuracy',
      'copiesInContext',
    ]);
    assert.equal(probe.previousToken.length, 4);
    assert.equal(probe.copiesInContext, false, 'untrained');
    assert.ok(probe.secondCopyAccuracy < 0.2);
    t.setHeadEnabled(1, 0, false);
    assert.deepEqual(t.copyingProbe({ count: 8 }).prefixMatching, probe.prefixMatching, 'attention is still reported');
    refuses(() => t.copyingProbe({ length: 40 }), 'ShapeError', /^copyingProbe: strings of 40 symbols written twice/);
    refuses(() => t.copyingProbe({ count: 0 }), 'ValueError', /^copyingProbe: count is 0/);
    refuses(
      () => t.copyingProbe({ seeds: 1 }),
      'TypeError',
      /^copyingProbe: seeds is not an option; the options are length, count, seed$/,
    );
  });
});

describe('the text task in a pool', () => {
  test('pool.createTrainer without a text trains on the default corpus, bit for bit as one thread does', async () => {
    const pool = await attn.createPool({ threads: 2, minPartMs: 0 }); // every step shared
    try {
      const pooled = await pool.createTrainer({ task: 'text', seed: 6, batchSize: 16 });
      const alone = trainer({ task: 'text', seed: 6, batchSize: 16 });
      assert.equal(pooled.config.text, DEFAULT_TEXT);
      await pooled.step(12);
      alone.step(12);
      assert.deepEqual(await pooled.exportState(), alone.exportState());
      const ids = alone.encode('abc abc');
      assert.deepEqual(await pooled.encode('abc abc'), ids);
      assert.deepEqual((await pooled.predict(ids)).output, alone.predict(ids).output);
      assert.deepEqual(await pooled.copyingProbe({ count: 4 }), alone.copyingProbe({ count: 4 }));
      await pooled.dispose();
    } finally {
      pool.dispose();
    }
  });
});

describe('circuits', () => {
  test("the committed model's induction heads copy (OV) and look for the letter after the one they read (QK through the previous-token head)", async () => {
    const { readFileSync } = await import('node:fs');
    const { TRAINED_TEXT_FILE } = await import('../../scripts/train-text.mjs');
    const t = attn.loadTrainer(JSON.parse(readFileSync(TRAINED_TEXT_FILE, 'utf8')));
    suite.keep(t);
    const letters = [...'abcdefghijklmnopqrstuvwxyz'].map((c) => ALPHABET.indexOf(c));
    const V = t.task.vocab;
    // share of letters whose row is largest, among the letters, on the diagonal (chance 1/26)
    const diagonal = ({ data, shape }) => {
      assert.deepEqual(shape, [V, V]);
      const best = (a) => letters.reduce((m, b) => (data[a * V + b] > data[a * V + m] ? b : m), letters[0]);
      return letters.filter((a) => best(a) === a).length / letters.length;
    };
    const { previousToken, prefixMatching } = t.copyingProbe();
    const previous = previousToken[0] > previousToken[1] ? 0 : 1;
    const induction = prefixMatching[2] > prefixMatching[3] ? 0 : 1;
    assert.ok(diagonal(t.ovCircuit(1, induction)) >= 0.7, 'OV copies');
    assert.ok(diagonal(t.qkCircuit(1, induction, previous)) >= 0.9, 'QK matches the letter');
    assert.ok(diagonal(t.ovCircuit(0, previous)) < 0.2, 'the previous-token head does not copy to the output');
    refuses(() => t.qkCircuit(0, 0, 0), 'ShapeError', /^qkCircuit: layer 0 has no earlier head/);
    refuses(() => t.ovCircuit(2, 0), 'ShapeError', /^ovCircuit: layer 2 is out of range; the model has layers 0\.\.1$/);
    const mlp = trainer({ task: 'text', mlp: true, batchSize: 2 });
    refuses(
      () => mlp.ovCircuit(0, 0),
      'ValueError',
      /^ovCircuit: circuits are read off attention-only models; this one has an MLP$/,
    );
  });
});
