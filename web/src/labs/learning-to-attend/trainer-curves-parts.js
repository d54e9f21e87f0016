/**
 * The trainer lab's curves, for <attn-attend-trainer>, as Lit templates (not elements): loss and
 * accuracy against the training step, each an attn-line-chart.
 */
import { html } from 'lit';
import '../../charts/attn-line-chart.js';
import { curveDomain, curveSeries } from './trainer-model.js';

/** The two curves' charts. */
const CURVES = {
  loss: {
    label: 'Loss against training steps',
    yLabel: 'loss (cross-entropy)',
    yDomain: [0, 3],
    line: { name: 'training loss', className: 'series-0', points: false, format: (v) => String(Number(v.toFixed(2))) },
  },
  accuracy: {
    label: 'Accuracy against training steps',
    yLabel: 'accuracy',
    yDomain: [0, 1],
    line: {
      name: 'answer-token accuracy',
      className: 'series-1',
      points: false,
      format: (v) => `${Math.round(v * 100)}%`,
    },
  },
};

/** The loss and accuracy curves of `history` ([{ step, loss, accuracy }]), the step axis doubling as training goes on. */
export function lossCurves(history) {
  const domain = curveDomain(history.at(-1)?.step ?? 0);
  const series = curveSeries(history);
  return ['loss', 'accuracy'].map((name) => {
    const { label, yLabel, yDomain, line } = CURVES[name];
    return html`<attn-line-chart
      class=${`curve-${name}`}
      label=${label}
      x-label="step"
      y-label=${yLabel}
      .xDomain=${domain}
      .yDomain=${yDomain}
      .series=${[line]}
      .format=${line.format}
      .data=${series[name]}
    ></attn-line-chart>`;
  });
}
