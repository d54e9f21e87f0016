/**
 * <attn-code language="python">
 *   <pre>weights = softmax(np.array({{logits}}) / {{tau}})</pre>
 * </attn-code>
 *
 * The equivalent NumPy or PyTorch code with the current values filled in.
 * `template` (a property, or the text of a <template> or <pre> child, so a
 * lesson can write it inline) holds {{name}} placeholders; `params` (an object,
 * set from JS) gives their values, written as Python: arrays as lists, numbers
 * with 6 significant digits, Infinity as float('inf'), strings as escaped
 * literals. A placeholder with no value stays as written. The text is only
 * ever text (Lit bindings, never innerHTML). Copy puts it on the clipboard
 * (navigator.clipboard, or else selects it for Ctrl+C) and says "Copied".
 *
 * Prefer <pre> in .html files: prettier reflows a <template>'s text (keeps a
 * <pre>'s), and the <pre> doubles as the text shown before scripts run.
 *
 * The code is folded to its one-line header (title, Show/Hide, Copy) until the reader opens it,
 * unless the course-wide "show code" preference (preferences.js) is on; the header's "Always
 * show code" box sets that preference for every lesson. Folded, the code stays in the page
 * (hidden), so `code` and copying work either way.
 *
 * Properties: language (python), template, params, label, open (reflected). `code` is the
 * filled-in text. Wired by attributes instead of JS: with `for="<id>"` the params are every value
 * of that cell (its settings and results, cells/base/wiring.js), and a code cell with no template
 * of its own takes that cell's (its class's `codeTemplate`), e.g. <attn-code for="att"></attn-code>.
 */
import { css, html } from 'lit';
import { AttnCell } from '../base/attn-cell.js';
import { pythonLiteral } from '../base/cell-support.js';
import { showCode } from '../base/preferences.js';
import { allValues, CellLink } from '../base/wiring.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w]*)\s*\}\}/g;
const PYTHON_TOKENS =
  /(#[^\n]*)|\b(import|from|as|def|return|for|in|if|elif|else|with|lambda|not|and|or|None|True|False|print)\b/g;

/** Strips the indentation and blank edge lines that inline Markdown/HTML adds. */
function dedent(text) {
  const lines = text.replace(/\t/g, '    ').split('\n');
  while (lines.length && lines[0].trim() === '') lines.shift();
  while (lines.length && lines.at(-1).trim() === '') lines.pop();
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^ */)[0].length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n');
}

export class AttnCode extends AttnCell {
  static properties = {
    ...super.properties,
    language: { type: String },
    template: { type: String },
    params: { attribute: false },
    label: { type: String },
    open: { type: Boolean, reflect: true },
    _always: { state: true },
    _copyStatus: { state: true },
    for: { type: String },
  };

  static styles = [
    AttnCell.compactStyles,
    css`
      .code {
        border: 1px solid var(--border, #d0d4dc);
        border-radius: 8px;
        background: var(--surface, #fff);
      }
      .bar {
        display: flex;
        flex-wrap: wrap; /* a narrow column wraps the header, never the page */
        align-items: center;
        justify-content: space-between;
        gap: 0.5rem;
        padding: 0.3rem 0.5rem 0.3rem 0.75rem;
        border-bottom: 1px solid var(--border, #d0d4dc);
        color: var(--muted, #555d6b);
        font-size: 0.85rem;
      }
      .copy-status {
        margin-left: auto;
      }
      :host(:not([open])) .bar {
        border-bottom: 0;
      }
      .fold {
        border: 0;
        background: none;
        padding: 0.2rem 0.25rem;
        font-weight: 600;
        color: var(--text, #1b1e24);
      }
      .always {
        display: inline-flex;
        align-items: center;
        gap: 0.25rem;
      }
      pre[hidden] {
        display: none;
      }
      pre {
        margin: 0;
        padding: 0.6rem 0.75rem;
        overflow-x: auto;
        white-space: pre;
        font: 0.88rem/1.5 var(--font-mono, ui-monospace, monospace);
        color: var(--text, #1b1e24);
      }
      pre:focus-visible {
        outline: 2px solid var(--accent, #3b5bdb);
        outline-offset: -2px;
      }
      .param {
        color: var(--accent, #3b5bdb);
        font-weight: 600;
      }
      .comment {
        color: var(--muted, #555d6b);
        font-style: italic;
      }
      .keyword {
        font-weight: 600;
      }
    `,
  ];

  constructor() {
    super();
    this.language = 'python';
    this.template = '';
    this.params = {};
    this.label = '';
    this._copyStatus = '';
    this._timer = 0;
    this._always = showCode.get();
    this.open = this._always;
    this._ownTemplate = null; // whether the page gave a template (known once linked)
    this._link = new CellLink(this, (source) => {
      this._ownTemplate ??= Boolean(this.template);
      if (!this._ownTemplate) this.template = source.constructor.codeTemplate ?? '';
      this.params = allValues(source);
    });
  }

  connectedCallback() {
    super.connectedCallback();
    this._unsubscribe = showCode.subscribe((on) => {
      this._always = on;
      this.open = on;
    });
    if (!this.template) {
      const source = this.querySelector(':scope > template, :scope > pre');
      if (source) {
        this.template = dedent(source.localName === 'template' ? source.content.textContent : source.textContent);
      }
    }
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._unsubscribe?.();
    clearTimeout(this._timer);
  }

  /** The template split into [{ text } | { name, text, filled }]. */
  #pieces() {
    const template = String(this.template ?? '');
    const params = this.params && typeof this.params === 'object' ? this.params : {};
    const pieces = [];
    let last = 0;
    for (const match of template.matchAll(PLACEHOLDER)) {
      if (match.index > last) pieces.push({ text: template.slice(last, match.index) });
      const name = match[1];
      const filled = Object.hasOwn(params, name);
      pieces.push({ name, filled, text: filled ? pythonLiteral(params[name]) : match[0] });
      last = match.index + match[0].length;
    }
    if (last < template.length) pieces.push({ text: template.slice(last) });
    return pieces;
  }

  /** The code with the current values filled in, as copied. */
  get code() {
    return this.#pieces()
      .map((p) => p.text)
      .join('');
  }

  async #copy() {
    const text = this.code;
    clearTimeout(this._timer);
    try {
      await navigator.clipboard.writeText(text);
      this._copyStatus = 'Copied';
    } catch {
      this.open = true; // the code is selected for Ctrl+C: show it
      await this.updateComplete;
      const pre = this.renderRoot.querySelector('pre');
      const selection = window.getSelection();
      selection.removeAllRanges();
      const range = document.createRange();
      range.selectNodeContents(pre);
      selection.addRange(range);
      let copied;
      try {
        copied = document.execCommand('copy');
      } catch {
        copied = false;
      }
      this._copyStatus = copied ? 'Copied' : 'Selected: press Ctrl+C (⌘C) to copy';
    }
    this._timer = setTimeout(() => (this._copyStatus = ''), 2500);
  }

  #highlight(text) {
    if (this.language !== 'python') return text;
    const out = [];
    let last = 0;
    for (const m of text.matchAll(PYTHON_TOKENS)) {
      if (m.index > last) out.push(text.slice(last, m.index));
      out.push(html`<span class=${m[1] ? 'comment' : 'keyword'}>${m[0]}</span>`);
      last = m.index + m[0].length;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  }

  renderCell() {
    const language = this.language === 'python' ? 'Python' : String(this.language);
    const title = this.label || `${language} code`;
    return html`<div class="code">
      <div class="bar">
        <button
          type="button"
          class="fold"
          aria-expanded=${this.open ? 'true' : 'false'}
          aria-controls="code"
          @click=${() => (this.open = !this.open)}
        >
          <span aria-hidden="true">${this.open ? '▾' : '▸'}</span> ${title}
        </button>
        <label class="always"
          ><input type="checkbox" .checked=${this._always} @change=${(e) => showCode.set(e.target.checked)} /> Always
          show code</label
        >
        <span class="copy-status" role="status">${this._copyStatus}</span>
        <button type="button" class="copy" @click=${() => this.settleAfter(this.#copy())} aria-label=${`Copy ${title}`}>
          ${this._copyStatus === 'Copied' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre id="code" ?hidden=${!this.open} tabindex="0" role="region" aria-label=${title}><code>${this.#pieces().map(
        (p) => (p.name ? html`<span class="param" title=${p.name}>${p.text}</span>` : this.#highlight(p.text)),
      )}</code></pre>
    </div>`;
  }
}

customElements.define('attn-code', AttnCode);
