/**
 * <attn-copy-knockouts for="copier">
 *
 * Knocking heads out of the copying lab's model (the lab whose id is `for`): one toggle per head
 * (pressed = knocked out: its output is zeroed, its weights still computed), shared with the lab
 * and so with the reader; the copying probe with those heads out (second and first copy), and a
 * table of the second copy's accuracy with each other head knocked out as well. While the lab
 * trains, the toggles wait (training runs with every head on).
 *
 * No state of its own in the permalink: knock-outs are view state of the lab.
 */
import { html } from 'lit';
import { AttnLab } from '../../cells/base/lab.js';
import { knockoutStyles } from '../common/knockout-styles.js';
import { copyStyles } from './copy-styles.js';
import { HEAD_LIST, headRoles, percent } from './copy-model.js';
import { LabSatellite } from './lab-satellite.js';

const ROLE_NAMES = { 'previous-token': 'previous-token head', induction: 'induction head' };

export class AttnCopyKnockouts extends AttnLab {
  static properties = { ...super.properties, for: { type: String } };

  static styles = [AttnLab.labStyles, knockoutStyles, copyStyles];

  defaultLabel = 'Knock heads out and watch copying';

  constructor() {
    super();
    this.lab = new LabSatellite(this, {
      args: (lab) => [lab.off.join(',')],
      run: (lab) => lab.knockouts(),
    });
  }

  _toggle(key) {
    const lab = this.lab.target;
    if (!lab || lab.run.training) return;
    lab.setKnockedOut(lab.off.includes(key) ? lab.off.filter((k) => k !== key) : [...lab.off, key]);
  }

  resetView() {
    this.lab.target?.setKnockedOut([]);
  }

  describe() {
    const r = this.lab.value;
    if (!r) return 'Nothing measured yet.';
    const off = this.lab.target?.off ?? [];
    const out = off.length ? `With ${off.map((k) => `head ${k}`).join(' and ')} knocked out` : 'With every head on';
    return `${out}, the model predicts the second copy ${percent(r.probe.secondCopyAccuracy)} right and the first ${percent(
      r.probe.firstCopyAccuracy,
    )}. ${r.without.map((w) => `Knocking out ${w.name} as well: ${percent(w.accuracy)}`).join('; ')}.`;
  }

  exportSvgText() {
    throw new Error('this figure is a table: export it as CSV or JSON');
  }

  exportRows() {
    const r = this.lab.value;
    return [
      ['head knocked out as well', 'second copy accuracy'],
      ...(r?.without ?? []).map((w) => [w.key, w.accuracy]),
    ];
  }

  exportObject() {
    return { off: this.lab.target?.off ?? [], ...(this.lab.value ?? {}) };
  }

  renderFigure() {
    const lab = this.lab.target;
    const r = this.lab.value;
    const off = lab?.off ?? [];
    const roles = lab?.session.probe ? headRoles(lab.session.probe) : [];
    const waiting = !lab?.session.trainer || lab.run.training;
    const figure = html`<div class="heads-off" role="group" aria-label="Knock out heads">
        ${HEAD_LIST.map(
          (h, i) =>
            html`<button
              type="button"
              class="head-toggle"
              data-head=${h.key}
              aria-pressed=${off.includes(h.key) ? 'true' : 'false'}
              ?disabled=${waiting}
              @click=${() => this._toggle(h.key)}
            >
              ${h.name}${roles[i] ? html`<br /><span class="role">${ROLE_NAMES[roles[i]]}</span>` : ''}
            </button>`,
        )}
      </div>
      ${lab?.run.training ? html`<p class="note">The lab is training: knock-outs wait until it stops.</p>` : ''}
      ${
        r
          ? html`<p class="readout knockout-readout">
                ${off.length ? `${off.length} knocked out` : 'Every head on'}: second copy
                <strong class="second">${percent(r.probe.secondCopyAccuracy)}</strong>, first copy
                <span class="first">${percent(r.probe.firstCopyAccuracy)}</span>
              </p>
              <table class="knockout">
                <caption class="note">
                  The second copy with one more head knocked out
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Also knocked out</th>
                    <th scope="col">Second copy</th>
                  </tr>
                </thead>
                <tbody>
                  ${r.without.map(
                    (w) =>
                      html`<tr data-head=${w.key}>
                        <th scope="row">${w.name}</th>
                        <td>${percent(w.accuracy)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
          : html`<p class="note">${this.lab.status}</p>`
      }`;
    return this.renderLab({ figure, error: this.lab.errorLine() });
  }
}

customElements.define('attn-copy-knockouts', AttnCopyKnockouts);
