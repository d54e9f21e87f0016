/**
 * The templates of <attn-softmax-temperature> that only read what they are given (not elements): the
 * readout of the weights with their entropy and effective number of positions, the table of the
 * comparison temperatures, the code cells and the "Under the hood" note.
 */
import { html } from 'lit';
import { tex } from '../../cells/base/math.js';
import { positionLabels, SOFTMAX_LAB_CODE } from './softmax-lab-model.js';
import { COMPARE_CODE, formatWeight } from './temperature-compare-model.js';

/** α as numbers with their sum, then the entropy H and exp(H), for the result `r` of T positions. */
export function weightStats(r, T) {
  return html`<p class="readout mono" data-weights=${Array.from(r.weights).join(',')}>
      α = [${Array.from(r.weights, (w) => w.toFixed(4)).join(', ')}], sum = ${r.sum.toFixed(6)}
    </p>
    <dl class="stats">
      <dt>entropy ${tex`H = -\sum_j \alpha_j \log \alpha_j`}</dt>
      <dd class="entropy" data-value=${String(r.entropy)}>
        ${r.entropy.toFixed(4)} nats (from 0 to ${tex`\ln ${T}`} = ${Math.log(T).toFixed(4)})
      </dd>
      <dt>effective positions ${tex`\exp(H)`}</dt>
      <dd class="effective" data-value=${String(r.effective)}>${r.effective.toFixed(3)} of ${T}</dd>
    </dl>`;
}

/** The button of comparison temperature k, pressed at the slider's τ: onTau(τ) moves the slider there. */
function tauButton(c, k, temperature, onTau) {
  return html`<button
    type="button"
    aria-label=${`Set τ to ${c.temperatures[k]}`}
    aria-pressed=${String(temperature === c.temperatures[k])}
    @click=${() => onTau(c.temperatures[k])}
  >
    ${c.temperatures[k]}
  </button>`;
}

/**
 * The weights at the comparison temperatures (`c`, temperature-compare-model.js computeComparison,
 * for T positions), a row per temperature; more than four positions are transposed (a row per
 * position, a column per temperature), so the table fits a phone instead of scrolling sideways.
 * Each temperature's button moves the slider there (onTau).
 */
export function comparisonTable(c, T, temperature, onTau) {
  if (!c) return '';
  const labels = positionLabels(T);
  const button = (k) => tauButton(c, k, temperature, onTau);
  const cell = (w) => html`<td data-value=${String(w)}>${formatWeight(w)}</td>`;
  const title = html`<p class="part-title" id="compare-title">
    The same logits at ${c.temperatures.length} temperatures
  </p>`;
  if (labels.length > 4) {
    return html`${title}
      <table class="compare transposed" aria-labelledby="compare-title" tabindex="0">
        <thead>
          <tr>
            <td></td>
            ${c.temperatures.map((_, k) => html`<th scope="col">${tex`\tau`} ${button(k)}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${labels.map(
            (label, j) =>
              html`<tr>
                <th scope="row">${tex`\alpha`} at ${label}</th>
                ${c.rows.map((row) => cell(row[j]))}
              </tr>`,
          )}
        </tbody>
      </table>`;
  }
  return html`${title}
    <table class="compare" aria-labelledby="compare-title" tabindex="0">
      <thead>
        <tr>
          <th scope="col">${tex`\tau`}</th>
          ${labels.map((label) => html`<th scope="col">${tex`\alpha`} at ${label}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${c.rows.map(
          (row, k) =>
            html`<tr>
              <th scope="row">${button(k)}</th>
              ${Array.from(row, cell)}
            </tr>`,
        )}
      </tbody>
    </table>`;
}

/** The PyTorch of the lab (these logits at τ) and of the source's figure (at the comparison temperatures). */
export function softmaxCode(logits, tau, temperatures) {
  return html`<attn-code label="PyTorch" .template=${SOFTMAX_LAB_CODE} .params=${{ logits, tau }}></attn-code>
    <attn-code
      label="PyTorch: the source's figure"
      .template=${COMPARE_CODE}
      .params=${{ logits, temperatures }}
    ></attn-code>`;
}

/** "Under the hood": float32 in the core against its float64 reference, and what the checks compare. */
export const softmaxHood = html`<p>
  The weights come from the WebAssembly core, which computes in single precision (float32) and subtracts the largest
  logit before exponentiating. The first check compares them with the core's reference, the same formula evaluated in
  double precision (float64); at τ = 0 and τ = ∞ the reference is the exact limit. The last check runs the core's
  row-stochastic report over the comparison's weights.
</p>`;
