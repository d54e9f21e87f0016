/**
 * What the two labs of the scaled-dot-product lesson share in their templates (not an element):
 * a select of an index counted from 0 (the batch b, the query row i) bound to a state field.
 */
import { html } from 'lit';
import { mathText } from '../../cells/base/math.js';

/**
 * <label> (its maths between $…$ typeset) and <select> of 0 … count − 1 for `lab[field]` (an
 * AttnLab: the choice is a learner's edit).
 * @param {import('../../cells/base/lab.js').AttnLab} lab
 */
export function indexSelect(lab, { id, field, label, count }) {
  return html`<label for=${id}>${mathText(label)}</label>
    <select id=${id} @change=${(e) => lab.setField(field, Number(e.target.value))}>
      ${Array.from({ length: count }, (_, i) => html`<option value=${i} ?selected=${i === lab[field]}>${i}</option>`)}
    </select>`;
}
