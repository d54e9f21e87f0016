/**
 * The CSS of <attn-qkv-world> beyond the shared modules and plane-styles.js: the token buttons
 * (the one followed pressed), the sliders, the matrices and dot products in monospace, the
 * challenge line (green once met) and the table of dot products (each row's pick underlined,
 * the followed query's row in the accent colour).
 */
import { css } from 'lit';

export const worldStyles = css`
  h3:first-child {
    margin-top: 0;
  }
  fieldset {
    border: 0;
    margin: 0;
    padding: 0;
  }
  legend {
    font-weight: 600;
    padding: 0;
  }
  .tokens button[aria-pressed='true'] {
    border-color: var(--accent, #3b5bdb);
    background: color-mix(in srgb, var(--accent, #3b5bdb) 16%, transparent);
    font-weight: 700;
  }
  attn-slider {
    margin: 0.25rem 0;
  }
  .mono {
    font-size: 0.85rem;
    overflow-wrap: anywhere;
    margin: 0.25rem 0;
  }
  .challenge {
    font-weight: 600;
  }
  .challenge[data-done='true'] {
    color: var(--pass, #2b8a3e);
  }
  table {
    font-family: var(--font-mono, ui-monospace, monospace);
    font-size: 0.8rem;
  }
  th,
  td {
    padding: 0.2rem 0.3rem;
  }
  td.top {
    font-weight: 700;
    text-decoration: underline;
  }
  tr.chosen th {
    color: var(--accent, #3b5bdb);
  }
`;
