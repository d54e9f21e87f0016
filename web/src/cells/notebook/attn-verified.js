/**
 * <attn-verified>
 *   <attn-check label="max |row sum − 1|" threshold="1e-6"></attn-check>
 *   …
 * </attn-verified>
 *
 * One quiet line for a lab's checks: "Verified ✓ (3 checks)" once every check has passed,
 * "Checking… (1 of 3 done)" while some have no value yet, "Waits for Exercise 1: … (1 of 3
 * done)" while those are checks of a cell held back for an exercise (attn-check data-waits-for),
 * and "✗ 1 of 3 checks failed" when one fails. The line is a disclosure (<details>): closed, the checks are not shown; opened (click,
 * Enter or Space), they are. A check that fails opens it and is announced (role="alert"); the
 * learner's own choice to close it again stands until another check fails.
 *
 * The checks are its children (any depth), so they stay in the page for tests and assistive
 * technology even while closed. Reflects data-status="pass" | "fail" | "pending" and
 * data-count (the number of checks).
 */
import { css, html } from 'lit';
import { AttnCell } from '../base/attn-cell.js';
import { mathPlain, mathText } from '../base/math.js';

export class AttnVerified extends AttnCell {
  static properties = {
    ...super.properties,
    _summary: { state: true },
    _open: { state: true },
  };

  static styles = [
    AttnCell.baseStyles,
    css`
      :host {
        margin: 0.5rem 0 0;
      }
      summary {
        cursor: pointer;
        display: block;
        padding: 0.3rem 0;
        min-height: 1.75rem;
        box-sizing: border-box;
        color: var(--muted, #555d6b);
        font-size: 0.875rem;
        list-style-position: inside;
      }
      summary::-webkit-details-marker {
        display: none;
      }
      summary::before {
        content: '▸ ';
        font-size: 0.75rem;
      }
      details[open] > summary::before {
        content: '▾ ';
      }
      summary:focus-visible {
        outline: 2px solid var(--accent, #3b5bdb);
        outline-offset: 2px;
      }
      .mark-pass {
        color: var(--pass, #2b8a3e);
        font-weight: 600;
      }
      .mark-fail {
        color: var(--danger, #b3261e);
        font-weight: 600;
      }
      .sr-only {
        position: absolute;
        width: 1px;
        height: 1px;
        overflow: hidden;
        clip: rect(0 0 0 0);
        white-space: nowrap;
      }
    `,
  ];

  constructor() {
    super();
    this._summary = { status: 'pending', total: 0, passed: 0, failed: 0, failing: [], waitsFor: '' };
    this._open = false;
    this._announced = '';
  }

  /** Every nested check's status, counted. Checks reflect data-status before they settle. */
  _count() {
    const checks = [...this.querySelectorAll('attn-check')];
    const failing = checks.filter((c) => c.getAttribute('data-status') === 'fail');
    const passed = checks.filter((c) => c.getAttribute('data-status') === 'pass').length;
    const status = failing.length ? 'fail' : passed === checks.length ? 'pass' : 'pending';
    // the exercises the checks still without a value wait for, when they all wait for one
    const unmeasured = checks.filter((c) => c.getAttribute('data-status') === 'pending');
    const waits = unmeasured.map((c) => c.getAttribute('data-waits-for'));
    const waitsFor = waits.length && waits.every(Boolean) ? [...new Set(waits)].join(', ') : '';
    return {
      status,
      total: checks.length,
      passed,
      failed: failing.length,
      failing: failing.map((c) => c.label),
      waitsFor,
    };
  }

  _recount() {
    const next = this._count();
    const last = this._summary;
    if (JSON.stringify(next) === JSON.stringify(last)) return;
    if (next.failed > last.failed) {
      // A newly failing check opens the list: the element itself too, as the learner may have closed
      // it since the last render, its toggle event not seen yet (then ?open, still true, would not
      // change and the list would stay closed); the toggle then reads it open.
      this._open = true;
      const details = this.renderRoot?.querySelector?.('details');
      if (details) details.open = true;
    }
    this._summary = next;
  }

  connectedCallback() {
    super.connectedCallback();
    this._recount();
  }

  _nestedSettled(cell) {
    this._recount();
    super._nestedSettled(cell);
  }

  _nestedGone(cell) {
    if (this.isConnected) this._recount();
    super._nestedGone(cell);
  }

  updated() {
    this.dataset.status = this._summary.status;
    this.dataset.count = String(this._summary.total);
  }

  _line() {
    const { status, total, passed, failed, waitsFor } = this._summary;
    const checks = `${total} ${total === 1 ? 'check' : 'checks'}`;
    if (status === 'fail') return html`<span class="mark-fail">✗</span> ${failed} of ${checks} failed`;
    if (status === 'pending' && waitsFor) return html`Waits for ${mathText(waitsFor)} (${passed} of ${checks} done)`;
    if (status === 'pending') return html`Checking… (${passed} of ${checks} done)`;
    return html`Verified <span class="mark-pass">✓</span> (${checks})`;
  }

  renderCell() {
    const { status, failing } = this._summary;
    const alert = status === 'fail' ? `Check failed: ${mathPlain(failing.join('; '))}` : '';
    return html`<details
        ?open=${this._open}
        @toggle=${(e) => {
          this._open = e.target.open;
        }}
      >
        <summary>${this._line()}</summary>
        <slot></slot>
      </details>
      <p class="sr-only" role="alert">${alert}</p>`;
  }
}

customElements.define('attn-verified', AttnVerified);
