/**
 * Templates of the multi-head lab (not an element): the grid of small maps of A (one button per
 * sequence b and head k, colours only), the shapes of Y = AV with the notebook's printout, and the
 * dimensional audit table. Their CSS: multi-head-styles.js.
 */
import { html, svg } from 'lit';
import { tex } from '../../cells/base/math.js';
import { mapColours, printout, shapeText } from './multi-head-model.js';
import { styleProps } from '../../charts/style-props.js';

/**
 * The grid of maps: rows are the sequences b, columns the heads k; each map is a button (at least
 * 44 px) drawn in colours only, `pick` is the one shown large. `onPick({ b, k })`, `onKey(event)`.
 */
export function mapGrid(r, pick, { onPick, onKey }) {
  const heads = Array.from({ length: r.h }, (_, k) => k);
  return html`<div
    class="maps"
    role="group"
    aria-label="The maps of A: rows are the sequences b, columns the heads k (arrow keys move)"
    style=${styleProps({ 'grid-template-columns': `max-content repeat(${r.h}, var(--tile))` })}
    @keydown=${onKey}
  >
    <span></span>
    ${heads.map((k) => html`<span class="col-head" aria-hidden="true">head ${k}</span>`)}
    ${Array.from(
      { length: r.B },
      (_, b) =>
        html`<span class="row-head" aria-hidden="true">${tex`b = ${b}`}</span> ${heads.map((k) => {
            const map = r.maps[b * r.h + k];
            const on = pick.b === b && pick.k === k;
            return html`<button
              type="button"
              class="tile"
              data-batch=${b}
              data-head=${k}
              aria-pressed=${on ? 'true' : 'false'}
              aria-label=${`A[${b}, ${k}]: sequence ${b}, head ${k}`}
              tabindex=${on ? 0 : -1}
              @click=${() => onPick({ b, k })}
            >
              <svg viewBox=${`0 0 ${r.T} ${r.T}`} preserveAspectRatio="none" aria-hidden="true">
                ${mapColours(map).map((fill, n) => {
                  const [i, j] = [Math.floor(n / r.T), n % r.T];
                  return svg`<rect x=${j} y=${i} width="1" height="1" fill=${fill} data-row=${i} data-col=${j}
                    data-value=${map.values.data[n]}></rect>`;
                })}
              </svg>
            </button>`;
          })}`,
    )}
  </div>`;
}

/** The notebook's dimensional audit, with the shapes the core returned (0-based, as the code counts). */
export function auditTable(r) {
  const rows = [
    [
      'Values',
      'V',
      'Feature representations',
      tex`(B, h, T, d_v)`,
      r.V.shape,
      html`The vectors being blended; each lives in ${tex`\mathbb{R}^{d_v}`}.`,
    ],
    [
      'Logits',
      'S',
      'Unbounded compatibility',
      tex`(B, h, T, T)`,
      r.S.shape,
      html`Raw real scores, anywhere in ${tex`(-\infty, \infty)`}; here drawn at random, in the next lesson computed
      from the sequence.`,
    ],
    [
      'Weights',
      'A',
      'Row-stochastic matrix',
      tex`(B, h, T, T)`,
      r.A.shape,
      'Non-negative coefficients that sum to 1 along each row.',
    ],
    [
      'Output',
      'Y',
      'Contextualised vectors',
      tex`(B, h, T, d_v)`,
      r.Y.shape,
      html`Convex combinations of the values, inside their hull ${tex`\operatorname{Conv}(v_0, \ldots, v_{T-1})`}.`,
    ],
  ];
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Dimensional audit table">
    <table class="audit">
      <caption class="visually-hidden">
        Dimensional and conceptual audit, with the shapes of this lab
      </caption>
      <thead>
        <tr>
          <th scope="col">Object</th>
          <th scope="col">Mathematical domain</th>
          <th scope="col">Tensor shape</th>
          <th scope="col">Here</th>
          <th scope="col">Role in the mechanism</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          ([name, symbol, domain, symbolic, live, role]) =>
            html`<tr data-object=${symbol}>
              <th scope="row">${name} (${tex(symbol)})</th>
              <td data-label="Mathematical domain">${domain}</td>
              <td class="mono" data-label="Tensor shape">${symbolic}</td>
              <td class="mono live-shape" data-label="Here">${shapeText(live)}</td>
              <td data-label="Role">${role}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** Under the figure: where V and S come from, the shapes of Y = AV, the printout, the audit table. */
export function shapesAndAudit(r, seed) {
  return html`<p class="note">
      ${tex`V`} and ${tex`S`}: numbers drawn at random from a standard normal distribution (seed ${seed}).
    </p>
    <h3>The shapes of ${tex`Y = AV`}</h3>
    <div class="shapes">
      <attn-shape-diagram
        label="Shapes of the batched product Y = AV"
        a-shape=${[r.B, r.h, r.T, r.T].join(',')}
        b-shape=${[r.B, r.h, r.T, r.dv].join(',')}
        a-labels="B,h,T,T"
        b-labels="B,h,T,d_v"
        operands="A,V,Y = AV"
        caption=${`${r.B} × ${r.h} = ${r.B * r.h} independent products of a (${r.T}, ${r.T}) matrix with a (${r.T}, ${r.dv}) one; the last axis of $A$ is summed against the rows of $V$.`}
      ></attn-shape-diagram>
    </div>
    <attn-output label="Output" .text=${printout(r)}></attn-output>
    <h3>Dimensional audit</h3>
    ${auditTable(r)}`;
}
