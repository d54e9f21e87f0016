/**
 * <attn-variant answer="0.6652" tolerance="0.0006">
 *   <p>Now the scores are s = (1, 2, 3). What is α2?</p>
 *   <attn-mistake value="0.5" tolerance="0.0006">Feedback for this slip.</attn-mistake>
 *   <p slot="hint">…</p>
 *   <p slot="explanation">…</p>
 * </attn-variant>
 *
 * A "Try another" question written in the lesson (a child of <attn-exercise mode="number">),
 * laid out as the exercise itself: `answer` and `tolerance` (default: the exercise's), the task
 * in its other children, likely wrong answers as attn-mistake children, and a hint and an
 * explanation in slot="hint" and slot="explanation". All of it is read as plain text. Try another
 * asks the exercise's variants in the order written (seed 1 is the first, and after the last
 * comes the first again; exercise-model.js declaredVariant). Never shown itself; the exercise
 * reads it. It draws nothing, so it is always settled (data-settled, like every attn-* element).
 */
export class AttnVariant extends HTMLElement {
  connectedCallback() {
    this.hidden = true;
    this.setAttribute('data-settled', '');
  }
}

customElements.define('attn-variant', AttnVariant);
