// The look of attn-exercise (attn-exercise.js): the card, its answer fields, verdict and panels,
// and the templates of the card and of its built-in answer fields. Text made at run time (an
// option, a verdict, a variant's prompt, hint and explanation) may hold maths between $…$: it is
// typeset by mathText (cells/base/math.js, the shared formatter); text without $ is as written.
import { css, html, nothing } from 'lit';
import { mathPlain, mathText } from '../base/math.js';

const PREFIX = { pass: 'Correct', fail: 'Not yet', shown: 'Shown' };
const FALLBACK = { pass: 'well done.', fail: 'try again.', shown: '' };

/**
 * The hint or the explanation panel: the variant's own text (`own`) or the lesson's slot; hidden
 * until opened, and while not `available`.
 */
const panel = (which, { available, open, own }, onSlotChange) =>
  html`<div
    class="panel"
    id=${`panel-${which}`}
    tabindex="-1"
    aria-label=${which === 'hint' ? 'Hint' : 'Explanation'}
    ?hidden=${!open || !available}
  >
    ${own ? html`<p>${mathText(own)}</p>` : html`<slot name=${which} @slotchange=${onSlotChange}></slot>`}
  </div>`;

/**
 * The exercise card: its head (label, badges, Reset), the task (or the variant's prompt), the
 * attempt slot with the built-in field and Check, the verdict (a status region), the buttons that
 * open the panels, "Show me" and "Try another", and the panels. `v`: what AttnExercise knows now
 * (`status`, its record's; `checkLabel`, what Check says instead while the check waits, disabled),
 * with its handlers in `v.on`.
 */
export function exerciseCard(v) {
  const { verdict, on } = v;
  const verdictText = verdict
    ? html`${PREFIX[verdict.kind]} — ${mathText(verdict.message || FALLBACK[verdict.kind])}`
    : '';
  return html`<section class="card" aria-labelledby="title">
    <div class="head">
      <span class="label" id="title">${mathText(v.label)}</span>
      ${v.status === 'solved' ? html`<span class="badge">✓ Solved</span>` : ''}
      ${v.status === 'shown' ? html`<span class="badge shown">Answer shown</span>` : ''}
      <button type="button" @click=${on.reset} aria-label=${`Reset ${mathPlain(v.label)}`}>Reset</button>
    </div>
    <div class="task" ?hidden=${Boolean(v.prompt)}><slot @slotchange=${on.slotChange}></slot></div>
    ${v.prompt ? html`<p class="task variant" id="prompt">${mathText(v.prompt)}</p>` : ''}
    <div class="attempt">
      <slot name="attempt"></slot>
      ${v.builtIn}
      ${
        v.showCheck
          ? html`<div class="controls">
              <button type="button" class="check-button" ?disabled=${Boolean(v.checkLabel)} @click=${on.check}>
                ${v.checkLabel || 'Check'}
              </button>
            </div>`
          : ''
      }
    </div>
    <p class="verdict ${verdict?.kind ?? ''}" role="status" tabindex=${verdict ? '-1' : nothing}>${verdictText}</p>
    <div class="reveal">
      ${['hint', 'explanation'].map((which) =>
        v.panels[which].available
          ? html`<button
              type="button"
              aria-expanded=${v.panels[which].open ? 'true' : 'false'}
              aria-controls=${`panel-${which}`}
              @click=${() => on.toggle(which)}
            >
              ${v.panels[which].open ? 'Hide' : 'Show'} ${which}
            </button>`
          : '',
      )}
      ${v.canShow ? html`<button type="button" class="show-me" @click=${on.showMe}>Show me</button>` : ''}
      ${
        v.canTryAnother
          ? html`<button type="button" class="try-another" @click=${on.tryAnother}>Try another</button>`
          : ''
      }
    </div>
    ${panel('hint', v.panels.hint, on.slotChange)} ${panel('explanation', v.panels.explanation, on.slotChange)}
  </section>`;
}

/**
 * mode="choice": the options as radio buttons in a fieldset, and `error` under it (Check pressed
 * with nothing chosen) until an option is chosen.
 */
export const choiceField = (options, chosen, onChoose, error = '') =>
  html`<fieldset aria-describedby=${error && !chosen ? 'choice-error' : nothing}>
      <legend>Your answer</legend>
      ${options.map(
        (o) =>
          html`<label
            ><input
              type="radio"
              name="choice"
              .value=${o.value}
              .checked=${chosen === o.value}
              aria-label=${o.text.includes('$') ? mathPlain(o.text) : nothing}
              @change=${() => onChoose(o.value)}
            /><span>${mathText(o.text)}</span></label
          >`,
      )}
    </fieldset>
    <p class="field-error" id="choice-error" ?hidden=${!error || Boolean(chosen)}>${error}</p>`;

/**
 * mode="number": the answer field (Enter checks), described by the variant's prompt (#prompt) when
 * one is asked and by its error (#number-error) when the text is not a number.
 */
export function numberField({ text, error, prompt, onInput, onEnter }) {
  const described = [prompt ? 'prompt' : '', error ? 'number-error' : ''].filter(Boolean).join(' ');
  return html`<label for="number">Your answer</label>
    <input
      id="number"
      type="text"
      inputmode="decimal"
      autocomplete="off"
      .value=${text}
      aria-invalid=${error ? 'true' : 'false'}
      aria-describedby=${described}
      @input=${(e) => onInput(e.target.value)}
      @keydown=${(e) => e.key === 'Enter' && onEnter()}
    />
    <p class="field-error" id="number-error" ?hidden=${!error}>${error}</p>`;
}

export const exerciseStyles = css`
  .card {
    border-left: 4px solid var(--accent, #3b5bdb);
  }
  @media (max-width: 37.5rem) {
    .card {
      padding-left: 0.75rem !important; /* flat on phones (flatOnPhones), but clear of the stripe */
    }
  }
  :host([data-status='pass']) .card {
    border-left-color: var(--pass, #1b7f3b);
  }
  .badge {
    font-size: 0.85rem;
    color: var(--pass, #1b7f3b);
    font-weight: 600;
  }
  ::slotted(option) {
    display: none;
  }
  .attempt {
    margin: 0.5rem 0;
  }
  .controls,
  .reveal {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
    margin-top: 0.5rem;
  }
  fieldset {
    border: 1px solid var(--border, #d0d4dc);
    border-radius: 6px;
    margin: 0;
    padding: 0.35rem 0.75rem 0.5rem;
  }
  fieldset label {
    display: flex;
    gap: 0.5rem;
    align-items: baseline;
    padding: 0.15rem 0;
    cursor: pointer;
  }
  input[type='radio'] {
    accent-color: var(--accent, #3b5bdb);
  }
  input[type='radio']:focus-visible {
    outline: 2px solid var(--accent, #3b5bdb);
    outline-offset: 2px;
  }
  .check-button {
    border-color: var(--accent, #3b5bdb);
    font-weight: 600;
  }
  .verdict {
    margin: 0.5rem 0 0;
    font-weight: 600;
  }
  .verdict:empty {
    display: none;
  }
  .verdict.pass {
    color: var(--pass, #1b7f3b);
  }
  .verdict.fail {
    color: var(--danger, #b3261e);
  }
  .panel {
    margin-top: 0.5rem;
    padding: 0.25rem 0.75rem;
    border-radius: 6px;
    background: var(--bg, #f7f8fa);
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --pass: #6fd08c;
    }
  }
  .badge.shown {
    color: inherit;
    font-weight: 400;
  }
  .verdict.shown {
    color: inherit;
  }
  ::slotted(attn-mistake) {
    display: none;
  }
  .verdict:focus,
  .panel:focus {
    outline: 2px solid var(--accent, #3b5bdb);
    outline-offset: 2px;
  }
`;
