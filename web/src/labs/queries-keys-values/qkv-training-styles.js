/**
 * The CSS of <attn-qkv-training> beyond the shared modules and plane-styles.js: W_Q, W_K and the
 * vectors in monospace, the Train and Pause buttons, the retrieval line once solved, and the
 * room of the loss chart.
 */
import { css } from 'lit';

export const trainingStyles = css`
  h3:first-child {
    margin-top: 0;
  }
  .mono {
    font-size: 0.85rem;
    overflow-wrap: anywhere;
    margin: 0.25rem 0;
  }
  .run button {
    font-weight: 600;
  }
  .solved {
    font-weight: 600;
  }
  .loss {
    margin: 0.5rem 0;
  }
`;
