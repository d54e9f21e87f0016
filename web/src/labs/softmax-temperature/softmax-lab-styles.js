/**
 * The CSS of <attn-softmax-temperature> beyond the shared modules: the weight and logit bars (the logits
 * draggable), the readout of α, the entropy and effective positions as a list, and the table of
 * the comparison temperatures (the button of the slider's τ pressed).
 */
import { css } from 'lit';

export const softmaxLabStyles = css`
  .bar {
    fill: var(--accent, #3b5bdb);
  }
  .logit-bar {
    fill: var(--muted, #555d6b);
    cursor: ns-resize;
    touch-action: none;
  }
  .logits .hit {
    fill: transparent;
    cursor: ns-resize;
    touch-action: none;
  }
  .readout {
    white-space: normal;
    overflow-wrap: anywhere;
  }
  dl.stats {
    display: grid;
    grid-template-columns: 1fr;
    gap: 0.1rem;
    margin: 0.5rem 0 0;
    font-size: 0.9rem;
  }
  dl.stats dt {
    color: var(--muted, #555d6b);
  }
  dl.stats dd {
    margin: 0 0 0.35rem;
    font-family: var(--font-mono, ui-monospace, monospace);
  }
  .compare td {
    font-family: var(--font-mono, ui-monospace, monospace);
    font-variant-numeric: tabular-nums;
  }
  .compare button {
    min-width: 3.5rem;
    min-height: 2.75rem;
    font-family: var(--font-mono, ui-monospace, monospace);
  }
  .compare button[aria-pressed='true'] {
    background: var(--accent, #3b5bdb);
    border-color: var(--accent, #3b5bdb);
    color: var(--surface, #fff);
  }
`;
