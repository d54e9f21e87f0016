/**
 * ExerciseGate: a Lit reactive controller for a part of the page held back until the learner has
 * answered an exercise (predict first). attn-reveal holds back a whole figure with it; the hull
 * lab (scores-after) holds back its τ part.
 *
 *   this.gate = new ExerciseGate(this, () => this.after, { onAttach(gate) {…} });
 *   this.gate.open     // null until the exercise is looked up, then true once it has an attempt
 *                      // (or "Show me"), or when there is no such exercise; false before, and
 *                      // while a Try another question awaits its first attempt
 *   this.gate.exercise // the attn-exercise element, or null
 *   this.gate.missing  // an id was given but no exercise on the page has it
 *   this.gate.label    // the exercise's label, for a link to it
 *   this.gate.goTo()   // scrolls to the exercise and focuses its first answer field
 *   ${gateLink(this.gate)} // that link: the label (maths typeset); gateLinkStyles
 *
 * The exercise is looked up in the host's root once attn-exercise is defined (it comes earlier in
 * the page but may not be upgraded yet); call attach() again when the id changes. onAttach (optional)
 * runs after each look-up, e.g. to say that the id names no exercise. The host is registered in the
 * exercise's `heldBack` (a wrong attempt then shows the answer: the exercise counts as shown). It
 * listens for attn-progress (every attempt and "Show me") and attn-state-change (Reset and Try
 * another hide the part again) and asks the host to update when `open` changes.
 */
import { css, html } from 'lit';
import { mathText } from '../base/math.js';

/**
 * Where the link to exercise `id` points: on a lesson's page, the lesson opened at it (an assignment
 * link, `at=`, for a new tab or a copied link); elsewhere the exercise's id.
 */
function exerciseHref(id) {
  const lesson = location.hash.match(/^#\/[^?]*/)?.[0];
  return lesson ? `${lesson}?at=${encodeURIComponent(id)}` : `#${encodeURIComponent(id)}`;
}

/**
 * A link to the exercise `gate` waits for, with its label: a click goes there on this page. A link,
 * not a button, so that a long label wraps with the sentence around it.
 */
export const gateLink = (gate) =>
  html`<a
    class="gate-link"
    href=${exerciseHref(gate.id() ?? '')}
    @click=${(event) => {
      event.preventDefault();
      gate.goTo();
    }}
    >${mathText(gate.label)}</a
  >`;

/** gateLink's look: a link in the text (with mathStyles for its label). */
export const gateLinkStyles = css`
  .gate-link {
    color: var(--accent, #3b5bdb);
    text-decoration: underline;
  }
  .gate-link:focus-visible {
    outline: 2px solid var(--accent, #3b5bdb);
    outline-offset: 2px;
  }
`;

export class ExerciseGate {
  constructor(host, id, { onAttach = null } = {}) {
    this.host = host;
    this.id = id;
    this.onAttach = onAttach;
    this.exercise = null;
    this.missing = false;
    this.open = null;
    this._onChange = () => this.#sync();
    host.addController(this);
  }

  hostConnected() {
    customElements.whenDefined('attn-exercise').then(() => this.attach());
  }

  hostDisconnected() {
    this.#detach();
  }

  /** Looks the exercise up (again) by the host's current id. */
  attach() {
    this.#detach();
    if (!this.host.isConnected) return;
    const id = this.id();
    const exercise = id ? this.host.getRootNode().querySelector?.(`attn-exercise[id="${CSS.escape(id)}"]`) : null;
    this.exercise = exercise;
    this.missing = Boolean(id) && !exercise;
    exercise?.heldBack?.add(this.host);
    exercise?.addEventListener('attn-progress', this._onChange);
    exercise?.addEventListener('attn-state-change', this._onChange);
    this.onAttach?.(this);
    this.#sync(true);
  }

  #detach() {
    this.exercise?.heldBack?.delete(this.host);
    this.exercise?.removeEventListener('attn-progress', this._onChange);
    this.exercise?.removeEventListener('attn-state-change', this._onChange);
    this.exercise = null;
  }

  #sync(force = false) {
    const record = this.exercise?.record;
    const open = !this.exercise || ((record.status !== 'none' || record.attempts > 0) && !this.exercise.awaitsAttempt);
    if (open === this.open && !force) return;
    this.open = open;
    this.host.requestUpdate();
  }

  get label() {
    return this.exercise?.getAttribute('label') || 'the exercise above';
  }

  goTo() {
    const exercise = this.exercise;
    if (!exercise) return;
    exercise.scrollIntoView({ block: 'center' });
    const root = exercise.renderRoot;
    (root?.querySelector('input, textarea') ?? root?.querySelector('.check-button, button'))?.focus();
  }
}
