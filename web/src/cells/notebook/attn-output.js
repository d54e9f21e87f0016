/**
 * <attn-output label="Output"></attn-output>
 *
 * Printed output, as under a notebook cell: `text` (a multi-line string, set
 * from JS by a figure, or the `text` attribute) shown in monospace with its
 * line breaks and spaces kept. Text is always text, never HTML. The lines are
 * a polite live region, so screen readers hear what changed.
 *
 * Properties/attributes: text, label. No state of its own (reset() is a no-op
 * beyond the base class). Wired by attributes instead of JS: `for` and `value-of` print a value
 * of another cell as NumPy would, with `precision` decimals (default 4), e.g.
 * <attn-output for="att" value-of="output"> (cells/base/wiring.js); the label then defaults to
 * the value-of text.
 */
import { css, html } from 'lit';
import { AttnCell } from '../base/attn-cell.js';
import { CellLink, formatValue, readValue, readerProperties, sourceFailure } from '../base/wiring.js';

export class AttnOutput extends AttnCell {
  static properties = {
    ...super.properties,
    text: { type: String },
    label: { type: String },
    precision: { type: Number },
    ...readerProperties,
  };

  static styles = [
    AttnCell.compactStyles,
    css`
      .output {
        border-left: 3px solid var(--border, #d0d4dc);
        padding: 0.35rem 0 0.35rem 0.75rem;
      }
      .label {
        display: block;
        color: var(--muted, #555d6b);
        font-size: 0.8rem;
        font-weight: 500;
        text-transform: uppercase;
        letter-spacing: 0.04em;
      }
      pre {
        margin: 0.2rem 0 0;
        font: 0.9rem/1.45 var(--font-mono, ui-monospace, monospace);
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        color: var(--text, #1b1e24);
      }
    `,
  ];

  constructor() {
    super();
    this.text = '';
    this.label = 'Output';
    this.precision = 4;
    this._link = new CellLink(
      this,
      (source) => this.#read(source),
      () => (this.text = ''),
      ['valueOfPath', 'precision'],
    );
  }

  #read(source) {
    const { value, error } = readValue(source, this.valueOfPath);
    const failed = sourceFailure(source, this.valueOfPath); // its values are not its inputs' then
    this._link.report(error ?? failed);
    const digits = Number.isInteger(this.precision) && this.precision >= 0 && this.precision <= 12 ? this.precision : 4;
    this.text = error || failed ? '' : formatValue(value, digits);
  }

  renderCell() {
    return html`<section class="output" aria-labelledby="label">
      <span class="label" id="label"
        >${this.valueOfPath && !this.hasAttribute('label') ? this.valueOfPath : this.label}</span
      >
      <pre aria-live="polite">${String(this.text ?? '')}</pre>
    </section>`;
  }
}

customElements.define('attn-output', AttnOutput);
