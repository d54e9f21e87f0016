/**
 * The hand-set 2-D world of the queries-keys-values lesson (attn-qkv-world): five token
 * embeddings x₀ … x₄ in the plane, stacked as X (5, 2); two projections W_Q = s_Q·R(θ_Q) and
 * W_K = s_K·R(θ_K), each a rotation by θ (degrees, counter-clockwise) times a length s; the
 * queries Q = X W_Q, the keys K = X W_K, every dot product q_i·k_j, the weights
 * softmax(q_i Kᵀ/√2), and which key each query picks (the largest dot product, first on ties).
 * The products are the core's (engine.scores, with scale 1 for X W and q·k); JS builds the 2 × 2
 * matrices from angles, compares and formats. No DOM; unit-tested in Node
 * (tests/js/labs-queries-keys-values.test.js).
 *
 * Also the lesson's challenge (Exercise 2: make token 2's query pick token 4), checked from the
 * lab's state and picks, with the typical dead ends named.
 */

/** The embeddings x₀ … x₄ (rows of X). Token 2 is the shortest: with W_Q = W_K = I it picks token 1. */
export const TOKENS = [
  [2, 0],
  [1, 2],
  [-0.5, 1],
  [-2, -0.5],
  [1, -1.5],
];
export const D = 2;
export const CHALLENGE = { query: 2, key: 4 };
/** One answer to the challenge: a half turn of W_Q against W_K, q₂ = −x₂. */
export const SOLUTION = { angleQ: 180, angleK: 0 };
export const ANGLE = { min: -180, max: 180, step: 5 };
export const SCALE = { min: 0.25, max: 2, step: 0.05 };

const rad = (deg) => (deg * Math.PI) / 180;
const clean = (v) => (Math.abs(v) < 1e-12 ? 0 : v); // cos 90° is 6e-17: show 0

/**
 * W = s · R(θ) acting on row vectors (x W, as x @ W): x W is x turned by θ counter-clockwise and
 * made s times longer. Rows [[s cos θ, s sin θ], [−s sin θ, s cos θ]].
 */
export function projection(angle, scale) {
  const c = clean(Math.cos(rad(angle)));
  const s = clean(Math.sin(rad(angle)));
  return [
    [scale * c, scale * s],
    [-scale * s, scale * c],
  ];
}

const tensor = (rows) => ({ data: Float32Array.from(rows.flat()), shape: [rows.length, rows[0].length] });
const transpose = (m) => m[0].map((_, j) => m.map((row) => row[j]));
const rowsOf = ({ data, shape: [r, c] }) =>
  Array.from({ length: r }, (_, i) => Array.from(data.subarray(i * c, (i + 1) * c)));

/** Index of the largest entry, the first one on ties. */
export function argmax(xs) {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i] > xs[best]) best = i;
  return best;
}

/** The angle in (−180, 180] equal to `deg` modulo 360. */
export function wrapAngle(deg) {
  const a = (((deg % 360) + 540) % 360) - 180;
  return a === -180 ? 180 : a;
}

/**
 * The world for a state { angleQ, scaleQ, angleK, scaleK }: W_Q, W_K, Q, K (rows), dots (5 × 5,
 * q_i·k_j), scores (q_i·k_j/√2), weights (softmax of each row of scores) and picks (per query,
 * the key with the largest dot product).
 * @param {import('../../engine/index.js').Attention} engine
 */
export function computeWorld(engine, { angleQ, scaleQ, angleK, scaleK }) {
  const wq = projection(angleQ, scaleQ);
  const wk = projection(angleK, scaleK);
  const X = tensor(TOKENS);
  // X W = X (Wᵀ)ᵀ: the core's q kᵀ with k = Wᵀ and scale 1
  const Q = engine.scores(X, tensor(transpose(wq)), { scale: 1 });
  const K = engine.scores(X, tensor(transpose(wk)), { scale: 1 });
  const dots = rowsOf(engine.scores(Q, K, { scale: 1 }));
  const scaled = engine.scores(Q, K); // 1/√d_k, d_k = 2
  const weights = rowsOf(engine.softmax(scaled));
  return {
    wq,
    wk,
    queries: rowsOf(Q),
    keys: rowsOf(K),
    dots,
    scores: rowsOf(scaled),
    weights,
    picks: dots.map(argmax),
    relative: wrapAngle(angleQ - angleK),
  };
}

const fmt = (v, digits = 2) => {
  const t = Number(v.toFixed(digits)).toString();
  return (t === '-0' ? '0' : t).replace(/^-/, '−');
};
export const vec = (v, digits = 2) => `(${v.map((x) => fmt(x, digits)).join(', ')})`;
export const matrixText = (m, digits = 2) =>
  `[${m.map((row) => `[${row.map((x) => fmt(x, digits)).join(', ')}]`).join(', ')}]`;
export { fmt };

/**
 * Exercise 2's check, from what the lab shows: the state and token 2's pick. Correct when token 2's
 * query picks token 4. The dead ends get their own feedback: rotating both projections by the
 * same angle (nothing changes), only scaling (the order of a query's scores cannot change), and
 * a rotation that lands on another key (which one, and which way to keep turning).
 * @returns {{ correct: boolean, message: string, mistake?: string }}
 */
export function checkChallenge({ angleQ, scaleQ, angleK, scaleK, pick }) {
  const { query, key } = CHALLENGE;
  const relative = wrapAngle(angleQ - angleK);
  if (pick === key) {
    return {
      correct: true,
      message: `token ${query}'s query now points where key ${key} reaches furthest: q${query}·k${key} is its largest dot product. Only the angle between the two rotations mattered (here ${fmt(relative, 0)}°); the lengths ${fmt(scaleQ)} and ${fmt(scaleK)} only scale every score.`,
    };
  }
  if (relative === 0 && scaleQ === 1 && scaleK === 1 && angleQ === 0 && angleK === 0) {
    return {
      correct: false,
      mistake: 'unchanged',
      message: `with W_Q = W_K = I the queries and keys are the embeddings themselves, and token ${query}'s query picks token ${pick}. Turn W_Q (its slider, or drag the tip of q${query}) and watch the pick change.`,
    };
  }
  if (relative === 0 && (angleQ !== 0 || angleK !== 0)) {
    return {
      correct: false,
      mistake: 'same-rotation',
      message: `W_Q and W_K turn by the same angle (${fmt(angleQ, 0)}°), so the queries and the keys turn together and every dot product stays as it was: token ${query} still picks token ${pick}. Turn one of them against the other.`,
    };
  }
  if (relative === 0) {
    return {
      correct: false,
      mistake: 'scale-only',
      message: `lengths alone cannot do it: scaling W_Q by ${fmt(scaleQ)} and W_K by ${fmt(scaleK)} multiplies every score of a query by the same positive number, so its largest score stays the largest (token ${pick}). Rotate W_Q or W_K.`,
    };
  }
  return {
    correct: false,
    mistake: 'other-key',
    message: `token ${query}'s query now picks token ${pick}, not token ${key}. Turn W_Q further against W_K (the angle between them is ${fmt(relative, 0)}°) until q${query} points roughly the way x${key} does.`,
  };
}

/** The text alternative. */
export function describeWorld(state, w, selected) {
  if (!w) return 'Queries and keys: not computed yet.';
  const picks = w.picks.map((p, i) => `query ${i} picks key ${p}`).join(', ');
  return (
    `Five tokens in the plane; W_Q turns by ${fmt(state.angleQ, 0)}° and scales by ${fmt(state.scaleQ)}, ` +
    `W_K turns by ${fmt(state.angleK, 0)}° and scales by ${fmt(state.scaleK)}. ` +
    `Token ${selected}'s query is ${vec(w.queries[selected])}; its dot products with the keys are ` +
    `${w.dots[selected].map((d) => fmt(d)).join(', ')}. ${picks}.`
  );
}

/** CSV rows: per query i and key j, the dot product, the scaled score and the weight. */
export function worldRows(w) {
  const rows = [['query i', 'key j', 'q_i·k_j', 'q_i·k_j/√2', 'weight', 'picked']];
  w.dots.forEach((row, i) =>
    row.forEach((d, j) => rows.push([i, j, d, w.scores[i][j], w.weights[i][j], w.picks[i] === j ? 1 : 0])),
  );
  return rows;
}

/** JSON export. */
export const worldObject = (state, w) => ({
  ...state,
  embeddings: TOKENS,
  W_Q: w.wq,
  W_K: w.wk,
  queries: w.queries,
  keys: w.keys,
  dotProducts: w.dots,
  weights: w.weights,
  picks: w.picks,
});
