/**
 * The CSS of <attn-hull-mixtures> beyond the shared modules and the scatter-hull figure's styles:
 * the plot at full width, the sliders, the monospace readouts, the count outside the hull, and
 * the link-like button to the exercise the scores part waits for.
 */
import { css } from 'lit';

export const hullMixturesStyles = css`
  .chart {
    max-width: none;
  }
  attn-slider {
    margin: 0.25rem 0;
  }
  .mono {
    font-size: 0.9rem;
    margin: 0.25rem 0;
    overflow-wrap: anywhere;
  }
  .count {
    margin: 0.1rem 0 0;
  }
`;
