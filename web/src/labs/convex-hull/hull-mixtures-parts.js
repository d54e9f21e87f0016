/**
 * The templates of <attn-hull-mixtures> that only read what they are given (not elements): the
 * readouts under the plot (the hull, the count outside it, the drag hint), the note in place of
 * the scores part while it waits for its exercise, the code cells and the "Under the hood" note.
 */
import { html } from 'lit';
import { tex } from '../../cells/base/math.js';
import { gateLink } from '../../cells/notebook/exercise-gate.js';
import { HULL_CODE, HULL_PLOT_CODE, hullText, ROW_SUM_TOLERANCE } from './hull-mixtures-model.js';

/** Under the plot: the hull of the view `v` (null while loading), how many of `count` lie outside, the drag hint. */
export function hullReadouts(v, count, scoresOpen) {
  return html`<p class="readout">Hull (counter-clockwise): ${v ? hullText(v.hull) : '…'}</p>
    <p class="count" aria-live="polite">
      <strong class="outside-count">${v ? v.outside : '…'}</strong> of ${count} mixtures lie outside the hull.
    </p>
    <p class="hint" id="drag-hint">
      Drag a value, or focus it (Tab) and use the arrow keys. The ${count} mixtures keep their weights and
      follow${scoresOpen ? '; the dashed curve is y(τ) for τ from 0 to ∞' : ''}.
    </p>`;
}

/** In place of the scores part until the exercise `gate` waits for has an answer: a link to it. */
export function scoresLocked(gate) {
  return html`<h3>One mixture from scores: ${tex`y(\tau) = \operatorname{softmax}(s / \tau)\, V`}</h3>
    <p class="hint scores-locked" role="note">
      This part shows the answer to ${gateLink(gate)}. Check an answer there first: it appears as soon as you have.
    </p>`;
}

/** The printed output (`printout`, already without y(τ) while that waits) and the NumPy/SciPy code for `state`. */
export function hullCode(state, printout) {
  const params = {
    V: state.values,
    c: state.concentration,
    count: state.count,
    seed: state.seed,
    s: state.logits,
    tau: state.temperature,
  };
  return html`<attn-output label="Printed output" .text=${printout}></attn-output>
    <attn-code
      label="NumPy and SciPy: Dirichlet mixtures and a hull test"
      .params=${params}
      .template=${HULL_CODE}
    ></attn-code>
    <attn-code label="The figure with Matplotlib (after the cell above)" .template=${HULL_PLOT_CODE}></attn-code>`;
}

/** "Under the hood": which call of the core computes what, and how the dots are painted. */
export const hullHood = html`<p>
  Every number here comes from the attention core (C++ compiled to WebAssembly): the random weights from its seeded
  Dirichlet generator (<code>dirichlet</code>; NumPy's generator gives other draws for the same seed), the mixtures as
  one matrix product W V (<code>convexCombination</code>, float32), the hull with exact orientation tests
  (<code>convexHull</code>, counter-clockwise), the count outside it (<code>pointsInHull</code>), and y(τ) and its path
  from <code>softmax</code> (τ = 0 and ∞ are the exact limits; the path samples τ = 10⁻² … 10² on a log scale). Weight
  rows count as summing to 1 within ${ROW_SUM_TOLERANCE}. Above 500 mixtures the dots are painted on a canvas behind the
  plot; the SVG export draws them as circles.
</p>`;
