/**
 * A lab's checks from data: its model says what each check measures (label, threshold,
 * comparison, the measured value or a pass/fail verdict), the lab renders them with checkList()
 * into renderLab's `checks`, so no lab writes the same <attn-check> block again and again, and the
 * check logic is tested in Node with the model.
 *
 *   checks: checkList([
 *     { id: 'check-sum', label: '|Σ α − 1|', threshold: 1e-6, value: r?.sumGap },
 *     { className: 'shape', label: 'Y.shape = (5, 4)', pass: r?.shapeOk },
 *   ])
 *
 * A spec: label; optional id, className, threshold, comparison (le, lt, ge, gt, eq); value (a
 * number, undefined while not measured) or pass (a boolean verdict).
 */
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';

/** @param {{ label: string, id?: string, className?: string, threshold?: number, comparison?: string, value?: number, pass?: boolean }[]} specs */
export function checkList(specs) {
  return specs.map(
    (c) =>
      html`<attn-check
        id=${ifDefined(c.id)}
        class=${ifDefined(c.className)}
        label=${c.label}
        threshold=${ifDefined(c.threshold === undefined ? undefined : String(c.threshold))}
        comparison=${ifDefined(c.comparison)}
        .value=${c.value}
        .pass=${c.pass}
      ></attn-check>`,
  );
}
