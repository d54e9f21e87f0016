/**
 * <attn-toc .headings=${[{ id, text, level }]} .lessonId=${id} .onJump=${(event, id) => …}>:
 * a lesson's table of contents. Links point at the lesson route (hash routing
 * leaves no room for #section fragments); a click calls onJump, which scrolls
 * to the heading and moves focus there. Light DOM, styled by app.css.
 */
import { html } from 'lit';
import { AttnCell } from '../cells/base/attn-cell.js';

export class AttnToc extends AttnCell {
  static properties = {
    ...super.properties,
    headings: { attribute: false },
    lessonId: { attribute: false },
    onJump: { attribute: false },
  };

  constructor() {
    super();
    this.headings = [];
    this.lessonId = '';
    this.onJump = null;
  }

  createRenderRoot() {
    return this;
  }

  renderCell() {
    return html`
      <nav class="toc" aria-label="On this page">
        <p class="toc-title" aria-hidden="true">On this page</p>
        <ol>
          ${this.headings.map(
            (h) =>
              html`<li class="toc-level-${h.level}">
                <a href="#/${this.lessonId}" data-target=${h.id} @click=${(event) => this.onJump?.(event, h.id)}
                  >${h.text}</a
                >
              </li>`,
          )}
        </ol>
      </nav>
    `;
  }
}

customElements.define('attn-toc', AttnToc);
