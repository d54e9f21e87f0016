/**
 * <attn-theme-toggle>: Light / Dark / System buttons (a group; the pressed one
 * is the current choice). Stores the choice and applies it to <html> via
 * shell/theme.js. Light DOM, styled by styles/app.css.
 */
import { html } from 'lit';
import { THEMES, setTheme, storedTheme } from './theme.js';
import { AttnCell } from '../cells/base/attn-cell.js';

const LABELS = { light: 'Light', dark: 'Dark', system: 'System' };

export class AttnThemeToggle extends AttnCell {
  static properties = { ...super.properties, _theme: { state: true } };

  constructor() {
    super();
    this._theme = storedTheme();
    this._onThemeChange = (event) => (this._theme = event.detail.theme);
  }

  createRenderRoot() {
    return this;
  }

  connectedCallback() {
    super.connectedCallback();
    document.addEventListener('attn-theme-change', this._onThemeChange);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    document.removeEventListener('attn-theme-change', this._onThemeChange);
  }

  renderCell() {
    return html`
      <div class="theme-toggle" role="group" aria-label="Colour theme">
        ${THEMES.map(
          (theme) =>
            html`<button
              type="button"
              aria-pressed=${String(this._theme === theme)}
              title=${theme === 'system' ? 'Follow the system setting' : `${LABELS[theme]} theme`}
              @click=${() => setTheme(theme)}
            >
              ${LABELS[theme]}
            </button>`,
        )}
      </div>
    `;
  }
}

customElements.define('attn-theme-toggle', AttnThemeToggle);
