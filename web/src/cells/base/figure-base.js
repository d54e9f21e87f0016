/**
 * AttnFigure: what every figure cell (attn-bars, attn-heatmap, …) shares on
 * top of AttnCell: a <figure> frame with an accessible name (`label`), a
 * caption (`caption`), a text alternative, and a toolbar with Reset and
 * one Export menu (SVG, PNG, CSV, JSON; closed until opened, Escape closes it). Not registered itself.
 *
 * A subclass implements:
 *   renderFigure()      the figure's content (Lit template)
 *   describe()          the text alternative (plain text)
 *   exportSvgText()     a self-contained SVG document (string)
 *   exportRows()        rows for CSV ([[header...], [cells...], ...])
 *   exportObject()      a plain object for JSON
 *   resetView()         optional: clears view state (focus, toggles)
 * and calls this.beginEdit() before applying a user edit, so Reset can go
 * back to the state the page gave the element (attributes or properties),
 * not the class defaults.
 *
 * Figures render only when visible: the first update (renderFigure(),
 * updated(), so also `updateComplete`) waits until the figure first comes near
 * the viewport; until then the host keeps a placeholder height and has no
 * data-shown attribute, is not settled (data-settled, see AttnCell), and does
 * not hold up the cell it is nested in. Tests scroll a figure into view before
 * waiting for it.
 */
import { css, html } from 'lit';
import { download, fileStem, svgToPng, toCsv, toJson } from '../../charts/export.js';
import { AttnCell } from './attn-cell.js';
import { mathPlain, mathText } from './math.js';
import { flatOnPhones } from './styles.js';

/** Lit attribute converter for comma-separated text lists ("a, b, c"). */
export const listConverter = {
  fromAttribute: (text) =>
    text === null
      ? null
      : text
          .slice(0, 20000)
          .split(',')
          .map((s) => s.trim())
          .slice(0, 4096),
  toAttribute: (list) => (list ? list.join(',') : null),
};

/** Escape in an open <details> menu closes it and puts focus back on its summary. */
function closeOnEscape(event) {
  const menu = event.currentTarget;
  if (event.key !== 'Escape' || !menu.open) return;
  menu.open = false;
  menu.querySelector('summary').focus();
  event.stopPropagation();
}

/**
 * Keeps SVG text readable: a chart drawn in a viewBox is scaled to its box, and so is its text
 * (12 px in a 480-unit viewBox drawn 300 px wide is 7.5 px). Each <svg viewBox> in `root` gets
 * --units-per-px (viewBox units per CSS pixel, from a ResizeObserver, set before paint), which
 * figureStyles uses to keep the text at least 11.5 px as rendered. Returns the observer, which
 * the next call reuses.
 */
const watchedCharts = new WeakSet();

function readableText(root, observer) {
  const charts = root.querySelectorAll('svg[viewBox]');
  if (!charts.length || typeof ResizeObserver === 'undefined') return observer;
  observer ??= new ResizeObserver((entries) => {
    for (const { target, contentRect } of entries) {
      const units = target.viewBox.baseVal?.width;
      if (units && contentRect.width)
        target.style.setProperty('--units-per-px', (units / contentRect.width).toFixed(3));
    }
  });
  for (const svg of charts) {
    if (watchedCharts.has(svg)) continue;
    watchedCharts.add(svg);
    observer.observe(svg);
  }
  return observer;
}

export class AttnFigure extends AttnCell {
  // A getter, so subclasses' `static properties = { ...super.properties }` see their own stateFields.
  static get properties() {
    return { ...super.properties, label: { type: String }, caption: { type: String }, _status: { state: true } };
  }

  static figureStyles = css`
    :host(:not([data-shown])) {
      min-height: 12rem;
    }
    figure {
      margin: 0;
      padding: 0.75rem 1rem;
      border: 1px solid var(--border, #d0d4dc);
      border-radius: 8px;
      background: var(--surface, #fff);
      color: var(--text, #1b1e24);
      font: 14px/1.45 var(--font-sans, system-ui, sans-serif);
      min-width: 0;
    }
    figcaption {
      color: var(--muted, #555d6b);
      margin-top: 0.4rem;
    }
    .toolbar {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.35rem;
      margin-top: 0.5rem;
    }
    .export-menu {
      display: inline-flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.35rem;
    }
    .export-menu > summary {
      list-style: none;
      cursor: pointer;
      font-size: 0.85rem;
      padding: 0.2rem 0.6rem;
      border-radius: 4px;
      border: 1px solid var(--border, #d0d4dc);
      background: var(--surface, #fff);
    }
    .export-menu > summary::-webkit-details-marker {
      display: none;
    }
    .export-menu > summary::after {
      content: ' ▸';
    }
    .export-menu[open] > summary::after {
      content: ' ◂';
    }
    .export-menu > summary:focus-visible {
      outline: 2px solid var(--accent, #3b5bdb);
      outline-offset: 2px;
    }
    .export-menu .menu {
      display: inline-flex;
      flex-wrap: wrap;
      gap: 0.35rem;
    }
    .export-menu .menu button {
      text-align: left;
    }
    .toolbar .status {
      color: var(--muted, #555d6b);
      font-size: 0.85rem;
    }
    .sr-only {
      position: absolute;
      width: 1px;
      height: 1px;
      margin: -1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
    }
    .readout {
      font-family: var(--font-mono, ui-monospace, monospace);
      font-size: 0.85rem;
      min-height: 1.45em;
      margin: 0.25rem 0 0;
    }
    .error {
      color: var(--danger, #b3261e);
    }
    svg {
      display: block;
      width: 100%;
      height: auto;
      font: 12px var(--font-sans, system-ui, sans-serif);
      /* at least 11.5 px as rendered, however far the viewBox is scaled down (readableText) */
      font-size: max(12px, calc(11.5px * var(--units-per-px, 1)));
      overflow: visible;
    }
    svg text {
      fill: var(--text, #1b1e24);
    }
    svg .grid {
      stroke: var(--border, #d0d4dc);
      stroke-dasharray: 2 3;
    }
    svg .axis {
      stroke: var(--muted, #555d6b);
    }
    svg .tick {
      fill: var(--muted, #555d6b);
    }
    svg [tabindex]:focus {
      outline: none;
    }
    svg [tabindex]:focus-visible {
      stroke: var(--text, #1b1e24);
      stroke-width: 3px;
    }
    @media (prefers-reduced-motion: no-preference) {
      .toolbar .status {
        transition: opacity 0.3s;
      }
    }
    ${flatOnPhones('figure')}
  `;

  constructor() {
    super();
    this.label = '';
    this.caption = '';
    this._status = '';
    this._baseline = null;
    this._shown = false;
    this._away = false; // the first report on its position found it away from the viewport
  }

  /**
   * Lit's hook for the timing of updates: the first one waits until the figure
   * is visible. Property changes made meanwhile are kept and all arrive in that
   * first update (its `changed` map), so subclasses need not know.
   */
  async scheduleUpdate() {
    if (!this._shown) {
      await this.visible;
      this._shown = true;
      this.toggleAttribute('data-shown', true);
      this.joinEnclosingCell();
    }
    super.scheduleUpdate();
  }

  /** After each update, the figure's charts keep their text readable (see readableText). */
  performUpdate() {
    super.performUpdate();
    this.#textObserver = readableText(this.renderRoot, this.#textObserver);
  }

  #textObserver = null;

  /** An enclosing cell waits for a figure unless it was found away from the viewport and not shown since. */
  get drawsNow() {
    return this._shown || !this._away;
  }

  awayFromView() {
    if (this._shown) return;
    this._away = true;
    this.leaveEnclosingCell();
  }

  /** A present-but-empty boolean attribute (<attn-bars editable>) means true, as in HTML. */
  attributeChangedCallback(name, old, value) {
    const spec = this.constructor.stateFields[name];
    super.attributeChangedCallback(name, old, spec?.type === 'boolean' && value === '' ? 'true' : value);
  }

  /** The accessible name: the `label` attribute (its $…$ maths as plain characters), or the subclass's default. */
  get accessibleName() {
    return mathPlain(this.label || this.defaultLabel || 'Figure');
  }

  /** The caption, its $…$ maths typeset (math.js). */
  renderCaption() {
    return this.caption ? html`<figcaption>${mathText(this.caption)}</figcaption>` : '';
  }

  /** Call before applying a user edit: remembers the state Reset goes back to. */
  beginEdit() {
    this._baseline ??= this.getState();
  }

  reset() {
    if (this._baseline) Object.assign(this, this._baseline);
    this._baseline = null;
    this._notice = '';
    this._status = '';
    this.resetView?.();
    this.stateChanged();
  }

  /** File names for exports: the element's id, else its label. */
  get exportStem() {
    return fileStem(this.id || this.accessibleName);
  }

  /** A menu item: closes the menu (focus back on its summary) and exports. */
  #exportFrom(event, kind) {
    const menu = event.target.closest('details');
    menu.open = false;
    menu.querySelector('summary').focus();
    return this._export(kind);
  }

  _export(kind) {
    return this.settleAfter(this.#exportNow(kind)); // settled once the status says how it went
  }

  async #exportNow(kind) {
    const stem = this.exportStem;
    try {
      if (kind === 'svg') download(this.exportSvgText(), `${stem}.svg`, 'image/svg+xml');
      else if (kind === 'png') download(await svgToPng(this.exportSvgText()), `${stem}.png`);
      else if (kind === 'csv') download(toCsv(this.exportRows()), `${stem}.csv`, 'text/csv');
      else download(toJson(this.exportObject()), `${stem}.json`, 'application/json');
      this._status = `Saved ${stem}.${kind}`;
    } catch (error) {
      this._status = `Could not export ${kind.toUpperCase()}: ${error.message}`;
    }
  }

  renderFigure() {
    return html``;
  }

  describe() {
    return '';
  }

  renderCell() {
    const name = this.accessibleName;
    return html`
      <figure aria-label=${name} aria-describedby="alt">
        ${this.renderFigure()} ${this.renderCaption()}
        <p class="sr-only alt" id="alt">${this.describe()}</p>
        <div class="toolbar" role="group" aria-label=${`${name}: tools`}>
          <button type="button" @click=${() => this.reset()}>Reset</button>
          <details class="export-menu" @keydown=${closeOnEscape}>
            <summary>Export</summary>
            <div class="menu">
              <button type="button" aria-label="Export the figure as SVG" @click=${(e) => this.#exportFrom(e, 'svg')}>
                SVG image
              </button>
              <button type="button" aria-label="Export the figure as PNG" @click=${(e) => this.#exportFrom(e, 'png')}>
                PNG image
              </button>
              <button type="button" aria-label="Export the data as CSV" @click=${(e) => this.#exportFrom(e, 'csv')}>
                CSV data
              </button>
              <button type="button" aria-label="Export the data as JSON" @click=${(e) => this.#exportFrom(e, 'json')}>
                JSON data
              </button>
            </div>
          </details>
          <span class="status" role="status">${this._status}</span>
        </div>
      </figure>
    `;
  }
}
