/**
 * The multi-head lab's own CSS (layout, controls and tables come from the shared modules in
 * cells/base/styles.js): the grid of small maps beside the large one, the colour legend, the size
 * steppers, and the dimensional audit table (one block per object on narrow screens).
 */
import { css } from 'lit';

export const multiHeadStyles = css`
  h3:first-child {
    margin-top: 0;
  }
  .linked {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem 1.25rem;
    align-items: flex-start;
  }
  .overview {
    flex: 1 1 20rem;
    min-width: 0;
    --tile: 3.5rem;
  }
  .maps {
    display: grid;
    gap: 0.3rem;
    align-items: center;
    justify-items: center;
    overflow-x: auto;
    padding: 0.2rem;
  }
  .col-head,
  .row-head {
    font-size: 0.8rem;
    color: var(--muted, #555d6b);
    white-space: nowrap;
  }
  .row-head {
    justify-self: end;
    padding-right: 0.25rem;
  }
  button.tile {
    width: var(--tile);
    height: var(--tile);
    padding: 3px;
    border-radius: 6px;
    border: 2px solid transparent;
    background: var(--surface, #fff);
  }
  button.tile svg {
    display: block;
    width: 100%;
    height: 100%;
    shape-rendering: crispEdges;
  }
  button.tile[aria-pressed='true'] {
    border-color: var(--accent, #3b5bdb);
    box-shadow: 0 0 0 2px color-mix(in srgb, var(--accent, #3b5bdb) 35%, transparent);
  }
  /* the large map: room for cells of 56 px beside the grid; narrower, the heatmap lays itself out smaller */
  .detail {
    flex: 0 1 calc(var(--cells) * 3.5rem + 3rem);
    min-width: 0;
    max-width: 100%;
  }
  .detail attn-heatmap {
    margin: 0;
  }
  .legend {
    display: flex;
    align-items: center;
    gap: 0.4rem;
    font-size: 0.8rem;
    color: var(--muted, #555d6b);
    margin: 0.35rem 0;
  }
  .legend {
    white-space: nowrap;
  }
  .legend .ramp {
    flex: 0 0 auto;
    width: 8rem;
    height: 0.7rem;
    border-radius: 2px;
  }
  .sizes {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr));
    align-items: end;
  }
  .size {
    display: flex;
    flex-direction: column;
    gap: 0.15rem;
    font-size: 0.85rem;
  }
  .stepper {
    display: flex;
    gap: 0.2rem;
  }
  .size input {
    width: 3.75rem;
    text-align: center;
    font-family: var(--font-mono, ui-monospace, monospace);
  }
  .size .range {
    color: var(--muted, #555d6b);
  }
  .errors {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .shapes attn-shape-diagram {
    margin: 0.5rem 0;
  }
  table.audit {
    border-collapse: collapse;
    font-size: 0.9rem;
  }
  table.audit th,
  table.audit td {
    border-bottom: 1px solid var(--border, #d0d4dc);
    padding: 0.3rem 0.5rem;
    text-align: left;
    vertical-align: top;
  }
  table.audit thead th {
    color: var(--muted, #555d6b);
  }
  table.audit .mono {
    white-space: nowrap;
  }
  /* Narrow screens: one block per object, each value under its column name. */
  @media (max-width: 560px) {
    table.audit,
    table.audit tbody,
    table.audit tr,
    table.audit th,
    table.audit td {
      display: block;
    }
    table.audit thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
    }
    table.audit tr {
      border-bottom: 1px solid var(--border, #d0d4dc);
      padding: 0.35rem 0;
    }
    table.audit th,
    table.audit td {
      border: 0;
      padding: 0.1rem 0;
    }
    table.audit td::before {
      content: attr(data-label) ': ';
      color: var(--muted, #555d6b);
      font-family: var(--font-sans, system-ui, sans-serif);
    }
  }
`;
