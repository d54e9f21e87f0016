/**
 * AttnCell: the base class of every attn-* cell element (not registered itself).
 *
 * What it gives a cell:
 * - State as a table (`static stateFields`, see base/state-fields.js): each field
 *   is a reactive property, settable by an attribute of the same name (text,
 *   validated; an invalid attribute keeps the default and shows a notice),
 *   readable with getState(), settable with setStateFromText() (throws
 *   FieldError), and restored with reset() to what the page authored (the
 *   attributes; AttnFigure also keeps properties a script set before the
 *   first user edit). Changes the user makes call stateChanged(),
 *   which fires `attn-state-change` (bubbles, composed) so the page can update
 *   the permalink.
 * - The engine: `await this.engine()` (one wasm module per page).
 * - Fault isolation: subclasses implement renderCell(); if it, or anything else
 *   in the cell's update (willUpdate, updated: drawing its charts), throws, the
 *   cell shows the error with a Retry button and the rest of the page carries
 *   on. Retry sets the cell up again (as if it were removed and put back, so a
 *   failed engine load is tried again) and renders it.
 * - Visibility: `this.visible` resolves the first time the cell is on screen
 *   (or within 200 px of it; see near-viewport.js), so heavy figures can wait
 *   for it; AttnFigure does not render at all before then. A cell on screen
 *   when the page opens draws in the page's first frame.
 * - Settledness: the host has the attribute `data-settled` while what it shows
 *   is the drawing of its current state. Any state change (a reactive property
 *   set, from an attribute, a script or an input event) removes it at once,
 *   synchronously, here and on every enclosing cell (the nearest attn-* cell
 *   up the composed tree: light DOM, then the shadow host). It comes back when
 *   the cell's update has finished with no further update pending, the async
 *   work it registered with settleAfter(promise) is done (the engine load of
 *   engine() is registered for it), and every cell nested in it has settled,
 *   checks included. A cell showing an error (with Retry) is settled. A figure
 *   that has not yet come near the viewport has not drawn, so is not settled,
 *   and its enclosing cells wait for it only from when it is shown.
 *   The cost per change is a flag test and an attribute removal per enclosing
 *   cell; no layout is read.
 */
import { LitElement, css, html } from 'lit';
import { defaults, FieldError, parseField } from './state-fields.js';
import { getEngine } from '../../runtime.js';
import { cellStyles, resetToAuthored } from './cell-support.js';
import { whenNearViewport } from './near-viewport.js';
import { mathStyles } from './math-styles.js';
import { mathText } from './math.js';

export class AttnCell extends LitElement {
  /** @type {Record<string, object>} */
  static stateFields = {};

  static get properties() {
    const props = { _cellError: { state: true }, _notice: { state: true } };
    for (const name of Object.keys(this.stateFields)) props[name] = { attribute: false };
    return props;
  }

  /**
   * Every state field is a reactive property, also in a subclass that declares no
   * `static properties` of its own (Lit reads only a class's own `properties`).
   */
  static finalize() {
    super.finalize();
    for (const name of Object.keys(this.stateFields)) {
      if (!this.elementProperties.has(name)) this.createProperty(name, { attribute: false });
    }
  }

  static get observedAttributes() {
    return [...super.observedAttributes, ...Object.keys(this.stateFields)];
  }

  static baseStyles = [
    mathStyles,
    css`
      :host {
        display: block;
        margin: 1.25rem 0;
      }
      .cell-error,
      .cell-notice {
        font-size: 0.9rem;
        border-radius: 6px;
        padding: 0.5rem 0.75rem;
      }
      .cell-error {
        border: 1px solid var(--danger, #b3261e);
        color: var(--danger, #b3261e);
      }
      .cell-notice {
        border: 1px solid var(--border, #d0d4dc);
        color: var(--muted, #555d6b);
      }
      button {
        font: inherit;
        font-size: 0.85rem;
        padding: 0.2rem 0.6rem;
        border-radius: 4px;
        border: 1px solid var(--border, #d0d4dc);
        background: var(--surface, #fff);
        color: var(--text, #1b1e24);
        cursor: pointer;
      }
      button:focus-visible {
        outline: 2px solid var(--accent, #3b5bdb);
        outline-offset: 2px;
      }
    `,
  ];

  /** The styles of a notebook cell or control: the base, the shared card and field styles, a tighter margin. */
  static compactStyles = [
    AttnCell.baseStyles,
    cellStyles,
    css`
      :host {
        margin: 0.75rem 0;
      }
    `,
  ];

  constructor() {
    super();
    Object.assign(this, defaults(this.constructor.stateFields));
    this._cellError = null;
    this._notice = '';
    this.visible = new Promise((resolve) => (this._resolveVisible = resolve));
    // settled: data-settled is on; pending: settleAfter work not done; waiting: nested cells not settled
    this._settling = { settled: false, pending: 0, waiting: new Set(), parent: null };
  }

  connectedCallback() {
    super.connectedCallback();
    this._stopWatching = whenNearViewport(
      this,
      () => this._resolveVisible(),
      () => this.awayFromView(),
    );
    const settling = this._settling;
    settling.parent = enclosingCell(this);
    if (!settling.settled && this.drawsNow) settling.parent?._nestedUnsettled(this);
  }

  /**
   * Whether an enclosing cell should wait for this one now. A figure (AttnFigure)
   * draws only near the viewport: its enclosing cell waits for it until the first
   * report on its position; if that finds it away (out of view, or hidden in a closed
   * panel) the enclosing cell stops waiting (leaveEnclosingCell) until it is shown
   * (joinEnclosingCell).
   */
  get drawsNow() {
    return true;
  }

  /** For a cell that starts drawing late: from now on its enclosing cell waits for it too. */
  joinEnclosingCell() {
    if (!this._settling.settled) this._settling.parent?._nestedUnsettled(this);
  }

  /** Called once if the cell is first found away from the viewport (or hidden): see drawsNow. */
  awayFromView() {}

  /** Draws the cell now, as if it had come near the viewport (a notebook download reads every cell). */
  drawNow() {
    this._resolveVisible();
  }

  /** For a cell that will not draw for now: its enclosing cell stops waiting for it. */
  leaveEnclosingCell() {
    this._settling.parent?._nestedGone(this);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._stopWatching?.();
    if (this.isConnected) return; // retry() re-running the set-up: still in place
    const { parent } = this._settling;
    this._settling.parent = null;
    parent?._nestedGone(this);
  }

  /**
   * Lit calls this for every reactive property change (and for explicit
   * requests): the state is changing, so the cell is no longer settled.
   */
  requestUpdate(...args) {
    super.requestUpdate(...args);
    // _settling is unset while LitElement's own constructor requests the first update
    if (this._settling?.settled && this.isUpdatePending) this._unsettle();
  }

  /**
   * Keeps the cell unsettled until `work` (a promise) is done, fulfilled or
   * rejected; then the cell updates and settles as usual. Returns `work`.
   * The cell's code that awaits `work` runs before that update.
   */
  settleAfter(work) {
    const settling = this._settling;
    settling.pending += 1;
    if (settling.settled) this._unsettle();
    const done = () => {
      settling.pending -= 1;
      this.requestUpdate();
    };
    Promise.resolve(work).then(done, done);
    return work;
  }

  _unsettle() {
    const settling = this._settling;
    settling.settled = false;
    this.removeAttribute('data-settled');
    settling.parent?._nestedUnsettled(this);
  }

  /** Sets data-settled if nothing is left to draw or wait for, and tells the enclosing cell. */
  _checkSettled() {
    const settling = this._settling;
    if (settling.settled || !this.isConnected || this.isUpdatePending || !this.hasUpdated) return;
    if (!this._cellError && (settling.pending > 0 || settling.waiting.size > 0)) return;
    settling.settled = true;
    this.setAttribute('data-settled', '');
    settling.parent?._nestedSettled(this);
  }

  _nestedUnsettled(cell) {
    this._settling.waiting.add(cell);
    if (this._settling.settled) this._unsettle();
  }

  _nestedSettled(cell) {
    this._settling.waiting.delete(cell);
    this._checkSettled();
  }

  _nestedGone(cell) {
    if (this._settling.waiting.delete(cell)) this._checkSettled();
  }

  attributeChangedCallback(name, old, value) {
    const spec = this.constructor.stateFields[name];
    if (!spec) return super.attributeChangedCallback(name, old, value);
    if (value === null) return;
    try {
      this[name] = parseField(value, name, spec);
    } catch (error) {
      this._notice = `Attribute ${error.message}; using the default.`;
    }
  }

  /** The engine, loaded once per page; the cell is not settled until it is there. */
  engine() {
    return this.settleAfter(getEngine());
  }

  /** Current state: { field: value } for every declared field. */
  getState() {
    return Object.fromEntries(Object.keys(this.constructor.stateFields).map((n) => [n, structuredClone(this[n])]));
  }

  /** Sets fields from text values ({ field: 'text' }); throws FieldError naming the first bad one. */
  setStateFromText(texts) {
    const fields = this.constructor.stateFields;
    const parsed = {};
    for (const [name, text] of Object.entries(texts)) {
      if (!fields[name]) throw new FieldError(name, 'is not a field of this cell');
      parsed[name] = parseField(text, name, fields[name]);
    }
    Object.assign(this, parsed);
  }

  /** Back to the state the page authored: each field's valid attribute, else its default. */
  reset() {
    resetToAuthored(this);
  }

  /**
   * Call after the user changed the state (not for programmatic changes). A part of another cell
   * (a control in a lab's own template: nested in a cell, with no id to save it by and no `for`)
   * leaves the announcement to that cell, which applies the change and announces it once.
   */
  stateChanged() {
    if (this._settling.parent && !this.id && !this.hasAttribute('for') && this.getRootNode() !== document) return;
    this.dispatchEvent(new CustomEvent('attn-state-change', { bubbles: true, composed: true }));
  }

  /** Subclasses render here; a throw shows an error state instead of breaking the page. */
  renderCell() {
    return html``;
  }

  render() {
    if (this._cellError) return this.#errorTemplate(this._cellError);
    let content;
    try {
      content = this.renderCell();
    } catch (error) {
      console.warn(`${this.localName}: ${error.message}`);
      return this.#errorTemplate(error);
    }
    return html`${this._notice ? html`<p class="cell-notice" role="status">${mathText(this._notice)}</p>` : ''}${content}`;
  }

  /** Shows `error` in place of the cell until Retry. */
  fail(error) {
    console.warn(`${this.localName}: ${error.message}`);
    this._cellError = error;
  }

  /** Lit's update (willUpdate, render, updated): a throw anywhere in it fails this cell only. */
  performUpdate() {
    try {
      super.performUpdate();
    } catch (error) {
      if (!this._cellError) this.fail(error); // already failed: keep the first error, no update loop
    }
    this._checkSettled();
  }

  /** Clears the error, runs the cell's set-up again (connectedCallback: the engine, observers) and renders. */
  retry() {
    this._cellError = null;
    if (this.isConnected) {
      this.disconnectedCallback();
      this.connectedCallback();
    }
    this.requestUpdate();
  }

  #errorTemplate(error) {
    return html`<div class="cell-error" role="alert">
      This cell failed: ${error.message}
      <button @click=${() => this.retry()}>Retry</button>
    </div>`;
  }
}

/** The nearest attn-* cell enclosing `element` in the composed tree (light DOM, then shadow hosts), or null. */
function enclosingCell(element) {
  for (let node = element.parentNode; node; node = node.parentNode ?? node.host) {
    if (node._settling && typeof node._nestedUnsettled === 'function') return node;
  }
  return null;
}
