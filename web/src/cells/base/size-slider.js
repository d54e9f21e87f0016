/**
 * A slider for a size (a dimension D, a sequence length T, a window w): the thumb moves along
 * log₂ of the value and snaps to powers of two, so 1, 2, 4, 8 … 512 are equally easy to reach
 * (on a linear 1–512 slider, 8 is a few pixels from 1). A value that is not a power of two, from
 * an old link or an attribute (D = 100), is kept and shown as it is, the thumb between the two
 * powers around it; the next step goes to the power of two on that side.
 *
 *   static styles = [AttnLab.labStyles, sizeSliderStyles];
 *   ${sizeSlider({ id: 'd', label: 'D (dimension)', symbol: 'D', value: this.d, min: 1, max: 512,
 *                  onChange: (d) => this._setD(d) })}
 *
 * Keys: ←/↓ and →/↑ the next power of two down or up, PageDown/PageUp four powers, Home/End the
 * ends. A pointer drag snaps to the nearest power. The range input's value is log₂ of the size
 * (fill('3') means 8); screen readers hear aria-valuetext, "D = 8". The label may hold maths
 * between $…$ ('Sequence length $T$'), typeset as the symbol (TeX: T, d_k) and its value are.
 */
import { css, html } from 'lit';
import { live } from 'lit/directives/live.js';
import { mathPlain, mathText, texValue } from './math.js';

const KEYS = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 4, PageDown: -4 };

const clamp = (v, min, max) => Math.min(max, Math.max(min, v));

/** The power of two nearest to 2^position, within [min, max]. */
export function snapSize(position, min, max) {
  return clamp(2 ** Math.round(position), min, max);
}

/** The size `steps` powers of two from `value` (a value between two powers counts from the one on that side). */
export function stepSize(value, steps, min, max) {
  const exact = Math.log2(value);
  const from = Number.isInteger(exact) ? exact : steps > 0 ? Math.floor(exact) : Math.ceil(exact);
  return clamp(2 ** (from + steps), min, max);
}

/** The powers of two from min to max. */
export function powersOfTwo(min, max) {
  const out = [];
  for (let v = 2 ** Math.ceil(Math.log2(min)); v <= max; v *= 2) out.push(v);
  return out;
}

/**
 * The slider: a label (maths between $…$), the value ("symbol = value" typeset, the symbol TeX),
 * a range input over log₂ with a tick at each power of two.
 * @param {{ id: string, label: string, symbol: string, value: number, min: number, max: number,
 *   onChange: (size: number) => void, format?: (size: number) => string }} options
 */
export function sizeSlider({ id, label, symbol, value, min, max, onChange, format = (v) => v.toLocaleString('en') }) {
  const text = `${mathPlain(`$${symbol}$`)} = ${format(value)}`;
  const set = (next) => {
    if (next !== value) onChange(next);
  };
  const onInput = (event) => {
    const next = snapSize(Number(event.target.value), min, max);
    event.target.value = String(Math.log2(next)); // the thumb snaps as it is dragged
    set(next);
  };
  const onKey = (event) => {
    let next;
    if (event.key in KEYS) next = stepSize(value, KEYS[event.key], min, max);
    else if (event.key === 'Home') next = min;
    else if (event.key === 'End') next = max;
    else return;
    event.preventDefault();
    set(next);
  };
  return html`<div class="size-slider">
    <div class="size-head">
      <label for=${id}>${mathText(label)}</label>
      <output for=${id} class=${`${id}-value`} data-value=${value}>${texValue(symbol, format(value))}</output>
    </div>
    <input
      id=${id}
      type="range"
      min=${Math.log2(min)}
      max=${Math.log2(max)}
      step="any"
      list=${`${id}-powers`}
      .value=${live(String(Math.log2(value)))}
      aria-valuetext=${text}
      @input=${onInput}
      @keydown=${onKey}
    />
    <datalist id=${`${id}-powers`}>
      ${powersOfTwo(min, max).map((v) => html`<option value=${Math.log2(v)}></option>`)}
    </datalist>
    <div class="size-ends" aria-hidden="true"><span>${format(min)}</span><span>${format(max)}</span></div>
  </div>`;
}

export const sizeSliderStyles = css`
  .size-slider {
    margin: 0.25rem 0 0.5rem;
  }
  .size-head {
    display: flex;
    justify-content: space-between;
    align-items: baseline;
    gap: 0.75rem;
  }
  .size-head output {
    font-family: var(--font-mono, ui-monospace, monospace);
    font-variant-numeric: tabular-nums;
  }
  .size-slider input[type='range'] {
    display: block;
    width: 100%;
    min-height: 2.75rem;
    margin: 0;
    accent-color: var(--accent, #3b5bdb);
  }
  .size-ends {
    display: flex;
    justify-content: space-between;
    color: var(--muted, #555d6b);
    font-size: 0.8rem;
    font-family: var(--font-mono, ui-monospace, monospace);
  }
`;
