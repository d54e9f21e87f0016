/**
 * <attn-progress-view .lessons=${lessons}>: on the home page, under the course's progress line.
 * A disclosure "Your progress, exercise by exercise" listing every lesson that has exercises and
 * each exercise's state from localStorage ("Solved", "Answer shown", "Attempted (2 tries)", "Not
 * tried"; progress.js), and "Reset my progress…", which asks for a confirmation before it removes
 * every exercise record and visited mark of this browser (not the theme). After a reset it says so
 * (a status region) and fires `attn-progress-reset` (bubbles) so the page redraws its progress.
 * Light DOM, styled by app.css.
 */
import { html } from 'lit';
import { mathPlain } from '../cells/base/math.js';
import { CourseElement } from './course-element.js';
import { exerciseRecord, recordText, resetProgress } from './progress.js';

export class AttnProgressView extends CourseElement {
  static properties = {
    ...super.properties,
    _confirming: { state: true },
    _message: { state: true },
  };

  constructor() {
    super();
    this._confirming = false;
    this._message = '';
  }

  async #ask() {
    this._confirming = true;
    this._message = '';
    await this.updateComplete;
    this.querySelector('.progress-reset-cancel')?.focus();
  }

  async #answer(reset) {
    this._confirming = false;
    if (reset) {
      const removed = resetProgress();
      this._message = removed > 0 ? 'Your progress has been reset.' : 'There was no saved progress to reset.';
      this.dispatchEvent(new CustomEvent('attn-progress-reset', { bubbles: true }));
    }
    await this.updateComplete;
    this.querySelector('.progress-reset')?.focus();
  }

  renderCell() {
    const lessons = this.lessons.filter(({ meta }) => (meta.exerciseIds ?? []).length > 0);
    return html`
      <details class="progress-view">
        <summary>Your progress, exercise by exercise</summary>
        <ul class="progress-lessons">
          ${lessons.map(
            ({ meta }) =>
              html`<li data-lesson=${meta.id}>
                <a href="#/${meta.id}">${meta.title}</a>
                <ul>
                  ${meta.exerciseIds.map((id) => {
                    const record = exerciseRecord(meta.id, id);
                    // data-exercise-id, not data-exercise: that attribute marks an exercise itself.
                    return html`<li data-exercise-id=${id} data-progress=${record.status}>
                      ${mathPlain(meta.exerciseLabels?.[id] ?? id)}: ${recordText(record)}
                    </li>`;
                  })}
                </ul>
              </li>`,
          )}
        </ul>
      </details>
      <div class="progress-reset-row">
        ${
          this._confirming
            ? html`<span id="progress-reset-question"
                  >Forget every solved exercise and opened lesson in this browser?</span
                >
                <button
                  type="button"
                  class="button progress-reset-confirm"
                  aria-describedby="progress-reset-question"
                  @click=${() => this.#answer(true)}
                >
                  Yes, reset
                </button>
                <button type="button" class="button progress-reset-cancel" @click=${() => this.#answer(false)}>
                  Cancel
                </button>`
            : html`<button type="button" class="button progress-reset" @click=${() => this.#ask()}>
                Reset my progress…
              </button>`
        }
        <span class="progress-reset-status" role="status">${this._message}</span>
      </div>
    `;
  }
}

customElements.define('attn-progress-view', AttnProgressView);
