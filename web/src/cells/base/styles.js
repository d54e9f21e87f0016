/**
 * Shared CSS modules for the cells and labs (Lit `css`), so no component copies them:
 * - labLayout: the explorable-figure layout of AttnLab (lab.js). Its frame is a size container, so
 *   the layout follows the width the lab is given (a wide course page, a narrow column, a scaled
 *   slide), not the window: from 40rem the figure and its controls sit side by side, and the
 *   figure stays in view (sticky) while a tall column of controls scrolls; below, they stack with
 *   the controls directly under the figure. Below 600 px of window, cards are flat.
 * - controlStyles: rows of labelled controls, range inputs, selects, number and text fields.
 * - textStyles: headings inside a lab, notes, hints, errors, monospace numbers, boxes that scroll
 *   sideways on their own, part titles (.part-title: the title of one part of a lab, not a
 *   heading of the page's outline).
 * - tableStyles: compact numeric tables (they scroll inside their own box).
 * - touchTargets: buttons, selects and fields of a control row at least 44 px tall (a finger's
 *   hit area).
 * - flatOnPhones(selector): a framed card (a figure's frame, a cell's .card) made flat below 600 px
 *   of window.
 */
import { css, unsafeCSS } from 'lit';

/**
 * Below 600 px of window, the frames matching `selector` (a constant CSS selector) are flat, so
 * frames and padding nested two or three deep do not eat a phone's width: a frame keeps only a rule
 * above and below it, and a frame inside another one (which sets --attn-in-frame for what it holds,
 * across shadow roots) none at all. A card with a coloured stripe down its side sets its own
 * padding on that side, with !important, to keep its text clear of the stripe.
 */
export function flatOnPhones(selector) {
  const frame = unsafeCSS(selector);
  return css`
    @media (max-width: 37.5rem) {
      ${frame} > * {
        --attn-in-frame: 1;
      }
      ${frame} {
        padding-block: calc(0.75rem * (1 - var(--attn-in-frame, 0)));
        padding-inline: 0 !important; /* also over a compact figure's own padding */
        border-width: calc(1px * (1 - var(--attn-in-frame, 0))) 0;
        border-radius: 0;
        background: transparent;
      }
    }
  `;
}

export const labLayout = css`
  /* the lab's frame, not the host, is the container: Chromium can leave a host that is both a size
     container and a content-visibility: auto block of the lesson at 0 px and never draw it again,
     once it re-renders while skipped off screen (a Retry pressed as the page scrolls to it) */
  figure {
    container-type: inline-size;
  }
  .lab {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 0.75rem 1.25rem;
    align-items: start;
  }
  .lab-figure,
  .lab-side {
    min-width: 0;
  }
  @container (min-width: 40rem) {
    .lab.split {
      grid-template-columns: minmax(0, 3fr) minmax(14rem, 2fr);
    }
    .lab.split > .lab-figure {
      position: sticky;
      top: 0.5rem;
    }
  }
  .lab-error {
    color: var(--danger, #b3261e);
    margin: 0.25rem 0;
  }
  details.hood {
    margin-top: 0.5rem;
    color: var(--muted, #555d6b);
    font-size: 0.9rem;
  }
  details.hood > summary {
    cursor: pointer;
    min-height: 1.5rem;
  }
  details.hood[open] {
    color: var(--text, #1b1e24);
  }
`;

export const controlStyles = css`
  .controls {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 0.75rem;
    margin: 0.5rem 0;
  }
  .controls input[type='text'] {
    width: 7.5rem;
  }
  input[type='range'] {
    width: 100%;
    min-height: 2.75rem;
    accent-color: var(--accent, #3b5bdb);
  }
  select,
  input[type='number'],
  input[type='text'] {
    font: inherit;
    color: var(--text, #1b1e24);
    background: var(--bg, #f7f8fa);
    border: 1px solid var(--border, #d0d4dc);
    border-radius: 4px;
    padding: 0.2rem 0.3rem;
  }
  select:focus-visible,
  input:focus-visible {
    outline: 2px solid var(--accent, #3b5bdb);
    outline-offset: 2px;
  }
  .field-error {
    color: var(--danger, #b3261e);
    font-size: 0.85rem;
    margin: 0.25rem 0;
  }
`;

export const textStyles = css`
  h3 {
    font-size: 0.95rem;
    margin: 0.75rem 0 0.2rem;
  }
  .note,
  .hint {
    color: var(--muted, #555d6b);
    font-size: 0.85rem;
    margin: 0.25rem 0;
  }
  .error {
    color: var(--danger, #b3261e);
    margin: 0.25rem 0;
  }
  .mono,
  output {
    font-family: var(--font-mono, ui-monospace, monospace);
    font-variant-numeric: tabular-nums;
  }
  .scroll {
    overflow-x: auto;
    max-width: 100%;
  }
  .part-title {
    font-size: 0.95rem;
    font-weight: 600;
    margin: 0.5rem 0 0.25rem;
  }
`;

export const tableStyles = css`
  table {
    border-collapse: collapse;
    font-size: 0.85rem;
    margin: 0.5rem 0;
    display: block;
    overflow-x: auto;
    max-width: 100%;
  }
  th,
  td {
    border-bottom: 1px solid var(--border, #d0d4dc);
    padding: 0.2rem 0.6rem;
    text-align: right;
  }
  th {
    color: var(--muted, #555d6b);
    font-weight: 600;
  }
  td:first-child,
  th:first-child {
    text-align: left;
  }
  /* a narrow figure (a phone): heads wrap and cells tighten, so a table fits instead of scrolling */
  @container (max-width: 36rem) {
    thead th {
      white-space: normal;
      vertical-align: bottom;
    }
    th,
    td {
      padding-left: 0.25rem;
      padding-right: 0.25rem;
    }
  }
`;

export const touchTargets = css`
  .controls button,
  .controls select,
  .controls input[type='text'],
  .controls input[type='number'] {
    min-height: 2.75rem;
  }
  .controls button {
    min-width: 2.75rem;
  }
`;

/**
 * lineChartStyles: the colours of attn-line-chart's series (series-0 red, series-1 blue,
 * series-2 green; they differ by dash and marker shape too), its marker and its texts.
 */
export const lineChartStyles = css`
  .line-chart .series-0 .line,
  .line-chart .series-0 .point {
    stroke: var(--danger, #b3261e);
  }
  .line-chart .series-0 .point {
    fill: var(--danger, #b3261e);
  }
  .line-chart .series-1 .line,
  .line-chart .series-1 .point {
    stroke: var(--accent, #3b5bdb);
  }
  .line-chart .series-1 .point {
    fill: var(--accent, #3b5bdb);
  }
  .line-chart .series-2 .line,
  .line-chart .series-2 .point {
    stroke: var(--pass, #2b8a3e);
  }
  .line-chart .series-2 .point {
    fill: var(--pass, #2b8a3e);
  }
  .line-chart .series-3 .line,
  .line-chart .series-3 .point {
    stroke: var(--text, #1b1e24);
  }
  .line-chart .series-3 .point {
    fill: var(--text, #1b1e24);
  }
  .line-chart .line {
    stroke-width: 2;
  }
  .line-chart .marker {
    stroke: var(--muted, #555d6b);
    stroke-dasharray: 3 3;
  }
  .line-chart .event {
    stroke: var(--text, #1b1e24);
    stroke-width: 1.5;
  }
  .line-chart .axis-title,
  .line-chart .legend-text {
    fill: var(--text, #1b1e24);
  }
`;
