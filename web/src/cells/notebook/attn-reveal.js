/**
 * <attn-reveal after="cold-limit">
 *   <attn-hull-mixtures …></attn-hull-mixtures>
 * </attn-reveal>
 *
 * Predict first: a figure that would show an exercise's answer stays hidden until the learner
 * has committed an answer to that exercise (the attn-exercise with id `after`, on the same page).
 * Until then the figure is not rendered at all (it cannot be seen, focused or read out) and a
 * line in its place says which exercise opens it, with a link to that exercise. The figure
 * appears after the first checked attempt (right or wrong), after "Show me", and on a later visit
 * when the exercise already has a record; Reset on the exercise hides it again, so the learner
 * can predict afresh.
 *
 * The host reflects data-revealed ("true" | "false"), and has data-lab, so that the lesson page
 * gives it a lab's width. With no such exercise on the page (a typo in `after`) it shows the
 * figure and a notice naming the id, since hiding it for ever would help nobody.
 */
import { LitElement, css, html } from 'lit';
import { ExerciseGate, gateLink, gateLinkStyles } from './exercise-gate.js';
import { mathStyles } from '../base/math-styles.js';

export class AttnReveal extends LitElement {
  static properties = {
    after: { type: String },
    revealed: { type: String, reflect: true, attribute: 'data-revealed' },
  };

  static styles = [
    mathStyles,
    gateLinkStyles,
    css`
      :host {
        display: block;
      }
      .locked {
        max-width: 46rem;
        box-sizing: border-box;
        border: 1px dashed var(--border, #d0d4dc);
        border-radius: 6px;
        padding: 0.9rem 1rem;
        color: var(--text, #1b1e24);
        background: var(--bg, #f7f8fa);
      }
      .locked p {
        margin: 0;
      }
      .notice {
        margin: 0 0 0.4rem;
        color: var(--danger, #b3261e);
      }
    `,
  ];

  constructor() {
    super();
    this.after = '';
    this.revealed = 'false';
    this.gate = new ExerciseGate(this, () => this.after);
  }

  connectedCallback() {
    super.connectedCallback();
    this.toggleAttribute('data-lab', true);
    this.setAttribute('data-settled', '');
  }

  willUpdate(changed) {
    if (changed.has('after') && this.isConnected && customElements.get('attn-exercise')) this.gate.attach();
    this.revealed = this.gate.open === true ? 'true' : 'false';
  }

  render() {
    if (this.revealed === 'true') {
      return html`${
          !this.gate.exercise
            ? html`<p class="notice" role="status">
                This figure waits for the exercise "${this.after}", which is not on this page; it is shown.
              </p>`
            : ''
        }<slot></slot>`;
    }
    return html`<div class="locked" role="note">
      <p>
        This figure shows the answer to ${gateLink(this.gate)}. Check an answer there first: it appears as soon as you
        have.
      </p>
    </div>`;
  }
}

customElements.define('attn-reveal', AttnReveal);
