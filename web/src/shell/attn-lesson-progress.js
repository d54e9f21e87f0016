/**
 * <attn-lesson-progress .meta=${lesson.meta}>: the lesson's own progress line in its header,
 * "1 of 3 exercises solved", kept up to date as the learner checks answers (attn-progress) and
 * resets exercises (attn-state-change), from the same saved records as the home page
 * (progress.js). Says nothing for a lesson without exercises. Light DOM, styled by lesson.css.
 */
import { html } from 'lit';
import { AttnCell } from '../cells/base/attn-cell.js';
import { exercisesSolved, lessonProgress } from './progress.js';

export class AttnLessonProgress extends AttnCell {
  static properties = {
    ...super.properties,
    meta: { attribute: false },
  };

  constructor() {
    super();
    this.meta = null;
    this._onChange = (event) => {
      if (event.type === 'attn-progress' || event.target?.localName === 'attn-exercise') this.requestUpdate();
    };
  }

  createRenderRoot() {
    return this;
  }

  connectedCallback() {
    super.connectedCallback();
    document.addEventListener('attn-progress', this._onChange);
    document.addEventListener('attn-state-change', this._onChange);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    document.removeEventListener('attn-progress', this._onChange);
    document.removeEventListener('attn-state-change', this._onChange);
  }

  renderCell() {
    if (!this.meta || !(this.meta.exerciseIds ?? []).length) return '';
    const { solved, total } = lessonProgress(this.meta);
    return html`<p class="lesson-progress">${exercisesSolved(solved, total)}</p>`;
  }
}

customElements.define('attn-lesson-progress', AttnLessonProgress);
