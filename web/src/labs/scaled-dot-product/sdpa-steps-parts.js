/**
 * The view of <attn-sdpa-steps> for one query row (functions returning Lit templates, not an
 * element): each pass's formula, what the current pass does, and the table of the row's numbers
 * pass by pass (later passes' cells stay "·" until reached).
 */
import { html } from 'lit';
import { mathText, tex } from '../../cells/base/math.js';
import { fixed, vector } from '../common/qkv-lab.js';
import { D } from './sdpa-model.js';
import { PASSES, STEP_HEADS } from './sdpa-steps-model.js';

/** Each pass's formula, shown beside "Pass n of 4". */
export const FORMULAS = {
  scores: tex`s_j = q_i \cdot k_j`,
  scale: tex`s_j / \sqrt{d_k}`,
  softmax: tex`w_j = \operatorname{softmax}(s / \sqrt{d_k})_j`,
  sum: tex`y_i = \sum_j w_j v_j`,
};

/** What pass `step` does to query row `i`, with its numbers `x` (sdpa-model.js queryRow). */
export function passExplanation(x, step, i) {
  switch (step) {
    case 0:
      return html`Pass 1, scores: query ${tex`q_{${i}}`} = ${vector(x.q, 2)} is dotted with each key ${tex`k_j`}, one
      score per key. A large score means ${tex`q_{${i}}`} and ${tex`k_j`} point the same way.`;
    case 1:
      return html`Pass 2, scale: each score is divided by
      ${tex`\sqrt{d_k} = \sqrt{${D}} \approx ${fixed(Math.sqrt(D), 4)}`} (a mask, when there is one, is added here; this
      example has none). The order of the scores does not change; their spread shrinks, so the softmax that follows is
      not pushed to one key.`;
    case 2:
      return html`Pass 3, softmax of the scaled scores, in three steps: the row's largest score (${fixed(x.max, 4)});
      the exponential of each score minus it (so nothing overflows) and their sum; each exponential divided by the sum.
      The weights are non-negative and add up to ${fixed(x.weightSum, 6)}; key ${x.best} gets the most.`;
    default:
      return html`Pass 4, weighted sum: the output row ${tex`y_{${i}}`} is the sum of the value rows ${tex`v_j`}, each
      scaled by its weight ${tex`w_j`}: a weighted average of the values, ${tex`D = ${D}`} numbers.`;
  }
}

/** A cell of pass `pass` at step `s`: its number once reached, "·" before. */
function cell(s, pass, value) {
  const id = PASSES[pass].id;
  if (pass > s) return html`<td class="pending" data-pass=${id}>·</td>`;
  return html`<td class=${pass === s ? 'current' : ''} data-pass=${id} data-value=${value}>${fixed(value, 4)}</td>`;
}

/** The table of query row `row` of batch `batch` as at `step`, and y_i under it at the last pass. */
export function stepsTableView(x, { step: s, row, batch }) {
  const head = (pass, content) => html`<th scope="col" class=${s === pass ? 'current' : ''}>${content}</th>`;
  return html`<div class="scroll" tabindex="0" role="region" aria-label="The numbers of the query row, pass by pass">
      <table class="steps mono">
        <caption class="visually-hidden">
          ${`Query row ${row} of batch ${batch}, passes 1 to ${s + 1}`}
        </caption>
        <thead>
          <tr>
            <th scope="col">key&nbsp;${tex`j`}</th>
            ${STEP_HEADS.map((text, pass) => head(pass, mathText(text)))}
          </tr>
        </thead>
        <tbody>
          ${x.scores.map(
            (_, j) =>
              html`<tr>
                <th scope="row">${j}</th>
                ${cell(s, 0, x.scores[j])} ${cell(s, 1, x.scaled[j])} ${cell(s, 2, x.weights[j])}
                ${
                  s < 3
                    ? html`<td class="pending">·</td>`
                    : html`<td class="current" data-pass="sum">${vector(x.terms[j], 2)}</td>`
                }
              </tr>`,
          )}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">${tex`\sum`}</th>
            <td></td>
            <td></td>
            ${
              s < 2
                ? html`<td class="pending">·</td>`
                : html`<td class="weight-sum" data-value=${x.weightSum}>${fixed(x.weightSum, 4)}</td>`
            }
            ${s < 3 ? html`<td class="pending">·</td>` : html`<td class="current">${tex`y_{${row}}`} ↓</td>`}
          </tr>
        </tfoot>
      </table>
    </div>
    ${
      s === 3
        ? html`<p class="mono y-row" data-values=${x.y.join(',')}>
            ${tex`y_{${row}} = \sum_j w_j v_j =`} ${vector(x.y, 4)}
          </p>`
        : ''
    }`;
}
