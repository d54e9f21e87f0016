/**
 * <attn-copy-circuits for="copier">
 *
 * The circuits of a second-layer head of the copying lab's model (the lab whose id is `for`;
 * Elhage et al. 2021), over the letters of its alphabet, computed by the engine from the weights:
 * - the OV circuit E W_V W_O U: row a, column b is how much attending to the letter a raises the
 *   logit of b ("copy it" is a bright diagonal);
 * - the QK circuit through a first-layer head: row a (the letter read now), column b: how strongly
 *   it attends to a position whose previous letter is b, as moved there by that first-layer head
 *   ("look for the letter I read" is a bright diagonal).
 * Each with how many letters' rows peak on the diagonal. The head and the first-layer head are
 * chosen beside the maps (by default the strongest induction and previous-token heads of the lab's
 * probe). View state only.
 */
import { html } from 'lit';
import { AttnLab } from '../../cells/base/lab.js';
import { copyStyles } from './copy-styles.js';
import { HEAD_LIST, strongestHead } from './copy-model.js';
import { diagonalPeaks, letterRows, placeholderCircuits } from './copy-circuits-model.js';
import { LabSatellite } from './lab-satellite.js';

export class AttnCopyCircuits extends AttnLab {
  static properties = { ...super.properties, for: { type: String }, head: { state: true }, source: { state: true } };

  static styles = [AttnLab.labStyles, copyStyles];

  defaultLabel = 'The induction head’s circuits: what it copies and what it looks for';

  constructor() {
    super();
    this.head = null; // view state: the second-layer head, or null for the lab's strongest induction head
    this.source = null; // the first-layer head the QK circuit goes through, or null for the strongest previous-token head
    this.lab = new LabSatellite(this, {
      args: () => [this.head, this.source],
      run: async (lab) => {
        const probe = lab.session.probe;
        const head = this.head ?? (probe ? strongestHead(probe, 1, 'prefixMatching').head : 0);
        const source = this.source ?? (probe ? strongestHead(probe, 0, 'previousToken').head : 0);
        const { ov, qk, step } = await lab.circuits(1, head, source);
        const alphabet = (await lab.session.trainer.task).alphabet;
        return { head, source, step, ...letterRows(alphabet, ov, qk) };
      },
    });
  }

  resetView() {
    this.head = null;
    this.source = null;
  }

  describe() {
    const r = this.lab.value;
    if (!r) return 'Not computed yet.';
    const ov = diagonalPeaks(r.ov);
    const qk = diagonalPeaks(r.qk);
    return `Layer 1, head ${r.head}: in its OV circuit ${ov} of ${r.letters.length} letters raise their own logit most; in its QK circuit through layer 0, head ${r.source}, ${qk} of ${r.letters.length} letters look most for a position preceded by the same letter.`;
  }

  exportSvgText() {
    throw new Error('export the maps from their own menus');
  }

  exportRows() {
    const r = this.lab.value;
    if (!r) return [['letter']];
    return [
      ['circuit', 'row letter', ...r.letters],
      ...['ov', 'qk'].flatMap((c) => r[c].map((row, i) => [c, r.letters[i], ...row])),
    ];
  }

  exportObject() {
    return this.lab.value ?? {};
  }

  _select(name, label, heads, value) {
    return html`<label for=${name}>${label}</label>
      <select id=${name} @change=${(e) => (this[name] = Number(e.target.value))}>
        ${heads.map((h) => html`<option value=${h.head} ?selected=${h.head === value}>${h.name}</option>`)}
      </select>`;
  }

  renderFigure() {
    // until the circuits arrive, the maps are drawn empty (a-z, zeros), so they are on the page
    // from the start and draw when they come into view
    const r = this.lab.value ?? placeholderCircuits();
    const ready = Boolean(this.lab.value);
    const peaks = (rows) => (ready ? diagonalPeaks(rows) : '—');
    const map = (name, values, caption, label) =>
      html`<attn-heatmap
        class=${`circuit-${name}`}
        bare
        no-note
        .values=${values}
        row-labels=${r.letters.join(',')}
        col-labels=${r.letters.join(',')}
        label=${label}
        caption=${caption}
      ></attn-heatmap>`;
    const figure = html`${ready ? '' : html`<p class="note">${this.lab.status}</p>`}
      <div class="circuits">
        <div>
          <h3>OV: what attending to a letter writes</h3>
          <p class="note ov-peaks">
            ${peaks(r.ov)} of ${r.letters.length} letters raise their own logit most (by chance, about 1 would).
          </p>
          ${map(
            'ov',
            r.ov,
            'Row: the letter attended to. Column: the letter whose logit it raises. A bright diagonal copies.',
            `OV circuit of layer 1, head ${r.head}`,
          )}
        </div>
        <div>
          <h3>QK: which earlier letter a letter looks for</h3>
          <p class="note qk-peaks">
            ${peaks(r.qk)} of ${r.letters.length} letters look most for a position right after the same letter (by
            chance, about 1 would).
          </p>
          ${map(
            'qk',
            r.qk,
            `Row: the letter read now. Column: the letter before the position looked at, moved there by layer 0, head ${r.source}.`,
            `QK circuit of layer 1, head ${r.head}, through layer 0, head ${r.source}`,
          )}
        </div>
      </div>`;
    const controls = html`<div class="settings">
        ${this._select(
          'head',
          'Second-layer head',
          HEAD_LIST.filter((h) => h.layer === 1),
          r.head,
        )}
        ${this._select(
          'source',
          'Through first-layer head',
          HEAD_LIST.filter((h) => h.layer === 0),
          r.source,
        )}
      </div>
      <p class="note">
        ${ready ? `Computed from the weights at step ${r.step.toLocaleString('en')}, over the letters a–z.` : ''}
      </p>`;
    return this.renderLab({ figure, controls, error: this.lab.errorLine() });
  }
}

customElements.define('attn-copy-circuits', AttnCopyCircuits);
