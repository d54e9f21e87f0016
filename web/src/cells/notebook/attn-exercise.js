/**
 * <attn-exercise id="convex" lesson="mixture" label="Exercise 1">
 *   <p>The task, in the default slot.</p>
 *   <div slot="attempt">…the lesson's own controls…</div>
 *   <p slot="hint">…</p>
 *   <p slot="explanation">…</p>
 * </attn-exercise>
 *
 * An exercise cell. The lesson checks attempts in one of three ways:
 * - mode="custom" (default): `el.check = (attempt) => ({ correct, message })`,
 *   and the lesson calls `el.submit(attempt)`, or sets `el.getAttempt = () => …`
 *   so the cell shows a Check button that submits it;
 * - mode="choice": <option value="…" data-correct data-feedback="…">Text</option>
 *   children, shown as radio buttons;
 * - mode="number": a number field, right when within `tolerance` of `answer`.
 * The verdict ("Correct — …" / "Not yet — …") is a status region; the host
 * reflects data-status="pending" | "pass" | "fail". A correct answer is saved
 * as progress in localStorage (`attnbook:exercise:<lesson>/<id>` = "solved",
 * memory when storage is unavailable) and shown as solved on the next visit;
 * Reset clears it, closes hint and explanation and resets cells in the attempt slot.
 * Fires `attn-verdict` (bubbles, detail { correct, message }) after each check.
 */
import { css, html } from 'lit';
import { AttnCell } from '../base/attn-cell.js';
import { cellStyles, formatNumber, parseNumberText, progressStore } from '../base/cell-support.js';

const MODES = ['custom', 'choice', 'number'];

export class AttnExercise extends AttnCell {
  static properties = {
    ...super.properties,
    lesson: { type: String },
    label: { type: String },
    mode: { type: String },
    answer: { type: Number },
    tolerance: { type: Number },
    check: { attribute: false },
    getAttempt: { attribute: false },
    status: { type: String, reflect: true, attribute: 'data-status' },
    _verdict: { state: true },
    _solved: { state: true },
    _open: { state: true },
    _choice: { state: true },
    _number: { state: true },
    _numberError: { state: true },
  };

  static styles = [
    AttnCell.baseStyles,
    cellStyles,
    css`
      .card {
        border-left: 4px solid var(--accent, #3b5bdb);
      }
      @media (max-width: 37.5rem) {
        .card {
          padding-left: 0.75rem !important; /* flat on phones (flatOnPhones), but clear of the stripe */
        }
      }
      :host([data-status='pass']) .card {
        border-left-color: var(--pass, #1b7f3b);
      }
      .badge {
        font-size: 0.85rem;
        color: var(--pass, #1b7f3b);
        font-weight: 600;
      }
      ::slotted(option) {
        display: none;
      }
      .attempt {
        margin: 0.5rem 0;
      }
      .controls,
      .reveal {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.5rem;
        margin-top: 0.5rem;
      }
      fieldset {
        border: 1px solid var(--border, #d0d4dc);
        border-radius: 6px;
        margin: 0;
        padding: 0.35rem 0.75rem 0.5rem;
      }
      fieldset label {
        display: flex;
        gap: 0.5rem;
        align-items: baseline;
        padding: 0.15rem 0;
        cursor: pointer;
      }
      input[type='radio'] {
        accent-color: var(--accent, #3b5bdb);
      }
      input[type='radio']:focus-visible {
        outline: 2px solid var(--accent, #3b5bdb);
        outline-offset: 2px;
      }
      .check-button {
        border-color: var(--accent, #3b5bdb);
        font-weight: 600;
      }
      .verdict {
        margin: 0.5rem 0 0;
        font-weight: 600;
      }
      .verdict:empty {
        display: none;
      }
      .verdict.pass {
        color: var(--pass, #1b7f3b);
      }
      .verdict.fail {
        color: var(--danger, #b3261e);
      }
      .panel {
        margin-top: 0.5rem;
        padding: 0.25rem 0.75rem;
        border-radius: 6px;
        background: var(--bg, #f7f8fa);
      }
      @media (prefers-color-scheme: dark) {
        :host {
          --pass: #6fd08c;
        }
      }
    `,
  ];

  constructor() {
    super();
    this.lesson = '';
    this.label = 'Exercise';
    this.mode = 'custom';
    this.answer = NaN;
    this.tolerance = 0;
    this.check = null;
    this.getAttempt = null;
    this.status = 'pending';
    this._verdict = null;
    this._solved = false;
    this._open = { hint: false, explanation: false };
    this._choice = '';
    this._number = '';
    this._numberError = '';
  }

  /** localStorage key of this exercise's progress ('' when it has no id). */
  get storageKey() {
    if (!this.id) return '';
    const lesson = this.lesson || globalThis.location?.pathname || 'page';
    return `attnbook:exercise:${lesson}/${this.id}`;
  }

  connectedCallback() {
    super.connectedCallback();
    this.#restore();
  }

  willUpdate(changed) {
    if (changed.has('mode') && !MODES.includes(this.mode)) {
      this._notice = `Attribute mode: "${String(this.mode).slice(0, 20)}" is not custom, choice or number; using custom.`;
      this.mode = 'custom';
    }
    if (changed.has('lesson') && this.isConnected) this.#restore();
  }

  #restore() {
    const key = this.storageKey;
    if (key && progressStore.get(key) === 'solved' && !this._solved) {
      this._solved = true;
      this._verdict ??= { correct: true, message: 'you solved this exercise before.' };
      this.status = 'pass';
    }
  }

  get #options() {
    return [...this.querySelectorAll(':scope > option')].map((o, i) => ({
      value: o.value ?? String(i),
      text: o.textContent.trim(),
      correct: o.hasAttribute('data-correct'),
      feedback: o.dataset.feedback ?? '',
    }));
  }

  /** Judges `attempt` and shows the verdict. Resolves to { correct, message }. */
  submit(attempt) {
    return this.settleAfter(this.#submit(attempt)); // not settled until the verdict is shown
  }

  async #submit(attempt) {
    let verdict;
    try {
      verdict = await this.#judge(attempt);
    } catch (error) {
      console.warn(`attn-exercise: the check failed: ${error.message}`);
      verdict = { correct: false, message: `the check could not run (${error.message}).` };
    }
    const correct = verdict?.correct === true;
    const message = String(verdict?.message ?? '');
    this._verdict = { correct, message };
    this.status = correct ? 'pass' : 'fail';
    if (correct) {
      this._solved = true;
      if (this.storageKey) progressStore.set(this.storageKey, 'solved');
    }
    this.stateChanged();
    this.dispatchEvent(new CustomEvent('attn-verdict', { detail: { correct, message }, bubbles: true }));
    return { correct, message };
  }

  async #judge(attempt) {
    if (this.mode === 'choice') {
      const option = this.#options.find((o) => o.value === attempt);
      if (!option) return { correct: false, message: 'choose one of the answers first.' };
      return {
        correct: option.correct,
        message: option.feedback || (option.correct ? `“${option.text}” is right.` : `“${option.text}” is not it.`),
      };
    }
    if (this.mode === 'number') {
      const parsed = typeof attempt === 'number' ? { value: attempt } : parseNumberText(attempt ?? '');
      if (parsed.error) return { correct: false, message: `your answer ${parsed.error}.` };
      const x = parsed.value;
      const ok = Math.abs(x - this.answer) <= (this.tolerance || 0);
      return {
        correct: ok,
        message: ok
          ? `${formatNumber(x, 4)} matches the answer${this.tolerance ? ` to within ${formatNumber(this.tolerance)}` : ''}.`
          : `${formatNumber(x, 4)} is not it; try again.`,
      };
    }
    if (typeof this.check !== 'function') throw new Error('this exercise has no check function');
    return this.check(attempt);
  }

  #onCheck() {
    if (this.mode === 'choice') return this.submit(this._choice);
    if (this.mode === 'number') {
      const parsed = parseNumberText(this._number);
      this._numberError = parsed.error ? `Your answer ${parsed.error}.` : '';
      if (parsed.error) return undefined;
      return this.submit(parsed.value);
    }
    if (typeof this.getAttempt === 'function') {
      let attempt;
      try {
        attempt = this.getAttempt();
      } catch (error) {
        console.warn(`attn-exercise: getAttempt failed: ${error.message}`);
      }
      return this.submit(attempt);
    }
    return undefined;
  }

  /** Clears progress, the verdict and the answer; resets attn-* cells in the attempt slot. */
  reset() {
    if (this.storageKey) progressStore.remove(this.storageKey);
    this._solved = false;
    this._verdict = null;
    this.status = 'pending';
    this._open = { hint: false, explanation: false };
    this._choice = '';
    this._number = '';
    this._numberError = '';
    this._notice = '';
    for (const el of this.querySelectorAll('[slot="attempt"], [slot="attempt"] *')) {
      if (el instanceof AttnCell) el.reset();
    }
    this.stateChanged();
  }

  #toggle(which) {
    this._open = { ...this._open, [which]: !this._open[which] };
  }

  #has(slot) {
    return Boolean(this.querySelector(`:scope > [slot="${slot}"]`));
  }

  #builtIn() {
    if (this.mode === 'choice') {
      return html`<fieldset>
        <legend>Your answer</legend>
        ${this.#options.map(
          (o) =>
            html`<label
              ><input
                type="radio"
                name="choice"
                .value=${o.value}
                .checked=${this._choice === o.value}
                @change=${() => (this._choice = o.value)}
              />${o.text}</label
            >`,
        )}
      </fieldset>`;
    }
    if (this.mode === 'number') {
      const bad = Boolean(this._numberError);
      return html`<label for="number">Your answer</label>
        <input
          id="number"
          type="text"
          inputmode="decimal"
          autocomplete="off"
          .value=${this._number}
          aria-invalid=${bad ? 'true' : 'false'}
          aria-describedby=${bad ? 'number-error' : ''}
          @input=${(e) => {
            this._number = e.target.value;
            this._numberError = '';
          }}
          @keydown=${(e) => e.key === 'Enter' && this.#onCheck()}
        />
        <p class="field-error" id="number-error" ?hidden=${!bad}>${this._numberError}</p>`;
    }
    return '';
  }

  renderCell() {
    const verdict = this._verdict;
    const showCheck = this.mode !== 'custom' || typeof this.getAttempt === 'function';
    const verdictText = verdict
      ? `${verdict.correct ? 'Correct' : 'Not yet'} — ${verdict.message || (verdict.correct ? 'well done.' : 'try again.')}`
      : '';
    return html`<section class="card" aria-labelledby="title">
      <div class="head">
        <span class="label" id="title">${this.label}</span>
        ${this._solved ? html`<span class="badge">✓ Solved</span>` : ''}
        <button type="button" @click=${() => this.reset()} aria-label=${`Reset ${this.label}`}>Reset</button>
      </div>
      <div class="task"><slot @slotchange=${() => this.requestUpdate()}></slot></div>
      <div class="attempt">
        <slot name="attempt"></slot>
        ${this.#builtIn()}
        ${
          showCheck
            ? html`<div class="controls">
                <button type="button" class="check-button" @click=${() => this.#onCheck()}>Check</button>
              </div>`
            : ''
        }
      </div>
      <p class="verdict ${verdict ? (verdict.correct ? 'pass' : 'fail') : ''}" role="status">${verdictText}</p>
      <div class="reveal">
        ${['hint', 'explanation'].map((which) =>
          this.#has(which)
            ? html`<button
                type="button"
                aria-expanded=${this._open[which] ? 'true' : 'false'}
                aria-controls=${`panel-${which}`}
                @click=${() => this.#toggle(which)}
              >
                ${this._open[which] ? 'Hide' : 'Show'} ${which}
              </button>`
            : '',
        )}
      </div>
      ${['hint', 'explanation'].map(
        (which) =>
          html`<div class="panel" id=${`panel-${which}`} ?hidden=${!this._open[which]}>
            <slot name=${which} @slotchange=${() => this.requestUpdate()}></slot>
          </div>`,
      )}
    </section>`;
  }
}

customElements.define('attn-exercise', AttnExercise);
