/**
 * <attn-check label="max |row sum − 1|" threshold="1e-6" comparison="le"></attn-check>
 *
 * A live assertion, like a notebook's "[OK] …" line. A figure sets `value`
 * (the measured quantity) from JS; the check compares it with `threshold`
 * (comparison: le ≤, lt <, ge ≥, gt >, eq = within `tolerance`, default 0)
 * and shows "✓ label = value ≤ threshold" or "✗ label = value, not ≤ threshold".
 * Setting `pass` (true/false) from JS overrides the comparison.
 * `python` (attribute): the same check in the lesson's notebook, a Python expression over the
 * variables of its lab's code cells that gives the measured quantity (or, for a yes/no check, is
 * true when it passes); the notebook asserts it against the same threshold (shell/notebook-dom.js).
 * Wired by attributes instead of JS: `for` and `value-of` read the value from another cell,
 * e.g. <attn-check for="att" value-of="maxRowSumError" threshold="1e-6"> (cells/base/wiring.js);
 * the label defaults to the value-of text, and a value-of that cannot be read fails the check.
 * The host reflects data-status="pass" | "fail" | "pending" (no value yet),
 * for CSS and tests; the verdict is a status region with icon, word and colour. A check of a cell
 * held back for an exercise (inside an attn-reveal) waits for it and says so ("… waits for
 * Exercise 1: …"), and reflects that exercise's label in data-waits-for.
 */
import { css, html } from 'lit';
import { AttnCell } from '../base/attn-cell.js';
import { cellStyles, formatNumber } from '../base/cell-support.js';
import { mathText } from '../base/math.js';
import { CellLink, readNumber, readerProperties, sourceFailure } from '../base/wiring.js';

const COMPARISONS = {
  le: ['≤', (v, t) => v <= t],
  lt: ['<', (v, t) => v < t],
  ge: ['≥', (v, t) => v >= t],
  gt: ['>', (v, t) => v > t],
  eq: ['=', (v, t, tol) => Math.abs(v - t) <= tol || v === t],
};

const optionalNumber = {
  fromAttribute: (text) => (text === null || text.trim() === '' ? undefined : Number(text)),
};
const optionalBoolean = {
  fromAttribute: (text) => (text === null ? undefined : text !== 'false' && text !== '0'),
};

export class AttnCheck extends AttnCell {
  static properties = {
    ...super.properties,
    label: { type: String },
    value: { converter: optionalNumber },
    threshold: { converter: optionalNumber },
    tolerance: { converter: optionalNumber },
    comparison: { type: String },
    python: { type: String },
    pass: { converter: optionalBoolean },
    status: { type: String, reflect: true, attribute: 'data-status' },
    waitsFor: { type: String, reflect: true, attribute: 'data-waits-for' },
    ...readerProperties,
  };

  static styles = [
    AttnCell.baseStyles,
    cellStyles,
    css`
      :host {
        margin: 0.5rem 0;
      }
      .check {
        display: flex;
        align-items: baseline;
        gap: 0.5rem;
        margin: 0;
        padding: 0.3rem 0.6rem;
        border-radius: 6px;
        border: 1px solid var(--border, #d0d4dc);
        border-left-width: 4px;
        font: 0.9rem/1.45 var(--font-mono, ui-monospace, monospace);
        overflow-wrap: anywhere;
      }
      .icon {
        font-weight: 700;
        flex: none;
      }
      :host([data-status='pass']) .check {
        border-left-color: var(--pass, #1b7f3b);
      }
      :host([data-status='pass']) .icon {
        color: var(--pass, #1b7f3b);
      }
      :host([data-status='fail']) .check {
        border-left-color: var(--danger, #b3261e);
      }
      :host([data-status='fail']) .icon {
        color: var(--danger, #b3261e);
      }
      :host([data-status='pending']) .check {
        color: var(--muted, #555d6b);
      }
      @media (prefers-color-scheme: dark) {
        :host {
          --pass: #6fd08c;
        }
      }
    `,
  ];

  constructor() {
    super();
    this.label = 'check';
    this.value = undefined;
    this.threshold = undefined;
    this.tolerance = 0;
    this.comparison = 'le';
    this.pass = undefined;
    this.status = 'pending';
    this.waitsFor = undefined;
    this._link = new CellLink(
      this,
      (source) => this.#read(source),
      () => (this.value = NaN),
      ['valueOfPath'],
      { sayHeld: false },
    );
  }

  /**
   * The value `value-of` names in the linked cell (NaN, a failing check, if it cannot be read; none,
   * a pending check, while that cell is in its error state: nothing was measured for its inputs).
   */
  #read(source) {
    const { value, error } = readNumber(source, this.valueOfPath);
    const failed = sourceFailure(source, this.valueOfPath);
    this._link.report(error ?? failed);
    this.value = error ? NaN : failed ? undefined : value;
  }

  /** What the line calls the value: the label, else the value-of text. */
  get #name() {
    return this.valueOfPath && !this.hasAttribute('label') ? this.valueOfPath : this.label;
  }

  /** { status, text } for the current inputs. */
  #verdict() {
    const [symbol, test] = COMPARISONS[this.comparison] ?? COMPARISONS.le;
    const hasValue = typeof this.value === 'number';
    const name = this.#name;
    const measured = hasValue ? `${name} = ${formatNumber(this.value)}` : name;
    if (typeof this.pass === 'boolean') return { status: this.pass ? 'pass' : 'fail', text: measured };
    if (!hasValue && this._link.heldBy) return { status: 'pending', text: `${name}: waits for ${this._link.heldBy}` };
    if (!hasValue) return { status: 'pending', text: `${name} (not measured yet)` };
    if (typeof this.threshold !== 'number' || Number.isNaN(this.threshold)) {
      return { status: 'fail', text: `${measured} (no threshold to compare with)` };
    }
    const ok = !Number.isNaN(this.value) && test(this.value, this.threshold, this.tolerance || 0);
    const bound = formatNumber(this.threshold);
    return {
      status: ok ? 'pass' : 'fail',
      text: ok ? `${measured} ${symbol} ${bound}` : `${measured}, not ${symbol} ${bound}`,
    };
  }

  willUpdate(changed) {
    if (changed.has('comparison') && !COMPARISONS[this.comparison]) {
      this._notice = `Attribute comparison: "${String(this.comparison).slice(0, 20)}" is not le, lt, ge, gt or eq; using le.`;
      this.comparison = 'le';
    }
    this._verdict = this.#verdict();
    this.status = this._verdict.status;
    this.waitsFor = this.status === 'pending' && this._link.heldBy ? this._link.heldBy : undefined;
  }

  renderCell() {
    const { status, text } = this._verdict;
    const icon = { pass: '✓', fail: '✗', pending: '…' }[status];
    const word = { pass: 'Passed:', fail: 'Failed:', pending: 'Pending:' }[status];
    return html`<p class="check" role="status">
      <span class="icon" aria-hidden="true">${icon}</span>
      <span><span class="visually-hidden">${word} </span>${mathText(text)}</span>
    </p>`;
  }
}

customElements.define('attn-check', AttnCheck);
