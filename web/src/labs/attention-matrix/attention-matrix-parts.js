/**
 * The attention-matrix lab's view pieces (functions returning Lit templates, not elements): row i
 * of Y taken apart term by term beside the heatmap, and V or Y as a compact table with one row
 * marked.
 */
import { html } from 'lit';
import { tex } from '../../cells/base/math.js';
import { DIMS, DV, fixed, rowTerms, T, TOKENS, vector } from './attention-matrix-model.js';
import { styleProps } from '../../charts/style-props.js';

/** Row i of Y, term by term, beside the heatmap. */
export function rowBreakdown(r, row, col) {
  const t = rowTerms(r, row);
  const i = t.i;
  return html`<div class="breakdown" data-row=${i} aria-live="polite">
    <p class="part-title">Row ${i} of ${tex`A`} mixes the rows of ${tex`V`}: ${tex`y_{${i}} = \sum_j A_{${i}j} v_j`}</p>
    <table class="terms" tabindex="0">
      <caption class="sr-only">
        ${`Row ${i} of Y as a weighted sum of the rows of V`}
      </caption>
      <thead>
        <tr>
          <th scope="col">${tex`j`}</th>
          <th scope="col">${tex`A_{${i}j}`}</th>
          <th scope="colgroup" colspan=${DV}>${tex`A_{${i}j} \cdot v_j`}</th>
        </tr>
      </thead>
      <tbody>
        ${t.weights.map(
          (a, j) =>
            html`<tr class=${j === col ? 'current term' : 'term'} data-weight=${a}>
              <th scope="row">${j}</th>
              <td class="weight" style=${styleProps({ '--w': `${(a * 100).toFixed(1)}%` })}>${a.toFixed(4)}</td>
              ${t.products[j].map((x) => html`<td>${fixed(x, 2)}</td>`)}
            </tr>`,
        )}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">${tex`\sum`}</th>
          <td class="weight-sum">${t.total.toFixed(4)}</td>
          ${t.y.map((x) => html`<td>${fixed(x, 2)}</td>`)}
        </tr>
      </tfoot>
    </table>
    <p class="y-row mono" data-values=${t.y.join(',')}>${tex`y_{${i}} =`} ${vector(t.y, 3)}</p>
    <p class="hint">
      ${tex`v_j`} is row ${tex`j`} of ${tex`V`} (marked below for the cell you point at). The weights are ${tex`\ge 0`}
      and add up to 1, so ${tex`y_{${i}}`} lies in the convex hull of ${tex`v_0, \ldots, v_{${T - 1}}`}. Hover or focus
      another cell (arrow keys move) to take another row apart.
    </p>
  </div>`;
}

/** V or Y as a compact table (rows v₀ … v₄ or y₀ … y₄, typeset; columns d0…d3), row `highlight` marked. */
export function compactMatrix(label, caption, precision, prefix, highlight, values) {
  return html`<attn-matrix
    compact
    label=${label}
    caption=${caption}
    precision=${precision}
    row-labels=${TOKENS.map((_, i) => `$${prefix}_{${i}}$`).join(',')}
    col-labels=${DIMS.join(',')}
    highlight-row=${highlight}
    .values=${values}
  ></attn-matrix>`;
}
