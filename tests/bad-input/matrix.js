/**
 * The bad-input matrix: every public function of the engine and every field a
 * learner types numbers into, each with every class of bad input that applies.
 * tests/js/bad-input.test.js runs the API rows against both wasm builds and
 * tests/e2e/bad-input.test.js the editor rows in Chromium.
 *
 * Classes of bad input (CLASSES below):
 *   NaN, +Infinity, -Infinity   a non-finite value in a tensor or a number argument
 *   empty                       a tensor with no elements, a list with nothing in it
 *   wrong rank                  a tensor with too few or too many axes
 *   mismatched shapes           shapes that do not fit together (or data that does not fit its shape)
 *   ragged rows                 rows of different lengths
 *   non-numeric                 a string or other non-number where a number belongs
 *   enormous size               sizes beyond wasm memory or beyond a 32-bit size_t
 *   negative temperature, NaN temperature
 *                               τ must be >= 0; τ = 0 is no error (the exact argmax limit of the
 *                               numerics contract) and τ = +Infinity gives uniform weights
 *   out of range                a whole-number argument (heads, count, seed, d) negative, zero or fractional
 *   off the simplex             weights that are negative or whose rows do not sum to 1
 *                               (only convexCombination requires the simplex; entropy rejects
 *                               negative weights and documents rows not summing to 1 as allowed)
 *   mask of the wrong shape, mask of the wrong type
 *   wrong argument type         an argument or options object of the wrong JS type
 *
 * A class is left out of a function where it cannot be bad: -Infinity logits are masked
 * positions in softmax, splitHeads/mergeHeads only move values (so non-finite values pass),
 * rowStochasticReport reports on rows off the simplex rather than refusing them, an empty
 * points list has an empty answer in pointsInHull, memory() and trainingTasks() take no input.
 * The trainer's own methods (step, predict, ...) are not engine methods: tests/js/trainer.test.js
 * covers their bad input.
 *
 * API rows: { fn, cls, what, args: (attn) => [...], kind, message }; fn is a method of the
 * engine (or loadAttention), args builds fresh arguments (from the engine when it needs one:
 * loadTrainer's states come from a trainer), kind is the AttentionError's
 * kind and message a RegExp the message must match (naming the argument and the problem).
 * Editor rows: { field, cls, text, error } grouped per field in EDITORS; see there.
 */

export const CLASSES = [
  'NaN',
  '+Infinity',
  '-Infinity',
  'empty',
  'wrong rank',
  'mismatched shapes',
  'ragged rows',
  'non-numeric',
  'enormous size',
  'negative temperature',
  'NaN temperature',
  'out of range',
  'off the simplex',
  'mask of the wrong shape',
  'mask of the wrong type',
  'wrong argument type',
];

// Fixtures: small deterministic tensors (rows of plain numbers).
const grid = (rows, cols, f) => Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => f(i, j)));
const Q = grid(3, 4, (i, j) => Math.sin(3 * i + j));
const K = grid(3, 4, (i, j) => Math.cos(2 * i - j));
const V = grid(3, 2, (i, j) => i - j / 2);
/** `rows` with one entry replaced: rows[r][c] = value. */
const put = (rows, r, c, value) => rows.map((row, i) => row.map((x, j) => (i === r && j === c ? value : x)));
/** A {data, shape} tensor of `n` values (a Float32Array: allocated lazily by the OS, never written). */
const huge = (shape) => ({ data: new Float32Array(shape.reduce((a, b) => a * b, 1)), shape });
const BIG = 2 ** 29; // 2 GiB of float32: more than the 32-bit wasm heap can give one tensor
const POINTS = [
  [1, 1],
  [1.5, 4],
  [5, 4.5],
  [4, 0.5],
];

/** A state exported from a retrieval2d trainer (1 layer, 1 head, dModel 2: 46 weights) after 2 steps. */
export function trainerState(attn) {
  const trainer = attn.createTrainer({ task: 'retrieval2d', seed: 3 });
  trainer.step(2);
  const state = trainer.exportState();
  trainer.dispose();
  return state;
}

const rows = [];
const row = (fn, cls, what, args, kind, message) => rows.push({ fn, cls, what, args, kind, message });

// ---- softmax(logits, { temperature }) and softmaxReference(logits, { temperature }): the same contract ----
for (const fn of ['softmax', 'softmaxReference']) {
  row(fn, 'NaN', 'a NaN logit', () => [[1, NaN, 3]], 'ValueError', /logits\[1\] is NaN/);
  row(
    fn,
    '+Infinity',
    'a +Infinity logit',
    () => [
      put(
        [
          [0, 1],
          [2, 3],
        ],
        1,
        1,
        Infinity,
      ),
    ],
    'ValueError',
    /logits\[1, 1\] is Infinity; only -Infinity/,
  );
  row(fn, 'empty', 'an empty array', () => [[]], 'ShapeError', /logits are empty \(shape \[0\]\)/);
  row(
    fn,
    'empty',
    'rows of length 0',
    () => [{ data: [], shape: [2, 0] }],
    'ShapeError',
    /logits are empty \(shape \[2, 0\]\)/,
  );
  row(
    fn,
    'wrong rank',
    'a scalar',
    () => [{ data: [1], shape: [] }],
    'ShapeError',
    /logits must have at least one axis, got a scalar/,
  );
  row(
    fn,
    'mismatched shapes',
    'data not filling the shape',
    () => [{ data: new Float32Array(5), shape: [2, 3] }],
    'ShapeError',
    /logits: data has 5 values but shape \[2, 3\] needs 6/,
  );
  row(
    fn,
    'ragged rows',
    'rows of 2 and 1',
    () => [[[1, 2], [3]]],
    'ShapeError',
    /logits\[1\] has 1 value but logits\[0\] has 2/,
  );
  row(
    fn,
    'non-numeric',
    'a string entry',
    () => [[1, '2', 3]],
    'TypeError',
    /logits\[1\] is the string "2", not a number/,
  );
  row(
    fn,
    'non-numeric',
    'a nested array entry',
    () => [
      [
        [1, 2],
        [3, [4]],
      ],
    ],
    'TypeError',
    /logits\[1\]\[1\] is an array of length 1, not a number/,
  );
  row(
    fn,
    'enormous size',
    '2^29 logits',
    () => [huge([BIG])],
    'MemoryError',
    new RegExp(`logits: shape \\[536870912\\] needs ${fn === 'softmax' ? 2048 : 4096} MiB`),
  );
  row(
    fn,
    'enormous size',
    'a shape of 2^40 elements',
    () => [{ data: new Float32Array(4), shape: [2 ** 20, 2 ** 20] }],
    'ShapeError',
    /logits: data has 4 values but shape \[1048576, 1048576\] needs 1099511627776/,
  );
  row(
    fn,
    'negative temperature',
    'τ = -1',
    () => [[1, 2], { temperature: -1 }],
    'ValueError',
    /temperature must be >= 0, got -1/,
  );
  row(
    fn,
    'negative temperature',
    'τ = -Infinity',
    () => [[1, 2], { temperature: -Infinity }],
    'ValueError',
    /temperature must be >= 0, got -Infinity/,
  );
  row(
    fn,
    'NaN temperature',
    'τ = NaN',
    () => [[1, 2], { temperature: NaN }],
    'ValueError',
    /temperature is NaN; use a value > 0/,
  );
  row(
    fn,
    'wrong argument type',
    'a string for logits',
    () => ['1,2,3'],
    'TypeError',
    /logits must be a tensor \{ data, shape \}, an array of numbers or a Float32Array; got the string "1,2,3"/,
  );
  row(fn, 'wrong argument type', 'null logits', () => [null], 'TypeError', /logits must be a tensor .*got null/);
  row(
    fn,
    'wrong argument type',
    'a string temperature',
    () => [[1, 2], { temperature: '2' }],
    'TypeError',
    /temperature must be a number, got the string "2"/,
  );
  row(
    fn,
    'wrong argument type',
    'null options',
    () => [[1, 2], null],
    'TypeError',
    new RegExp(`${fn}: options must be an object such as \\{ temperature: 1 \\}, got null`),
  );
  row(
    fn,
    'wrong argument type',
    'a number for options',
    () => [[1, 2], 0.5],
    'TypeError',
    new RegExp(`${fn}: options must be an object .*got number 0\\.5`),
  );
  row(
    fn,
    'wrong argument type',
    'a BigInt64Array',
    () => [new BigInt64Array(2)],
    'TypeError',
    /logits: BigInt64Array is not supported/,
  );
}

// ---- attention(q, k, v, options), attentionReference(q, k, v, options) and scores(q, k, options):
// the same contract; scores (passes 1–2 alone) takes no v and of the options only scale and mask,
// so the rows about v, the temperature and returnWeights/returnLogits are not its (vRow) ----
for (const fn of ['attention', 'attentionReference', 'scores']) {
  const withV = fn !== 'scores';
  const a = (q, k, v, options) => () => [
    q(),
    k(),
    ...(withV ? [v()] : []),
    ...(options === undefined ? [] : [options]),
  ];
  const vRow = withV ? row : () => {};
  const [q, k, v] = [() => Q, () => K, () => V];
  row(
    fn,
    'NaN',
    'in k',
    a(q, () => put(K, 1, 1, NaN), v),
    'ValueError',
    /k\[1, 1\] is NaN/,
  );
  row(
    fn,
    'NaN',
    'in q',
    a(() => put(Q, 2, 3, NaN), k, v),
    'ValueError',
    /q\[2, 3\] is NaN/,
  );
  row(
    fn,
    'NaN',
    'in an additive mask',
    a(q, k, v, {
      mask: {
        additive: put(
          grid(3, 3, () => 0),
          0,
          1,
          NaN,
        ),
      },
    }),
    'ValueError',
    /additive mask\[0, 1\] is NaN; use -Infinity to forbid a key/,
  );
  row(fn, 'NaN', 'scale', a(q, k, v, { scale: NaN }), 'ValueError', /scale is NaN; leave it out for 1\/sqrt\(E\)/);
  row(
    fn,
    '+Infinity',
    'in q',
    a(() => put(Q, 0, 2, Infinity), k, v),
    'ValueError',
    /q\[0, 2\] is Infinity/,
  );
  row(
    fn,
    '+Infinity',
    'scale',
    a(q, k, v, { scale: Infinity }),
    'ValueError',
    /scale must be a finite number, got Infinity/,
  );
  row(
    fn,
    '+Infinity',
    'in an additive mask',
    a(q, k, v, {
      mask: {
        additive: put(
          grid(3, 3, () => 0),
          2,
          0,
          Infinity,
        ),
      },
    }),
    'ValueError',
    /additive mask\[2, 0\] is Infinity/,
  );
  // float32 logits overflow; the float64 reference holds 1e300 · q·k and gives its weights
  if (fn !== 'attentionReference') {
    row(
      fn,
      '+Infinity',
      'logits overflowing float32',
      a(q, k, v, { scale: 1e300 }),
      'ValueError',
      /logits of query row 0 overflow float32/,
    );
  }
  vRow(
    fn,
    '-Infinity',
    'in v',
    a(q, k, () => put(V, 2, 0, -Infinity)),
    'ValueError',
    /v\[2, 0\] is -Infinity/,
  );
  row(
    fn,
    '-Infinity',
    'scale',
    a(q, k, v, { scale: -Infinity }),
    'ValueError',
    /scale must be a finite number, got -Infinity/,
  );
  row(
    fn,
    'empty',
    'no queries',
    a(() => ({ data: [], shape: [0, 4] }), k, v),
    'ShapeError',
    /q is empty/,
  );
  row(
    fn,
    'empty',
    'no keys',
    a(
      q,
      () => ({ data: [], shape: [0, 4] }),
      () => ({ data: [], shape: [0, 2] }),
    ),
    'ShapeError',
    /k is empty/,
  );
  row(
    fn,
    'wrong rank',
    'q of rank 1',
    a(() => [1, 2, 3, 4], k, v),
    'ShapeError',
    /q must have shape \(\.\.\., L, E\), got \[4\]/,
  );
  vRow(
    fn,
    'wrong rank',
    'v of rank 1',
    a(q, k, () => [1, 2, 3]),
    'ShapeError',
    /v must have shape \(\.\.\., S, Ev\), got \[3\]/,
  );
  row(
    fn,
    'wrong rank',
    'a scalar k',
    a(q, () => ({ data: [1], shape: [] }), v),
    'ShapeError',
    /k must have shape \(\.\.\., S, E\), got \[\]/,
  );
  row(
    fn,
    'mismatched shapes',
    'E of q and k',
    a(q, () => grid(3, 3, () => 1), v),
    'ShapeError',
    /q has E = 4 but k has E = 3/,
  );
  vRow(
    fn,
    'mismatched shapes',
    'S of k and v',
    a(q, k, () => grid(2, 2, () => 1)),
    'ShapeError',
    /k has S = 3 keys but v has 2 values/,
  );
  row(
    fn,
    'mismatched shapes',
    'batch axes that do not broadcast',
    a(
      () => ({ data: new Float32Array(24), shape: [2, 3, 4] }),
      () => ({ data: new Float32Array(36), shape: [3, 3, 4] }),
      v,
    ),
    'ShapeError',
    /do not broadcast/,
  );
  row(
    fn,
    'ragged rows',
    'in q',
    a(
      () => [
        [1, 2, 3, 4],
        [1, 2],
      ],
      k,
      v,
    ),
    'ShapeError',
    /q\[1\] has 2 values but q\[0\] has 4/,
  );
  vRow(
    fn,
    'non-numeric',
    'a string in v',
    a(q, k, () => put(V, 0, 1, 'x')),
    'TypeError',
    /v\[0\]\[1\] is the string "x", not a number/,
  );
  vRow(
    fn,
    'enormous size',
    '30,000² weights',
    a(
      () => huge([30000, 1]),
      () => huge([30000, 1]),
      () => huge([30000, 1]),
      { returnWeights: true },
    ),
    'MemoryError',
    /30000, 30000\].*MiB/,
  );
  row(
    fn,
    'enormous size',
    '2^29 queries',
    a(
      () => huge([BIG, 1]),
      () => [[1]],
      () => [[1]],
    ),
    'MemoryError',
    /q: shape \[536870912, 1\] needs 2048 MiB/,
  );
  vRow(
    fn,
    'negative temperature',
    'τ = -1',
    a(q, k, v, { temperature: -1 }),
    'ValueError',
    /temperature must be >= 0, got -1/,
  );
  vRow(
    fn,
    'negative temperature',
    'τ = -Infinity',
    a(q, k, v, { temperature: -Infinity }),
    'ValueError',
    /temperature must be >= 0, got -Infinity/,
  );
  vRow(fn, 'NaN temperature', 'τ = NaN', a(q, k, v, { temperature: NaN }), 'ValueError', /temperature is NaN/);
  row(
    fn,
    'mask of the wrong shape',
    'a 2×2 mask for 3×3 weights',
    a(q, k, v, {
      mask: [
        [1, 0],
        [0, 1],
      ],
    }),
    'ShapeError',
    /boolean mask of shape \[2, 2\] does not broadcast to \(\.\.\., L, S\) = \[3, 3\]/,
  );
  row(
    fn,
    'mask of the wrong shape',
    'a mask of rank 1 and length 2',
    a(q, k, v, { mask: [true, false] }),
    'ShapeError',
    /boolean mask of shape \[2\] does not broadcast/,
  );
  row(
    fn,
    'mask of the wrong shape',
    'an additive mask of 2×2',
    a(q, k, v, {
      mask: {
        additive: [
          [0, 0],
          [0, 0],
        ],
      },
    }),
    'ShapeError',
    /additive mask of shape \[2, 2\] does not broadcast to \(\.\.\., L, S\) = \[3, 3\]/,
  );
  row(
    fn,
    'mask of the wrong shape',
    'an empty mask',
    a(q, k, v, { mask: [] }),
    'ShapeError',
    /boolean mask of shape \[0\] does not broadcast/,
  );
  row(
    fn,
    'mask of the wrong type',
    'an unknown mask name',
    a(q, k, v, { mask: 'future' }),
    'TypeError',
    /mask must be null, 'causal', \{ window \}, \{ additive \} or a 0\/1 tensor; got the string "future"/,
  );
  row(
    fn,
    'mask of the wrong type',
    'a number',
    a(q, k, v, { mask: 3 }),
    'TypeError',
    /mask must be a tensor .*got number 3/,
  );
  row(
    fn,
    'mask of the wrong type',
    'entries other than 0 and 1',
    a(q, k, v, {
      mask: put(
        grid(3, 3, () => 1),
        1,
        2,
        0.5,
      ),
    }),
    'ValueError',
    /mask\[1\]\[2\] is 0\.5; a boolean mask holds 0 \(blocked\) or 1/,
  );
  row(
    fn,
    'mask of the wrong type',
    'a NaN entry',
    a(q, k, v, {
      mask: put(
        grid(3, 3, () => 1),
        0,
        0,
        NaN,
      ),
    }),
    'ValueError',
    /mask\[0\]\[0\] is NaN; a boolean mask/,
  );
  row(
    fn,
    'mask of the wrong type',
    'string entries',
    a(q, k, v, { mask: [['1', '1', '1']] }),
    'TypeError',
    /mask\[0\]\[0\] is the string "1", not a number/,
  );
  row(
    fn,
    'mask of the wrong type',
    'a negative window',
    a(q, k, v, { mask: { window: -2 } }),
    'ValueError',
    /mask\.window must be a whole number >= 0, got number -2/,
  );
  row(
    fn,
    'mask of the wrong type',
    'a fractional window',
    a(q, k, v, { mask: { window: 1.5 } }),
    'ValueError',
    /mask\.window must be a whole number >= 0, got number 1\.5/,
  );
  row(
    fn,
    'mask of the wrong type',
    'an infinite window',
    a(q, k, v, { mask: { window: Infinity } }),
    'ValueError',
    /mask\.window must be a whole number >= 0, got number Infinity/,
  );
  row(
    fn,
    'mask of the wrong type',
    'a string causal flag',
    a(q, k, v, { mask: { window: 1, causal: 'yes' } }),
    'TypeError',
    /mask\.causal must be true or false, got the string "yes"/,
  );
  row(
    fn,
    'wrong argument type',
    'a string q',
    a(() => 'abc', k, v),
    'TypeError',
    /q must be a tensor .*got the string "abc"/,
  );
  vRow(
    fn,
    'wrong argument type',
    'undefined v',
    a(q, k, () => undefined),
    'TypeError',
    /v must be a tensor .*got undefined/,
  );
  row(
    fn,
    'wrong argument type',
    'null options',
    a(q, k, v, null),
    'TypeError',
    new RegExp(`${fn}: options must be an object such as \\{ mask: 'causal' \\}, got null`),
  );
  row(
    fn,
    'wrong argument type',
    'a string for options',
    a(q, k, v, 'causal'),
    'TypeError',
    new RegExp(`${fn}: options must be an object .*got the string "causal"`),
  );
  row(
    fn,
    'wrong argument type',
    'a string scale',
    a(q, k, v, { scale: '1' }),
    'TypeError',
    /scale must be a number, got the string "1"/,
  );
  vRow(
    fn,
    'wrong argument type',
    'a string temperature',
    a(q, k, v, { temperature: '1' }),
    'TypeError',
    /temperature must be a number, got the string "1"/,
  );
  vRow(
    fn,
    'wrong argument type',
    'returnWeights as 1',
    a(q, k, v, { returnWeights: 1 }),
    'TypeError',
    /returnWeights must be true or false, got number 1/,
  );
  vRow(
    fn,
    'wrong argument type',
    'returnLogits as a string',
    a(q, k, v, { returnLogits: 'yes' }),
    'TypeError',
    /returnLogits must be true or false, got the string "yes"/,
  );
  row(
    fn,
    'wrong argument type',
    'data that is not an array',
    a(() => ({ data: 'abc', shape: [3, 4] }), k, v),
    'TypeError',
    /q\.data must be a Float32Array or an array of numbers, got the string "abc"/,
  );
  row(
    fn,
    'wrong argument type',
    'a negative shape entry',
    a(() => ({ data: [], shape: [-1, 4] }), k, v),
    'ShapeError',
    /q\.shape\[0\] must be a whole number >= 0, got number -1/,
  );
  if (!withV) {
    row(
      fn,
      '-Infinity',
      'in k',
      a(q, () => put(K, 2, 0, -Infinity), v),
      'ValueError',
      /k\[2, 0\] is -Infinity/,
    );
    row(
      fn,
      'non-numeric',
      'a string in k',
      a(q, () => put(K, 0, 1, 'x'), v),
      'TypeError',
      /k\[0\]\[1\] is the string "x"/,
    );
    row(
      fn,
      'wrong argument type',
      'undefined k',
      a(q, () => undefined, v),
      'TypeError',
      /k must be a tensor .*got undefined/,
    );
    row(
      fn,
      'enormous size',
      '30,000² logits',
      a(
        () => huge([30000, 1]),
        () => huge([30000, 1]),
        v,
      ),
      'MemoryError',
      /logits of shape \[30000, 30000\] need 3433 MiB/,
    );
    row(
      fn,
      'out of range',
      'a negative window',
      a(q, k, v, { mask: { window: -2 } }),
      'ValueError',
      /mask\.window must be a whole number >= 0, got number -2/,
    );
  }
}

// ---- convexCombination(weights, values) ----
{
  const w = [0.2, 0.3, 0.5];
  const row2 = (cls, what, args, kind, message) => row('convexCombination', cls, what, args, kind, message);
  row2(
    'NaN',
    'in weights',
    () => [[0.5, NaN, 0.5], V],
    'ValueError',
    /weights\[1\] is NaN; weights must be finite and >= 0/,
  );
  row2('NaN', 'in values', () => [w, put(V, 1, 0, NaN)], 'ValueError', /values\[1, 0\] is NaN/);
  row2(
    '+Infinity',
    'in weights',
    () => [[Infinity, 0, 0], V],
    'ValueError',
    /weights\[0\] is Infinity; weights must be finite/,
  );
  row2('+Infinity', 'in values', () => [w, put(V, 2, 1, Infinity)], 'ValueError', /values\[2, 1\] is Infinity/);
  row2('-Infinity', 'in weights', () => [[0.5, 0.5, -Infinity], V], 'ValueError', /weights\[2\] is -Infinity/);
  row2('-Infinity', 'in values', () => [w, put(V, 0, 0, -Infinity)], 'ValueError', /values\[0, 0\] is -Infinity/);
  row2('empty', 'no weights', () => [[], V], 'ShapeError', /empty input \(weights \[0\], values \[3, 2\]\)/);
  row2(
    'empty',
    'no values',
    () => [w, { data: [], shape: [3, 0] }],
    'ShapeError',
    /empty input \(weights \[3\], values \[3, 0\]\)/,
  );
  row2(
    'wrong rank',
    'values of rank 1',
    () => [w, [1, 2, 3]],
    'ShapeError',
    /values must have shape \(T, d\), got \[3\]/,
  );
  row2(
    'wrong rank',
    'scalar weights',
    () => [{ data: [1], shape: [] }, V],
    'ShapeError',
    /weights must have shape \(\.\.\., T\), got a scalar/,
  );
  row2(
    'mismatched shapes',
    '2 weights for 3 values',
    () => [[0.5, 0.5], V],
    'ShapeError',
    /weights have T = 2 but values have 3 rows/,
  );
  row2(
    'ragged rows',
    'in values',
    () => [w, [[1, 2], [3], [4, 5]]],
    'ShapeError',
    /values\[1\] has 1 value but values\[0\] has 2/,
  );
  row2(
    'non-numeric',
    'a string weight',
    () => [[0.5, '0.5', 0], V],
    'TypeError',
    /weights\[1\] is the string "0\.5", not a number/,
  );
  row2(
    'enormous size',
    '2^29 weights',
    () => [huge([BIG]), V],
    'MemoryError',
    /weights: shape \[536870912\] needs 2048 MiB/,
  );
  row2(
    'off the simplex',
    'a negative weight',
    () => [[0.6, -0.1, 0.5], V],
    'ValueError',
    /weights\[1\] is -0\.1\d*; weights must be finite and >= 0/,
  );
  row2(
    'off the simplex',
    'weights summing to 0.9',
    () => [[0.2, 0.3, 0.4], V],
    'ValueError',
    /weights row 0 sums to 0\.9\d*, not 1/,
  );
  row2(
    'off the simplex',
    'the second row summing to 1.8',
    () => [[w, [0.6, 0.6, 0.6]], V],
    'ValueError',
    /weights row 1 sums to 1\.8\d*, not 1/,
  );
  row2('off the simplex', 'all zeros', () => [[0, 0, 0], V], 'ValueError', /weights row 0 sums to 0, not 1/);
  row2('wrong argument type', 'null weights', () => [null, V], 'TypeError', /weights must be a tensor .*got null/);
  row2(
    'wrong argument type',
    'a number for values',
    () => [w, 3],
    'TypeError',
    /values must be a tensor .*got number 3/,
  );
}

// ---- rowStochasticReport(A): reports on any finite rows ----
{
  const r = (cls, what, arg, kind, message) => row('rowStochasticReport', cls, what, () => [arg()], kind, message);
  r(
    'NaN',
    'an entry',
    () => [
      [0.5, NaN],
      [0.5, 0.5],
    ],
    'ValueError',
    /A\[0, 1\] is NaN/,
  );
  r(
    '+Infinity',
    'an entry',
    () => [
      [0.5, 0.5],
      [Infinity, 0],
    ],
    'ValueError',
    /A\[1, 0\] is Infinity/,
  );
  r('-Infinity', 'an entry', () => [-Infinity, 1], 'ValueError', /A\[0\] is -Infinity/);
  r('empty', 'shape [0]', () => [], 'ShapeError', /A must be a non-empty tensor \(\.\.\., n\), got shape \[0\]/);
  r(
    'wrong rank',
    'a scalar',
    () => ({ data: [1], shape: [] }),
    'ShapeError',
    /A must be a non-empty tensor \(\.\.\., n\), got shape \[\]/,
  );
  r(
    'mismatched shapes',
    'data not filling the shape',
    () => ({ data: [1, 0, 0], shape: [2, 2] }),
    'ShapeError',
    /A: data has 3 values but shape \[2, 2\] needs 4/,
  );
  r(
    'ragged rows',
    'rows of 2 and 3',
    () => [
      [0.5, 0.5],
      [0.2, 0.3, 0.5],
    ],
    'ShapeError',
    /A\[1\] has 3 values but A\[0\] has 2/,
  );
  r('non-numeric', 'a boolean entry', () => [[true, 0]], 'TypeError', /A\[0\]\[0\] is boolean true, not a number/);
  r('enormous size', '2^29 entries', () => huge([BIG]), 'MemoryError', /A: shape \[536870912\] needs 2048 MiB/);
  r('wrong argument type', 'a string', () => '0.5,0.5', 'TypeError', /A must be a tensor .*got the string "0\.5,0\.5"/);
}

// ---- splitHeads(x, heads) and mergeHeads(x): layout only ----
{
  const x = () => ({ data: Float32Array.from({ length: 24 }, (_, i) => i), shape: [1, 4, 6] });
  const s = (cls, what, args, kind, message) => row('splitHeads', cls, what, args, kind, message);
  s('NaN', 'heads', () => [x(), NaN], 'ShapeError', /heads must be a whole number >= 1, got NaN/);
  s('+Infinity', 'heads', () => [x(), Infinity], 'ShapeError', /heads must be a whole number >= 1, got Infinity/);
  s('-Infinity', 'heads', () => [x(), -Infinity], 'ShapeError', /heads must be a whole number >= 1, got -Infinity/);
  s(
    'empty',
    'T = 0',
    () => [{ data: [], shape: [1, 0, 6] }, 2],
    'ShapeError',
    /x must be a non-empty \(B, T, h·d\) tensor, got shape \[1, 0, 6\]/,
  );
  s(
    'wrong rank',
    'a matrix',
    () => [
      [
        [1, 2],
        [3, 4],
      ],
      1,
    ],
    'ShapeError',
    /x must be a non-empty \(B, T, h·d\) tensor, got shape \[2, 2\]/,
  );
  s(
    'mismatched shapes',
    '6 not divisible by 4 heads',
    () => [x(), 4],
    'ShapeError',
    /model dimension 6 is not divisible by heads = 4/,
  );
  s('ragged rows', 'in x', () => [[[1, 2], [3]], 1], 'ShapeError', /x\[1\] has 1 value but x\[0\] has 2/);
  s('non-numeric', 'heads as a string', () => [x(), '2'], 'TypeError', /heads must be a number, got the string "2"/);
  s('enormous size', 'heads = 1e12', () => [x(), 1e12], 'ShapeError', /heads must be a whole number >= 1, got 1e\+12/);
  s(
    'enormous size',
    '2^29 values',
    () => [huge([1, 2 ** 20, 2 ** 9]), 1],
    'MemoryError',
    /x: shape \[1, 1048576, 512\] needs 2048 MiB/,
  );
  s('out of range', 'heads = 0', () => [x(), 0], 'ShapeError', /heads must be a whole number >= 1, got 0/);
  s('out of range', 'heads = 1.5', () => [x(), 1.5], 'ShapeError', /heads must be a whole number >= 1, got 1\.5/);
  s('wrong argument type', 'a string x', () => ['x', 2], 'TypeError', /x must be a tensor .*got the string "x"/);
  s('wrong argument type', 'heads missing', () => [x()], 'TypeError', /heads must be a number, got undefined/);
  const m = (cls, what, arg, kind, message) => row('mergeHeads', cls, what, () => [arg()], kind, message);
  m(
    'empty',
    'h = 0',
    () => ({ data: [], shape: [1, 0, 4, 2] }),
    'ShapeError',
    /x must be a non-empty \(B, h, T, d\) tensor, got shape \[1, 0, 4, 2\]/,
  );
  m(
    'wrong rank',
    'rank 3',
    () => x(),
    'ShapeError',
    /x must be a non-empty \(B, h, T, d\) tensor, got shape \[1, 4, 6\]/,
  );
  m(
    'mismatched shapes',
    'data not filling the shape',
    () => ({ data: new Float32Array(7), shape: [1, 2, 2, 2] }),
    'ShapeError',
    /x: data has 7 values but shape \[1, 2, 2, 2\] needs 8/,
  );
  m('ragged rows', 'in x', () => [[1, 2], [3]], 'ShapeError', /x\[1\] has 1 value but x\[0\] has 2/);
  m('non-numeric', 'a string entry', () => ['a', 'b'], 'TypeError', /x\[0\] is the string "a", not a number/);
  m(
    'enormous size',
    '2^29 values',
    () => huge([1, 2, 2 ** 19, 2 ** 9]),
    'MemoryError',
    /x: shape \[1, 2, 524288, 512\] needs 2048 MiB/,
  );
  m('wrong argument type', 'undefined', () => undefined, 'TypeError', /x must be a tensor .*got undefined/);
}

// ---- randn(shape, seed) ----
{
  const r = (cls, what, args, kind, message) => row('randn', cls, what, args, kind, message);
  r(
    'NaN',
    'a shape entry',
    () => [[2, NaN], 1],
    'ValueError',
    /randn: shape entries must be a whole number from 0 to 4294967295, got NaN/,
  );
  r(
    'NaN',
    'seed',
    () => [[2], NaN],
    'ValueError',
    /randn: seed must be a whole number from 0 to 9007199254740991, got NaN/,
  );
  r(
    '+Infinity',
    'a shape entry',
    () => [[Infinity], 1],
    'ValueError',
    /randn: shape entries must be a whole number .*got Infinity/,
  );
  r('+Infinity', 'seed', () => [[2], Infinity], 'ValueError', /randn: seed must be a whole number .*got Infinity/);
  r('-Infinity', 'seed', () => [[2], -Infinity], 'ValueError', /randn: seed must be a whole number .*got -Infinity/);
  r(
    'non-numeric',
    'a string shape entry',
    () => [['3'], 1],
    'TypeError',
    /randn: shape\[0\] must be a number, got the string "3"/,
  );
  r('non-numeric', 'a string seed', () => [[3], '1'], 'TypeError', /randn: seed must be a number, got the string "1"/);
  r(
    'enormous size',
    '65,536 × 65,536',
    () => [[65536, 65536], 1],
    'MemoryError',
    /randn: shape \[65536, 65536\] has more than 536870912 \(2\^29\) elements/,
  );
  r(
    'enormous size',
    'an extent of 2^32 + 1 (beyond size_t)',
    () => [[2 ** 32 + 1], 1],
    'ValueError',
    /randn: shape entries must be a whole number from 0 to 4294967295, got 4294967297/,
  );
  r(
    'enormous size',
    'a seed beyond 2^53',
    () => [[2], 2 ** 64],
    'ValueError',
    /randn: seed must be a whole number from 0 to 9007199254740991, got 18446744073709551616/,
  );
  r(
    'out of range',
    'a negative extent',
    () => [[3, -4], 1],
    'ValueError',
    /randn: shape entries must be a whole number from 0 to 4294967295, got -4/,
  );
  r('out of range', 'a fractional extent', () => [[1.5], 1], 'ValueError', /got 1\.5/);
  r('out of range', 'a negative seed', () => [[2], -1], 'ValueError', /randn: seed must be a whole number .*got -1/);
  r(
    'out of range',
    'a fractional seed',
    () => [[2], 1.5],
    'ValueError',
    /randn: seed must be a whole number .*got 1\.5/,
  );
  r(
    'wrong argument type',
    'a number for shape',
    () => [5, 1],
    'TypeError',
    /randn: shape must be an array of whole numbers, got number 5/,
  );
  r(
    'wrong argument type',
    'a nested shape',
    () => [[[2]], 1],
    'TypeError',
    /randn: shape\[0\] must be a number, got an array of length 1/,
  );
  r('wrong argument type', 'seed missing', () => [[2]], 'TypeError', /randn: seed must be a number, got undefined/);
}

// ---- dirichlet(alpha, count, seed) ----
{
  const d = (cls, what, args, kind, message) => row('dirichlet', cls, what, args, kind, message);
  d(
    'NaN',
    'in alpha',
    () => [[1, NaN], 3, 1],
    'ValueError',
    /alpha\[1\] is NaN; concentrations must be finite and > 0/,
  );
  d(
    'NaN',
    'count',
    () => [[1, 1], NaN, 1],
    'ValueError',
    /dirichlet: count must be a whole number from 0 to 4294967295, got NaN/,
  );
  d(
    '+Infinity',
    'in alpha',
    () => [[Infinity, 1], 3, 1],
    'ValueError',
    /alpha\[0\] is Infinity; concentrations must be finite and > 0/,
  );
  d(
    '+Infinity',
    'count',
    () => [[1, 1], Infinity, 1],
    'ValueError',
    /dirichlet: count must be a whole number .*got Infinity/,
  );
  d(
    '-Infinity',
    'in alpha',
    () => [[1, -Infinity], 3, 1],
    'ValueError',
    /alpha\[1\] is -Infinity; concentrations must be finite and > 0/,
  );
  d(
    'empty',
    'no concentrations',
    () => [[], 3, 1],
    'ShapeError',
    /alpha is empty \(shape \[0\]\); it needs k >= 1 concentrations/,
  );
  d(
    'wrong rank',
    'alpha of rank 2',
    () => [
      [
        [1, 1],
        [1, 1],
      ],
      3,
      1,
    ],
    'ShapeError',
    /alpha must be 1-D \(k\), got shape \[2, 2\]/,
  );
  d('ragged rows', 'alpha', () => [[[1, 1], [1]], 3, 1], 'ShapeError', /alpha\[1\] has 1 value but alpha\[0\] has 2/);
  d(
    'non-numeric',
    'a string concentration',
    () => [[1, 'a'], 3, 1],
    'TypeError',
    /alpha\[1\] is the string "a", not a number/,
  );
  d(
    'non-numeric',
    'a string count',
    () => [[1, 1], '3', 1],
    'TypeError',
    /dirichlet: count must be a number, got the string "3"/,
  );
  d(
    'enormous size',
    'count = 1e9',
    () => [[1, 1], 1e9, 1],
    'MemoryError',
    /count x k = 1000000000 x 2 .*more than 536870912 \(2\^29\) elements/,
  );
  d(
    'enormous size',
    'count = 1e12 (beyond size_t)',
    () => [[1, 1], 1e12, 1],
    'ValueError',
    /dirichlet: count must be a whole number from 0 to 4294967295, got 1000000000000/,
  );
  d(
    'out of range',
    'a zero concentration',
    () => [[1, 0, 1], 3, 1],
    'ValueError',
    /alpha\[1\] is 0; concentrations must be finite and > 0/,
  );
  d(
    'out of range',
    'a negative concentration',
    () => [[-1, 1], 3, 1],
    'ValueError',
    /alpha\[0\] is -1; concentrations must be finite and > 0/,
  );
  d(
    'out of range',
    'a negative count',
    () => [[1, 1], -1, 1],
    'ValueError',
    /dirichlet: count must be a whole number .*got -1/,
  );
  d(
    'out of range',
    'a fractional seed',
    () => [[1, 1], 3, 0.5],
    'ValueError',
    /dirichlet: seed must be a whole number .*got 0\.5/,
  );
  d(
    'wrong argument type',
    'a string alpha',
    () => ['1,1', 3, 1],
    'TypeError',
    /alpha must be a tensor .*got the string "1,1"/,
  );
  d(
    'wrong argument type',
    'seed missing',
    () => [[1, 1], 3],
    'TypeError',
    /dirichlet: seed must be a number, got undefined/,
  );
}

// ---- convexHull(points) and pointsInHull(points, hullPoints) ----
for (const [fn, name, build] of [
  ['convexHull', 'points', (p) => [p]],
  ['pointsInHull', 'points', (p) => [p, POINTS]],
  ['pointsInHull', 'hullPoints', (p) => [[[2, 2]], p]],
]) {
  const h = (cls, what, arg, kind, message) => row(fn, cls, `${what} (${name})`, () => build(arg()), kind, message);
  h(
    'NaN',
    'a coordinate',
    () => put(POINTS, 0, 1, NaN),
    'ValueError',
    new RegExp(`${name}\\[0, 1\\] is NaN; coordinates must be finite`),
  );
  h(
    '+Infinity',
    'a coordinate',
    () => put(POINTS, 2, 0, Infinity),
    'ValueError',
    new RegExp(`${name}\\[2, 0\\] is Infinity; coordinates must be finite`),
  );
  h(
    '-Infinity',
    'a coordinate',
    () => put(POINTS, 3, 1, -Infinity),
    'ValueError',
    new RegExp(`${name}\\[3, 1\\] is -Infinity; coordinates must be finite`),
  );
  if (!(fn === 'pointsInHull' && name === 'points')) {
    h(
      'empty',
      'no points',
      () => ({ data: [], shape: [0, 2] }),
      'ShapeError',
      new RegExp(`${name} are empty \\(shape \\[0, 2\\]\\); need at least one point`),
    );
  }
  h(
    'wrong rank',
    'a flat list',
    () => [1, 2, 3],
    'ShapeError',
    new RegExp(`${name} must have shape \\(n, 2\\), got \\[3\\]`),
  );
  h(
    'mismatched shapes',
    'three coordinates per point',
    () => [
      [1, 2, 3],
      [4, 5, 6],
    ],
    'ShapeError',
    new RegExp(`${name} must have shape \\(n, 2\\), got \\[2, 3\\]`),
  );
  h(
    'ragged rows',
    'a point of one coordinate',
    () => [[1, 2], [3]],
    'ShapeError',
    new RegExp(`${name}\\[1\\] has 1 value but ${name}\\[0\\] has 2`),
  );
  h(
    'non-numeric',
    'a string coordinate',
    () => [
      [1, 2],
      ['3', 4],
    ],
    'TypeError',
    new RegExp(`${name}\\[1\\]\\[0\\] is the string "3", not a number`),
  );
  h(
    'enormous size',
    '2^28 points',
    () => huge([2 ** 28, 2]),
    'MemoryError',
    new RegExp(`${name}: shape \\[268435456, 2\\] needs 2048 MiB`),
  );
  h(
    'wrong argument type',
    'a string',
    () => '1,2',
    'TypeError',
    new RegExp(`${name} must be a tensor .*got the string "1,2"`),
  );
}

// ---- entropy(weights) and effectivePositions(weights) ----
for (const fn of ['entropy', 'effectivePositions']) {
  const e = (cls, what, arg, kind, message) => row(fn, cls, what, () => [arg()], kind, message);
  e(
    'NaN',
    'a weight',
    () => [0.5, NaN, 0.5],
    'ValueError',
    new RegExp(`${fn}: weights\\[1\\] is NaN; weights must be finite and >= 0`),
  );
  e(
    '+Infinity',
    'a weight',
    () => [
      [0.5, 0.5],
      [Infinity, 0],
    ],
    'ValueError',
    new RegExp(`${fn}: weights\\[1, 0\\] is Infinity`),
  );
  e('-Infinity', 'a weight', () => [-Infinity, 1], 'ValueError', new RegExp(`${fn}: weights\\[0\\] is -Infinity`));
  e('empty', 'shape [0]', () => [], 'ShapeError', new RegExp(`${fn}: weights are empty \\(shape \\[0\\]\\)`));
  e(
    'wrong rank',
    'a scalar',
    () => ({ data: [1], shape: [] }),
    'ShapeError',
    new RegExp(`${fn}: weights must have at least one axis, got a scalar`),
  );
  e(
    'mismatched shapes',
    'data not filling the shape',
    () => ({ data: [1, 0, 0], shape: [2, 2] }),
    'ShapeError',
    /weights: data has 3 values but shape \[2, 2\] needs 4/,
  );
  e(
    'ragged rows',
    'rows of 2 and 1',
    () => [[0.5, 0.5], [1]],
    'ShapeError',
    /weights\[1\] has 1 value but weights\[0\] has 2/,
  );
  e('non-numeric', 'a null weight', () => [0.5, null, 0.5], 'TypeError', /weights\[1\] is null, not a number/);
  e('enormous size', '2^29 weights', () => huge([BIG]), 'MemoryError', /weights: shape \[536870912\] needs 2048 MiB/);
  e(
    'off the simplex',
    'a negative weight',
    () => [1.5, -0.5],
    'ValueError',
    new RegExp(`${fn}: weights\\[1\\] is -0\\.5; weights must be finite and >= 0`),
  );
  e(
    'wrong argument type',
    'an object',
    () => ({ weights: [1] }),
    'TypeError',
    /weights must be a tensor .*got an object/,
  );
}

// ---- scalingStatistics({ dims, scaled, draws, seed, tokens }) ----
{
  const base = { dims: [8, 16], scaled: true, draws: 10, seed: 1 };
  const s = (cls, what, change, kind, message) =>
    row('scalingStatistics', cls, what, () => [change === null ? null : { ...base, ...change }], kind, message);
  s(
    'NaN',
    'a dimension',
    { dims: [NaN] },
    'ValueError',
    /scalingStatistics: dims entries must be a whole number from 0 to 4294967295, got NaN/,
  );
  s('NaN', 'draws', { draws: NaN }, 'ValueError', /scalingStatistics: draws must be a whole number .*got NaN/);
  s(
    '+Infinity',
    'tokens',
    { tokens: Infinity },
    'ValueError',
    /scalingStatistics: tokens must be a whole number .*got Infinity/,
  );
  s(
    '-Infinity',
    'seed',
    { seed: -Infinity },
    'ValueError',
    /scalingStatistics: seed must be a whole number .*got -Infinity/,
  );
  s('empty', 'no dimensions', { dims: [] }, 'ValueError', /dims is empty; pass at least one dimension d >= 1/);
  s(
    'non-numeric',
    'a string dimension',
    { dims: [8, '16'] },
    'TypeError',
    /scalingStatistics: dims\[1\] must be a number, got the string "16"/,
  );
  s(
    'non-numeric',
    'string tokens',
    { tokens: '5' },
    'TypeError',
    /scalingStatistics: tokens must be a number, got the string "5"/,
  );
  s(
    'enormous size',
    'd = 1e9',
    { dims: [1e9] },
    'MemoryError',
    /dims\[0\] = 1000000000 is more than 16777216 \(2\^24\)/,
  );
  s(
    'enormous size',
    'd = 2^32 + 8 (beyond size_t)',
    { dims: [2 ** 32 + 8] },
    'ValueError',
    /dims entries must be a whole number from 0 to 4294967295, got 4294967304/,
  );
  s(
    'enormous size',
    'tokens = 1e9',
    { tokens: 1e9 },
    'MemoryError',
    /tokens = 1000000000 is more than 16777216 \(2\^24\)/,
  );
  s(
    'enormous size',
    'draws = 1e9',
    { draws: 1e9 },
    'ValueError',
    /draws x tokens x sum\(dims\) = 1000000000 x 5 x 24 = .* more than the limit of 500000000/,
  );
  s(
    'enormous size',
    'draws = 1e12 (beyond size_t)',
    { draws: 1e12 },
    'ValueError',
    /draws must be a whole number from 0 to 4294967295, got 1000000000000/,
  );
  s('out of range', 'd = 0', { dims: [0] }, 'ValueError', /dims\[0\] is 0; dimensions must be >= 1/);
  s('out of range', 'a negative d', { dims: [-8] }, 'ValueError', /dims entries must be a whole number .*got -8/);
  s('out of range', 'draws = 0', { draws: 0 }, 'ValueError', /draws is 0; need at least one draw/);
  s('out of range', 'tokens = 0', { tokens: 0 }, 'ValueError', /tokens is 0; need at least one key/);
  s('out of range', 'a fractional seed', { seed: 0.5 }, 'ValueError', /seed must be a whole number .*got 0\.5/);
  s(
    'wrong argument type',
    'dims not an array',
    { dims: 8 },
    'TypeError',
    /scalingStatistics: dims must be an array of whole numbers, got number 8/,
  );
  s(
    'wrong argument type',
    'scaled as a string',
    { scaled: 'yes' },
    'TypeError',
    /scalingStatistics: scaled must be true or false, got the string "yes"/,
  );
  s(
    'wrong argument type',
    'null options',
    null,
    'TypeError',
    /scalingStatistics: options must be an object such as \{ dims, scaled, draws, seed \}, got null/,
  );
}

// ---- createTrainer(options): JS types and names here, values in the core ----
{
  const base = { task: 'retrieval2d', seed: 3 };
  const c = (cls, what, change, kind, message) =>
    row(
      'createTrainer',
      cls,
      what,
      () => [change === null || typeof change !== 'object' ? change : { ...base, ...change }],
      kind,
      message,
    );
  c(
    'NaN',
    'learningRate',
    { learningRate: NaN },
    'ValueError',
    /createTrainer: learningRate is NaN; it must be finite and >= 0/,
  );
  c('NaN', 'dModel', { dModel: NaN }, 'ValueError', /createTrainer: dModel is NaN; it must be a whole number >= 0/);
  c(
    '+Infinity',
    'learningRate',
    { learningRate: Infinity },
    'ValueError',
    /createTrainer: learningRate is Infinity; it must be finite/,
  );
  c('+Infinity', 'eps', { eps: Infinity }, 'ValueError', /createTrainer: eps is Infinity; it must be finite and > 0/);
  c(
    '-Infinity',
    'weightDecay',
    { weightDecay: -Infinity },
    'ValueError',
    /createTrainer: weightDecay is -Infinity; it must be finite and >= 0/,
  );
  c(
    '-Infinity',
    'seed',
    { seed: -Infinity },
    'ValueError',
    /createTrainer: seed is -Infinity; it must be a whole number from 0 to 9007199254740991/,
  );
  row(
    'createTrainer',
    'empty',
    'no task',
    () => [{ seed: 3 }],
    'TypeError',
    /createTrainer: task is missing; give a task id such as 'reverse'/,
  );
  c(
    'empty',
    'a task id of no letters',
    { task: '' },
    'ValueError',
    /createTrainer: unknown task ''; tasks are reverse, sort, lookup, retrieval2d/,
  );
  c(
    'mismatched shapes',
    'heads not dividing dModel',
    { task: 'reverse', heads: 3 },
    'ShapeError',
    /createTrainer: heads \(3\) must divide dModel \(32\)/,
  );
  c(
    'non-numeric',
    'layers as a string',
    { layers: '2' },
    'TypeError',
    /createTrainer: layers must be a number, got the string "2"/,
  );
  c(
    'non-numeric',
    'learningRate as a string',
    { learningRate: '0.01' },
    'TypeError',
    /createTrainer: learningRate must be a number, got the string "0.01"/,
  );
  c(
    'enormous size',
    'dModel = 4096',
    { task: 'reverse', dModel: 4096 },
    'MemoryError',
    /createTrainer: the model has 67248128 weights, which need 2052 MiB to train .* the limit is 16777216 weights/,
  );
  c(
    'enormous size',
    'layers = 2^21',
    { layers: 2 ** 21 },
    'MemoryError',
    /createTrainer: layers is 2097152; at most 1048576 is supported/,
  );
  c(
    'enormous size',
    'dModel = 2^32 + 2 (beyond size_t)',
    { dModel: 2 ** 32 + 2 },
    'ValueError',
    /createTrainer: dModel must be a whole number from 0 to 4294967295, got 4294967298/,
  );
  c(
    'enormous size',
    'batchSize = 5000',
    { batchSize: 5000 },
    'ShapeError',
    /createTrainer: batchSize is 5000; it must be 1\.\.4096/,
  );
  c('out of range', 'dModel = 0', { dModel: 0 }, 'ShapeError', /createTrainer: dModel is 0; it must be >= 1/);
  c(
    'out of range',
    'a negative learningRate',
    { learningRate: -0.1 },
    'ValueError',
    /createTrainer: learningRate is -0\.1; it must be finite and >= 0/,
  );
  c('out of range', 'beta1 = 1', { beta1: 1 }, 'ValueError', /createTrainer: beta1 is 1; it must be in \[0, 1\)/);
  c(
    'out of range',
    'a fractional layer count',
    { layers: 1.5 },
    'ValueError',
    /createTrainer: layers is 1\.5; it must be a whole number >= 0/,
  );
  c(
    'out of range',
    'a negative seed',
    { seed: -1 },
    'ValueError',
    /createTrainer: seed is -1; it must be a whole number from 0 to 9007199254740991/,
  );
  c(
    'out of range',
    'seed = 2^53',
    { seed: 2 ** 53 },
    'ValueError',
    /createTrainer: seed is 9007199254740992; it must be a whole number from 0/,
  );
  c(
    'wrong argument type',
    'a task id as a number',
    { task: 7 },
    'TypeError',
    /createTrainer: task must be a task id such as 'reverse', got number 7/,
  );
  c(
    'wrong argument type',
    'an unknown task',
    { task: 'copy' },
    'ValueError',
    /createTrainer: unknown task 'copy'; tasks are reverse, sort, lookup, retrieval2d, text/,
  );
  c(
    'wrong argument type',
    'an unknown option',
    { lr: 0.1 },
    'TypeError',
    /createTrainer: lr is not an option; the options are task, seed, layers, heads, dModel/,
  );
  c(
    'wrong argument type',
    'mlp as a string',
    { mlp: 'yes' },
    'TypeError',
    /createTrainer: mlp must be true or false, got the string "yes"/,
  );
  c(
    'wrong argument type',
    "precision 'float16'",
    { precision: 'float16' },
    'ValueError',
    /createTrainer: precision must be 'float32' or 'float64', got the string "float16"/,
  );
  c(
    'wrong argument type',
    'null options',
    null,
    'TypeError',
    /createTrainer: options must be an object such as \{ task: 'reverse', seed: 1 \}, got null/,
  );
  c(
    'wrong argument type',
    'a task id for options',
    'reverse',
    'TypeError',
    /createTrainer: options must be an object .*got the string "reverse"/,
  );
  // the text task's text (the engine checks its type, surrogates and bytes; the core the rest)
  const t = (cls, what, text, kind, message) => c(cls, what, { task: 'text', text }, kind, message);
  t('empty', 'an empty text', '', 'ValueError', /createTrainer: the text is empty; give at least two different/);
  t('empty', 'one character', 'q', 'ValueError', /createTrainer: the text has only the character 'q'/);
  t(
    'enormous size',
    'a text over 1 MiB',
    'ab'.repeat(300000) + 'é'.repeat(300000),
    'ValueError',
    /createTrainer: text has 1200000 bytes of UTF-8; at most 1048576 \(1 MiB\)/,
  );
  t(
    'out of range',
    'an alphabet of 200 characters',
    Array.from({ length: 200 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join(''),
    'ValueError',
    /createTrainer: the text has 200 different characters; at most 128 are supported/,
  );
  t(
    'non-numeric',
    'a lone surrogate',
    'a\uDC00b',
    'ValueError',
    /createTrainer: text has a lone surrogate \(U\+DC00\)/,
  );
  t(
    'wrong argument type',
    'a text as a number',
    42,
    'TypeError',
    /createTrainer: text must be a string, got number 42/,
  );
  c(
    'wrong argument type',
    'a text for another task',
    { text: 'abc' },
    'ValueError',
    /createTrainer: text is only for the text task; this trainer's task is retrieval2d/,
  );
}

// ---- loadTrainer(state): the state's form here, what needs the model in the core ----
{
  // args(attn): a state from a fresh retrieval2d trainer (46 weights), changed by `change`
  const l = (cls, what, change, kind, message) =>
    row('loadTrainer', cls, what, (attn) => [change(trainerState(attn))], kind, message);
  const at = (list, i, value) => list.map((x, j) => (j === i ? value : x));
  l(
    'NaN',
    'a weight',
    (s) => ({ ...s, weights: at(s.weights, 0, NaN) }),
    'ValueError',
    /loadTrainer: embed\.token\[0, 0\] is NaN; weights must be finite/,
  );
  l(
    '+Infinity',
    'a first moment',
    (s) => ({ ...s, m: at(s.m, 3, Infinity) }),
    'ValueError',
    /loadTrainer: m\[3\] is Infinity; moments must be finite/,
  );
  l(
    '-Infinity',
    'a second moment',
    (s) => ({ ...s, v: at(s.v, 0, -Infinity) }),
    'ValueError',
    /loadTrainer: v\[0\] is -Infinity; second moments must be finite and >= 0/,
  );
  l(
    'NaN',
    'lastLoss',
    (s) => ({ ...s, lastLoss: NaN }),
    'ValueError',
    /loadTrainer: state\.lastLoss is number NaN; it must be a finite number, or null/,
  );
  l(
    'empty',
    'no weights',
    (s) => ({ ...s, weights: [] }),
    'ShapeError',
    /loadTrainer: the model has 46 weights; the state holds 0 weights/,
  );
  l(
    'empty',
    'an empty object',
    () => ({}),
    'ValueError',
    /loadTrainer: state\.format is undefined; not an attnbook trainer state \(format 'attnbook-trainer'\)/,
  );
  l(
    'mismatched shapes',
    'a weight missing',
    (s) => ({ ...s, weights: s.weights.slice(1) }),
    'ShapeError',
    /loadTrainer: the model has 46 weights; the state holds 45 weights and 46 and 46 moments/,
  );
  l(
    'mismatched shapes',
    'a config of another model',
    (s) => ({ ...s, config: { ...s.config, dModel: 4 } }),
    'ShapeError',
    /loadTrainer: the model has \d+ weights; the state holds 46 weights/,
  );
  l(
    'mismatched shapes',
    'a head flag missing',
    (s) => ({ ...s, headEnabled: [] }),
    'ShapeError',
    /loadTrainer: state\.headEnabled has 0 flags; the model has layers x heads = 1 heads/,
  );
  l(
    'non-numeric',
    'a weight as a string',
    (s) => ({ ...s, weights: at(s.weights, 12, 'x') }),
    'TypeError',
    /loadTrainer: state\.weights\[12\] is the string "x"; weights must be numbers/,
  );
  l(
    'non-numeric',
    'a generator word as a number',
    (s) => ({ ...s, data: { ...s.data, state: 12 } }),
    'TypeError',
    /loadTrainer: state\.data\.state is number 12; it must be a decimal string/,
  );
  l(
    'non-numeric',
    'a generator word of letters',
    (s) => ({ ...s, data: { ...s.data, increment: 'abc' } }),
    'ValueError',
    /loadTrainer: state\.data\.increment is the string "abc"; it must be a decimal string of a whole number from 0 to 2\^64 - 1/,
  );
  l(
    'enormous size',
    'a generator word of 2^64',
    (s) => ({ ...s, data: { ...s.data, state: '18446744073709551616' } }),
    'ValueError',
    /loadTrainer: state\.data\.state is the string "18446744073709551616"; it must be a decimal string/,
  );
  l(
    'out of range',
    'version 2',
    (s) => ({ ...s, version: 2 }),
    'ValueError',
    /loadTrainer: state\.version is number 2; this engine reads version 1/,
  );
  l(
    'out of range',
    'an even generator increment',
    (s) => ({ ...s, data: { ...s.data, increment: '2' } }),
    'ValueError',
    /loadTrainer: the data stream's increment 2 is even; not a saved Rng state/,
  );
  l(
    'out of range',
    'a fractional step',
    (s) => ({ ...s, step: 2.5 }),
    'ValueError',
    /loadTrainer: state\.step is 2\.5; it must be a whole number from 0 to 9007199254740991/,
  );
  l(
    'out of range',
    'a negative learning rate',
    (s) => ({ ...s, config: { ...s.config, learningRate: -1 } }),
    'ValueError',
    /loadTrainer: learningRate is -1; it must be finite and >= 0/,
  );
  l(
    'wrong argument type',
    'null',
    () => null,
    'TypeError',
    /loadTrainer: state must be an object from exportState\(\), got null/,
  );
  l(
    'wrong argument type',
    'the JSON text, not parsed',
    (s) => JSON.stringify(s),
    'TypeError',
    /loadTrainer: state must be an object from exportState\(\), got the string/,
  );
  l(
    'wrong argument type',
    'a foreign format',
    (s) => ({ ...s, format: 'keras' }),
    'ValueError',
    /loadTrainer: state\.format is the string "keras"; not an attnbook trainer state/,
  );
  l(
    'wrong argument type',
    'an unknown field',
    (s) => ({ ...s, optimizer: 'adam' }),
    'TypeError',
    /loadTrainer: state\.optimizer is not a field of a trainer state; its fields are format, version, config/,
  );
  l(
    'wrong argument type',
    'a config option missing',
    (s) => ({ ...s, config: { ...s.config, heads: undefined } }),
    'TypeError',
    /loadTrainer: state\.config\.heads is missing/,
  );
  l(
    'wrong argument type',
    'a head flag as a number',
    (s) => ({ ...s, headEnabled: [1] }),
    'TypeError',
    /loadTrainer: state\.headEnabled\[0\] is number 1; flags must be true or false/,
  );
  l(
    'wrong argument type',
    'weights as an object',
    (s) => ({ ...s, weights: { 0: 1 } }),
    'TypeError',
    /loadTrainer: state\.weights must be an array of numbers, got an object/,
  );
}

// ---- loadAttention({ simd }) (async: the promise rejects) ----
{
  const l = (cls, what, args, message) => row('loadAttention', cls, what, args, 'TypeError', message);
  l(
    'wrong argument type',
    'simd as a string',
    () => [{ simd: 'yes' }],
    /loadAttention: simd must be 'auto', true or false, got the string "yes"/,
  );
  l(
    'wrong argument type',
    'simd as a number',
    () => [{ simd: 1 }],
    /loadAttention: simd must be 'auto', true or false, got number 1/,
  );
  l(
    'wrong argument type',
    'null options',
    () => [null],
    /loadAttention: options must be an object such as \{ simd: 'auto' \}, got null/,
  );
  l(
    'wrong argument type',
    'a string for options',
    () => ['simd'],
    /loadAttention: options must be an object .*got the string "simd"/,
  );
}

// ---- attn.createPool({ threads, minPartFlop }) (async: the promise rejects, before any worker starts) ----
{
  const p = (cls, what, args, kind, message) => row('createPool', cls, what, args, kind, message);
  p(
    'out of range',
    'threads = 0',
    () => [{ threads: 0 }],
    'ValueError',
    /createPool: threads must be 'auto' or a whole number from 1 to 64, got number 0/,
  );
  p(
    'out of range',
    'threads = 1.5',
    () => [{ threads: 1.5 }],
    'ValueError',
    /createPool: threads must be .*got number 1.5/,
  );
  p(
    'out of range',
    'threads = 1000',
    () => [{ threads: 1000 }],
    'ValueError',
    /createPool: threads must be .*got number 1000/,
  );
  p('NaN', 'threads = NaN', () => [{ threads: NaN }], 'ValueError', /createPool: threads must be .*got number NaN/);
  p(
    'non-numeric',
    'threads as a string',
    () => [{ threads: 'many' }],
    'TypeError',
    /createPool: threads must be .*got the string "many"/,
  );
  p(
    'NaN',
    'minPartFlop = NaN',
    () => [{ minPartFlop: NaN }],
    'ValueError',
    /createPool: minPartFlop must be a number >= 1, got number NaN/,
  );
  p(
    'wrong argument type',
    'a string for options',
    () => ['auto'],
    'TypeError',
    /createPool: options must be an object such as \{ threads: 'auto' \}, got the string "auto"/,
  );
}

export const API_ROWS = rows;

/**
 * A valid call per function and its right answer, run after every row: the
 * module must still compute correctly. `result` picks the numbers to compare.
 */
export const VALID_CALLS = {
  softmax: {
    args: () => [[1.2, 4.5, 2, 0.8]],
    result: (r) => r.data,
    expected: [0.0322492, 0.8743615, 0.071772, 0.0216173],
  },
  softmaxReference: {
    args: () => [[1.2, 4.5, 2, 0.8]],
    result: (r) => r.data,
    expected: [0.0322492, 0.8743615, 0.071772, 0.0216173],
  },
  scores: {
    args: () => [
      [[1, 2]],
      [
        [3, 4],
        [5, 6],
      ],
      { scale: 0.5, mask: { additive: [[0, -1]] } },
    ],
    result: (r) => [...r.shape, ...r.data],
    expected: [1, 2, 5.5, 7.5],
  },
  // one-hot queries of height 5 retrieve their token (the retrieval lesson's example)
  attention: {
    args: () => [
      [[5, 0, 0]],
      [
        [5, 0, 0],
        [0, 5, 0],
        [0, 0, 5],
      ],
      [
        [1, 0],
        [0, 1],
        [1, 1],
      ],
    ],
    result: (r) => r.output.data,
    expected: [1 - 2 / (Math.exp(25 / Math.sqrt(3)) + 2) / 2, (1 / (Math.exp(25 / Math.sqrt(3)) + 2)) * 2],
  },
  attentionReference: {
    args: () => [
      [[5, 0, 0]],
      [
        [5, 0, 0],
        [0, 5, 0],
        [0, 0, 5],
      ],
      [
        [1, 0],
        [0, 1],
        [1, 1],
      ],
    ],
    result: (r) => r.output.data,
    expected: [1 - 2 / (Math.exp(25 / Math.sqrt(3)) + 2) / 2, (1 / (Math.exp(25 / Math.sqrt(3)) + 2)) * 2],
  },
  convexCombination: {
    args: () => [
      [0.4, 0.1, 0.2, 0.3],
      [
        [1, 0, 0],
        [0, 2, 0],
        [0, 0, 3],
        [1, 1, 1],
      ],
    ],
    result: (r) => r.data,
    expected: [0.7, 0.5, 0.9],
  },
  rowStochasticReport: {
    args: () => [
      [
        [0.5, 0.5],
        [0.9, 0.2],
      ],
    ],
    result: (r) => [r.maxRowSumError, r.minEntry, Number(r.isRowStochastic)],
    expected: [0.1, 0.2, 0],
  },
  splitHeads: {
    args: () => [{ data: [0, 1, 2, 3, 4, 5, 6, 7], shape: [1, 2, 4] }, 2],
    result: (r) => [...r.shape, ...r.data],
    expected: [1, 2, 2, 2, 0, 1, 4, 5, 2, 3, 6, 7],
  },
  mergeHeads: {
    args: () => [{ data: [0, 1, 4, 5, 2, 3, 6, 7], shape: [1, 2, 2, 2] }],
    result: (r) => [...r.shape, ...r.data],
    expected: [1, 2, 4, 0, 1, 2, 3, 4, 5, 6, 7],
  },
  // the seeded PCG32 stream: the same numbers in every build
  randn: { args: () => [[3], 1], result: (r) => r.data, expected: [0.8784574, 0.1615407, -0.7596952] },
  dirichlet: {
    args: () => [[1, 1, 1], 4, 7],
    result: (r) => [...r.shape, ...[0, 1, 2, 3].map((i) => r.data[3 * i] + r.data[3 * i + 1] + r.data[3 * i + 2])],
    expected: [4, 3, 1, 1, 1, 1],
  },
  convexHull: { args: () => [[...POINTS, [2, 2]]], result: (r) => Array.from(r).sort(), expected: [0, 1, 2, 3] },
  pointsInHull: {
    args: () => [
      [
        [2, 2],
        [9, 9],
      ],
      POINTS,
    ],
    result: (r) => r,
    expected: [1, 0],
  },
  entropy: {
    args: () => [
      [
        [0.25, 0.25, 0.25, 0.25],
        [1, 0, 0, 0],
      ],
    ],
    result: (r) => r.data,
    expected: [Math.log(4), 0],
  },
  effectivePositions: { args: () => [[0.5, 0.5, 0, 0]], result: (r) => r.data, expected: [2] },
  scalingStatistics: {
    args: () => [{ dims: [4], scaled: true, draws: 20, seed: 3, tokens: 1 }],
    result: (r) => [r.meanMaxWeight[0], r.meanEntropy[0]],
    expected: [1, 0],
  },
  trainingTasks: {
    args: () => [],
    result: (r) => [r.length, r[0].vocab, r[0].inputLength, r[0].answerLength, r[0].seqLen],
    expected: [5, 11, 7, 6, 12],
  },
  // a trainer that trains, then is freed (the heap check after the rows would see one that was not)
  createTrainer: {
    args: () => [{ task: 'retrieval2d', seed: 3 }],
    result: (t) => {
      const { step, loss } = t.step(2);
      const { input, answer } = t.sample(1);
      t.dispose();
      return [step, input.length, answer.length, Number(loss > 0 && loss < 10)];
    },
    expected: [2, 3, 1, 1],
  },
  loadTrainer: {
    args: (attn) => [trainerState(attn)],
    result: (t) => {
      const { step } = t.step(1);
      t.dispose();
      return [step];
    },
    expected: [3],
  },
  createPool: {
    args: () => [[1, 2]],
    result: (r) => r.data,
    expected: [1 / (1 + Math.E), Math.E / (1 + Math.E)],
    via: 'softmax',
  },
  loadAttention: {
    args: () => [[1, 2]],
    result: (r) => r.data,
    expected: [1 / (1 + Math.E), Math.E / (1 + Math.E)],
    via: 'softmax',
  },
};

/*
 * Editor rows: every field of the lessons a learner types numbers into, with
 * each class of bad text. Each row must show its error beside the field
 * (aria-invalid, an error element the field's aria-describedby names) while
 * the lab keeps its last valid state; `valid` is then accepted.
 *
 *   lesson    the route (#/<lesson>); host: the lab element holding the field
 *   input     a selector for the field (Playwright CSS, which enters shadow roots)
 *   type      'text' (filled at once) or 'number' (an <input type="number">, typed key by key
 *             as a learner would; Chromium keeps only the characters a number can have and
 *             gives an empty value for text it cannot read, such as 1e400)
 *   commit    'input' (checked on every keystroke) or 'change' (checked on Enter or leaving)
 *   state     [selector, property]: the lab's state the field drives
 *   valid     { text, state }: an accepted entry and the state it gives
 * Ragged rows do not apply to the matrix editors: each entry is its own field, so
 * a ragged matrix cannot be typed (the values attribute's parser refuses it).
 */
const VECTOR_TEXT = (count, { min, max }) => {
  const fill = (first) => [first, ...Array.from({ length: count - 1 }, () => '0')].join(', ');
  return [
    ['NaN', fill('NaN'), /^Entry 0 \(counting from 0\) is “NaN”, not a number\.$/],
    ['+Infinity', fill('Infinity'), /^Entry 0 \(counting from 0\) must be a finite number\.$/],
    ['-Infinity', fill('-Infinity'), /^Entry 0 \(counting from 0\) must be a finite number\.$/],
    ['non-numeric', fill('abc'), /^Entry 0 \(counting from 0\) is “abc”, not a number\.$/],
    ['non-numeric', `${fill('1')},`, new RegExp(`^Entry ${count} \\(counting from 0\\) is empty\\.$`)],
    ['wrong rank', `[[${fill('1')}]]`, /^Entry 0 \(counting from 0\) is “\[1”, not a number\.$/],
    ['enormous size', fill('1e400'), /^Entry 0 \(counting from 0\) must be a finite number\.$/],
    ['out of range', fill(String(max * 10)), new RegExp(`^Entry 0 \\(counting from 0\\) is .*, above the maximum`)],
    ['out of range', fill(String(min * 10)), new RegExp(`^Entry 0 \\(counting from 0\\) is .*, below the minimum`)],
  ];
};
const FIXED_COUNT = (count) => [
  ['empty', '', new RegExp(`^Type ${count} numbers separated by commas\\.$`)],
  [
    'too few entries',
    Array.from({ length: count - 1 }, () => '0').join(', '),
    new RegExp(`^Needs exactly ${count} numbers, got ${count - 1}\\.$`),
  ],
  [
    'too many entries',
    Array.from({ length: count + 1 }, () => '0').join(', '),
    new RegExp(`^Needs exactly ${count} numbers, got ${count + 1}\\.$`),
  ],
  [
    'enormous size',
    Array.from({ length: 100000 }, () => '0').join(','),
    new RegExp(`^Needs exactly ${count} numbers, got 100000\\.$`),
  ],
];
const CELL_TEXT = ({ max }) => [
  ['NaN', 'NaN', /is “NaN”, not a number\.$/],
  ['+Infinity', 'Infinity', /must be a finite number\.$/],
  ['-Infinity', '-inf', /must be a finite number\.$/],
  ['empty', '', /is empty\.$/],
  ['non-numeric', 'two', /is “two”, not a number\.$/],
  ['too many entries', '1, 2', /is “1, 2”, not a number\.$/],
  ['wrong rank', '[[1]]', /is “\[\[1\]\]”, not a number\.$/],
  ['enormous size', '1e400', /must be a finite number\.$/],
  ['out of range', String(max * 2), /above the maximum/],
];
// A seed field (text, checked as typed): a whole number from 0 to 2147483647.
const SEED_TEXT = [
  ['NaN', 'NaN', /"NaN" is not a number/],
  ['+Infinity', 'Infinity', /must be finite/],
  ['-Infinity', '-Infinity', /must be finite/],
  ['empty', '', /"" is not a number/],
  ['non-numeric', 'seven', /"seven" is not a number/],
  ['wrong rank', '[3]', /"\[3\]" is not a number/],
  ['enormous size', '1e400', /must be finite/],
  ['enormous size', '99999999999', /99999999999 is outside \[0, 2147483647\]/],
  ['out of range', '-1', /-1 is outside \[0, 2147483647\]/],
  ['out of range', '2.5', /2\.5 is not a whole number/],
];
// An <input type="number"> for a whole number in [min, max], typed key by key.
const WHOLE_TEXT = ({ min, max }) => [
  ['NaN', 'NaN', /is empty|is not a number/], // Chromium drops the letters: the field is left empty
  ['+Infinity', 'Infinity', /is empty|is not a number/],
  ['empty', '', /is empty/],
  ['non-numeric', 'e3', /is empty|is not a number/], // Chromium reports some unreadable text as empty
  ['enormous size', '1e400', /is empty|is not a number/], // Chromium gives '' for it
  ['enormous size', '99999999999', new RegExp(`is 99999999999, above the maximum ${max}\\b|99999999999 is outside`)],
  ['out of range', String(min - 1), new RegExp(`is ${min - 1}, below the minimum ${min}\\b|${min - 1} is outside`)],
  ['out of range', '2.5', /is 2\.5, not a whole number|2\.5 is not a whole number/],
];

const seedEditor = (lesson, host, valid = '7') => ({
  name: `${host} seed`,
  lesson,
  host,
  input: `${host} #seed`,
  type: 'text',
  commit: 'input',
  state: [host, 'seed'],
  rows: SEED_TEXT,
  valid: { text: valid, state: Number(valid) },
});

export const EDITORS = [
  {
    name: 'convex mix weights α (vector editor, 4 numbers in [-10, 10])',
    lesson: 'convex-combinations',
    host: 'attn-convex-mix',
    input: 'attn-convex-mix attn-vector-editor input',
    type: 'text',
    commit: 'input',
    state: ['attn-convex-mix', 'weights'],
    rows: [...VECTOR_TEXT(4, { min: -10, max: 10 }), ...FIXED_COUNT(4)],
    valid: { text: '0.25, 0.25, 0.25, 0.25', state: [0.25, 0.25, 0.25, 0.25] },
  },
  {
    name: 'convex mix values V (matrix editor, entries in [-1000, 1000])',
    lesson: 'convex-combinations',
    host: 'attn-convex-mix',
    input: 'attn-convex-mix attn-matrix-editor input[data-r="1"][data-c="1"]',
    type: 'text',
    commit: 'input',
    state: ['attn-convex-mix', 'values'],
    rows: CELL_TEXT({ max: 1000 }),
    valid: {
      text: '7',
      state: [
        [1, 0, 0],
        [0, 7, 0],
        [0, 0, 3],
        [1, 1, 1],
      ],
    },
  },
  {
    name: 'hull mixtures logits s (vector editor, 4 numbers in [-100, 100])',
    lesson: 'convex-hull',
    host: 'attn-hull-mixtures',
    input: 'attn-hull-mixtures attn-vector-editor input',
    type: 'text',
    commit: 'input',
    state: ['attn-hull-mixtures', 'logits'],
    rows: [...VECTOR_TEXT(4, { min: -100, max: 100 }), ...FIXED_COUNT(4)],
    valid: { text: '1, 2, 3, 4', state: [1, 2, 3, 4] },
  },
  {
    name: 'softmax stability logits (vector editor, 1 to 16 numbers in [-1e6, 1e6])',
    lesson: 'softmax-temperature',
    host: 'attn-softmax-stability',
    input: 'attn-softmax-stability attn-vector-editor input',
    type: 'text',
    commit: 'input',
    state: ['attn-softmax-stability', 'logits'],
    rows: [
      ...VECTOR_TEXT(3, { min: -1e6, max: 1e6 }),
      ['empty', '', /^Type some numbers\.$/],
      ['empty', ' , ', /^Entry 0 \(counting from 0\) is empty\.$/],
      ['too many entries', Array.from({ length: 17 }, (_, i) => i).join(', '), /^At most 16 numbers, got 17\.$/],
      ['enormous size', Array.from({ length: 100000 }, () => '1').join(','), /^At most 16 numbers, got 100000\.$/],
    ],
    valid: { text: '999, 1000', state: [999, 1000] },
  },
  {
    name: 'query builder amounts c (vector editor, 6 numbers in [-3, 3])',
    lesson: 'retrieval',
    host: 'attn-query-builder',
    input: 'attn-query-builder attn-vector-editor input',
    type: 'text',
    commit: 'input',
    state: ['attn-query-builder', 'mix'],
    rows: [...VECTOR_TEXT(6, { min: -3, max: 3 }), ...FIXED_COUNT(6)],
    valid: { text: '0, 0, 1, 0, 1, 0', state: [0, 0, 1, 0, 1, 0] },
  },
  {
    name: 'attention matrix logits S (matrix editor, entries in [-100, 100])',
    lesson: 'attention-matrix',
    host: 'attn-attention-matrix',
    input: 'attn-attention-matrix attn-matrix-editor input[data-r="0"][data-c="2"]',
    type: 'text',
    commit: 'input',
    state: ['attn-attention-matrix', 'scores'],
    rows: CELL_TEXT({ max: 100 }),
    valid: { text: '9', cell: [0, 2] },
  },
  seedEditor('convex-hull', 'attn-hull-mixtures'),
  seedEditor('attention-matrix', 'attn-attention-matrix'),
  seedEditor('multi-head', 'attn-multi-head'),
  ...[
    ['batch', 1, 4],
    ['heads', 1, 6],
    ['length', 1, 8],
    ['dv', 1, 16],
  ].map(([field, min, max]) => ({
    name: `multi-head size ${field} (whole number in [${min}, ${max}])`,
    lesson: 'multi-head',
    host: 'attn-multi-head',
    input: `attn-multi-head input[data-field="${field}"]`,
    type: 'number',
    commit: 'input',
    state: ['attn-multi-head', field],
    rows: WHOLE_TEXT({ min, max }),
    valid: { text: '2', state: 2 },
  })),
  seedEditor('scaled-dot-product', 'attn-sdpa'),
  seedEditor('scaled-dot-product', 'attn-sdpa-steps'),
  seedEditor('causal-masking', 'attn-causal-attention'),
  seedEditor('causal-masking', 'attn-mask-lab'),
  seedEditor('scaling-by-sqrt-dk', 'attn-dot-variance'),
  seedEditor('scaling-by-sqrt-dk', 'attn-scaling-example'),
  seedEditor('scaling-by-sqrt-dk', 'attn-scaling-curves'),
  {
    name: 'mask painter window w (whole number in [0, 4])',
    lesson: 'causal-masking',
    host: 'attn-mask-lab#windows',
    input: 'attn-mask-lab#windows attn-mask-painter #window',
    type: 'number',
    commit: 'change',
    state: ['attn-mask-lab#windows', 'window'],
    rows: WHOLE_TEXT({ min: 0, max: 4 }),
    valid: { text: '2', state: 2 },
  },
  ...[
    ['draws', 100, 20000, '500'],
    ['tokens', 2, 64, '8'],
  ].map(([field, min, max, valid]) => ({
    name: `scaling curves ${field} (whole number in [${min}, ${max}])`,
    lesson: 'scaling-by-sqrt-dk',
    host: 'attn-scaling-curves',
    input: `attn-scaling-curves #${field}`,
    type: 'number',
    commit: 'change',
    state: ['attn-scaling-curves', field],
    rows: WHOLE_TEXT({ min, max }),
    valid: { text: valid, state: Number(valid) },
  })),
];
