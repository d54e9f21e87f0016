/**
 * Templates and styles of the multi-head lab (not an element): the grid of small maps of A (one
 * button per sequence b and head k, colours only), the dimensional audit table, and their CSS.
 */
import { css, html, svg } from 'lit';
import { tex } from '../../cells/base/math.js';
import { mapColours, shapeText } from './multi-head-model.js';

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
    style=${`grid-template-columns: max-content repeat(${r.h}, var(--tile))`}
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

export const multiHeadStyles = css`
  h3:first-child {
    margin-top: 0;
  }
  .linked {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem 1.25rem;
    align-items: flex-start;
  }
  .overview {
    flex: 1 1 20rem;
    min-width: 0;
    --tile: 3.5rem;
  }
  .maps {
    display: grid;
    gap: 0.3rem;
    align-items: center;
    justify-items: center;
    overflow-x: auto;
    padding: 0.2rem;
  }
  .col-head,
  .row-head {
    font-size: 0.8rem;
    color: var(--muted, #555d6b);
    white-space: nowrap;
  }
  .row-head {
    justify-self: end;
    padding-right: 0.25rem;
  }
  button.tile {
    width: var(--tile);
    height: var(--tile);
    padding: 3px;
    border-radius: 6px;
    border: 2px solid transparent;
    background: var(--surface, #fff);
  }
  button.tile svg {
    display: block;
    width: 100%;
    height: 100%;
    shape-rendering: crispEdges;
  }
  button.tile[aria-pressed='true'] {
    border-color: var(--accent, #3b5bdb);
    box-shadow: 0 0 0 2px color-mix(in srgb, var(--accent, #3b5bdb) 35%, transparent);
  }
  /* the large map: room for cells of 56 px beside the grid; narrower, the heatmap lays itself out smaller */
  .detail {
    flex: 0 1 calc(var(--cells) * 3.5rem + 3rem);
    min-width: 0;
    max-width: 100%;
  }
  .detail attn-heatmap {
    margin: 0;
  }
  .legend {
    display: flex;
    align-items: center;
    gap: 0.4rem;
    font-size: 0.8rem;
    color: var(--muted, #555d6b);
    margin: 0.35rem 0;
  }
  .legend {
    white-space: nowrap;
  }
  .legend .ramp {
    flex: 0 0 auto;
    width: 8rem;
    height: 0.7rem;
    border-radius: 2px;
  }
  .sizes {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr));
    align-items: end;
  }
  .size {
    display: flex;
    flex-direction: column;
    gap: 0.15rem;
    font-size: 0.85rem;
  }
  .stepper {
    display: flex;
    gap: 0.2rem;
  }
  .size input {
    width: 3.75rem;
    text-align: center;
    font-family: var(--font-mono, ui-monospace, monospace);
  }
  .size .range {
    color: var(--muted, #555d6b);
  }
  .errors {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .shapes attn-shape-diagram {
    margin: 0.5rem 0;
  }
  table.audit {
    border-collapse: collapse;
    font-size: 0.9rem;
  }
  table.audit th,
  table.audit td {
    border-bottom: 1px solid var(--border, #d0d4dc);
    padding: 0.3rem 0.5rem;
    text-align: left;
    vertical-align: top;
  }
  table.audit thead th {
    color: var(--muted, #555d6b);
  }
  table.audit .mono {
    white-space: nowrap;
  }
  /* Narrow screens: one block per object, each value under its column name. */
  @media (max-width: 560px) {
    table.audit,
    table.audit tbody,
    table.audit tr,
    table.audit th,
    table.audit td {
      display: block;
    }
    table.audit thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
    }
    table.audit tr {
      border-bottom: 1px solid var(--border, #d0d4dc);
      padding: 0.35rem 0;
    }
    table.audit th,
    table.audit td {
      border: 0;
      padding: 0.1rem 0;
    }
    table.audit td::before {
      content: attr(data-label) ': ';
      color: var(--muted, #555d6b);
      font-family: var(--font-sans, system-ui, sans-serif);
    }
  }
`;
