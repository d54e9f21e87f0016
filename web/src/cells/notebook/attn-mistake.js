/**
 * <attn-mistake value="0.5" tolerance="0.01">Feedback shown for this answer.</attn-mistake>
 *
 * A likely wrong answer of a number exercise (a child of <attn-exercise mode="number">,
 * written on one line in a lesson): when an attempt is within `tolerance` (default 0)
 * of `value`, the exercise shows this element's text as its verdict instead of a plain
 * "not it". Never shown itself; the exercise reads it (exercise-model.js parseMistake).
 * It draws nothing, so it is always settled (data-settled, like every attn-* element).
 */
export class AttnMistake extends HTMLElement {
  connectedCallback() {
    this.hidden = true;
    this.setAttribute('data-settled', '');
  }
}

customElements.define('attn-mistake', AttnMistake);
