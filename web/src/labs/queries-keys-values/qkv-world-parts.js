/**
 * The templates of <attn-qkv-world> that only read what they are given (not elements): the plane
 * (embeddings, keys with the pick ringed, queries and the handle of the one followed) and its key,
 * the buttons that choose which token's query to follow, and the table of every dot product.
 */
import { html } from 'lit';
import '../../charts/attn-vector-plane.js';
import { ANGLE, TOKENS, fmt, vec } from './qkv-world-model.js';

const RADIUS = 4.5; // |x₁| · the longest stretch, 2.24 · 2, stays inside

/**
 * The plane for the world `w` (qkv-world-model.js computeWorld) following query `i`, W_Q turned by
 * `angleQ` and lengthened by `scaleQ`: onDrag(at, done) when the handle is dragged, onKey(key)
 * (true when it used the key) when it is focused.
 */
export function planeChart(w, i, angleQ, scaleQ, { onDrag, onKey }) {
  const pick = w.picks[i];
  return html`<attn-vector-plane
    class="plane"
    aria-describedby="plane-hint"
    label="The plane: embeddings x, keys k and queries q"
    radius=${RADIUS}
    .points=${[
      ...TOKENS.map((x, j) => ({ at: x, label: `x${j}`, className: 'embedding', size: 4, labelOffset: [-20, 14] })),
      ...w.keys.map((k, j) => ({
        at: k,
        label: `k${j}`,
        className: 'key',
        shape: 'square',
        id: `k${j}`,
        ring: j === pick,
      })),
    ]}
    .arrows=${w.queries.map((q, j) =>
      j === i ? { to: q, label: `q${j}`, className: 'query' } : { to: q, className: 'query faint' },
    )}
    .links=${[{ from: w.queries[i], to: w.keys[pick], className: 'pick' }]}
    .handle=${{
      at: w.queries[i],
      label: `Query q${i} (drag it, or use the arrow keys: left and right turn W_Q, up and down change its length)`,
      valueText: `q${i} = ${vec(w.queries[i])}, W_Q turned ${fmt(angleQ, 0)}°, length ${fmt(scaleQ)}; picks key ${pick}`,
      value: angleQ,
      min: ANGLE.min,
      max: ANGLE.max,
    }}
    @plane-drag=${(e) => onDrag(e.detail.at, e.detail.done)}
    @plane-key=${(e) => onKey(e.detail.key) && e.preventDefault()}
  ></attn-vector-plane>`;
}

/** The key to the plane's marks (the marks themselves are described in words). */
export const planeKey = html`<p class="plane-legend" aria-hidden="true">
  <span><span class="swatch embedding"></span>embedding x<sub>j</sub></span>
  <span><span class="swatch key"></span>key k<sub>j</sub> = x<sub>j</sub>W<sub>K</sub></span>
  <span><span class="swatch query"></span>query q<sub>i</sub> = x<sub>i</sub>W<sub>Q</sub></span>
</p>`;

/** One button per token, the one whose query is followed (`i`) pressed; onPick(t) on a click. */
export function tokenButtons(i, onPick) {
  return html`<fieldset class="controls tokens">
    <legend>Follow the query of token</legend>
    ${TOKENS.map(
      (_, t) =>
        html`<button
          type="button"
          data-token=${t}
          aria-pressed=${t === i ? 'true' : 'false'}
          aria-label=${`Follow the query of token ${t}`}
          @click=${() => onPick(t)}
        >
          ${t}
        </button>`,
    )}
  </fieldset>`;
}

/** Every dot product q_i·k_j of the world `w`, each row's pick underlined, the followed query's row marked. */
export function dotsTable(w, query) {
  return html`<p class="note">
      Dot products q<sub>i</sub>·k<sub>j</sub>; each query picks the key of its largest (underlined).
    </p>
    <div class="scroll" tabindex="0" role="region" aria-label="Every dot product q_i · k_j">
      <table>
        <thead>
          <tr>
            <th scope="col">query</th>
            ${w.keys.map((_, j) => html`<th scope="col">k${j}</th>`)}
            <th scope="col">picks</th>
          </tr>
        </thead>
        <tbody>
          ${w.dots.map(
            (row, i) =>
              html`<tr class=${i === query ? 'chosen' : ''}>
                <th scope="row">q${i}</th>
                ${row.map((d, j) => html`<td class=${w.picks[i] === j ? 'top' : ''}>${fmt(d)}</td>`)}
                <td class="pick">k${w.picks[i]}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}
