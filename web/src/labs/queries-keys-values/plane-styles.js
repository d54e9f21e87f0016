/**
 * The look of attn-vector-plane in this lesson's labs (not an element): embeddings grey,
 * queries in the accent colour, keys in orange and group B in green; the picked key ringed; the
 * draggable handle. Colours come from the theme's variables, so dark mode follows.
 */
import { css } from 'lit';

export const planeStyles = css`
  .plane {
    max-width: 26rem;
    margin: 0 auto;
  }
  .vector-plane .point.embedding circle,
  .vector-plane .point.embedding rect {
    fill: var(--muted, #555d6b);
    opacity: 0.55;
  }
  .vector-plane .point.key rect,
  .vector-plane .point.key circle,
  .vector-plane .point.key polygon,
  .vector-plane .point.group-a rect,
  .vector-plane .point.group-a circle {
    fill: var(--warn, #b35c00);
  }
  .vector-plane .point.group-b rect,
  .vector-plane .point.group-b circle {
    fill: var(--pass, #2b8a3e);
  }
  .vector-plane .point .ring {
    fill: none;
    stroke: var(--text, #1b1e24);
    stroke-width: 2;
  }
  .vector-plane .point.embedding .point-label {
    fill: var(--muted, #555d6b);
  }
  .vector-plane .arrow line {
    stroke: var(--accent, #3b5bdb);
    stroke-width: 2.5;
  }
  .vector-plane .arrow.faint line {
    stroke-width: 1.25;
    opacity: 0.45;
  }
  .vector-plane .arrow.query-b line {
    stroke: var(--pass, #2b8a3e);
  }
  .vector-plane .arrow-label {
    fill: var(--accent, #3b5bdb);
    font-weight: 700;
  }
  .vector-plane .arrow.query-b .arrow-label {
    fill: var(--pass, #2b8a3e);
  }
  .vector-plane .arrow-head {
    fill: var(--accent, #3b5bdb);
  }
  .vector-plane .link {
    stroke: var(--text, #1b1e24);
    stroke-dasharray: 4 3;
    stroke-width: 1.25;
  }
  .vector-plane .handle {
    fill: var(--accent, #3b5bdb);
    stroke: var(--surface, #fff);
    stroke-width: 2;
    cursor: grab;
  }
  .vector-plane .handle:focus-visible {
    stroke: var(--text, #1b1e24);
    stroke-width: 3px;
  }
  p.plane-legend {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1rem;
    font-size: 0.85rem;
    color: var(--muted, #555d6b);
    margin: 0.25rem 0;
  }
  .swatch {
    display: inline-block;
    width: 0.7rem;
    height: 0.7rem;
    margin-right: 0.3rem;
    vertical-align: -0.05rem;
  }
  .swatch.embedding {
    background: var(--muted, #555d6b);
    border-radius: 50%;
    opacity: 0.55;
  }
  .swatch.key,
  .swatch.group-a {
    background: var(--warn, #b35c00);
  }
  .swatch.group-b {
    background: var(--pass, #2b8a3e);
  }
  .swatch.query {
    background: var(--accent, #3b5bdb);
    height: 0.2rem;
    vertical-align: 0.2rem;
  }
`;
