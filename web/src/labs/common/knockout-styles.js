/**
 * The knock-out controls both trainer labs show (learning-to-attend, heads-that-copy): a row of
 * head toggles (pressed = knocked out, struck through and dashed) and the table of what knocking
 * out one more head does.
 */
import { css } from 'lit';

export const knockoutStyles = css`
  .heads-off {
    display: flex;
    flex-wrap: wrap;
    gap: 0.4rem;
  }
  .heads-off button[aria-pressed='true'] {
    text-decoration: line-through;
    border-style: dashed;
  }
  table.knockout {
    border-collapse: collapse;
    margin: 0.4rem 0;
  }
  table.knockout th,
  table.knockout td {
    padding: 0.2rem 0.6rem;
    border-bottom: 1px solid var(--border, #d0d4dc);
    text-align: left;
    font-variant-numeric: tabular-nums;
  }
`;
