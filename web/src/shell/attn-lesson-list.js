/**
 * <attn-lesson-list .lessons=${lessons}>: the course on the home page, in
 * order: each lesson's title (a link), summary and progress ("n of m exercises
 * solved", and whether it was opened before), read from localStorage.
 * Light DOM, styled by app.css.
 */
import { html } from 'lit';
import { lessonProgress } from './progress.js';
import { AttnCell } from '../cells/base/attn-cell.js';

function progressText({ solved, total, visited }) {
  const exercises = total === 0 ? 'no exercises yet' : `${solved} of ${total} exercises solved`;
  return `${visited ? 'Visited' : 'Not started'} · ${exercises}`;
}

export class AttnLessonList extends AttnCell {
  static properties = { ...super.properties, lessons: { attribute: false } };

  constructor() {
    super();
    this.lessons = [];
  }

  createRenderRoot() {
    return this;
  }

  renderCell() {
    return html`
      <ol class="lesson-list">
        ${this.lessons.map(({ meta }) => {
          const progress = lessonProgress(meta);
          const done = progress.total > 0 && progress.solved === progress.total;
          return html`
            <li class="lesson-card" data-lesson=${meta.id}>
              <h2><a href="#/${meta.id}">${meta.title}</a></h2>
              <p class="summary">${meta.summary}</p>
              <p class="progress${done ? ' done' : ''}">${progressText(progress)}</p>
            </li>
          `;
        })}
      </ol>
    `;
  }
}

customElements.define('attn-lesson-list', AttnLessonList);
