/**
 * <attn-lesson-list .lessons=${lessons}>: the course on the home page, in
 * order: each lesson's number, title (a link; the whole card is its target),
 * its one-line promise (the `summary` of its front matter) and progress
 * ("Visited · 1 of 2 exercises solved"; a lesson without exercises says
 * nothing about exercises), read from localStorage (progress.js).
 * Light DOM, styled by app.css.
 */
import { html } from 'lit';
import { lessonProgress, progressText } from './progress.js';
import { CourseElement } from './course-element.js';

export class AttnLessonList extends CourseElement {
  renderCell() {
    return html`
      <ol class="lesson-list">
        ${this.lessons.map(({ meta }, i) => {
          const progress = lessonProgress(meta);
          const done = progress.total > 0 && progress.solved === progress.total;
          return html`
            <li class="lesson-card${progress.visited ? ' visited' : ''}" data-lesson=${meta.id}>
              <span class="lesson-number" aria-hidden="true">${i + 1}</span>
              <h3><a href="#/${meta.id}">${meta.title}</a></h3>
              <p class="summary">${meta.summary}</p>
              <p class="progress${done ? ' done' : ''}">${progressText(progress)}${done ? ' ✓' : ''}</p>
            </li>
          `;
        })}
      </ol>
    `;
  }
}

customElements.define('attn-lesson-list', AttnLessonList);
