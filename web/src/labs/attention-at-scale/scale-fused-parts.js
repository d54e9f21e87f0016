/**
 * The fused lab's figure (a function returning a Lit template, not an element): at the run's T,
 * how many times less memory fused attention used than the weights would take, the two bars, the
 * time on one core and on every core.
 */
import { html } from 'lit';
import { tex } from '../../cells/base/math.js';
import { formatBytes } from './memory-model.js';
import { everyCoreText, memoryBars, timesText } from './scale-fused-model.js';
import { styleProps } from '../../charts/style-props.js';

/** The verdict, the two bars (fused memory against the weights' bytes) and the times. */
export function memoryView(r) {
  const { bars, times } = memoryBars(r);
  return html`<p class="verdict">
      At ${tex`T = ${r.T.toLocaleString('en')}`}, keeping the weights would take
      <strong class="times" data-value=${times}>${timesText(times)}</strong> the memory fused attention used.
    </p>
    <div class="bars">
      ${bars.map(
        (b) =>
          html`<div>
            <div class="bar-label">
              <span>${b.label}</span>
              <span class="mono ${b.id}-bytes" data-value=${b.bytes}>${formatBytes(b.bytes)}</span>
            </div>
            <div class="track" role="presentation">
              <div class="fill ${b.id}" style=${styleProps({ width: `${(100 * b.share).toFixed(2)}%` })}></div>
            </div>
          </div>`,
      )}
    </div>
    <p class="readout">
      Time: ${r.ms.toFixed(0)} ms (${r.gflops.toFixed(2)} GFLOP/s) on one core; every score is still computed.
    </p>
    <p class="readout every-core">${everyCoreText(r.everyCore)}</p>`;
}
