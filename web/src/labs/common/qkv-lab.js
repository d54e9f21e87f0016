/**
 * What the scaled-dot-product and causal-masking labs share (not an element:
 * index.js registers only attn-*.js files).
 *
 * - The lesson's example: Q, K, V of shape (B, T, D) = (2, 5, 8), one stream
 *   of standard normal draws from the core's seeded generator (Q first, then K,
 *   then V, as the notebook draws them), rounded to 4 decimals so the code
 *   cells can carry the exact same inputs into Python.
 * - Small display helpers (one batch of a tensor as rows, max |a − b|, numbers
 *   with a real minus sign) and the lab styles.
 *
 * No maths: the draws, the attention and its float64 reference all come from
 * the wasm core; JS rounds, slices, compares and formats.
 */
import { css, html } from 'lit';
import { live } from 'lit/directives/live.js';
import { parseField } from '../../cells/base/state-fields.js';

export const B = 2;
export const T = 5;
export const D = 8;
export const SEED_MAX = 2147483647;

const round4 = (x) => Math.round(x * 1e4) / 1e4 + 0; // + 0 turns −0 into 0

/**
 * Q, K, V (each { data: Float32Array, shape: [B, T, D] }) for `seed`.
 * @param {import('../../engine/index.js').Attention} engine
 */
export function drawQKV(engine, seed) {
  const n = B * T * D;
  const stream = engine.randn([3 * n], seed).data;
  const tensor = (part) => ({
    data: Float32Array.from(stream.subarray(part * n, (part + 1) * n), round4),
    shape: [B, T, D],
  });
  return { seed, q: tensor(0), k: tensor(1), v: tensor(2) };
}

/** Batch `b` of a (B, rows, cols) tensor as a { data, shape: [rows, cols] } view. */
export function batchOf(tensor, b) {
  const [, rows, cols] = tensor.shape;
  return { data: tensor.data.subarray(b * rows * cols, (b + 1) * rows * cols), shape: [rows, cols] };
}

/** Rows of numbers (for attn-matrix) from a (rows, cols) view. */
export function rowsOf({ data, shape: [rows, cols] }) {
  return Array.from({ length: rows }, (_, r) => Array.from(data.subarray(r * cols, (r + 1) * cols)));
}

/** Nested arrays (for code cells) of a (B, T, D) tensor. */
export function nested(tensor) {
  const [b] = tensor.shape;
  return Array.from({ length: b }, (_, i) => rowsOf(batchOf(tensor, i)));
}

/** Largest |a_i − b_i|; NaN anywhere gives NaN. */
export function maxAbsDiff(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (Number.isNaN(d)) return NaN;
    if (d > worst) worst = d;
  }
  return worst;
}

/** Row i of a (rows, cols) view as a plain array. */
export function rowOf({ data, shape: [, cols] }, i) {
  return Array.from(data.subarray(i * cols, (i + 1) * cols));
}

/** A number with `digits` decimals and a real minus sign; −0.000 prints as 0.000. */
export function fixed(x, digits = 3) {
  if (x === -Infinity) return '−∞';
  if (x === Infinity) return '∞';
  const text = x.toFixed(digits);
  return (/^-0\.?0*$/.test(text) ? text.slice(1) : text).replace(/^-/, '−');
}

/** "[0.123, −0.456]" */
export const vector = (xs, digits = 3) => `[${Array.from(xs, (x) => fixed(x, digits)).join(', ')}]`;

/** "1.19e-07": the notebook's {:.2e} format. */
export const sci = (x) => (Number.isFinite(x) ? x.toExponential(2).replace(/e([+-])(\d)$/, 'e$10$2') : String(x));

export const labStyles = css`
  .lab {
    border: 1px solid var(--border, #d0d4dc);
    border-radius: 8px;
    padding: 0.75rem 1rem;
    background: var(--surface, #fff);
    color: var(--text, #1b1e24);
    min-width: 0;
  }
  h3 {
    font-size: 1rem;
    margin: 1rem 0 0.25rem;
  }
  h3:first-of-type {
    margin-top: 0.5rem;
  }
  .controls {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
  }
  .controls input[type='text'] {
    width: 7.5rem;
  }
  select {
    font: inherit;
    color: var(--text, #1b1e24);
    background: var(--bg, #f7f8fa);
    border: 1px solid var(--border, #d0d4dc);
    border-radius: 4px;
    padding: 0.2rem 0.3rem;
  }
  select:focus-visible {
    outline: 2px solid var(--accent, #3b5bdb);
    outline-offset: 2px;
  }
  .note,
  .hint {
    color: var(--muted, #555d6b);
    font-size: 0.85rem;
    margin: 0.25rem 0;
  }
  .error {
    color: var(--danger, #b3261e);
    margin: 0.25rem 0;
  }
  .mono {
    font-family: var(--font-mono, ui-monospace, monospace);
    font-variant-numeric: tabular-nums;
    font-size: 0.85rem;
  }
  .scroll {
    overflow-x: auto;
  }
  .pair {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr));
    gap: 0 1rem;
    align-items: start;
  }
  .panel {
    border-radius: 8px;
    outline: 2px solid transparent;
    outline-offset: 2px;
    min-width: 0;
  }
  .panel.linked {
    outline-color: var(--accent, #3b5bdb);
    background: color-mix(in srgb, var(--accent, #3b5bdb) 8%, transparent);
  }
  @media (prefers-reduced-motion: no-preference) {
    .panel {
      transition:
        outline-color 0.15s,
        background 0.15s;
    }
  }
`;

/**
 * The seed row every lab of these lessons shows: a Seed field (bad text shows
 * its error beside the field and keeps the last valid seed), Re-roll and Reset.
 * `lab` needs: seed, _seedDraft ({ text, error } | null), _onSeed(event), _reroll(), reset().
 */
export function seedControls(lab, extra = '') {
  const draft = lab._seedDraft;
  return html`<div class="controls" role="group" aria-label="Random draws of Q, K and V">
      <label for="seed">Seed</label>
      <input
        id="seed"
        type="text"
        inputmode="numeric"
        autocomplete="off"
        spellcheck="false"
        aria-invalid=${draft ? 'true' : 'false'}
        aria-describedby=${draft ? 'seed-error' : ''}
        .value=${live(draft ? draft.text : String(lab.seed))}
        @input=${(e) => lab._onSeed(e)}
      />
      <button type="button" class="reroll" @click=${() => lab._reroll()}>Re-roll</button>
      <button type="button" class="reset" @click=${() => lab.reset()}>Reset</button>
      ${extra}
    </div>
    ${draft ? html`<p class="field-error" id="seed-error">${draft.error}</p>` : ''}`;
}

/** Seed handling for a lab with a `seed` state field: typing, re-rolling. */
export function seedHandlers(lab, spec) {
  return {
    onSeed(event) {
      const text = event.target.value;
      try {
        const seed = parseField(text.trim(), 'seed', spec);
        lab._seedDraft = null;
        if (seed !== lab.seed) {
          lab.seed = seed;
          lab.stateChanged();
        }
      } catch (error) {
        lab._seedDraft = { text, error: `Seed ${error.message.replace(/^seed: /, '')}; keeping seed ${lab.seed}.` };
      }
    },
    reroll() {
      let seed = lab.seed;
      while (seed === lab.seed) seed = Math.floor(Math.random() * SEED_MAX);
      lab.seed = seed;
      lab._seedDraft = null;
      lab.stateChanged();
    },
  };
}

/** A <select> of the batch index b (0 … B − 1). */
export function batchSelect(lab, id = 'batch') {
  return html`<label for=${id}>Batch b</label>
    <select
      id=${id}
      @change=${(e) => {
        lab.batch = Number(e.target.value);
        lab.stateChanged();
      }}
    >
      ${Array.from({ length: B }, (_, b) => html`<option value=${b} ?selected=${b === lab.batch}>${b}</option>`)}
    </select>`;
}
