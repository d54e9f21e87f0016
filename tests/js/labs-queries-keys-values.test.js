// The queries-keys-values labs' pure models, in Node with the real engine:
// - the hand-set 2-D world (qkv-world-model.js): projections as turns and stretches, Q = X W_Q and
//   K = X W_K from the core, every dot product and pick (Exercise 1's answer: token 2 picks token 1
//   with identity projections), and the challenge's check with each dead end's own feedback;
// - the training lab (qkv-training-model.js): retrieval2d brought to a step deterministically
//   however the steps are chunked, and trained to the solution (every input retrieves the right item).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
import {
  CHALLENGE,
  SOLUTION,
  TOKENS,
  argmax,
  checkChallenge,
  computeWorld,
  describeWorld,
  matrixText,
  projection,
  worldObject,
  worldRows,
  wrapAngle,
} from '../../web/src/labs/queries-keys-values/qkv-world-model.js';
import {
  ALL_INPUTS,
  advance,
  describeTraining,
  disposeRun,
  historyRows,
  newRun,
  planeRadius,
  solved,
  trainingChecks,
  trainingObject,
} from '../../web/src/labs/queries-keys-values/qkv-training-model.js';

const engine = await loadAttention();
const IDENTITY = { angleQ: 0, scaleQ: 1, angleK: 0, scaleK: 1 };
const dot = (a, b) => a[0] * b[0] + a[1] * b[1];
const close = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

describe('the hand-set world', () => {
  test('W = s·R(θ) turns row vectors counter-clockwise and stretches them', () => {
    const w = projection(90, 2);
    const x = [1, 0];
    const turned = [x[0] * w[0][0] + x[1] * w[1][0], x[0] * w[0][1] + x[1] * w[1][1]];
    assert.deepEqual(turned, [0, 2]);
    assert.deepEqual(projection(0, 1), [
      [1, 0],
      [-0, 1],
    ]);
    assert.equal(wrapAngle(190), -170);
    assert.equal(wrapAngle(-180), 180);
    assert.equal(wrapAngle(360), 0);
  });

  test('identity projections: queries and keys are the embeddings; token 2 picks token 1 (Exercise 1)', () => {
    const w = computeWorld(engine, IDENTITY);
    w.queries.forEach((q, i) => q.forEach((v, d) => close(v, TOKENS[i][d], 0, `q${i}[${d}]`)));
    w.keys.forEach((k, i) => k.forEach((v, d) => close(v, TOKENS[i][d], 0, `k${i}[${d}]`)));
    assert.deepEqual(w.dots[2], [-1, 1.5, 1.25, 0.5, -2]);
    assert.deepEqual(w.picks, [0, 1, 1, 3, 4]); // every token finds itself but the shortest, token 2
    w.weights.forEach((row) =>
      close(
        row.reduce((a, b) => a + b, 0),
        1,
        1e-6,
        'row sum',
      ),
    );
    const e = [-1, 1.5, 1.25, 0.5, -2].map((s) => Math.exp(s / Math.SQRT2));
    const z = e.reduce((a, b) => a + b, 0);
    w.weights[2].forEach((a, j) => close(a, e[j] / z, 1e-6, `weight ${j}`));
  });

  test('the scores match x_i W_Q W_Kᵀ x_jᵀ for any turns and lengths', () => {
    for (const state of [
      { angleQ: 35, scaleQ: 1.5, angleK: -70, scaleK: 0.5 },
      { angleQ: 180, scaleQ: 2, angleK: 90, scaleK: 1.75 },
    ]) {
      const w = computeWorld(engine, state);
      const wq = projection(state.angleQ, state.scaleQ);
      const wk = projection(state.angleK, state.scaleK);
      const times = (x, m) => [x[0] * m[0][0] + x[1] * m[1][0], x[0] * m[0][1] + x[1] * m[1][1]];
      TOKENS.forEach((xi, i) =>
        TOKENS.forEach((xj, j) => close(w.dots[i][j], dot(times(xi, wq), times(xj, wk)), 1e-5, `s${i}${j}`)),
      );
      assert.deepEqual(
        w.picks,
        w.dots.map((row) => argmax(row)),
      );
    }
  });

  test('only the angle between the turns moves the picks; lengths only scale the scores', () => {
    const base = computeWorld(engine, IDENTITY);
    const together = computeWorld(engine, { angleQ: 65, scaleQ: 1, angleK: 65, scaleK: 1 });
    together.dots.flat().forEach((d, n) => close(d, base.dots.flat()[n], 1e-5, 'same turn'));
    const longer = computeWorld(engine, { angleQ: 0, scaleQ: 2, angleK: 0, scaleK: 1.5 });
    longer.dots.flat().forEach((d, n) => close(d, 3 * base.dots.flat()[n], 1e-5, 'lengths'));
    assert.deepEqual(longer.picks, base.picks);
    assert.ok(Math.max(...longer.weights[2]) > Math.max(...base.weights[2]), 'longer vectors: a sharper softmax');
  });

  test('the challenge: a half turn of W_Q makes token 2 pick token 4; each dead end has its own feedback', () => {
    const solution = { ...IDENTITY, ...SOLUTION };
    const w = computeWorld(engine, solution);
    assert.equal(w.picks[CHALLENGE.query], CHALLENGE.key);
    assert.deepEqual(w.dots[2], [1, -1.5, -1.25, -0.5, 2]);
    const right = checkChallenge({ ...solution, pick: w.picks[2] });
    assert.equal(right.correct, true);
    assert.match(right.message, /only scale every score/);
    // the window of relative turns that works: about 135° to 210°
    const works = (angleQ, angleK = 0) =>
      computeWorld(engine, { angleQ, scaleQ: 1, angleK, scaleK: 1 }).picks[2] === CHALLENGE.key;
    assert.ok(works(140) && works(-155) && works(90, -90));
    assert.ok(!works(130) && !works(-145) && !works(0));

    const attempt = (state) => checkChallenge({ ...state, pick: computeWorld(engine, state).picks[2] });
    const cases = [
      [IDENTITY, 'unchanged', /W_Q = W_K = I/],
      [{ ...IDENTITY, angleQ: 120, angleK: 120 }, 'same-rotation', /turn by the same angle/],
      [{ ...IDENTITY, scaleQ: 2, scaleK: 0.25 }, 'scale-only', /lengths alone/],
      [{ ...IDENTITY, angleQ: 60 }, 'other-key', /picks token \d, not token 4/],
    ];
    const messages = new Set();
    for (const [state, mistake, pattern] of cases) {
      const verdict = attempt(state);
      assert.equal(verdict.correct, false, mistake);
      assert.equal(verdict.mistake, mistake);
      assert.match(verdict.message, pattern);
      messages.add(verdict.message);
    }
    assert.equal(messages.size, cases.length);
  });

  test('exports and the text alternative', () => {
    const w = computeWorld(engine, IDENTITY);
    const rows = worldRows(w);
    assert.equal(rows.length, 26);
    assert.deepEqual(rows[0], ['query i', 'key j', 'q_i·k_j', 'q_i·k_j/√2', 'weight', 'picked']);
    assert.deepEqual(worldObject(IDENTITY, w).picks, [0, 1, 1, 3, 4]);
    assert.match(describeWorld(IDENTITY, w, 2), /query 2 picks key 1/);
    assert.equal(matrixText(projection(90, 1)), '[[0, 1], [−1, 0]]');
  });
});

describe('training retrieval2d', () => {
  test('the 16 inputs: an A and a B item in either order, then a query; the answer sits where it says', () => {
    assert.equal(ALL_INPUTS.length, 16);
    for (const { input, answer, right } of ALL_INPUTS) {
      assert.equal(input[right], answer);
      assert.equal(input[2] === 4 ? answer < 2 : answer >= 2, true);
    }
  });

  test('a step count names one model: chunks of any size give the same weights and loss curve', () => {
    const a = newRun();
    const b = newRun();
    let s;
    for (let n = 3; n <= 60; n += 3) s = advance(engine, a, 7, n);
    const t = advance(engine, b, 7, 60);
    assert.deepEqual(s.wq, t.wq);
    assert.deepEqual(s.wk, t.wk);
    assert.equal(s.loss, t.loss);
    assert.deepEqual(s.history, t.history);
    assert.equal(t.history.length, 6);
    // back to an earlier step: a fresh trainer replays to it
    const back = advance(engine, a, 7, 30);
    assert.equal(back.step, 30);
    assert.deepEqual(back.history, t.history.slice(0, 3));
    disposeRun(a);
    disposeRun(b);
  });

  test('seed 16: a plateau at 12 of 16, then the lookup; every input retrieves the right item by step 400', () => {
    const run = newRun();
    const start = advance(engine, run, 16, 0);
    assert.equal(start.step, 0);
    assert.equal(start.loss, null);
    assert.equal(solved(start), false);
    for (const c of trainingChecks(start)) assert.ok(c.value <= c.threshold, c.label);
    const plateau = advance(engine, run, 16, 100);
    assert.equal(plateau.correct, 12, `answered right at step 100: ${plateau.correct}`);
    const started = performance.now();
    const s = advance(engine, run, 16, 400);
    const ms = performance.now() - started;
    assert.equal(s.correct, 16, `answers right: ${s.correct}`);
    assert.equal(s.retrieved, 16, `largest weight on the right item: ${s.retrieved}`);
    assert.ok(solved(s));
    assert.ok(s.meanRight > 0.95, `mean weight on the right item ${s.meanRight}`);
    assert.ok(s.loss < 0.01, `loss ${s.loss}`);
    for (const c of trainingChecks(s)) assert.ok(c.value <= c.threshold, c.label);
    // the vectors grew long: the learned counterpart of the retrieval lesson's factor 5
    const length = (v) => Math.hypot(...v);
    assert.ok(length(s.queries.A) > 5 * length(start.queries.A), 'q(A?) grew');
    assert.ok(length(s.queries.B) > 3 * length(start.queries.B), 'q(B?) grew');
    // the query of 'A?' scores each A item's key above each B item's key at the other position
    // (the keys that compete in an input); 'B?' the other way round
    const score = (q, k) => dot(q, k.at);
    for (const [query, own] of [
      [s.queries.A, 'A'],
      [s.queries.B, 'B'],
    ]) {
      for (const mine of s.keys.filter((k) => k.group === own))
        for (const other of s.keys.filter((k) => k.group !== own && k.position !== mine.position))
          assert.ok(
            score(query, mine) > score(query, other),
            `${own}: ${mine.token}@${mine.position} vs ${other.token}@${other.position}`,
          );
    }
    assert.ok(planeRadius(s) >= planeRadius(start));
    assert.equal(historyRows(s).length, 41);
    assert.equal(trainingObject(s).inputs.length, 16);
    assert.match(describeTraining(s), /16 of 16 inputs answered right/);
    console.log(
      `retrieval2d seed 16: steps 100 to 400 in ${ms.toFixed(0)} ms; mean weight on the right item ${s.meanRight.toFixed(3)}`,
    );
    disposeRun(run);
  });

  test('seed 1 finds a shortcut: all 16 right, 12 looked up; B? attends to itself when the answer is 2', () => {
    const run = newRun();
    const s = advance(engine, run, 1, 400);
    assert.equal(s.correct, 16);
    assert.equal(s.retrieved, 12);
    assert.equal(solved(s), false);
    for (const p of s.probes) {
      if (p.input[2] === 5 && p.answer === 2) assert.ok(p.weights[2] > 0.99, `${p.input}: ${p.weights}`);
      else assert.ok(p.weights[p.right] > 0.98, `${p.input}: ${p.weights}`);
    }
    disposeRun(run);
  });

  test('seed 6 stays at 12 of 16 inputs for 800 steps', () => {
    const run = newRun();
    assert.equal(advance(engine, run, 6, 800).correct, 12);
    disposeRun(run);
  });
});
