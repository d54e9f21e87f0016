/**
 * The benchmark lab's view pieces (functions returning Lit templates, not elements): the table of
 * results, the progress of a run, and the text under the hood.
 */
import { html } from 'lit';
import { formatMs, ratioToHalf } from './scale-benchmark-model.js';

/** The results, one row per size and contender: time, GFLOP/s, the ratio to T/2, the difference from JS. */
export function resultsTable(rows) {
  return html`<table class="results">
    <caption class="sr-only">
      Benchmark results
    </caption>
    <thead>
      <tr>
        <th scope="col">T</th>
        <th scope="col">contender</th>
        <th scope="col">ms per call</th>
        <th scope="col">GFLOP/s</th>
        <th scope="col">× time of T/2</th>
        <th scope="col">max |diff| vs JS</th>
      </tr>
    </thead>
    <tbody>
      ${rows.map((r) => {
        const ratio = ratioToHalf(rows, r);
        return html`<tr data-t=${r.T} data-contender=${r.contender} data-ms=${r.ms ?? ''} data-gflops=${r.gflops ?? ''}>
          <td class="mono">${r.T}</td>
          <td>${r.label}</td>
          <td class="mono">${r.ms === null ? r.error : formatMs(r.ms)}</td>
          <td class="mono">${r.gflops === null ? '' : r.gflops.toFixed(2)}</td>
          <td class="mono">${ratio === null ? '' : `×${ratio.toFixed(1)}`}</td>
          <td class="mono">${r.maxAbsDiff === null ? '' : r.maxAbsDiff.toExponential(1)}</td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

/** The progress of a run: its step and the contender and size just timed. */
export const benchmarkProgress = (p) =>
  html`<p>
    <label for="progress">Step ${p.done} of ${p.steps}${p.row ? `: ${p.row.label} at T = ${p.row.T} done` : ''}</label>
    <progress id="progress" max=${p.steps} .value=${p.done}></progress>
  </p>`;

/** Under the hood: how each contender is timed and what the every-core row is. */
export const BENCHMARK_HOOD = html`<p>
  Each contender runs a warm-up (at least two calls and 60 ms, so the browser's compilers have tiered up), then samples
  of repeated calls lasting at least 5 ms each; the table shows the median time per call. The two wasm contenders are
  separate modules of the same C++ core, one built with SIMD128 instructions (four float32 lanes) and one without; both
  run the fused kernel. The plain-JS loop is the reference every output is compared with. The every-core row sends the
  same call to a pool of Web Workers, one per core, each with its own copy of the SIMD build, which split the query rows
  between them (engine/pool.js); its output is the SIMD row's, bit for bit.
</p>`;
