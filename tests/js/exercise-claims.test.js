// What the exercises tell a learner, checked against the core: each claim that an option, a piece
// of feedback, an explanation or the figure an exercise holds back makes about numbers is stated
// here and computed with the engine (softmax() of the wasm build, in Node). One test per claim,
// named by the lesson and exercise that make it, so that a claim made false by an edit fails by name.
// At the end, one rule of the project's choice exercises: the right option does not stand out by
// its length.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';

const engine = await loadAttention();
const lessonsDir = new URL('../../web/lessons/', import.meta.url);

/** The rows of a (rows × cols) tensor, as plain arrays. */
function rowsOf({ data, shape: [rows, cols] }) {
  return Array.from({ length: rows }, (_, i) => Array.from(data.subarray(i * cols, (i + 1) * cols)));
}
const transpose = (m) => m[0].map((_, j) => m.map((row) => row[j]));
/** torch.softmax(S, dim=-1): each row normalised. */
const softmaxRows = (S) => rowsOf(engine.softmax(S));
/** torch.softmax(S, dim=0): each column normalised (the softmax of Sᵀ's rows, transposed back). */
const softmaxColumns = (S) => transpose(softmaxRows(transpose(S)));
const sums = (m) => m.map((row) => row.reduce((a, b) => a + b, 0));
const columnSums = (m) => sums(transpose(m));
/** The largest |a − b| over two matrices of one shape. */
const maxDifference = (a, b) => Math.max(...a.flatMap((row, i) => row.map((x, j) => Math.abs(x - b[i][j]))));
const F32 = 1e-6; // float32 softmax against exact sums

/** The `name` attribute of the element with id `id` in lesson `lesson`'s Markdown. */
async function attributeOf(lesson, id, name) {
  const source = await readFile(new URL(`${lesson}.md`, lessonsDir), 'utf8');
  const element = source.match(new RegExp(`<[\\w-]+ id="${id}"[^>]*>`))?.[0];
  assert.ok(element, `${lesson}.md has an element with id="${id}"`);
  const value = element.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
  assert.ok(value !== undefined, `${lesson}.md #${id} has a ${name} attribute`);
  return value;
}
const parseMatrix = (text) => text.split(';').map((row) => row.split(',').map(Number));

// attention-matrix, Exercise 3 (am-axis): torch.softmax(S, dim=0) instead of dim=-1 on a square S.
{
  // the held-back figure's S, as its caption gives it
  const S = [
    [2, 0, 1, -1],
    [0, 1, 0, 0],
    [1, 3, -1, 0],
    [-2, 0, 0, 1],
  ];

  test('attention-matrix am-axis, option "Nothing changes" (wrong): a symmetric S is not enough for the two axes to agree', () => {
    const symmetric = [
      [0, 1],
      [1, 5],
    ];
    assert.deepEqual(symmetric, transpose(symmetric));
    assert.ok(maxDifference(softmaxRows(symmetric), softmaxColumns(symmetric)) > 0.1);
    assert.ok(maxDifference(softmaxRows(S), softmaxColumns(S)) > 0.1, "the figure's S: the axes differ");
  });

  test('attention-matrix am-axis, its feedback: the axes agree when every row and column of exp(S) has one sum, even for a non-symmetric S', () => {
    const E = [
      [1, 2, 3],
      [3, 1, 2],
      [2, 3, 1],
    ]; // every row and every column sums to 6
    const notSymmetric = E.map((row) => row.map(Math.log));
    assert.notDeepEqual(notSymmetric, transpose(notSymmetric));
    assert.ok(maxDifference(softmaxRows(notSymmetric), softmaxColumns(notSymmetric)) < F32);
    assert.ok(
      maxDifference(
        softmaxRows(notSymmetric),
        E.map((row) => row.map((x) => x / 6)),
      ) < F32,
    );
  });

  test('attention-matrix am-axis, option "Every column sums to 1" (right), and the figure it holds back', async () => {
    const A = softmaxColumns(S);
    for (const sum of columnSums(A)) assert.ok(Math.abs(sum - 1) < F32, `a column sums to ${sum}`);
    // the caption: the rows sum to 1.30, 0.59, 1.32 and 0.78
    assert.deepEqual(
      sums(A).map((x) => x.toFixed(2)),
      ['1.30', '0.59', '1.32', '0.78'],
    );
    // the figure's values are softmax(S, dim=0), rounded to two decimals
    const shown = parseMatrix(await attributeOf('attention-matrix', 'am-axis-figure', 'values'));
    assert.deepEqual(
      shown,
      A.map((row) => row.map((x) => Number(x.toFixed(2)))),
    );
  });

  test('attention-matrix am-axis, option "Both the rows and the columns" (wrong): one softmax normalises one axis only', () => {
    assert.ok(sums(softmaxColumns(S)).some((sum) => Math.abs(sum - 1) > 0.1));
    assert.ok(columnSums(softmaxRows(S)).some((sum) => Math.abs(sum - 1) > 0.1));
  });

  test('attention-matrix am-axis, option "Some weights become negative" (wrong): every weight stays positive along either axis', () => {
    const wide = S.map((row) => row.map((x) => 10 * x)); // differences of up to 40 between logits
    for (const A of [softmaxRows(S), softmaxColumns(S), softmaxRows(wide), softmaxColumns(wide)]) {
      assert.ok(A.flat().every((x) => x >= 0));
    }
    assert.ok(
      softmaxColumns(S)
        .flat()
        .every((x) => x > 0),
    );
  });
}

// attention-matrix, "Things to try" under the lab (a 5 × 5 S).
{
  const row = [0.3, -1.2, 0.8, 0.1, -0.4];

  test('attention-matrix, things to try: one logit of 8 in a row makes that row of A nearly one-hot', () => {
    const [weights] = softmaxRows([row.map((x, j) => (j === 2 ? 8 : x))]);
    assert.ok(weights[2] > 0.99, `the weight on the large logit is ${weights[2]}`);
  });

  test('attention-matrix, things to try: a row of equal scores gives the uniform weights 1/5', () => {
    const [weights] = softmaxRows([[0.7, 0.7, 0.7, 0.7, 0.7]]);
    for (const w of weights) assert.ok(Math.abs(w - 1 / 5) < F32);
  });

  test('attention-matrix, things to try: adding one constant to a whole row leaves that row of A unchanged', () => {
    const [before, after] = softmaxRows([row, row.map((x) => x + 3.5)]);
    assert.ok(maxDifference([before], [after]) < F32);
  });
}

// scaled-dot-product, Exercise 1 (sdpa-score): one scaled score, its likely mistakes, and the
// figure it holds back (its q and keys read from the lesson).
{
  const vector = (text) => text.split(',').map(Number);
  const scaled = (q, keys, scale) => rowsOf(engine.scores([q], keys, { scale }))[0];

  test('scaled-dot-product sdpa-score: the answer is q · k0 / √d_k of the figure, and each mistake is the slip its feedback names', async () => {
    const q = vector(await attributeOf('scaled-dot-product', 'sdpa-score-figure', 'q'));
    const keys = parseMatrix(await attributeOf('scaled-dot-product', 'sdpa-score-figure', 'k'));
    assert.deepEqual(q, [1, 2, 0, -1], 'the question’s q');
    assert.deepEqual(keys[0], [2, 1, 1, 0], 'the question’s k0');
    const answer = Number(await attributeOf('scaled-dot-product', 'sdpa-score', 'answer'));
    const dk = q.length;
    assert.equal(scaled(q, keys, 1 / Math.sqrt(dk))[0], answer, 'q · k0 / √d_k');
    assert.equal(scaled(q, keys, 1)[0], 4, 'mistake 4: the raw dot product');
    assert.equal(scaled(q, keys, 1 / dk)[0], 1, 'mistake 1: divided by d_k');
    assert.equal(
      q.reduce((sum, x, i) => sum + x + keys[0][i], 0) / 2,
      3,
      'mistake 3: the entries added pairwise, halved',
    );
  });

  test('scaled-dot-product sdpa-score, its explanation: k1 and k2 score −1.5 and 0.5 once scaled', async () => {
    const q = vector(await attributeOf('scaled-dot-product', 'sdpa-score-figure', 'q'));
    const keys = parseMatrix(await attributeOf('scaled-dot-product', 'sdpa-score-figure', 'k'));
    assert.deepEqual(scaled(q, keys, 1 / Math.sqrt(q.length)), [2, -1.5, 0.5]);
  });
}

// softmax-temperature, Exercise 1 (alpha-hot): α0 at τ = 2, the slips its mistakes name, its
// explanation's numbers, and the figure it holds back.
{
  const s = [1.2, 4.5, 2.0, 0.8];
  const alpha0 = (tau) => rowsOf(engine.softmax([s], { temperature: tau }))[0][0];
  /** The `value` of the attn-mistake whose text starts with `start`, in the alpha-hot exercise. */
  const mistakeValue = async (start) => {
    const source = await readFile(new URL('softmax-temperature.md', lessonsDir), 'utf8');
    const block = source.match(/<attn-exercise id="alpha-hot"[\s\S]*?<\/attn-exercise>/)[0];
    const found = [...block.matchAll(/<attn-mistake value="([^"]+)"[^>]*>([^<]*)/g)].find((m) =>
      m[2].startsWith(start),
    );
    assert.ok(found, `a mistake starting "${start}"`);
    return Number(found[1]);
  };
  const near = (x, y, tol, what) => assert.ok(Math.abs(x - y) <= tol, `${what}: ${x} against ${y}`);

  test('softmax-temperature alpha-hot: the answer is α0 at τ = 2, and the figure shows those logits at τ = 2', async () => {
    const answer = Number(await attributeOf('softmax-temperature', 'alpha-hot', 'answer'));
    near(alpha0(2), answer, 0.0006, 'α0 at τ = 2');
    assert.equal(alpha0(2).toFixed(3), '0.117', 'the explanation’s 0.117');
    assert.deepEqual(parseMatrix(await attributeOf('softmax-temperature', 'hot', 'logits'))[0], s);
    assert.equal(Number(await attributeOf('softmax-temperature', 'hot', 'temperature')), 2);
  });

  test('softmax-temperature alpha-hot: each mistake is the slip its feedback names', async () => {
    near(await mistakeValue('0.032 is'), alpha0(1), 0.0006, 'α0 at τ = 1');
    near(await mistakeValue('$0.25'), alpha0(Infinity), 1e-6, 'the limit τ → ∞');
    near(await mistakeValue('About 0.001'), alpha0(0.5), 0.0013, 'α0 at τ = 1/2 (the logits times 2)');
    near(await mistakeValue('0.141 is'), 1.2 / 8.5, 0.0006, 'the logit over the sum of the logits');
    const scaled = s.map((x) => x / 2);
    near(Math.max(...scaled) - Math.min(...scaled), 1.85, 1e-9, 'the scaled logits differ by up to 1.85');
  });
}

// The other number exercises: each answer, and the value of each likely mistake, is what the
// computation its feedback names gives (with the engine where there is attention to compute).
{
  /** The exercise's `answer` and its mistakes as { value: text }, from lesson `lesson`'s Markdown. */
  const question = async (lesson, id) => {
    const source = await readFile(new URL(`${lesson}.md`, lessonsDir), 'utf8');
    const block = source.match(new RegExp(`<attn-exercise id="${id}"[\\s\\S]*?</attn-exercise>`))[0];
    const authored = block.replace(/<attn-variant\b[\s\S]*?<\/attn-variant>/g, '');
    const answer = Number(authored.match(/answer="([^"]+)"/)[1]);
    const mistakes = [...authored.matchAll(/<attn-mistake value="([^"]+)"/g)].map((m) => Number(m[1]));
    return {
      answer,
      mistakes,
      variants: [...block.matchAll(/<attn-variant answer="([^"]+)"[\s\S]*?<\/attn-variant>/g)],
    };
  };
  /** Asserts that `computed` ({ name: value }) holds the answer and exactly the declared mistakes. */
  const matches = ({ answer, mistakes }, { answer: right, ...slips }, tol) => {
    assert.ok(Math.abs(right - answer) <= tol, `the answer ${answer}, computed ${right}`);
    assert.equal(mistakes.length, Object.keys(slips).length, 'one computed slip per declared mistake');
    for (const [name, value] of Object.entries(slips)) {
      assert.ok(
        mistakes.some((m) => Math.abs(m - value) <= tol),
        `the slip "${name}" (${value}) is declared`,
      );
    }
  };
  const weights = (row) => rowsOf(engine.softmax([row]))[0];

  test('attention-matrix am-weight: A[1,0] is the softmax of row 1; the slips are those its feedback names', async () => {
    const row = [1, 0, 2, 0, -1];
    matches(
      await question('attention-matrix', 'am-weight'),
      {
        answer: weights(row)[0],
        'logit over the sum of the logits': row[0] / row.reduce((a, b) => a + b, 0),
        'e^1 / e^2, over the largest exponential': Math.exp(1) / Math.exp(2),
        'equal weights': 1 / row.length,
      },
      0.0006,
    );
  });

  test('attention-matrix am-output: entry 0 of y1 = A[1] · V[:, 0]; the slips are those its feedback names', async () => {
    const A = [
      [0.7, 0.2, 0.1],
      [0.5, 0.25, 0.25],
      [0.1, 0.1, 0.8],
    ];
    const V = [
      [6, 0],
      [0, 2],
      [2, 7],
    ];
    const Y = rowsOf(engine.convexCombination(A, V)); // Y = AV, row by row
    const column = (m, c) => m.map((r) => r[c]);
    const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
    matches(
      await question('attention-matrix', 'am-output'),
      {
        answer: Y[1][0],
        'column 1 of A': dot(column(A, 1), column(V, 0)),
        'the plain mean': (6 + 0 + 2) / 3,
        'row 0 of A': Y[0][0],
        'entry 1 of y1': Y[1][1],
      },
      0.005,
    );
  });

  test('multi-head mh-rows: B·h·T rows of the core’s (B, h, T, T) softmax; the slips count the wrong things', async () => {
    const [B, h, T] = [4, 8, 10];
    const A = engine.softmax(engine.randn([B, h, T, T], 1));
    assert.deepEqual(A.shape, [B, h, T, T]);
    const rowSums = sums(rowsOf({ data: A.data, shape: [B * h * T, T] }));
    assert.ok(
      rowSums.every((x) => Math.abs(x - 1) < F32),
      'every one of them sums to 1',
    );
    matches(
      await question('multi-head', 'mh-rows'),
      { answer: rowSums.length, maps: B * h, 'every weight': B * h * T * T, 'no heads': B * T, 'no batch': h * T },
      0.5,
    );
  });

  test('causal-masking future-count: the core’s causal mask at T = 5 blocks 10 of 25; the slips count the wrong cells', async () => {
    const T = 5;
    const q = engine.randn([T, 4], 3);
    const { weights: W } = engine.attention(q, q, q, { mask: 'causal', returnWeights: true });
    const blocked = rowsOf(W)
      .flat()
      .filter((w) => w === 0).length;
    matches(
      await question('causal-masking', 'future-count'),
      {
        answer: blocked,
        kept: T * T - blocked,
        'off the diagonal': T * T - T,
        'one short per row': blocked - (T - 1),
        all: T * T,
      },
      0.1,
    );
  });

  test('convex-combinations mix-entry: y2 of α·V from the core; the slips are those its feedback names', async () => {
    const alpha = [0.4, 0.1, 0.2, 0.3];
    const V = [
      [1, 0, 0],
      [0, 2, 0],
      [0, 0, 3],
      [1, 1, 1],
    ];
    const y = Array.from(engine.convexCombination([alpha], V).data);
    matches(
      await question('convex-combinations', 'mix-entry'),
      { answer: y[2], 'the plain average of column 2': (0 + 0 + 3 + 1) / 4, 'α2 · 3 alone': alpha[2] * 3, y1: y[1] },
      0.0005,
    );
  });

  test('retrieval faint: α3 for q = 0.2 · vocab[3] from the core; the slips are those its feedback names', async () => {
    const vocab = Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => (i === j ? 5 : 0)));
    const keys = vocab.slice(0, 5);
    const q = vocab[3].map((x) => 0.2 * x);
    const alpha = (scale, ks = keys) => rowsOf(engine.softmax(engine.scores([q], ks, { scale })))[0][3];
    const s = 5 / Math.sqrt(6);
    matches(
      await question('retrieval', 'faint'),
      {
        answer: alpha(1 / Math.sqrt(6)),
        'no 1/√d_k': alpha(1),
        'e^s / (e^s + 1)': Math.exp(s) / (Math.exp(s) + 1),
        'six keys': alpha(1 / Math.sqrt(6), vocab),
        'one-hot': 1,
        uniform: 1 / 5,
      },
      0.002,
    );
  });

  test('scaling-by-sqrt-dk score-spread: the spread of q · k over random draws is √D; the slips are those its feedback names', async () => {
    const D = 128;
    const n = 4096;
    const q = rowsOf(engine.randn([n, D], 11));
    const k = rowsOf(engine.randn([n, D], 12));
    const dots = q.map((row, i) => row.reduce((s, x, j) => s + x * k[i][j], 0));
    const mean = dots.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(dots.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
    assert.ok(Math.abs(sd / Math.sqrt(D) - 1) < 0.05, `measured ${sd} against √D`);
    matches(
      await question('scaling-by-sqrt-dk', 'score-spread'),
      { answer: Math.sqrt(D), variance: D, 'the scaled score': 1, '1/√D': 1 / Math.sqrt(D), 'D/2': D / 2 },
      0.02,
    );
  });

  test('attention-at-scale scale-memory: T × T float32 weights at T = 32,768 take 4 GiB; the slips are those its feedback names', async () => {
    const { weightsBytes } = await import('../../web/src/labs/attention-at-scale/memory-model.js');
    const T = 32768;
    const GiB = 2 ** 30;
    matches(
      await question('attention-at-scale', 'scale-memory'),
      {
        answer: weightsBytes(T) / GiB,
        'the weights, not their bytes': (T * T) / GiB,
        gigabytes: weightsBytes(T) / 1e9,
        'half the length, doubled': (2 * weightsBytes(T / 2)) / GiB,
        'times the width E = 64': (64 * weightsBytes(T)) / GiB,
      },
      0.02,
    );
  });

  test('learning-to-attend attend-position and its variants: reading position r copies input position 11 − r', async () => {
    const q = await question('learning-to-attend', 'attend-position');
    const reading = (text) => Number(text.match(/reads position (\d+)/)[1]);
    assert.equal(q.answer, 11 - 8, 'the authored question reads position 8');
    assert.ok(q.variants.length >= 3);
    for (const [block, answer] of q.variants) assert.equal(Number(answer), 11 - reading(block), block.slice(0, 80));
  });
}

// The choice exercises whose options, feedback or explanation state numbers: each computed.
{
  const close = (x, y, tol, what) => assert.ok(Math.abs(x - y) <= tol, `${what}: ${x} against ${y}`);

  test('softmax-temperature naive-overflow: computed as written in doubles, (1000, 1001, 1002) gives NaN; the true weights are those of (0, 1, 2)', async () => {
    const s = parseMatrix(await attributeOf('softmax-temperature', 'overflow', 'logits'))[0];
    assert.deepEqual(s, [1000, 1001, 1002]);
    const e = s.map(Math.exp);
    assert.ok(
      e.every((x) => x === Infinity),
      'each exp overflows (the largest double is about exp(709.78))',
    );
    close(Math.log(Number.MAX_VALUE), 709.78, 0.005, 'ln of the largest double');
    const sum = e.reduce((a, b) => a + b, 0);
    assert.ok(
      e.every((x) => Number.isNaN(x / sum)),
      '∞ / ∞ is NaN',
    );
    const careful = rowsOf(engine.softmax([s]))[0];
    const shifted = rowsOf(engine.softmax([[0, 1, 2]]))[0];
    assert.ok(maxDifference([careful], [shifted]) < F32, 'the same as (0, 1, 2)');
    assert.deepEqual(
      shifted.map((x) => x.toFixed(3)),
      ['0.090', '0.245', '0.665'],
    );
  });

  test('convex-combinations sum-two: weights (0.5, 0.5, 0.5, 0.5) on four copies of v give 2v; the slips are v, v/2 and 4v', () => {
    const v = [1, 2, 3];
    const alpha = [0.5, 0.5, 0.5, 0.5];
    const y = v.map((x) => alpha.reduce((sum, a) => sum + a * x, 0));
    assert.deepEqual(y, [2, 4, 6]);
    assert.deepEqual(
      v.map((x) => alpha[0] * x),
      [0.5, 1, 1.5],
      'one term',
    );
    assert.deepEqual(
      v.map((x) => 4 * x),
      [4, 8, 12],
      'four copies with weight 1',
    );
  });

  test('convex-hull negative-weight: α = (−1, 1, 0.5, 0.5) on the lab’s values lands at (5, 5.5), above every value; |α| gives (7, 7.5)', async () => {
    const V = parseMatrix(await attributeOf('convex-hull', 'hull', 'values'));
    const mix = (alpha) => [0, 1].map((c) => alpha.reduce((sum, a, j) => sum + a * V[j][c], 0));
    assert.deepEqual(mix([-1, 1, 0.5, 0.5]), [5, 5.5]);
    assert.ok(5.5 > Math.max(...V.map((p) => p[1])), 'no value has a second coordinate as large');
    assert.equal(Math.max(...V.map((p) => p[1])), 4.5, 'the top corner v2 = (5, 4.5)');
    assert.deepEqual(mix([1, 1, 0.5, 0.5]), [7, 7.5], 'the minus sign dropped');
  });

  test('convex-hull cold-limit: as τ → 0 the weights go to position 1 (score 4.5), so y(τ) goes to v1 = (1.5, 4); hot, to the mean', async () => {
    const s = parseMatrix(await attributeOf('convex-hull', 'hull', 'logits'))[0];
    const V = parseMatrix(await attributeOf('convex-hull', 'hull', 'values'));
    const at = (tau) => rowsOf(engine.softmax([s], { temperature: tau }))[0];
    const cold = at(0.01);
    close(cold[1], 1, 1e-6, 'the weight of position 1 at τ = 0.01');
    assert.deepEqual(V[1], [1.5, 4]);
    close(Math.exp((4.5 - 2.0) / 0.1), Math.exp(25), 1e-3, 'the hint’s ratio at τ = 0.1');
    const hot = at(1e6);
    assert.ok(
      hot.every((w) => Math.abs(w - 0.25) < 1e-5),
      'the hot limit: 1/4 each',
    );
  });

  test('retrieval blend: q = vocab[2] + vocab[4] scores keys 2 and 4 at 25, the rest 0: about 0.49997 each, 0.00002 elsewhere', () => {
    const vocab = Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => (i === j ? 5 : 0)));
    const keys = vocab.slice(0, 5);
    const q = vocab[2].map((x, j) => x + vocab[4][j]);
    assert.deepEqual(rowsOf(engine.scores([q], keys, { scale: 1 }))[0], [0, 0, 25, 0, 25]);
    const w = rowsOf(engine.softmax(engine.scores([q], keys)))[0];
    close(w[2], 0.49997, 5e-6, 'α2');
    close(w[4], w[2], F32, 'α4 = α2');
    for (const j of [0, 1, 3]) close(w[j], 0.00002, 5e-6, `α${j}`);
    close(25 / Math.sqrt(6), 10.21, 0.005, 'the scaled score');
  });

  test('scaling-by-sqrt-dk max-weight: over 1,000 draws at D = 128 the mean largest weight is about 0.93 unscaled, 0.46 scaled (0.72 at D = 8, 0.96 at D = 512)', () => {
    const stats = (scaled) =>
      engine.scalingStatistics({ dims: [8, 128, 512], scaled, draws: 1000, seed: 0, tokens: 5 });
    const [d8, d128, d512] = stats(false).meanMaxWeight;
    close(d128, 0.93, 0.005, 'unscaled, D = 128');
    close(d8, 0.72, 0.005, 'unscaled, D = 8');
    close(d512, 0.96, 0.005, 'unscaled, D = 512');
    close(stats(true).meanMaxWeight[1], 0.46, 0.01, 'scaled, D = 128');
    close(Math.sqrt(128), 11.3, 0.05, 'the spread √128');
  });

  test('queries-keys-values identity-pick: with W_Q = W_K = I token 2 scores (−1, 1.5, 1.25, 0.5, −2) and picks token 1', async () => {
    const { computeWorld } = await import('../../web/src/labs/queries-keys-values/qkv-world-model.js');
    const world = computeWorld(engine, { angleQ: 0, scaleQ: 1, angleK: 0, scaleK: 1 });
    assert.deepEqual(world.dots[2], [-1, 1.5, 1.25, 0.5, -2]);
    assert.equal(world.picks[2], 1);
  });

  test('scaled-dot-product sdpa-shape: Q (2, 5, 8), K (2, 7, 8), V (2, 7, 3) give the output (2, 5, 3) and the weights (2, 5, 7)', () => {
    const [q, k, v] = [
      [2, 5, 8],
      [2, 7, 8],
      [2, 7, 3],
    ].map((shape, i) => engine.randn(shape, i + 1));
    const { output, weights } = engine.attention(q, k, v, { returnWeights: true });
    assert.deepEqual(output.shape, [2, 5, 3]);
    assert.deepEqual(weights.shape, [2, 5, 7]);
  });

  test('attention-at-scale scale-fused: doubling T doubles what fused attention allocates; the T × T weights would quadruple', async () => {
    const { weightsBytes } = await import('../../web/src/labs/attention-at-scale/memory-model.js');
    const fusedBytes = (T) => {
      const x = engine.randn([T, 64], 1);
      return engine.attention(x, x, x).scratchBytes;
    };
    const [a, b] = [fusedBytes(1024), fusedBytes(2048)];
    assert.ok(a > 0);
    close(b / a, 2, 0.1, 'the memory, ×2');
    assert.equal(weightsBytes(2048) / weightsBytes(1024), 4, 'storing the weights would be ×4');
  });
}

// causal-masking, Exercises 2 (empty-row) and 4 (window-conv), on the labs' Q, K, V (seed 0).
{
  const { B, T, batchOf, drawQKV } = await import('../../web/src/labs/common/qkv-lab.js');
  const { bandWeights, convMatrix } = await import('../../web/src/labs/causal-masking/band-conv-model.js');
  const { q, k, v } = drawQKV(engine, 0);

  test('causal-masking empty-row, the painter it holds back: a row with every key blocked gets weights of 0 and a zero output, and is counted', () => {
    const mask = Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => (i !== 2 && j <= i ? 1 : 0)));
    const { output, weights, fullyMaskedRows } = engine.attention(q, k, v, { mask, returnWeights: true });
    assert.equal(fullyMaskedRows, B, 'row 2 of each batch');
    for (let b = 0; b < B; b++) {
      const A = rowsOf(batchOf(weights, b));
      assert.deepEqual(A[2], Array(T).fill(0));
      assert.deepEqual(rowsOf(batchOf(output, b))[2], Array(q.shape[2]).fill(0));
      for (const i of [0, 1, 3, 4]) assert.ok(Math.abs(sums([A[i]])[0] - 1) < F32, `row ${i} still sums to 1`);
    }
  });

  test('causal-masking window-conv, option "come from each query’s scores" (right): in the band they vary by row, are ≥ 0 and sum to 1', () => {
    const A = rowsOf(bandWeights(engine));
    const triple = (row, i) => [-1, 0, 1].map((o) => row[i + o]); // the weights on i − 1, i, i + 1
    for (const [i, row] of A.entries()) {
      assert.ok(Math.abs(sums([row])[0] - 1) < F32, `row ${i} sums to 1`);
      assert.ok(
        row.every((x, j) => (Math.abs(i - j) <= 1 ? x > 0 : x === 0)),
        `row ${i}: > 0 in the band, 0 outside`,
      );
    }
    // "Nowhere" (wrong): the inner rows do not hold one triple shifted along, as a convolution's rows do
    const inner = [1, 2, 3].map((i) => triple(A[i], i));
    assert.ok(maxDifference([inner[0]], [inner[1]]) > 0.05 && maxDifference([inner[1]], [inner[2]]) > 0.05);
    const conv = convMatrix([0.25, 0.5, 0.25]);
    assert.deepEqual(triple(conv[1], 1), triple(conv[3], 3));
    // "Attention's weights must be >= 0" is the softmax's; a kernel can hold negative taps
    assert.deepEqual(convMatrix([-1, 2, -1])[2], [0, -1, 2, -1, 0]);
  });
}

// A choice exercise of the project's lessons does not give itself away by its look: the right
// option is no longer than 1.25 times the longest wrong one (maths counted by its source).
{
  const { PROJECT_LESSONS } = await import('../fixtures/lessons/project-lessons.js');
  test("the project's choice exercises: the right option does not stand out by its length", async () => {
    const long = [];
    for (const lesson of PROJECT_LESSONS) {
      const source = await readFile(new URL(`${lesson}.md`, lessonsDir), 'utf8');
      for (const [block] of source.matchAll(/<attn-exercise\b[^>]*mode="choice"[^>]*>[\s\S]*?<\/attn-exercise>/g)) {
        const options = [...block.matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/g)].map(([, attrs, text]) => ({
          right: /\sdata-correct\b/.test(attrs),
          length: text.trim().length,
        }));
        const right = options.find((o) => o.right);
        const wrong = Math.max(...options.filter((o) => !o.right).map((o) => o.length));
        assert.ok(right && options.length >= 2, `${lesson}: a choice exercise with a right option and a wrong one`);
        if (right.length > 1.25 * wrong)
          long.push(`${lesson} ${block.match(/id="([^"]+)"/)[1]}: ${right.length} > ${wrong}`);
      }
    }
    assert.deepEqual(long, []);
  });
}
