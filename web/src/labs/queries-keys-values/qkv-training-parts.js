/**
 * The templates of <attn-qkv-training> that only read what they are given (not elements): the
 * plane of the four items' keys and the two queries with its key and hint, the loss and accuracy
 * curves, and the "Under the hood" note.
 */
import { html } from 'lit';
import '../../charts/attn-line-chart.js';
import '../../charts/attn-vector-plane.js';
import { FRAME_STEPS, TRAIN_STEPS } from './qkv-training-model.js';

const SUB = '₀₁₂';

const LOSS_SERIES = [
  { name: 'loss', className: 'series-0', points: false },
  { name: 'accuracy', className: 'series-1', dashed: true, points: false },
];

/**
 * The plane of the trainer's state `s` drawn to `radius`: the four items' keys and the two queries,
 * each joined to the key it scores highest.
 */
export function trainingPlane(s, radius) {
  const best = (q) =>
    s.keys.reduce((top, k) => (q[0] * k.at[0] + q[1] * k.at[1] > q[0] * top.at[0] + q[1] * top.at[1] ? k : top));
  return html`<attn-vector-plane
    class="plane"
    label="Keys of the four items and the queries of 'A?' and 'B?'"
    radius=${radius}
    .points=${s.keys.map((k) => ({
      at: k.at,
      label: `${k.token}${SUB[k.position]}`,
      className: k.group === 'A' ? 'group-a' : 'group-b',
      shape: k.position === 0 ? 'circle' : 'square',
      size: 5,
      labelOffset: k.position === 0 ? [-24, -6] : [8, 14], // the two positions' keys lie close together
    }))}
    .arrows=${[
      { to: s.queries.A, label: 'q(A?)', className: 'query' },
      { to: s.queries.B, label: 'q(B?)', className: 'query query-b' },
    ]}
    .links=${[
      { from: s.queries.A, to: best(s.queries.A).at, className: 'pick' },
      { from: s.queries.B, to: best(s.queries.B).at, className: 'pick' },
    ]}
  ></attn-vector-plane>`;
}

/** The key to the plane's marks and how its keys are labelled. */
export const planeKey = html`<p class="plane-legend" aria-hidden="true">
    <span><span class="swatch group-a"></span>keys of group A (tokens 0, 1)</span>
    <span><span class="swatch group-b"></span>keys of group B (tokens 2, 3)</span>
    <span><span class="swatch query"></span>queries of 'A?', 'B?'</span>
  </p>
  <p class="hint">
    A key is labelled token<sub>position</sub>: 1₀ is token 1 at position 0 (a circle), 1₁ at position 1 (a square). A
    dashed line joins each query to the key it scores highest.
  </p> `;

/** The loss and accuracy curves of `s`, their axes growing by whole blocks of Train (up to `goal`). */
export function lossChart(s, goal) {
  const xMax = Math.max(TRAIN_STEPS, Math.ceil(Math.max(goal, s.step) / TRAIN_STEPS) * TRAIN_STEPS);
  const yMax = Math.max(2, Math.ceil(Math.max(0, ...s.history.map((h) => h[1])) * 2) / 2);
  return html`<attn-line-chart
    class="loss"
    label="Loss of the last batch and accuracy on the 16 inputs, by step"
    x-label="step"
    y-label="loss, accuracy"
    .xDomain=${[0, xMax]}
    .yDomain=${[0, yMax]}
    .series=${LOSS_SERIES}
    .data=${[s.history.map(([x, loss]) => [x, loss]), s.history.map(([x, , acc]) => [x, acc])]}
    .marker=${s.step}
  ></attn-line-chart>`;
}

/** "Under the hood": where and how the model trains, and why a step count names one model. */
export const trainingHood = html`<p>
  The model trains in the WebAssembly core on the page's main thread: ${FRAME_STEPS} AdamW steps (batches of 32 inputs)
  per animation frame, then the drawing. The seed fixes the first weights and every batch, so a step count names one
  model: a link with <code>train.steps=400</code> replays the same 400 steps and shows the same picture. The accuracy is
  measured on all 16 possible inputs, not on a sample.
</p>`;
