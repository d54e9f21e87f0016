/**
 * <attn-exercise id="fewest-heads" lesson="learning-to-attend" label="…">
 *   <p>The task.</p>
 *   <attn-fewest-heads slot="attempt" for="trainer"></attn-fewest-heads>
 * </attn-exercise>
 *
 * The attempt of the exercise "the fewest heads that still solve the task", for the trainer lab
 * (<attn-attend-trainer>) whose id is `for`, on the same page. Beside the task: one toggle per head
 * of the lab's model (pressed = left on; the lab's own knock-outs, kept in step both ways) and the
 * accuracy the lab measured with those heads. It gives its exercise the check: on Check, once the
 * lab's model is loaded (until then Check says "Waiting for the model…"), the lab tries every
 * subset of heads on the model as it is trained now (fewestHeads: every subset smaller than the
 * answer has failed, so the minimum is the true one; at most 8 heads, 256 subsets), with a
 * progress bar, and judgeFewest gives the verdict: not trained yet, does not
 * solve it, solves it but fewer heads can, or the fewest. "Show me" knocks out all but one of the
 * smallest sets that work. Reset (the exercise's) turns every head back on.
 * No state of its own (the knock-outs are the lab's view state); data-settled as every cell.
 */
import { css, html } from 'lit';
import { AttnCell } from '../../cells/base/attn-cell.js';
import { cellStyles } from '../../cells/base/cell-support.js';
import { textStyles } from '../../cells/base/styles.js';
import { judgeFewest } from './fewest-heads-model.js';
import { percent } from './trainer-model.js';

export class AttnFewestHeads extends AttnCell {
  static properties = {
    ...super.properties,
    for: { type: String },
    _status: { state: true },
    _progress: { state: true },
  };

  static styles = [
    AttnCell.baseStyles,
    cellStyles,
    textStyles,
    css`
      :host {
        margin: 0.5rem 0;
      }
      .toggles {
        display: flex;
        flex-wrap: wrap;
        gap: 0.4rem;
        margin: 0.4rem 0;
      }
      .toggles button {
        min-height: 2.75rem;
        padding: 0.3rem 0.7rem;
        font: inherit;
        border: 2px solid var(--accent, #3b5bdb);
        border-radius: 6px;
        background: var(--surface, #fff);
        color: var(--text, #1b1e24);
      }
      .toggles button[aria-pressed='false'] {
        border-style: dashed;
        border-color: var(--muted, #555d6b);
        color: var(--muted, #555d6b);
        text-decoration: line-through;
      }
      .toggles button:disabled {
        opacity: 0.6;
      }
      p {
        margin: 0.3rem 0;
      }
      .readout {
        font-variant-numeric: tabular-nums;
      }
      progress {
        width: 100%;
        accent-color: var(--accent, #3b5bdb);
      }
    `,
  ];

  constructor() {
    super();
    this.for = '';
    this._status = null; // the lab's headStatus(), or null when there is no lab (yet)
    this._progress = null; // { tried, total } while a check tries subsets
    this._last = null; // the latest search: fewestHeads()'s result
    this._exercise = null;
    this._onChange = (event) => {
      if (event.target === this._lab()) this._refresh();
    };
  }

  connectedCallback() {
    super.connectedCallback();
    this._root = this.getRootNode();
    this._root.addEventListener('attn-trainer-change', this._onChange);
    this._exercise = this.closest('attn-exercise');
    if (this._exercise) {
      this._exercise.getAttempt = () => this._status?.off ?? [];
      this._exercise.check = () => this.check();
      this._exercise.showAnswer = () => this.showAnswer();
    }
    this._refresh();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._root?.removeEventListener('attn-trainer-change', this._onChange);
  }

  /** The trainer lab this exercise is about. */
  _lab() {
    const el = this.for ? (this._root?.getElementById?.(this.for) ?? document.getElementById(this.for)) : null;
    return typeof el?.headStatus === 'function' ? el : null;
  }

  _refresh() {
    this._status = this._lab()?.headStatus() ?? null;
  }

  /** The exercise's check: every subset tried on the lab's model, then the verdict. */
  async check() {
    const lab = this._lab();
    if (!lab) return { correct: false, message: 'the lab is not on the page yet: answer Exercise 1 to open it.' };
    if (!lab.hasAttribute('data-shown')) {
      return { correct: false, message: 'there is no model yet: train one in the lab above until it passes 97 %.' };
    }
    await this._modelReady(lab);
    const status = lab.headStatus();
    if (status.training) return { correct: false, message: 'the model is still training: press Pause, then Check.' };
    this._progress = { tried: 0, total: 2 ** status.heads.length };
    try {
      const result = await lab.fewestHeads({ onProgress: (p) => (this._progress = p) });
      this._last = result;
      return judgeFewest(result);
    } finally {
      this._progress = null;
    }
  }

  /**
   * Resolves once the lab's model is there and not being rebuilt (a new model, or a link's retraining
   * on a page just opened), or the lab has failed; meanwhile the exercise's Check says so.
   */
  async _modelReady(lab) {
    const ready = () => {
      const { busy, training } = lab.headStatus();
      return Boolean(lab.task?.error) || !busy || training;
    };
    if (ready()) return;
    if (this._exercise) this._exercise.checkLabel = 'Waiting for the model…';
    try {
      await new Promise((resolve) => {
        const onChange = () => {
          if (!ready()) return;
          this._root.removeEventListener('attn-trainer-change', onChange);
          resolve();
        };
        this._root.addEventListener('attn-trainer-change', onChange);
      });
    } finally {
      if (this._exercise) this._exercise.checkLabel = '';
    }
  }

  /** "Show me": leaves on the first of the smallest sets that work (known after a check). */
  showAnswer() {
    const lab = this._lab();
    const search = this._last?.search;
    if (!lab || !search || search.size === null) {
      return 'train the model until it passes 97 % and press Check: the page then tries every subset and can show you the fewest heads.';
    }
    const [best] = search.solutions;
    const heads = this._last.heads;
    lab.setKnockedOut(heads.filter((_, i) => !best.includes(i)).map((h) => h.key));
    const kept = best.map((i) => heads[i].name).join('; ') || 'no head';
    return `${search.size} head${search.size === 1 ? '' : 's'}: keep ${kept} and knock the others out (the lab does it now).`;
  }

  /** The exercise's Reset: every head back on. */
  reset() {
    super.reset();
    this._last = null;
    this._lab()?.setKnockedOut([]);
  }

  _toggle(key) {
    const lab = this._lab();
    const off = this._status?.off ?? [];
    lab?.setKnockedOut(off.includes(key) ? off.filter((k) => k !== key) : [...off, key]);
  }

  renderCell() {
    const s = this._status;
    if (!s) return html`<p class="note">The lab opens above once you have answered Exercise 1.</p>`;
    const on = s.heads.filter((h) => !s.off.includes(h.key));
    const p = this._progress;
    return html`<p class="note">Your model's heads: a solid button is on, a dashed one knocked out; press to switch.</p>
      <div class="toggles" role="group" aria-label="Heads left on (pressed) or knocked out">
        ${s.heads.map(
          (h) =>
            html`<button
              type="button"
              data-head-key=${h.key}
              aria-pressed=${s.off.includes(h.key) ? 'false' : 'true'}
              ?disabled=${s.busy || Boolean(p)}
              @click=${() => this._toggle(h.key)}
            >
              ${h.name}
            </button>`,
        )}
      </div>
      <p class="readout">
        ${on.length} of ${s.heads.length} head${s.heads.length === 1 ? '' : 's'} on · accuracy
        <span class="kept-accuracy">${s.accuracy === null ? '…' : percent(s.accuracy)}</span> at step ${s.step}
        ${s.training ? ' (training: press Pause to check)' : ''}
      </p>
      ${
        p
          ? html`<p>
              <label for="search">Trying subsets of heads on your model: ${p.tried} of at most ${p.total}</label>
              <progress id="search" max=${p.total} .value=${p.tried}></progress>
            </p>`
          : ''
      }`;
  }
}

customElements.define('attn-fewest-heads', AttnFewestHeads);
