/**
 * The attention-at-scale labs' own CSS (layout, controls, tables and charts come from the shared
 * modules in cells/base/styles.js): benchmarkStyles for <attn-scale-benchmark> (its buttons and
 * progress bar), fusedStyles for <attn-scale-fused> (the two memory bars, the verdict, progress).
 */
import { css } from 'lit';

export const benchmarkStyles = css`
  .buttons {
    display: flex;
    gap: 0.5rem;
    flex-wrap: wrap;
    margin: 0.5rem 0;
  }
  .buttons button,
  select {
    min-height: 2.75rem;
  }
  progress {
    width: 100%;
    accent-color: var(--accent, #3b5bdb);
  }
`;

export const fusedStyles = css`
  .bars {
    display: grid;
    gap: 0.9rem;
    margin: 0.25rem 0 0.5rem;
  }
  .bar-label {
    display: flex;
    justify-content: space-between;
    gap: 0.75rem;
    font-size: 0.9rem;
  }
  .track {
    height: 1.75rem;
    background: var(--bg, #f7f8fa);
    border: 1px solid var(--border, #d0d4dc);
    border-radius: 4px;
    overflow: hidden;
  }
  .fill {
    height: 100%;
    min-width: 3px;
  }
  .fill.fused {
    background: var(--accent, #3b5bdb);
  }
  .fill.weights {
    background: var(--danger, #b3261e);
  }
  .verdict {
    font-size: 1.05rem;
    margin: 0.25rem 0;
  }
  progress {
    width: 100%;
    accent-color: var(--accent, #3b5bdb);
  }
`;
