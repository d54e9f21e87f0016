/**
 * <attn-app>: the app shell's main outlet. Reads the hash route (app/route.js)
 * and shows the lesson list, a lesson, or "not found"; keeps the permalink in
 * the URL up to date as cells change; applies a permalink's settings on load;
 * Back and Forward return to where the reader was (reading-position.js).
 *
 * Renders into the light DOM (not a shadow root) so the lesson HTML gets the
 * page's styles and KaTeX's stylesheet and fonts.
 *
 * Lesson HTML comes from web/lessons/*.md, compiled at build time: it is the
 * course author's markup, never text from the URL. Everything taken from the URL
 * is shown only through Lit text bindings (escaped).
 */
import { html } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { startHeightReports, startProgressReports } from './embed.js';
import { findLesson, lessonHtml, lessons, neighbours } from './lessons.js';
import { applyState, collectState } from './permalink.js';
import { markVisited } from './progress.js';
import { watchReadToEnd } from './read-to-end.js';
import { fitFormulas } from './fit-formulas.js';
import { ReadingPosition } from './reading-position.js';
import { buildHash, clip, parseHash } from './route.js';
import { prefersReducedMotion } from './theme.js';
import { AttnCell } from '../cells/base/attn-cell.js';

const HOME_TITLE = 'attnbook — how attention works';
const PERMALINK_DELAY = 250; // ms after the last change before the URL is rewritten
const MAX_ISSUES_SHOWN = 8;
const MAX_RESTORE_ROUNDS = 4; // restoring the reading position again as figures draw

export class AttnApp extends AttnCell {
  static properties = {
    ...super.properties,
    _route: { state: true },
    _issues: { state: true },
    _defaulted: { state: true },
  };

  constructor() {
    super();
    this._route = { page: 'home', lessonId: null, params: [], embed: false, host: null, issues: [] };
    this._issues = [];
    this._defaulted = [];
    this._visit = 0;
    this._html = '';
    this._timer = 0;
    this._stopHeightReports = null;
    this._stopProgressReports = null;
    this._position = new ReadingPosition(this);
    this._onHashChange = () => this.settleAfter(this._navigate(location.hash, { initial: false }));
    this._onStateChange = () => this._schedulePermalink();
  }

  createRenderRoot() {
    return this;
  }

  connectedCallback() {
    super.connectedCallback();
    window.addEventListener('hashchange', this._onHashChange);
    this._position.start();
    this.addEventListener('attn-state-change', this._onStateChange);
    this.settleAfter(this._navigate(location.hash, { initial: true }));
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this._onHashChange);
    this._position.stop();
    this.removeEventListener('attn-state-change', this._onStateChange);
    clearTimeout(this._timer);
    this._stopHeightReports?.();
    this._stopProgressReports?.();
    this._stopFitting?.();
    this._stopReading?.();
  }

  get _lesson() {
    return this._route.page === 'lesson' ? findLesson(this._route.lessonId) : null;
  }

  async _navigate(hash, { initial }) {
    let route = parseHash(hash);
    if (!route) {
      if (!initial) return; // an in-page fragment such as #main: not a route
      route = parseHash('');
    }
    clearTimeout(this._timer);
    this._timer = 0;
    if (!initial) this._position.save(); // the entry being left keeps where the reader was
    const saved = this._position.enter(); // where the reader was in this entry (Back, Forward, reload)
    const next = route.page === 'lesson' ? findLesson(route.lessonId) : null;
    let body;
    try {
      body = next ? lessonHtml(next) : '';
    } catch (error) {
      this.fail(new Error(`the lesson could not be unpacked: ${error.message}`));
      return;
    }
    this._html = body;
    this._route = route;
    this._visit += 1; // a fresh copy of the lesson: cells start from the lesson's settings
    this._issues = [...route.issues];
    this._defaulted = [];
    document.documentElement.toggleAttribute('data-embed', route.embed);
    // progress goes to the parent only at the origin this route names (none: nothing is sent)
    this._stopProgressReports?.();
    this._stopProgressReports = route.host ? startProgressReports(route.host) : null;
    await this.updateComplete;

    const lesson = this._lesson;
    if (lesson) {
      const body = this.querySelector('.lesson-body');
      const { issues, defaulted } = applyState(body, route.params);
      this._stopFitting?.();
      this._stopFitting = fitFormulas(body);
      this._issues = [...this._issues, ...issues];
      this._defaulted = defaulted;
      markVisited(lesson.meta.id);
      this._stopReading?.();
      this._stopReading = watchReadToEnd(this.querySelector('.lesson-foot'), lesson.meta.id);
      document.title = `${lesson.meta.title} — attnbook`;
    } else {
      this._stopReading?.();
      this._stopReading = null;
      document.title = route.page === 'home' ? HOME_TITLE : 'Lesson not found — attnbook';
    }

    if (route.embed && !this._stopHeightReports) this._stopHeightReports = startHeightReports();
    // After the route is drawn (its blocks are laid out; figures keep a placeholder height until
    // they come near the viewport, which the restored position decides).
    const target = lesson && route.at ? this._target(route.at) : null;
    if (!initial && !target) this.querySelector('h1')?.focus({ preventScroll: true });
    if (saved) await this._restorePosition(saved);
    else if (target) await this._openAt(target);
    else if (!initial) window.scrollTo({ top: 0, behavior: 'instant' });
  }

  /**
   * Scrolls back to where the reader was, then again each time the figures that this brought near
   * the viewport have drawn (their heights move what follows), until nothing moves, the reader
   * scrolls or types, or another route is shown. Part of the navigation, so data-settled on the app
   * means the position is restored.
   */
  async _restorePosition(position) {
    const visit = this._visit;
    let touched = false;
    const stop = () => (touched = true);
    const inputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'];
    for (const type of inputs) window.addEventListener(type, stop, { passive: true });
    try {
      this._position.restore(position);
      for (let round = 0; round < MAX_RESTORE_ROUNDS; round += 1) {
        await this._nestedDrawn();
        if (touched || visit !== this._visit || this._position.restore(position) < 1) break;
      }
    } finally {
      for (const type of inputs) window.removeEventListener(type, stop);
      this._position.finish();
    }
  }

  /**
   * Resolves once no cell in the route is still drawing, for two frames in a row (a figure that
   * came near the viewport is reported a frame and a task later, and only then is waited for).
   */
  async _nestedDrawn() {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
    for (let quiet = 0; quiet < 2;) {
      await frame();
      quiet = this._settling.waiting.size === 0 ? quiet + 1 : 0;
    }
  }

  /** The URL of the current lesson with every cell's current state. */
  permalink() {
    const lesson = this._lesson;
    if (!lesson) return location.href;
    const params = collectState(this.querySelector('.lesson-body'));
    const { embed, host, at } = this._route;
    const hash = buildHash(lesson.meta.id, params, { embed, host, at });
    return new URL(hash, location.href).href;
  }

  _schedulePermalink() {
    if (!this._lesson) return;
    clearTimeout(this._timer);
    this._timer = setTimeout(() => this._writePermalink(), PERMALINK_DELAY);
  }

  _writePermalink() {
    clearTimeout(this._timer);
    this._timer = 0;
    if (!this._lesson) return location.href;
    // a route followed since (location.hash set, its hashchange not handled yet) is not overwritten
    const now = parseHash(location.hash);
    if (now && (now.page !== 'lesson' || now.lessonId !== this._lesson.meta.id)) return location.href;
    const url = this.permalink();
    if (url !== location.href) history.replaceState(history.state, '', url);
    return url;
  }

  /** The exercise or heading an `at=` link names, or null with a notice. */
  _target(id) {
    const target = this.querySelector(`.lesson-body [id="${CSS.escape(id)}"]`);
    if (!target) this._issues = [...this._issues, `at: this lesson has no exercise or section "${clip(id)}"`];
    return target;
  }

  /**
   * Opens the lesson at `target` (an assignment link): scrolled to the top of the window, again as
   * the figures it brought near the viewport draw (until it stays put or another route is shown),
   * with focus on its first answer field (a heading: on itself).
   */
  async _openAt(target) {
    const visit = this._visit;
    if (target.localName !== 'attn-exercise') target.setAttribute('tabindex', '-1');
    target.scrollIntoView({ behavior: 'instant', block: 'start' });
    for (let round = 0; round < MAX_RESTORE_ROUNDS; round += 1) {
      await this._nestedDrawn();
      if (visit !== this._visit || Math.abs(target.getBoundingClientRect().top) < 1) break;
      target.scrollIntoView({ behavior: 'instant', block: 'start' });
    }
    if (visit !== this._visit) return;
    const field = target.shadowRoot?.querySelector('input, textarea, .check-button');
    (field ?? target).focus({ preventScroll: true });
  }

  _scrollToHeading(event, id) {
    const target = this.querySelector(`.lesson-body [id="${CSS.escape(id)}"]`);
    if (!target) return;
    event.preventDefault();
    target.setAttribute('tabindex', '-1');
    target.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
    target.focus({ preventScroll: true });
  }

  renderCell() {
    const { page } = this._route;
    if (page === 'home') return keyed(this._visit, this._renderHome());
    const lesson = this._lesson;
    return lesson ? this._renderLesson(lesson) : this._renderNotFound();
  }

  _renderHome() {
    return html`<attn-home .lessons=${lessons}></attn-home>`;
  }

  _renderNotFound() {
    return html`
      <div class="not-found">
        <h1 tabindex="-1">Lesson not found</h1>
        <p>There is no lesson called “${clip(this._route.lessonId)}”. It may have been renamed.</p>
        <p><a href="#/">See all lessons</a></p>
      </div>
    `;
  }

  _renderNotice() {
    const issues = this._issues;
    if (issues.length === 0) return '';
    const shown = issues.slice(0, MAX_ISSUES_SHOWN);
    return html`
      <p class="link-notice-title">Some settings in this link were ignored:</p>
      <ul>
        ${shown.map((issue) => html`<li>${issue}</li>`)}
        ${issues.length > shown.length ? html`<li>and ${issues.length - shown.length} more</li>` : ''}
      </ul>
      ${
        this._defaulted.length
          ? html`<p>
              Shown with the lesson's own settings instead: ${this._defaulted.map((id) => clip(id)).join(', ')}.
            </p>`
          : ''
      }
    `;
  }

  _renderLesson(lesson) {
    const { meta, headings } = lesson;
    const embed = this._route.embed;
    const position = lessons.indexOf(lesson) + 1;
    const { previous, next } = neighbours(meta.id);
    return html`
      <article class="lesson-page${embed ? ' embed' : ''}" aria-labelledby="lesson-title">
        <header class="lesson-head">
          ${embed ? '' : html`<p class="kicker">Lesson ${position} of ${lessons.length}</p>`}
          <h1 id="lesson-title" tabindex="-1">${meta.title}</h1>
          <attn-lesson-progress .meta=${meta}></attn-lesson-progress>
          ${
            embed
              ? ''
              : html`<div class="lesson-actions">
                  <attn-copy-link .getUrl=${() => this._writePermalink()}></attn-copy-link>
                  <attn-download-notebook .meta=${meta}></attn-download-notebook>
                </div>`
          }
          <div class="link-notice" role="status">${this._renderNotice()}</div>
        </header>
        ${
          embed || headings.length === 0
            ? ''
            : html`<attn-toc
                class="lesson-toc"
                .headings=${headings}
                .lessonId=${meta.id}
                .onJump=${(event, id) => this._scrollToHeading(event, id)}
              ></attn-toc>`
        }
        <!-- this._html is the lesson's Markdown compiled at build time (trusted authored
             content, lessonHtml()); nothing from the URL or the user ever reaches it. Set as
             innerHTML: parsed once, where unsafeHTML parses into a template and then copies it. -->
        ${keyed(this._visit, html`<div class="lesson-body" .innerHTML=${this._html}></div>`)}
        <footer class="lesson-foot">
          ${
            meta.sources.length === 0
              ? ''
              : html`<section class="sources" aria-labelledby="sources-title">
                  <h2 id="sources-title">Sources</h2>
                  <ul>
                    ${meta.sources.map((source) => html`<li>${source}</li>`)}
                  </ul>
                </section>`
          }
          ${
            embed
              ? ''
              : html`<nav class="pager" aria-label="Previous and next lesson">
                  ${
                    previous
                      ? html`<a class="pager-previous" rel="prev" href="#/${previous.meta.id}"
                          ><span class="pager-label">Previous</span> ${previous.meta.title}</a
                        >`
                      : html`<a class="pager-previous" href="#/"
                          ><span class="pager-label">Back to</span> all lessons</a
                        >`
                  }
                  ${
                    next
                      ? html`<a class="pager-next" rel="next" href="#/${next.meta.id}"
                          ><span class="pager-label">Next</span> ${next.meta.title}</a
                        >`
                      : html`<a class="pager-next" href="#/"><span class="pager-label">Back to</span> all lessons</a>`
                  }
                </nav>`
          }
        </footer>
      </article>
    `;
  }
}

customElements.define('attn-app', AttnApp);
