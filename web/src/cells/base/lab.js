/**
 * AttnLab: the base class of every lesson lab (not registered itself). An AttnFigure (frame,
 * accessible name, text alternative, Reset and one Export menu, state fields, settledness)
 * laid out as an explorable figure:
 *
 *   ┌ figure ─────────────┬ controls ───┐   side by side from 40rem of the lab's own width
 *   │ (sticky while the   │ sliders,     │   (a container query: an embedding page or slide
 *   │  controls scroll)   │ readouts     │   gives the width), stacked below it
 *   └─────────────────────┴──────────────┘
 *   more figures or text, the error line (with Retry), "Verified ✓ (n checks)" (attn-verified,
 *   closed until opened or until a check fails), the code cell (one line until opened), and an
 *   "Under the hood" aside for engineering notes.
 *
 * A subclass creates its computation with LabTask (lab-task.js) in its constructor, as
 * `this.task`, and returns this.renderLab({ figure, controls, after, checks, code, hood }) from
 * renderFigure(). The host gets data-lab, which the lesson page uses to let a lab use the margin
 * of a wide screen.
 */
import { html, nothing } from 'lit';
import { AttnFigure } from './figure-base.js';
import { controlStyles, labLayout, textStyles } from './styles.js';

/**
 * Checks written as data (a lab model's check logic) as attn-check cells, for renderLab's
 * `checks`: each { name (its class), label, comparison ('le' by default), threshold, value } or,
 * for a yes/no check, { name, label, pass }; an optional id names the check in the lab, and an
 * optional `python` gives it to the lesson's notebook as an assert (attn-check.js).
 */
export const checkCells = (checks) =>
  checks.map(
    (c) =>
      html`<attn-check
        id=${c.id ?? nothing}
        class=${c.name ?? nothing}
        label=${c.label}
        comparison=${c.comparison ?? 'le'}
        threshold=${c.threshold ?? nothing}
        python=${c.python ?? nothing}
        .value=${c.value}
        .pass=${c.pass}
      ></attn-check>`,
  );

export class AttnLab extends AttnFigure {
  static labStyles = [AttnFigure.baseStyles, AttnFigure.figureStyles, labLayout, controlStyles, textStyles];

  connectedCallback() {
    super.connectedCallback();
    this.toggleAttribute('data-lab', true);
  }

  /** A learner's change of one state field: remembered for Reset (beginEdit), then announced. */
  setField(name, value) {
    if (Object.is(this[name], value)) return;
    this.beginEdit();
    this[name] = value;
    this.stateChanged();
  }

  /**
   * The lab's layout. Every part is optional (a Lit template or ''):
   * figure and controls side by side (or stacked), `after` below them both, then the error line,
   * the checks inside one attn-verified line, the code, and `hood` inside "Under the hood".
   * `error` is the task's error line by default; a lab whose controls cause the errors may show
   * this.task.errorLine() among them instead and pass error: ''.
   */
  renderLab({
    figure = '',
    controls = '',
    after = '',
    checks = '',
    code = '',
    hood = '',
    error = this.task?.errorLine() ?? '',
  }) {
    return html`
      <div class=${controls ? 'lab split' : 'lab'}>
        <div class="lab-figure">${figure}</div>
        ${controls ? html`<div class="lab-side">${controls}</div>` : ''}
      </div>
      ${after} ${error} ${checks ? html`<attn-verified>${checks}</attn-verified>` : ''} ${code}
      ${
        hood
          ? html`<details class="hood">
              <summary>Under the hood</summary>
              ${hood}
            </details>`
          : ''
      }
    `;
  }
}
