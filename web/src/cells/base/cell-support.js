/**
 * Helpers shared by the control and notebook cells (attn-slider, the editors,
 * attn-check, attn-code, attn-exercise). Not an element: index.js registers
 * only attn-*.js files.
 *
 * - formatNumber(): numbers as a person reads them (3 significant digits,
 *   exponent notation when tiny or huge, "∞" for Infinity).
 * - parseNumberList(): comma-separated text -> numbers, or a message that
 *   says which entry is wrong and why (never evaluates anything).
 * - readWholeNumber(): the checked whole number of an <input type="number">.
 * - pythonLiteral(): a JS value as Python source (lists, floats, strings).
 * - resetToAuthored(): a cell's state back to its authored attributes.
 * - progressStore: localStorage when it works, memory when it throws; or, for progress keys,
 *   the backend given to useProgressBackend() (inside an LMS: shell/scorm.js).
 */
import { css } from 'lit';
import { defaults, parseField } from './state-fields.js';
import { flatOnPhones } from './styles.js';

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const INFINITY = /^[-+]?(Infinity|inf|∞)$/i;

/** Trims "1.50e-7" to "1.5e-7" and "2.000" to "2". */
function trimZeros(text) {
  return text.replace(/(\.\d*?)0+(?=e|$)/, '$1').replace(/\.(?=e|$)/, '');
}

/**
 * @param {number} x
 * @param {number} [digits] significant digits (default 3)
 * @returns {string} e.g. 0.874, 1.2e-7, 100, ∞, −∞, NaN
 */
export function formatNumber(x, digits = 3) {
  if (typeof x !== 'number' || Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '−∞';
  if (x === 0) return '0';
  const abs = Math.abs(x);
  const text = abs < 1e-4 || abs >= 1e5 ? x.toExponential(digits - 1).replace('e+', 'e') : x.toPrecision(digits);
  return trimZeros(text.includes('e') ? text : String(Number(text))).replace(/^-/, '−');
}

/**
 * Parses one number typed by a person. Accepts 1, -0.5, .5, 1e-3, a Unicode
 * minus; "inf"/"Infinity"/"∞" only when `allowInfinite`.
 * @returns {{ value: number } | { error: string }}
 */
export function parseNumberText(text, { min = -Infinity, max = Infinity, allowInfinite = false } = {}) {
  const t = String(text).trim().replace(/^[−–]/, '-');
  if (t === '') return { error: 'is empty' };
  let value;
  if (NUMBER.test(t)) value = Number(t);
  else if (INFINITY.test(t)) value = t.startsWith('-') ? -Infinity : Infinity;
  else return { error: `is “${t.slice(0, 24)}”, not a number` };
  if (!Number.isFinite(value) && !allowInfinite) return { error: 'must be a finite number' };
  if (value < min) return { error: `is ${formatNumber(value)}, below the minimum ${formatNumber(min)}` };
  if (value > max) return { error: `is ${formatNumber(value)}, above the maximum ${formatNumber(max)}` };
  return { value };
}

/**
 * The whole number typed into an <input type="number">: { value } or { error }
 * ("is empty", "is not a number", "is 2.5, not a whole number", out of range).
 * The browser reports text it cannot read as a number (e.g. 1e400) as an
 * empty value with validity.badInput set.
 */
export function readWholeNumber(input, { min = -Infinity, max = Infinity } = {}) {
  if (input.value.trim() === '') return { error: input.validity?.badInput ? 'is not a number' : 'is empty' };
  const parsed = parseNumberText(input.value);
  if (parsed.error) return parsed;
  const { value } = parsed; // whole numbers in full: "20000", not "2e+4"
  if (!Number.isInteger(value)) return { error: `is ${formatNumber(value)}, not a whole number` };
  if (value < min) return { error: `is ${value}, below the minimum ${min}` };
  if (value > max) return { error: `is ${value}, above the maximum ${max}` };
  return parsed;
}

/**
 * "0.2, 0.3, 0.5" (optionally in [brackets]) -> { values } or { error }.
 * @param {string} text
 * @param {{ min?: number, max?: number, count?: number, maxCount?: number }} options
 */
export function parseNumberList(text, { min = -Infinity, max = Infinity, count = 0, maxCount = 64 } = {}) {
  const inner = String(text)
    .trim()
    .replace(/^\[(.*)\]$/s, '$1');
  if (inner.trim() === '')
    return { error: count ? `Type ${count} numbers separated by commas.` : 'Type some numbers.' };
  const parts = inner.split(',');
  const values = [];
  for (let i = 0; i < parts.length; i++) {
    const result = parseNumberText(parts[i], { min, max });
    if (result.error) return { error: `Entry ${i} (counting from 0) ${result.error}.` };
    values.push(result.value);
  }
  if (count && values.length !== count) return { error: `Needs exactly ${count} numbers, got ${values.length}.` };
  if (values.length > maxCount) return { error: `At most ${maxCount} numbers, got ${values.length}.` };
  return { values };
}

/** A JS string as a Python string literal; <, > and & are escaped so pasted code never carries markup. */
function pythonString(s) {
  let out = "'";
  for (const ch of s) {
    const code = ch.codePointAt(0);
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || ch === '<' || ch === '>' || ch === '&') {
      out += `\\x${code.toString(16).padStart(2, '0')}`;
    } else out += ch;
  }
  return `${out}'`;
}

/**
 * A value as Python source: numbers with up to `digits` significant digits
 * (integers exact), arrays and typed arrays as lists, booleans as True/False,
 * null as None, plain objects as dicts, strings as escaped literals.
 */
export function pythonLiteral(value, digits = 6) {
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return "float('nan')";
    if (!Number.isFinite(value)) return value > 0 ? "float('inf')" : "-float('inf')";
    if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
    return String(Number(value.toPrecision(digits)));
  }
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return pythonString(value);
  if (Array.isArray(value) || ArrayBuffer.isView(value)) {
    return `[${Array.from(value, (v) => pythonLiteral(v, digits)).join(', ')}]`;
  }
  if (typeof value === 'object') {
    const items = Object.entries(value).map(([k, v]) => `${pythonString(k)}: ${pythonLiteral(v, digits)}`);
    return `{${items.join(', ')}}`;
  }
  return pythonString(String(value));
}

/**
 * Puts `cell`'s state fields back to what the page authored: the attribute
 * when there is a valid one, else the declared default. Fires
 * attn-state-change (cell.stateChanged()).
 */
export function resetToAuthored(cell) {
  const fields = cell.constructor.stateFields;
  const state = defaults(fields);
  for (const [name, spec] of Object.entries(fields)) {
    const text = cell.getAttribute(name);
    if (text === null) continue;
    try {
      state[name] = parseField(text, name, spec);
    } catch {
      // an invalid attribute already showed a notice; the default stands
    }
  }
  Object.assign(cell, state);
  cell._notice = '';
  cell.stateChanged();
}

/**
 * Exercise progress: localStorage when the page may use it, otherwise (sandboxed
 * iframes, some file:// pages, storage full or disabled) a Map for this page.
 */
const memory = new Map();

function storage() {
  try {
    const s = globalThis.localStorage;
    if (!s) return null;
    const probe = 'attnbook:probe';
    s.setItem(probe, '1');
    s.removeItem(probe);
    return s;
  } catch {
    return null;
  }
}

/** Whether a storage key holds progress (an exercise's record or a lesson's visit). */
export const isProgressKey = (key) => /^attnbook:(exercise|visited|read):/.test(String(key));

/** @type {null | { get(key: string): string | null, set(key: string, value: string): void, remove(key: string): void, keys(): string[] }} */
let progressBackend = null;

/**
 * Keeps progress keys (isProgressKey) in `backend` instead of localStorage, until called with
 * null. Inside an LMS the LMS's suspend_data is the source of truth (shell/scorm.js): progress
 * then lives in memory seeded from it, and localStorage is neither read nor written for it.
 */
export function useProgressBackend(backend) {
  progressBackend = backend ?? null;
}

/** The backend given to useProgressBackend(), or null (localStorage). */
export const currentProgressBackend = () => progressBackend;

export const progressStore = {
  get(key) {
    if (progressBackend && isProgressKey(key)) return progressBackend.get(key);
    try {
      const s = storage();
      if (s) return s.getItem(key);
    } catch {
      // fall through to memory
    }
    return memory.get(key) ?? null;
  },
  set(key, value) {
    if (progressBackend && isProgressKey(key)) return progressBackend.set(key, value);
    memory.set(key, value);
    try {
      storage()?.setItem(key, value);
    } catch {
      // memory has it
    }
  },
  remove(key) {
    if (progressBackend && isProgressKey(key)) return progressBackend.remove(key);
    memory.delete(key);
    try {
      storage()?.removeItem(key);
    } catch {
      // memory is cleared
    }
  },
};

/** A field holding bad text (aria-invalid) and the error shown beside it (.field-error). */
export const fieldErrorStyles = css`
  input[aria-invalid='true'] {
    border: 2px solid var(--danger, #b3261e);
  }
  .field-error {
    color: var(--danger, #b3261e);
    font-size: 0.9rem;
    margin: 0;
  }
  .field-error::before {
    content: '⚠ ';
  }
`;

/** Styles most cells share: the card, a label row, the error beside a field, visually hidden text. */
export const cellStyles = css`
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  .card {
    border: 1px solid var(--border, #d0d4dc);
    border-radius: 8px;
    background: var(--surface, #fff);
    padding: 0.75rem 1rem;
  }
  ${flatOnPhones('.card')}
  .head {
    display: flex;
    align-items: baseline;
    justify-content: space-between;
    gap: 0.5rem;
    flex-wrap: wrap;
  }
  .label {
    font-weight: 600;
  }
  input[type='text'] {
    font: 0.95rem var(--font-mono, ui-monospace, monospace);
    color: var(--text, #1b1e24);
    background: var(--bg, #f7f8fa);
    border: 1px solid var(--border, #d0d4dc);
    border-radius: 4px;
    padding: 0.3rem 0.45rem;
    min-width: 0;
  }
  input:focus-visible,
  [tabindex]:focus-visible {
    outline: 2px solid var(--accent, #3b5bdb);
    outline-offset: 2px;
  }
  ${fieldErrorStyles}
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    clip-path: inset(50%);
    white-space: nowrap;
  }
  @media (prefers-reduced-motion: reduce) {
    * {
      transition: none !important;
      animation: none !important;
    }
  }
`;
