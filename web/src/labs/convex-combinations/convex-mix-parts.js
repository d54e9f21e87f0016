/**
 * The templates of <attn-convex-mix> that only read what they are given (not elements): the
 * weights as bars, where y lands among the values (the strips and their legend), the two rules of
 * a convex combination with the entries that break them, the controls of the weights, the values
 * and the notebook's loop term by term, the code cells and the "Under the hood" note.
 */
import { html } from 'lit';
import { formatNumber } from '../../cells/base/cell-support.js';
import { tex } from '../../cells/base/math.js';
import '../../charts/attn-bar-chart.js';
import '../../charts/attn-value-strips.js';
import { NUMPY_CODE, TORCH_CODE } from './convex-mix-code.js';
import { AGREEMENT, DECIMALS, dimLabels, fmt, printout, ROW_SUM_TOLERANCE, vec } from './convex-mix-model.js';

const format3 = (v) => formatNumber(v, 3);

/** The weights as bars, editable (drag, or the arrow keys): onBars(values, index, done) while and after. */
export function weightBars(weights, [min, max], onBars) {
  return html`<attn-bar-chart
    class="chart bars"
    aria-describedby="bars-hint"
    label="Weights α, one bar per position (drag, or focus and use the arrow keys)"
    editable
    step="0.01"
    min=${min}
    max=${max}
    .values=${weights}
    .labels=${weights.map((_, j) => `α${j}`)}
    .format=${format3}
    @bar-input=${(e) => onBars(e.detail.values, e.detail.index, false)}
    @bar-change=${(e) => onBars(e.detail.values, e.detail.index, true)}
  ></attn-bar-chart>`;
}

/**
 * The value strips (`rows` and `domain` from convex-mix-model.js stripRows; `stale` while the core
 * refuses α) and their key; `broken` adds the mark of the weighted sum that is not a mixture.
 */
export function stripsFigure({ rows, domain }, stale, broken) {
  return html`<attn-value-strips
      class="chart strips"
      label="Where y lands among the values, one line per coordinate"
      .rows=${rows}
      .domain=${domain}
      ?stale=${stale}
    ></attn-value-strips>
    ${stripsLegend(broken)}`;
}

/** The two rules, each kept or broken, for the report `r` (convex-mix-model.js weightsReport). */
export function rulesPanel(r) {
  const rep = r.report;
  const negList = r.negatives
    .map(([j, a]) => html`${tex`\alpha_${j}`} = ${fmt(a)}`)
    .flatMap((t, i) => (i ? [', ', t] : [t]));
  return html`<ul class="rules" aria-label="The two rules of a convex combination" aria-live="polite">
    <li class=${r.okNonNegative ? 'kept' : 'broken'} data-rule="nonnegative">
      <span class="verdict">${r.okNonNegative ? '✓ Rule 1 kept' : '✗ Rule 1 broken'}:</span> every
      ${tex`\alpha_j \ge 0`}.
      ${
        r.okNonNegative
          ? html`The smallest weight is ${fmt(rep.minEntry)}.`
          : html`${negList} ${r.negatives.length === 1 ? 'is' : 'are'} negative (the most negative is
              ${fmt(-rep.minEntry)} below zero).
              <span class="why"
                >A weight is the share of y a position gives; a negative share pushes y away from that value, out of the
                stretch the values span.</span
              >`
      }
    </li>
    <li class=${r.okSum ? 'kept' : 'broken'} data-rule="sum">
      <span class="verdict">${r.okSum ? '✓ Rule 2 kept' : '✗ Rule 2 broken'}:</span> ${tex`\sum_j \alpha_j = 1`}. The
      weights add up to ${fmt(r.sum)}${r.okSum ? '.' : html`, off by ${formatNumber(Math.abs(r.sum - 1), 3)}.`}
      ${
        r.okSum
          ? ''
          : html`<span class="why"
              >Shares that do not add up to 1 scale y by ${fmt(r.sum)} as well as mixing: equal values would not come
              back unchanged.</span
            >`
      }
    </li>
  </ul>`;
}

/** The key to the value strips; `broken` adds the mark of the weighted sum that is not a mixture. */
function stripsLegend(broken) {
  return html`<p class="legend">
    <span class="key key-value" aria-hidden="true">●</span> the values, one line per coordinate; shaded: the stretch
    from the smallest to the largest. <span class="key key-y" aria-hidden="true">○</span> y${
      broken
        ? html`. <span class="key key-stray" aria-hidden="true">✕</span> Σ α<sub>j</sub> v<sub>j</sub> with the weights
            as they are: not a mixture.`
        : ''
    }
  </p>`;
}

/**
 * Beside the figure: Keep Σα = 1, the keyboard hint (the bars' description), the weights as text
 * (`authored`: the attribute form of the authored weights) and Normalise; each edit is a callback.
 */
export function weightControls({
  keep,
  count,
  weights,
  authored,
  canNormalise,
  onKeepSum,
  onVectorChange,
  onNormalise,
}) {
  return html`
    <label class="toggle">
      <input type="checkbox" aria-label="Keep Σα = 1" .checked=${keep} @change=${(e) => onKeepSum(e.target.checked)} />
      Keep ${tex`\sum \alpha = 1`}
    </label>
    <p class="hint" id="bars-hint">
      ${
        keep
          ? 'Dragging one weight rescales the others, so the weights still add up to 1.'
          : 'Each bar moves on its own: the weights may break a rule.'
      }
      Keyboard: focus a bar (Tab), then ↑/↓ (±0.01), PageUp/PageDown, Home/End.
    </p>
    <attn-vector-editor
      label="Weights α"
      min="-10"
      max="10"
      count=${count}
      values=${authored}
      .values=${weights}
      @change=${onVectorChange}
    ></attn-vector-editor>
    <p class="normalise">
      <button type="button" class="primary" ?disabled=${!canNormalise} @click=${onNormalise}>Normalise α</button>
      <span class="hint">negative weights to 0, then each divided by the sum</span>
    </p>
  `;
}

/**
 * Below the figure: the values V (a matrix editor; `authored`: the attribute form of the authored
 * values; onMatrixChange gets its change events) and, once the core has reported, the loop.
 */
export function valuesAndLoop(values, authored, onMatrixChange, r) {
  const T = values.length;
  const d = values[0]?.length ?? 0;
  return html`
    <h3>The values V (${T} × ${d}: one row v<sub>j</sub> per position)</h3>
    <attn-matrix-editor
      label="Values V"
      row-labels=${values.map((_, j) => `v${j}`).join(',')}
      col-labels=${dimLabels(d).join(',')}
      min="-1000"
      max="1000"
      values=${authored}
      .values=${values}
      @change=${onMatrixChange}
    ></attn-matrix-editor>
    ${
      r
        ? html`<h3>The loop, one position at a time</h3>
            ${loopTable(r)}`
        : ''
    }
  `;
}

/** The loop of the report `r`, one row per position: α_j, v_j, α_j v_j and the running sum. */
function loopTable(r) {
  return html`<div class="terms" tabindex="0" role="region" aria-label="The loop, one position at a time">
    <table>
      <caption class="sr-only">
        The loop, one position at a time
      </caption>
      <thead>
        <tr>
          <th scope="col">j</th>
          <th scope="col">α<sub>j</sub></th>
          <th scope="col">v<sub>j</sub></th>
          <th scope="col">α<sub>j</sub> v<sub>j</sub></th>
          <th scope="col">running sum</th>
        </tr>
      </thead>
      <tbody>
        ${r.terms.map(
          (t) =>
            html`<tr>
              <td>${t.j}</td>
              <td>${fmt(t.a)}</td>
              <td>${vec(t.v)}</td>
              <td>${vec(t.term)}</td>
              <td>${vec(t.running)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** The printed output and the NumPy and PyTorch code, with these weights, values and y (or the loop's sum). */
export function codeCells(weights, values, r, mix) {
  const params = { V: values, alpha: weights, y: mix?.y ?? r?.loop ?? [] };
  return html`
    <attn-output label="Printed output" .text=${printout(weights, values, r, mix)}></attn-output>
    <attn-code label="NumPy: loop vs α @ V" .params=${params} .template=${NUMPY_CODE}></attn-code>
    <attn-code label="PyTorch: loop vs α @ V" .params=${params} .template=${TORCH_CODE}></attn-code>
  `;
}

/** "Under the hood": who computes y, the tolerances, the rounding of Keep Σα = 1 and Normalise. */
export const mixHood = html`<p>
  y is computed twice. The loop adds α<sub>j</sub> v<sub>j</sub> one position at a time in JavaScript, rounding to
  float32 like the notebook's tensors, so that every term can be shown. The product α @ V is computed by the attention
  core (C++ compiled to WebAssembly, <code>convexCombination</code>), which refuses weights that are negative or do not
  sum to 1 within ${ROW_SUM_TOLERANCE}. The rules are checked by the core's <code>rowStochasticReport</code> with the
  same tolerance (close to <code>torch.isclose</code>'s). The two results agree when they differ by at most
  ${AGREEMENT}; float32 rounding is about 1e-7 here. "Keep Σα = 1" and Normalise round the weights to ${DECIMALS}
  decimals and put the rounding on one weight, so the sum stays exactly 1.
</p>`;
