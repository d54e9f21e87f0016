/**
 * The CSS of attn-heatmap (attn-heatmap.js): its cells and their numbers, the compact and bare
 * frames, the canvas mode's cursor and magnifier, the "numbers hidden" note and the data table.
 */
import { css } from 'lit';

export const heatmapStyles = css`
  .chart {
    max-width: 100%;
  }
  .cell {
    stroke: var(--surface, #fff);
    stroke-width: 1px;
  }
  .cell:focus-visible {
    stroke: var(--text, #1b1e24);
    stroke-width: 3px;
  }
  .annotation {
    font-family: var(--font-mono, ui-monospace, monospace);
  }
  .row-highlight {
    stroke: var(--accent, #3b5bdb);
  }
  :host([compact]) figure {
    padding: 0.5rem 0.6rem;
  }
  :host([bare]) figure {
    padding: 0;
    border: 0;
  }
  .plot-frame {
    stroke: var(--border, #d0d4dc);
  }
  .heatmap-canvas {
    image-rendering: pixelated;
    cursor: crosshair;
  }
  .heatmap-canvas:focus {
    outline: none;
  }
  .heatmap-canvas:focus-visible {
    outline: 2px solid var(--accent, #3b5bdb);
    outline-offset: 2px;
  }
  .heatmap-cursor {
    box-sizing: border-box;
    min-width: 4px;
    min-height: 4px;
    border: 2px solid var(--text, #1b1e24);
    box-shadow: 0 0 0 1px var(--surface, #fff);
    pointer-events: none;
  }
  .heatmap-lens {
    box-sizing: content-box;
    border: 2px solid var(--surface, #fff);
    outline: 1px solid var(--text, #1b1e24);
    box-shadow: 0 2px 8px rgb(0 0 0 / 35%);
    background: var(--surface, #fff);
    pointer-events: none;
    z-index: 1;
  }
  .heatmap-lens canvas {
    display: block;
    width: 100%;
    height: 100%;
    image-rendering: pixelated;
  }
  .heatmap-lens-mark {
    box-sizing: border-box;
    border: 2px solid #fff;
    outline: 1px solid #000;
  }
  .hint {
    font-family: var(--font-sans, system-ui, sans-serif);
    color: var(--muted, #555d6b);
  }
  .heatmap-note {
    font-size: 0.85rem;
    margin: 0.25rem 0 0;
  }
  .table-wrap {
    max-height: 24rem;
    overflow: auto;
    margin-top: 0.5rem;
  }
  table {
    border-collapse: collapse;
    font-family: var(--font-mono, ui-monospace, monospace);
    font-size: 0.8rem;
  }
  th,
  td {
    border: 1px solid var(--border, #d0d4dc);
    padding: 0.15rem 0.4rem;
    text-align: right;
  }
  th {
    background: var(--bg, #f7f8fa);
    font-weight: 600;
  }
`;
