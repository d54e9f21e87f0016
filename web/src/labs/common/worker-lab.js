/**
 * What the labs of the scaling lessons share (scaling-by-sqrt-dk, attention-at-scale).
 * Not an element: index.js registers only attn-*.js files.
 *
 * - labStyles: controls, readouts, tables and line-chart colours.
 * - workerEngine(): the page's worker engine (runtime.js getWorkerEngine), and
 *   markWhere(host, engine): sets data-computed-in="worker" | "main-thread" on the lab
 *   and returns the text the lab shows ("computed in a Web Worker", or why not).
 * - Coalescer: one async computation at a time; while one runs, only the newest
 *   request waits (a dragged slider does not queue a computation per step).
 *   run() returns a promise of the end of the work it joined (the running task
 *   and the one waiting after it), for AttnCell.settleAfter.
 */
import { css } from 'lit';
import { getWorkerEngine, whereComputed } from '../../runtime.js';

export const workerEngine = () => getWorkerEngine();

export function markWhere(host, engine) {
  host.dataset.computedIn = engine.inWorker ? 'worker' : 'main-thread';
  return whereComputed(engine);
}

/**
 * coalescer.run(task): runs task() now, or after the one in flight (only the newest waiting task runs).
 * Returns a promise that settles when no task is running or waiting any more.
 */
export class Coalescer {
  #busy = false;
  #next = null;
  #idle = Promise.resolve();

  run(task) {
    if (this.#busy) {
      this.#next = task;
      return this.#idle;
    }
    this.#busy = true;
    this.#idle = Promise.resolve()
      .then(task)
      .finally(() => this.#after());
    return this.#idle;
  }

  #after() {
    this.#busy = false;
    const next = this.#next;
    this.#next = null;
    return next ? this.run(next) : undefined;
  }
}

export const bytes = (n) => {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n >= 100 || i === 0 ? Math.round(n) : n.toPrecision(3)} ${units[i]}`;
};

export const labStyles = css`
  .controls {
    display: grid;
    grid-template-columns: minmax(7rem, max-content) minmax(8rem, 1fr) minmax(6rem, max-content);
    align-items: center;
    gap: 0.4rem 0.75rem;
    margin: 0.5rem 0;
  }
  @media (max-width: 480px) {
    .controls {
      grid-template-columns: 1fr;
    }
  }
  input[type='range'] {
    width: 100%;
    accent-color: var(--accent, #3b5bdb);
  }
  select,
  input[type='number'] {
    font: inherit;
    color: var(--text, #1b1e24);
    background: var(--surface, #fff);
    border: 1px solid var(--border, #d0d4dc);
    border-radius: 4px;
    padding: 0.1rem 0.3rem;
  }
  output,
  .mono {
    font-family: var(--font-mono, ui-monospace, monospace);
    font-variant-numeric: tabular-nums;
  }
  .where {
    color: var(--muted, #555d6b);
    font-size: 0.85rem;
    margin: 0.25rem 0;
  }
  .charts {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr));
    gap: 0.75rem;
  }
  .line-chart .series-0 .line,
  .line-chart .series-0 .point {
    stroke: var(--danger, #b3261e);
  }
  .line-chart .series-0 .point {
    fill: var(--danger, #b3261e);
  }
  .line-chart .series-1 .line,
  .line-chart .series-1 .point {
    stroke: var(--accent, #3b5bdb);
  }
  .line-chart .series-1 .point {
    fill: var(--accent, #3b5bdb);
  }
  .line-chart .series-2 .line,
  .line-chart .series-2 .point {
    stroke: var(--pass, #2b8a3e);
  }
  .line-chart .series-2 .point {
    fill: var(--pass, #2b8a3e);
  }
  .line-chart .line {
    stroke-width: 2;
  }
  .line-chart .marker {
    stroke: var(--muted, #555d6b);
    stroke-dasharray: 3 3;
  }
  .line-chart .axis-title,
  .line-chart .legend-text {
    fill: var(--text, #1b1e24);
  }
  table {
    border-collapse: collapse;
    font-size: 0.85rem;
    margin: 0.5rem 0;
    display: block;
    overflow-x: auto;
  }
  th,
  td {
    border-bottom: 1px solid var(--border, #d0d4dc);
    padding: 0.2rem 0.6rem;
    text-align: right;
  }
  th {
    color: var(--muted, #555d6b);
    font-weight: 600;
  }
  td:first-child,
  th:first-child {
    text-align: left;
  }
  progress {
    width: 100%;
    max-width: 24rem;
    accent-color: var(--accent, #3b5bdb);
  }
  .note {
    color: var(--muted, #555d6b);
    font-size: 0.85rem;
  }
`;
