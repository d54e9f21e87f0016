/**
 * <attn-home .lessons=${lessons}>: the home page. At the top, what attnbook is with a link to the
 * next lesson to read (in the first screen of a phone too), and a live figure the visitor can move
 * at once (attn-softmax-temperature, configured by its attributes: drag the temperature and the
 * weights follow), with the progress over the course ("2 of 10 lessons opened · 1 of 3 exercises solved"); below, the numbered lessons
 * (attn-lesson-list). Under the progress line, attn-progress-view (each exercise's state, "Reset my
 * progress…"). Light DOM, styled by app.css.
 */
import { html } from 'lit';
import { courseProgress, courseText, lessonProgress } from './progress.js';
import { CourseElement } from './course-element.js';

// The figure at the top: five scores and the temperature that shares the weight out among them.
const HERO_LOGITS = '2,0.5,3.1,1.4,-0.6';
const HERO_CAPTION =
  'Drag the temperature. Cool (small τ): the largest score takes almost all the weight. ' +
  'Hot (large τ): the weights even out. Every bar is computed as you drag.';

export class AttnHome extends CourseElement {
  _renderNext(course) {
    if (course.next === null) return '';
    const { meta } = this.lessons[course.next];
    const verb = course.visited === 0 ? 'Start with' : 'Continue with';
    return html`<a class="hero-next" href="#/${meta.id}"
      >${verb} lesson ${course.next + 1}: <span class="hero-next-title">${meta.title}</span></a
    >`;
  }

  /** After "Reset my progress": the progress line and the cards read storage again. */
  #redraw() {
    this.requestUpdate();
    this.querySelector('attn-lesson-list')?.requestUpdate();
  }

  renderCell() {
    const course = courseProgress(this.lessons.map(({ meta }) => lessonProgress(meta)));
    return html`
      <div class="home">
        <section class="home-hero" aria-labelledby="home-title">
          <div class="hero-intro">
            <h1 id="home-title" tabindex="-1">How attention works</h1>
            <p class="lede">
              A transformer decides what to attend to with one small idea: a softmax turns scores into weights, and the
              weights blend the values. These short lessons build attention up from there, with every number computed
              live in your browser.
            </p>
            ${this._renderNext(course)}
          </div>
          <attn-softmax-temperature
            class="hero-figure"
            figure-only
            label="Softmax weights of five scores"
            caption=${HERO_CAPTION}
            logits=${HERO_LOGITS}
            temperature="1"
          ></attn-softmax-temperature>
          <div class="hero-actions">
            <p class="course-progress">${courseText(course)}</p>
            <attn-progress-view
              .lessons=${this.lessons}
              @attn-progress-reset=${() => this.#redraw()}
            ></attn-progress-view>
          </div>
        </section>
        <section class="home-lessons" aria-labelledby="lessons-title">
          <h2 id="lessons-title">The lessons</h2>
          <attn-lesson-list .lessons=${this.lessons}></attn-lesson-list>
          <p class="home-notebooks">
            Each lesson is also a Jupyter notebook: <strong>Download notebook</strong> on its page writes it with your
            settings, for Jupyter, VS Code or Colab. A built site holds them all in its <code>notebooks/</code> folder,
            and the teacher’s notebooks, with the answers, in <code>notebooks/teacher/</code>.
          </p>
        </section>
      </div>
    `;
  }
}

customElements.define('attn-home', AttnHome);
