// The retrieval labs' pure model (web/src/labs/retrieval/retrieval-model.js), in Node with the
// real engine: the source's example (query = token 2 retrieves token 2), the query mixed from
// tokens (Exercise 1's even split, token 5's uniform weights) and the printout's Python format.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
import {
  PRESETS,
  argmax,
  computeQuery,
  computeRetrieval,
  describeResult,
  embedding,
  keyRows,
  positionRows,
  pythonFloats,
  queryVector,
  resultObject,
  retrievalPrintout,
} from '../../web/src/labs/retrieval/retrieval-model.js';

const engine = await loadAttention();

test('the source’s example: query = token 2, weights [0, 0, 1, 0, 0] to 3 decimals, retrieved id 2', () => {
  const r = computeRetrieval(engine, 2);
  assert.deepEqual(r.rounded, [0, 0, 1, 0, 0]);
  assert.equal(r.oneHotGap, 0);
  assert.equal(r.retrieved, 2);
  assert.ok(Math.abs(r.weights[2] - 0.99985) < 1e-5, `α₂ = ${r.weights[2]}`);
  assert.deepEqual(r.dots, [0, 0, 25, 0, 0]);
  assert.ok(Math.abs(r.scores[2] - 25 / Math.sqrt(6)) < 1e-4);
  assert.equal(
    retrievalPrintout(r),
    'attention weights over the 5 sequence positions: [0.0, 0.0, 1.0, 0.0, 0.0]\nretrieved token id: 2  (queried for token 2)',
  );
  for (const token of [0, 1, 3, 4]) assert.equal(computeRetrieval(engine, token).retrieved, token);
});

test('Exercise 1: vocab[2] + vocab[4] splits the weight evenly (0.49997 each); argmax takes the first of the tie', () => {
  const blend = PRESETS.find((p) => p.name === 'vocab[2] + vocab[4]');
  const r = computeQuery(engine, blend.mix);
  assert.deepEqual(r.query, [0, 0, 5, 0, 5, 0]);
  assert.deepEqual(r.dots, [0, 0, 25, 0, 25]);
  assert.equal(r.weights[2], r.weights[4]);
  assert.ok(Math.abs(r.weights[2] - 0.49997) < 1e-5);
  assert.equal(r.retrieved, 2);
});

test('token 5 is not in the sequence: every score is 0 and the weights are uniform', () => {
  const r = computeQuery(engine, [0, 0, 0, 0, 0, 1]);
  assert.deepEqual(r.dots, [0, 0, 0, 0, 0]);
  r.weights.forEach((w) => assert.ok(Math.abs(w - 0.2) < 1e-6));
});

test('helpers: embeddings, Python floats, argmax on ties, exports, the text alternative', () => {
  assert.deepEqual(embedding(3), [0, 0, 0, 5, 0, 0]);
  assert.deepEqual(keyRows()[4], [0, 0, 0, 0, 5, 0]);
  assert.deepEqual(queryVector([0, 1, 0, 0.5, 0, 0]), [0, 5, 0, 2.5, 0, 0]);
  assert.equal(pythonFloats([0.00004, 0.99985, -0.0001, 0.5]), '[0.0, 1.0, 0.0, 0.5]');
  assert.equal(argmax([1, 3, 3, 2]), 1);
  const r = computeQuery(engine, [0, 1, 0, 0.5, 0, 0]);
  assert.equal(r.retrieved, 1);
  assert.deepEqual(positionRows(r)[0], ['position j', 'token', 'q·k_j', 'q·k_j/√6', 'weight']);
  assert.equal(positionRows(r).length, 6);
  assert.deepEqual(resultObject(r).dotProducts, [0, 25, 0, 12.5, 0]);
  assert.match(describeResult(r), /retrieved token id 1/);
  assert.match(describeResult(null), /not computed yet/);
});
