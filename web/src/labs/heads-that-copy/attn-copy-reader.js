/**
 * <attn-copy-reader for="copier" input="…">
 *
 * Where each head looks, on the learner's own text: the model of the copying lab whose id is `for`
 * (<attn-copy-trainer>) reads `input` (1 to 64 characters). The characters are keys (arrow keys,
 * Home and End move between them; hovering one chooses it too), each with the character the model
 * predicts after it (bold when it is the next one typed). For the chosen character, one strip per
 * head shows the text again, each character shaded by the weight that head puts on it, the
 * heaviest outlined, with its role (previous-token, induction) from the lab's probe. Knocked-out
 * heads (the lab's) are marked; predictions change with them.
 *
 * State (permalink): input. View state: the chosen position (the last, until one is chosen).
 * Verified: every head's rows sum to 1 and no weight falls on a later position.
 */
import { html } from 'lit';
import { live } from 'lit/directives/live.js';
import { AttnLab, checkCells } from '../../cells/base/lab.js';
import { FieldError } from '../../cells/base/state-fields.js';
import { styleProps } from '../../charts/style-props.js';
import { trainerChecks } from '../learning-to-attend/trainer-heads-model.js';
import { copyStyles } from './copy-styles.js';
import { attentionRow, HEAD_LIST, headRoles, mostWeight, readerInput, SEQ_LEN, shown } from './copy-model.js';
import { LabSatellite } from './lab-satellite.js';

const ROLE_NAMES = { 'previous-token': 'a previous-token head', induction: 'an induction head' };

export class AttnCopyReader extends AttnLab {
  static stateFields = {
    input: {
      type: 'text',
      default: 'attention is all you need. attention is all you need',
      parse(text, field) {
        const n = [...String(text)].length;
        if (n < 1 || n > SEQ_LEN) throw new FieldError(field, `needs 1 to ${SEQ_LEN} characters, got ${n}`);
        return String(text);
      },
      format: (value) => value,
    },
  };

  static properties = { ...super.properties, for: { type: String }, chosen: { state: true }, draft: { state: true } };

  static styles = [AttnLab.labStyles, copyStyles];

  defaultLabel = 'Where each head looks, on your own text';

  constructor() {
    super();
    this.chosen = null; // view state: the position chosen, or null for the last
    this.draft = null; // the field's text while it is not an input: { text, error }
    this.lab = new LabSatellite(this, {
      args: (lab) => [this.input, lab.off.join(',')],
      run: (lab) => lab.read(this.input),
    });
  }

  get position() {
    const n = [...this.input].length;
    return this.chosen === null || this.chosen >= n ? n - 1 : this.chosen;
  }

  _choose(i) {
    this.chosen = i;
  }

  _keydown(event) {
    const n = [...this.input].length;
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -n, End: n };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(n - 1, this.position + moves[event.key]));
    this.chosen = next;
    this.updateComplete.then(() => this.renderRoot.querySelector(`.char[data-i="${next}"]`)?.focus());
  }

  _typed(text) {
    const alphabet = this.lab.target?.session.trainer?.task?.alphabet ?? '';
    const checked = readerInput(text, alphabet);
    if (checked.error) {
      this.draft = { text, error: checked.error };
      return;
    }
    this.draft = null;
    this.chosen = null;
    this.setField('input', text);
  }

  resetView() {
    this.chosen = null;
    this.draft = null;
  }

  _keys(reading) {
    const chars = [...reading.text];
    const predicted = [...reading.predicted];
    const at = this.position;
    return html`<ol
      class="chars"
      role="listbox"
      aria-label="Characters of your text: choose one"
      @keydown=${this._keydown}
    >
      ${chars.map((c, i) => {
        const next = predicted[i];
        const ok = i + 1 < chars.length && next === chars[i + 1];
        const name = `${shown(c)}${c === ' ' ? ' (space)' : ''}, position ${i}; predicts ${next === ' ' ? 'a space' : next} next`;
        return html`<li role="presentation">
          <button
            type="button"
            class="char"
            role="option"
            data-i=${i}
            tabindex=${i === at ? 0 : -1}
            aria-selected=${i === at ? 'true' : 'false'}
            aria-current=${i === at ? 'true' : 'false'}
            aria-label=${name}
            @click=${() => this._choose(i)}
            @mouseenter=${() => this._choose(i)}
            @focus=${() => this._choose(i)}
          >
            ${shown(c)}
          </button>
          <span class=${ok ? 'next ok' : 'next'} aria-hidden="true">${shown(next)}</span>
        </li>`;
      })}
    </ol>`;
  }

  _strips(reading, off) {
    const chars = [...reading.text];
    const at = this.position;
    const probe = this.lab.target?.session.probe;
    const roles = probe ? headRoles(probe) : [];
    return HEAD_LIST.map((h, i) => {
      const row = attentionRow(reading.attention, h.layer, h.head, at);
      const top = mostWeight(row);
      const role = ROLE_NAMES[roles[i]] ?? '';
      const out = off.includes(h.key);
      return html`<div class=${out ? 'strip off' : 'strip'} data-head=${h.key} data-top=${top}>
        <h3>
          ${h.name}${role ? html`: ${role}` : ''}${out ? ' (knocked out)' : ''} · most weight on position ${top}
          (${shown(chars[top])}), ${Math.round(row[top] * 100)} %
        </h3>
        <p class="chars" aria-hidden="true">
          ${chars.map(
            (c, k) =>
              html`<span
                class=${[k === top ? 'top' : '', k === at ? 'query' : '', row[k] > 0.55 ? 'dark' : '']
                  .filter(Boolean)
                  .join(' ')}
                style=${styleProps({ '--w': row[k].toFixed(3) })}
                >${shown(c)}</span
              >`,
          )}
        </p>
      </div>`;
    });
  }

  describe() {
    const r = this.lab.value;
    if (!r) return 'The model has not read the text yet.';
    const at = this.position;
    const chars = [...r.text];
    const looks = HEAD_LIST.map((h) => {
      const top = mostWeight(attentionRow(r.attention, h.layer, h.head, at));
      return `${h.name} looks most at position ${top} (${chars[top] === ' ' ? 'space' : chars[top]})`;
    }).join('; ');
    return `The model reads “${r.text}” and predicts “${r.predicted}”, one character after each. Reading position ${at} (${
      chars[at] === ' ' ? 'space' : chars[at]
    }): ${looks}.`;
  }

  exportSvgText() {
    throw new Error('this figure is text: export it as CSV or JSON');
  }

  exportRows() {
    const r = this.lab.value;
    if (!r) return [['position', 'character']];
    const at = this.position;
    return [
      ['position', 'character', 'predicted next', ...HEAD_LIST.map((h) => `weight from ${at}, ${h.name}`)],
      ...[...r.text].map((c, k) => [
        k,
        c,
        [...r.predicted][k],
        ...HEAD_LIST.map((h) => attentionRow(r.attention, h.layer, h.head, at)[k]),
      ]),
    ];
  }

  exportObject() {
    const r = this.lab.value;
    return r ? { input: r.text, predicted: r.predicted, position: this.position, step: r.step } : { input: this.input };
  }

  renderFigure() {
    const r = this.lab.value;
    const off = this.lab.target?.off ?? [];
    const draft = this.draft;
    const unknown = r ? readerInput(r.text, this.lab.target?.session.trainer?.task?.alphabet ?? '').unknown : [];
    const figure = html`<label for="reader-input">Your text (up to ${SEQ_LEN} characters)</label>
      <input
        id="reader-input"
        class="reader-input"
        type="text"
        maxlength=${SEQ_LEN}
        autocomplete="off"
        spellcheck="false"
        .value=${live(draft?.text ?? this.input)}
        @input=${(e) => this._typed(e.target.value)}
      />
      ${draft ? html`<p class="lab-error" role="alert">Your text: ${draft.error}.</p>` : ''}
      ${
        unknown?.length
          ? html`<p class="note">
              Not in the model’s alphabet, read as “unknown”: ${unknown.map((c) => `“${c}”`).join(', ')}. It knows
              lower-case letters, digits, space and <code>!'(),-.:;?</code>.
            </p>`
          : ''
      }
      ${
        r
          ? html`<p class="note">
                Hover or focus a character (arrow keys move); under each, the character the model predicts next.
              </p>
              ${this._keys(r)} ${this._strips(r, off)}`
          : html`<p class="note">${this.lab.status}</p>`
      }`;
    return this.renderLab({
      figure,
      error: this.lab.errorLine(),
      checks: r ? checkCells(trainerChecks(r.attention)) : '',
    });
  }
}

customElements.define('attn-copy-reader', AttnCopyReader);
