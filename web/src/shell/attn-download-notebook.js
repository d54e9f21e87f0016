/**
 * <attn-download-notebook .meta=${meta}>: a "Download notebook" button beside "Copy link". It
 * writes the lesson as a Jupyter notebook, <lesson id>.ipynb, with the current state of every lab
 * (notebook-dom.js reads the page, notebook-format.js writes nbformat 4.5), so a learner's edited
 * values carry over. The file is a Blob the browser saves: no network, in the site and the single
 * file alike. `teacher` (a property) writes the teacher's notebook instead, with the answers; the
 * build sets it (scripts/notebooks.mjs). Says what it saved, or why not, in a status region.
 * Light DOM, styled by lesson.css (.copy-link, .copy-status).
 */
import { html } from 'lit';
import { AttnCell } from '../cells/base/attn-cell.js';
import { FadingStatus } from './fading-status.js';
import { drawEveryCell, lessonParts } from './notebook-dom.js';
import { notebookFromParts, notebookText } from './notebook-format.js';
import sdpaReference from './sdpa_reference.py?raw';

/** The lesson shown in `article` as notebook text. */
function lessonNotebookText(article, meta, { teacher = false } = {}) {
  const body = article?.querySelector('.lesson-body');
  if (!body) throw new Error('no lesson is open');
  const parts = lessonParts(body, { teacher });
  return notebookText(
    notebookFromParts({ id: meta.id, title: meta.title, summary: meta.summary, parts, teacher, sdpaReference }),
  );
}

export class AttnDownloadNotebook extends AttnCell {
  static properties = {
    ...super.properties,
    meta: { attribute: false },
    teacher: { type: Boolean },
  };

  constructor() {
    super();
    this.meta = null;
    this.teacher = false;
    this._status = new FadingStatus(this);
  }

  createRenderRoot() {
    return this;
  }

  /** Draws every cell of the lesson and resolves once all have settled (see drawEveryCell). */
  prepare(progress) {
    return drawEveryCell(this.closest('article').querySelector('.lesson-body'), progress);
  }

  async _download() {
    const name = `${this.meta.id}${this.teacher ? '-teacher' : ''}.ipynb`;
    const article = this.closest('article');
    let text;
    try {
      // every lab draws first: one far down the page has not, so its code does not exist yet
      await this.prepare((drawn, total) => {
        this._status.show(`Preparing the notebook: ${drawn} of ${total} cells drawn`);
      });
      text = lessonNotebookText(article, this.meta, { teacher: this.teacher });
    } catch (error) {
      this._status.say(`Could not write the notebook: ${error.message}`);
      return;
    }
    const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ipynb+json' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: name });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
    this._status.say(`Saved ${name}`);
  }

  renderCell() {
    return html`
      <div class="copy-link">
        <button type="button" class="button" @click=${() => this.settleAfter(this._download())}>
          Download notebook
        </button>
        <span class="copy-status" role="status">${this._status.text}</span>
      </div>
    `;
  }
}

customElements.define('attn-download-notebook', AttnDownloadNotebook);
