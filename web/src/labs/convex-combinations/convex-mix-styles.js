/**
 * The convex-combinations lab's own CSS (the layout, controls and tables come from the shared
 * modules in cells/base/styles.js). Figure text keeps the figure's size (AttnFigure keeps SVG
 * text at least 11.5 px as drawn); nothing here sets a smaller one.
 */
import { css } from 'lit';

export const mixStyles = css`
  .bar {
    fill: var(--accent, #3b5bdb);
  }
  .bar.negative {
    fill: var(--danger, #b3261e);
  }
  .value-strips .span {
    fill: var(--accent, #3b5bdb);
    fill-opacity: 0.14;
  }
  .value-strips .value-dot {
    fill: var(--accent, #3b5bdb);
  }
  .value-strips .value-label,
  .value-strips .mark-label {
    font-weight: 600;
  }
  .value-strips .row-label {
    fill: var(--muted, #555d6b);
  }
  .value-strips .mark-ring {
    fill: none;
    stroke: var(--danger, #b3261e);
    stroke-width: 2.5px;
  }
  .value-strips .mark-dot {
    fill: var(--danger, #b3261e);
  }
  .value-strips.stale .mark-ring {
    stroke-dasharray: 3 3;
    stroke: var(--muted, #555d6b);
  }
  .value-strips.stale .mark-dot {
    fill: var(--muted, #555d6b);
  }
  .value-strips .stray {
    stroke: var(--danger, #b3261e);
    stroke-width: 2.5px;
    stroke-linecap: round;
  }
  .legend {
    color: var(--muted, #555d6b);
    font-size: 0.85rem;
    margin: 0.2rem 0 0;
  }
  .key-value {
    color: var(--accent, #3b5bdb);
  }
  .key-y,
  .key-stray {
    color: var(--danger, #b3261e);
    font-weight: 700;
  }
  .toggle {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    min-height: 2.75rem;
    font-weight: 600;
    cursor: pointer;
  }
  .toggle input {
    width: 1.25rem;
    height: 1.25rem;
    margin: 0;
    accent-color: var(--accent, #3b5bdb);
  }
  attn-vector-editor {
    margin: 0.5rem 0;
  }
  .rules {
    list-style: none;
    padding: 0;
    margin: 0.25rem 0;
    font-size: 0.9rem;
  }
  .rules li {
    margin: 0.3rem 0;
    padding: 0.3rem 0.6rem;
    border-left: 4px solid var(--pass, #1b7f3b);
    border-radius: 4px;
    background: var(--bg, transparent);
  }
  .rules li.broken {
    border-left-color: var(--danger, #b3261e);
  }
  .rules .verdict {
    font-weight: 600;
  }
  .rules li.broken .verdict {
    color: var(--danger, #b3261e);
  }
  .why {
    display: block;
    color: var(--muted, #555d6b);
  }
  .normalise {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.25rem 0.6rem;
    margin: 0.4rem 0;
  }
  .normalise .hint {
    margin: 0;
  }
  button.primary {
    border-color: var(--accent, #3b5bdb);
    font-weight: 600;
    min-height: 2.75rem;
  }
  button:disabled {
    opacity: 0.55;
    cursor: default;
  }
  .y {
    font-family: var(--font-mono, ui-monospace, monospace);
    font-size: 1rem;
    margin: 0.3rem 0;
    overflow-wrap: anywhere;
  }
  .terms table {
    font-family: var(--font-mono, ui-monospace, monospace);
    overflow-x: visible;
  }
  .terms td {
    white-space: nowrap;
  }
  /* a narrow figure: the vectors break after a comma, so the table fits instead of scrolling */
  @container (max-width: 32rem) {
    .terms td:nth-child(n + 3) {
      white-space: normal;
    }
    .terms th,
    .terms td {
      padding-left: 0.25rem;
      padding-right: 0.25rem;
    }
  }
  .terms th {
    font-family: var(--font-sans, system-ui, sans-serif);
    font-weight: 500;
  }
`;
