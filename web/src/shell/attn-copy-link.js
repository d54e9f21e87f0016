/**
 * <attn-copy-link .getUrl=${() => url}>: a "Copy link" button for the current
 * permalink. Uses navigator.clipboard; where that is refused it shows the link
 * in a read-only field, selected, so the reader can copy it by hand. Says
 * "Copied" in a status region. Light DOM, styled by app.css.
 */
import { html } from 'lit';
import { AttnCell } from '../cells/base/attn-cell.js';
import { FadingStatus } from './fading-status.js';

export class AttnCopyLink extends AttnCell {
  static properties = {
    ...super.properties,
    getUrl: { attribute: false },
    _fallbackUrl: { state: true },
  };

  constructor() {
    super();
    this.getUrl = null;
    this._fallbackUrl = '';
    this._status = new FadingStatus(this);
  }

  createRenderRoot() {
    return this;
  }

  async _copy() {
    const url = this.getUrl?.() ?? location.href;
    try {
      await navigator.clipboard.writeText(url);
      this._fallbackUrl = '';
      this._status.say('Copied');
      return;
    } catch {
      // No clipboard access (permissions, insecure context): select the link instead.
    }
    this._fallbackUrl = url;
    await this.updateComplete;
    const field = this.querySelector('input');
    field.focus();
    field.select();
    let copied;
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
    this._status.say(copied ? 'Copied' : 'Press Ctrl+C (⌘C on a Mac) to copy the selected link');
  }

  renderCell() {
    return html`
      <div class="copy-link">
        <button type="button" class="button" @click=${() => this.settleAfter(this._copy())}>Copy link</button>
        <span class="copy-status" role="status">${this._status.text}</span>
        ${
          this._fallbackUrl
            ? html`<label class="copy-field"
                >Link to this lesson and its settings
                <input type="text" readonly .value=${this._fallbackUrl} @focus=${(e) => e.target.select()}
              /></label>`
            : ''
        }
      </div>
    `;
  }
}

customElements.define('attn-copy-link', AttnCopyLink);
