/**
 * The scaled-dot-product labs' own CSS (layout, controls and tables come from the shared modules
 * in cells/base/styles.js): sdpaStyles for <attn-sdpa> (the sticky bar with the formula, its term
 * buttons, the panels they light up), stepsStyles for <attn-sdpa-steps> (the list of passes and
 * the table of one query row).
 */
import { css } from 'lit';

export const sdpaStyles = css`
  .bar {
    background: var(--surface, #fff);
    border-bottom: 1px solid var(--border, #d0d4dc);
    margin: 0 -0.25rem;
    padding: 0 0.25rem 0.25rem;
    z-index: 2;
  }
  /* the formula and the controls stay in view while the figures scroll (tall enough screens) */
  @media (min-width: 48rem) and (min-height: 40rem) {
    .bar {
      position: sticky;
      top: 0;
    }
  }
  .bar .controls {
    margin: 0.25rem 0 0;
  }
  .formula {
    display: flex;
    flex-wrap: wrap;
    justify-content: center;
    align-items: center;
    gap: 0 0.2em;
    font-size: 1.2rem;
    margin: 0;
    white-space: normal;
  }
  .formula .half {
    display: inline-flex;
    align-items: center;
    white-space: nowrap;
  }
  .formula .mfrac {
    font-size: 1em;
  }
  .formula .mo.fence {
    transform: scaleY(2.2);
    margin: 0 0.12em;
  }
  .formula .term .math {
    font-size: 1em;
  }
  .term {
    font: inherit;
    font-style: italic;
    border: 1px dashed var(--border, #d0d4dc);
    border-radius: 4px;
    background: transparent;
    padding: 0 0.25em;
    margin: 0 0.05em;
    min-height: 2.75rem;
    min-width: 2.75rem;
    color: var(--text, #1b1e24);
    cursor: help;
  }
  .term.fn {
    font-style: normal;
  }
  .term.active,
  .term:hover {
    border-style: solid;
    border-color: var(--accent, #3b5bdb);
    background: color-mix(in srgb, var(--accent, #3b5bdb) 14%, transparent);
  }
  .term-text {
    min-height: 2.9em;
    margin: 0.25rem 0 0;
  }
  .pair {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 19rem), 1fr));
    gap: 0 1rem;
    align-items: start;
  }
  .pair.wide {
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 34rem), 1fr));
  }
  /* a panel lit by the term of the formula under the pointer or focus */
  .panel {
    border-radius: 8px;
    min-width: 0;
  }
  .panel.linked {
    box-shadow: 0 0 0 3px var(--accent, #3b5bdb);
    background: color-mix(in srgb, var(--accent, #3b5bdb) 8%, transparent);
  }
  .panel > * {
    margin: 0.5rem 0;
  }
  @media (prefers-reduced-motion: no-preference) {
    .panel {
      transition: box-shadow 0.15s;
    }
  }
  ul.gaps {
    margin: 0.25rem 0 0;
    padding-left: 1.25rem;
  }
`;

export const stepsStyles = css`
  ol.passes {
    display: flex;
    flex-wrap: wrap;
    gap: 0.35rem;
    list-style: none;
    padding: 0.2rem;
    margin: 0 0 0.5rem;
    border-radius: 6px;
  }
  ol.passes:focus-visible {
    outline: 2px solid var(--accent, #3b5bdb);
    outline-offset: 2px;
  }
  ol.passes li {
    display: flex;
    align-items: center;
    min-height: 2.75rem;
    border: 1px solid var(--border, #d0d4dc);
    border-radius: 999px;
    padding: 0 0.8rem;
    font-size: 0.9rem;
    color: var(--muted, #555d6b);
    cursor: pointer;
  }
  ol.passes li.done {
    color: var(--text, #1b1e24);
  }
  ol.passes li[aria-current='step'] {
    border-color: var(--accent, #3b5bdb);
    background: color-mix(in srgb, var(--accent, #3b5bdb) 16%, transparent);
    color: var(--text, #1b1e24);
    font-weight: 600;
  }
  table.steps td {
    white-space: nowrap;
  }
  table.steps tfoot th,
  table.steps tfoot td {
    border-top: 1px solid var(--border, #d0d4dc);
    font-weight: 600;
  }
  table.steps .current {
    background: color-mix(in srgb, var(--accent, #3b5bdb) 12%, transparent);
  }
  table.steps .pending {
    color: var(--muted, #555d6b);
  }
  .explain {
    margin: 0.25rem 0 0.5rem;
    min-height: 3em;
  }
  .current-pass {
    flex-basis: 100%;
  }
`;
