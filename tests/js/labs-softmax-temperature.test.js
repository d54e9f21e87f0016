// The softmax-temperature labs' pure models (web/src/labs/softmax-temperature/*-model.js), in Node
// with the real engine: the oracle, the derived values and the text alternative.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
import {
  computeSoftmaxLab,
  describeSoftmaxLab,
  formatTau,
  logitDomain,
  positionLabels,
  referenceSoftmax,
} from '../../web/src/labs/softmax-temperature/softmax-lab-model.js';

test('the oracle: the formula at τ, the argmax one-hot at τ = 0 (ties share), uniform at τ = ∞', () => {
  const w = referenceSoftmax([1.2, 4.5, 2, 0.8], 1);
  assert.ok(Math.abs(w[1] - 0.8743615) < 1e-6, `α₁ = ${w[1]}`);
  assert.deepEqual(referenceSoftmax([1, 3, 3], 0), [0, 0.5, 0.5]);
  assert.deepEqual(referenceSoftmax([1, 3, 3, 0], Infinity), [0.25, 0.25, 0.25, 0.25]);
});

test('the lab’s values come from the core and its checks measure real gaps', async () => {
  const engine = await loadAttention();
  const r = computeSoftmaxLab(engine, [1.2, 4.5, 2, 0.8], 1);
  assert.ok(r.referenceGap <= 1e-6, `gap ${r.referenceGap}`);
  assert.equal(r.coldGap, 0);
  assert.equal(r.hotGap, 0);
  assert.ok(Math.abs(r.entropy - 0.5001) < 1e-4, `H = ${r.entropy}`);
  assert.ok(Math.abs(r.effective - Math.exp(r.entropy)) < 1e-5);
  assert.ok(Math.abs(r.sum - 1) < 1e-6);
  // a core that returned other weights would be caught by the reference check
  const wrong = {
    softmax: (s, o) => ({ data: engine.softmax(s, o).data.map((x, i) => (i ? x : x + 1e-3)) }),
    entropy: (w) => engine.entropy(w),
    effectivePositions: (w) => engine.effectivePositions(w),
  };
  assert.ok(computeSoftmaxLab(wrong, [1.2, 4.5, 2, 0.8], 1).referenceGap > 1e-6);
});

test('display helpers: positions counted from 0, τ written with ∞, a logit range that holds the logits', () => {
  assert.deepEqual(positionLabels(3), ['Pos 0', 'Pos 1', 'Pos 2']);
  assert.equal(formatTau(Infinity), '∞');
  assert.equal(formatTau(0.25), '0.25');
  const [lo, hi] = logitDomain([-7.5, 9]);
  assert.ok(lo <= -7.5 && hi >= 9);
  assert.deepEqual(
    logitDomain([1, 2])
      .slice(0, 2)
      .map((x) => x <= -2 || x >= 6),
    [true, true],
  );
  assert.match(describeSoftmaxLab([1, 2], 0, null), /not computed yet/);
});
