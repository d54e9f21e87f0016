/**
 * Seeds and re-roll for a lab with a `seed` state field (an integer, see state-fields.js):
 * the Seed field (bad text shows its error beside the field and keeps the last valid seed),
 * Re-roll (a new random seed) and Reset, as one control row. A new seed is a user edit
 * (beginEdit), so an AttnFigure's Reset goes back to the seed the page gave.
 *
 *   static stateFields = { seed: SEED_FIELD, … };
 *   seeds = new SeedControl(this, 'Random draws of Q, K and V');
 *   … ${this.seeds.render()} …
 */
import { html } from 'lit';
import { live } from 'lit/directives/live.js';
import { parseField } from './state-fields.js';

export const SEED_MAX = 2147483647;

/** A seed state field: an integer in [0, 2³¹ − 1]. */
export const seedField = (defaultSeed) => ({ type: 'integer', default: defaultSeed, min: 0, max: SEED_MAX });

export class SeedControl {
  /** @param {import('./attn-cell.js').AttnCell} lab  @param {string} label the group's accessible name */
  constructor(lab, label) {
    this.lab = lab;
    this.label = label;
    this.draft = null; // { text, error } while the field holds text that is not a seed
  }

  /** Typing in the Seed field: a valid seed applies at once. */
  onInput(event) {
    const lab = this.lab;
    const text = event.target.value;
    try {
      const seed = parseField(text.trim(), 'seed', lab.constructor.stateFields.seed);
      this.draft = null;
      if (seed !== lab.seed) {
        lab.beginEdit?.(); // an AttnFigure's Reset goes back to the state before the first edit
        lab.seed = seed;
        lab.stateChanged();
      }
    } catch (error) {
      this.draft = { text, error: `Seed ${error.message.replace(/^seed: /, '')}; keeping seed ${lab.seed}.` };
    }
    lab.requestUpdate();
  }

  /** A new random seed, different from the current one. */
  reroll() {
    const lab = this.lab;
    let seed = lab.seed;
    while (seed === lab.seed) seed = Math.floor(Math.random() * SEED_MAX);
    this.draft = null;
    lab.beginEdit?.();
    lab.seed = seed;
    lab.stateChanged();
  }

  /** Reset: the lab's authored state, and the Seed field shows its seed again. */
  reset() {
    this.draft = null;
    this.lab.reset();
    this.lab.requestUpdate();
  }

  /** The control row; `extra` (a template) goes at its end. */
  render(extra = '') {
    const draft = this.draft;
    return html`<div class="controls seed-row" role="group" aria-label=${this.label}>
        <label for="seed">Seed</label>
        <input
          id="seed"
          type="text"
          inputmode="numeric"
          autocomplete="off"
          spellcheck="false"
          aria-invalid=${draft ? 'true' : 'false'}
          aria-describedby=${draft ? 'seed-error' : ''}
          .value=${live(draft ? draft.text : String(this.lab.seed))}
          @input=${(e) => this.onInput(e)}
        />
        <button type="button" class="reroll" @click=${() => this.reroll()}>Re-roll</button>
        <button type="button" class="reset" @click=${() => this.reset()}>Reset</button>
        ${extra}
      </div>
      ${draft ? html`<p class="field-error" id="seed-error">${draft.error}</p>` : ''}`;
  }
}
