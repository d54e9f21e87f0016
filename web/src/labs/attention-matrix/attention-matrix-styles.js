/**
 * The attention-matrix lab's own CSS (layout, controls and tables come from the shared modules in
 * cells/base/styles.js): the heatmap beside the breakdown of one row, the breakdown's table of
 * terms with its weight bars, and the pairs of matrices under it.
 */
import { css } from 'lit';

export const matrixLabStyles = css`
  /* the heatmap keeps its natural size (cells of at least 44 px); the breakdown takes the rest */
  @container (min-width: 40rem) {
    .lab.split {
      grid-template-columns: minmax(0, 21rem) minmax(0, 1fr);
    }
  }
  attn-heatmap,
  attn-matrix {
    margin: 0;
  }
  table.terms {
    font-family: var(--font-mono, ui-monospace, monospace);
    font-variant-numeric: tabular-nums;
    font-size: 0.8rem;
  }
  table.terms th,
  table.terms td {
    padding: 0.2rem 0.3rem;
    white-space: nowrap;
  }
  .y-row {
    margin: 0.25rem 0;
    font-size: 0.85rem;
  }
  table.terms td.weight {
    background: linear-gradient(
      to right,
      color-mix(in srgb, var(--accent, #3b5bdb) 28%, transparent) var(--w),
      transparent var(--w)
    );
  }
  table.terms tfoot > tr > * {
    border-top: 2px solid var(--border, #d0d4dc);
    font-weight: 600;
  }
  tr.current {
    background: color-mix(in srgb, var(--accent, #3b5bdb) 14%, transparent);
  }
  .pair {
    display: flex;
    flex-wrap: wrap;
    gap: 0 1rem;
    align-items: flex-start;
  }
  .pair > * {
    flex: 0 1 auto;
    max-width: 100%;
    min-width: 0;
  }
`;
