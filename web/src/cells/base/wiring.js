/**
 * Cells wired to each other by attributes alone, so a lesson written in Markdown needs no script.
 * Not an element (register.js registers only attn-*.js files).
 *
 * One convention: `for="<id>"` names another cell of the page, as <label for> names its field.
 *
 * - A control (attn-slider, attn-vector-editor, attn-matrix-editor) with `for` and `field` edits
 *   that setting of that cell: <attn-slider for="att" field="temperature">. The setting lives in
 *   the cell it drives (write its first value there: temperature="1"); the control shows it, follows
 *   it when it changes another way (a permalink, that cell's Reset), and its own Reset puts the
 *   setting back to what the page wrote on that cell. The cell checks every value by its own rules.
 * - A reader (attn-check, attn-output, attn-bars) with `for` and `value-of` shows one value of that
 *   cell: a setting (one of its stateFields) or a result it lists in `static outputs`, or one entry
 *   of it: value-of="weights[0][1]" (row 0, column 1, counted from 0).
 * - attn-code with `for` fills its {{placeholders}} from every value of that cell (settings and
 *   results) and, when it has no template of its own, uses the cell's `static codeTemplate`.
 * - While that cell is in its error state (its core failed), a reader shows none of its values, so no
 *   number shows that was not computed: attn-bars draws no bars, attn-output prints nothing and
 *   attn-check waits unmeasured, each with a notice naming the cell and its error (sourceFailure);
 *   attn-code fills only the cell's settings.
 *
 * A bad `for`, `field` or `value-of` shows a notice on the wired cell naming the attribute; the
 * cell stays usable. Linking is registered with the cell's data-settled (AttnCell.settleAfter).
 * A reader of a cell held back inside an <attn-reveal> (predict first) says which exercise it waits
 * for (CellLink.heldBy; a notice, unless the reader says it in its own words) until that opens.
 *
 * CellLink and FieldLink are Lit reactive controllers: a cell creates one in its constructor. They
 * follow the other cell with a controller added to it (its hostUpdated runs after each of its
 * updates), so any AttnCell can be read or driven without knowing who reads it.
 */
import { formatField, parseField } from './state-fields.js';

const clip = (text) => String(text).slice(0, 40);
const PATH = /^([A-Za-z_]\w*)((?:\[\d{1,5}\])*)$/;

/** The names another cell may read from `cell`: its settings, then its results. */
export function readableNames(cell) {
  return [...Object.keys(cell.constructor.stateFields ?? {}), ...(cell.constructor.outputs ?? [])];
}

/** What a value is, in words: "a number", "a list of 3 numbers", "a 3 × 2 matrix", "causal". */
export function describeValue(value) {
  if (value === null || value === undefined) return 'not set';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'string') return `"${clip(value)}"`;
  if (Array.isArray(value) || ArrayBuffer.isView(value)) {
    if (Array.isArray(value[0]) || ArrayBuffer.isView(value[0])) return `a ${value.length} × ${value[0].length} matrix`;
    return `a list of ${value.length} ${value.length === 1 ? 'number' : 'numbers'}`;
  }
  return typeof value;
}

/**
 * One value of `cell` named by `path` ("weights", "weights[1]", "weights[1][0]").
 * @returns {{ value: unknown } | { error: string }} value undefined while the cell has not computed it
 */
export function readValue(cell, path) {
  const names = readableNames(cell);
  const text = String(path ?? '').trim();
  const of = `#${clip(cell.id)}`;
  if (!text) return { error: `Attribute value-of is missing: name a value of ${of} (${names.join(', ')}).` };
  const match = text.match(PATH);
  if (!match) return { error: `Attribute value-of: "${clip(text)}" is not a name such as weights or weights[0][1].` };
  if (!names.includes(match[1])) {
    return { error: `Attribute value-of: ${of} has no value "${match[1]}" (it has ${names.join(', ')}).` };
  }
  let value = cell[match[1]];
  let where = match[1];
  for (const [, digits] of match[2].matchAll(/\[(\d+)\]/g)) {
    const i = Number(digits);
    if (value === null || value === undefined) return { value: undefined };
    if (!Array.isArray(value) && !ArrayBuffer.isView(value)) {
      return { error: `Attribute value-of: ${where} is ${describeValue(value)}, which has no entry [${i}].` };
    }
    if (i >= value.length) {
      return { error: `Attribute value-of: ${where} has entries [0] to [${value.length - 1}], so no [${i}].` };
    }
    value = value[i];
    where += `[${i}]`;
  }
  return { value };
}

/** readValue() for one number (a check's measured value). */
export function readNumber(cell, path) {
  const read = readValue(cell, path);
  if (read.error || read.value === undefined || typeof read.value === 'number') return read;
  const hint = describeValue(read.value).includes('×') ? `${path}[0][0]` : `${path}[0]`;
  return { error: `Attribute value-of: ${path} is ${describeValue(read.value)}, not one number; try ${hint}.` };
}

/** readValue() for a list of numbers (a bar chart's bars). */
export function readList(cell, path) {
  const read = readValue(cell, path);
  if (read.error || read.value === undefined) return read;
  const value = read.value;
  if ((Array.isArray(value) || ArrayBuffer.isView(value)) && Array.from(value).every((x) => typeof x === 'number')) {
    return { value: Array.from(value) };
  }
  const hint = describeValue(value).includes('×') ? ` Pick one row, such as ${path}[0].` : '';
  return { error: `Attribute value-of: ${path} is ${describeValue(value)}, not a list of numbers.${hint}` };
}

/**
 * Every value of `cell` by name (for attn-code's placeholders); values not computed yet are left out,
 * and so are its results while it is in its error state (they were computed for other inputs, or
 * never): only its settings then.
 */
export function allValues(cell) {
  const names = cell._cellError ? Object.keys(cell.constructor.stateFields ?? {}) : readableNames(cell);
  const values = {};
  for (const name of names) if (cell[name] !== undefined) values[name] = cell[name];
  return values;
}

/**
 * What a reader of `cell` says while that cell is in its error state (its results are not what its
 * inputs give: computed for others, or never), or '' when it is not. A reader then shows none of
 * its values, so it never shows a number that was not computed.
 * @param {HTMLElement & { _cellError?: Error }} cell @param {string} path the reader's value-of
 */
export function sourceFailure(cell, path) {
  const failed = cell._cellError;
  return failed ? `#${clip(cell.id)} could not compute ${clip(path)}: ${failed.message}` : '';
}

const fixed = (x, digits) => {
  if (typeof x !== 'number') return String(x);
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  const text = x.toFixed(digits);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
};

/**
 * A value printed as NumPy prints it: numbers with `digits` decimals, lists in brackets, a matrix
 * one row a line with its columns aligned.
 */
export function formatValue(value, digits = 4) {
  if (value === undefined) return '';
  if (!Array.isArray(value) && !ArrayBuffer.isView(value)) return fixed(value, digits);
  const rows = Array.isArray(value[0]) || ArrayBuffer.isView(value[0]) ? value : null;
  const cells = (rows ?? [value]).map((row) => Array.from(row, (x) => fixed(x, digits)));
  const width = Math.max(0, ...cells.flat().map((t) => t.length));
  const lines = cells.map((row) => `[${row.map((t) => t.padStart(width)).join(', ')}]`);
  return rows ? `[${lines.join(',\n ')}]` : lines[0];
}

/** Deep equality of numbers and (nested) lists; NaN equals NaN. */
function same(a, b) {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  return Object.is(a, b);
}

const isNumbers = (v) => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number');
const KINDS = {
  number: ['a number', (v) => typeof v === 'number' && !Number.isNaN(v)],
  numbers: ['a list of numbers', isNumbers],
  matrix: [
    'a matrix',
    (v) => Array.isArray(v) && v.length > 0 && v.every((r) => isNumbers(r) && r.length === v[0].length),
  ],
};

/**
 * The label of the exercise whose <attn-reveal> still holds `cell` back (predict first), or ''.
 * @param {Element} cell
 */
function heldBackBy(cell) {
  const reveal = cell.closest?.('attn-reveal');
  if (!reveal || reveal.revealed === 'true') return '';
  return reveal.gate?.exercise?.getAttribute('label') || `the exercise "${clip(reveal.getAttribute('after'))}"`;
}

/**
 * Links `host` (a cell with a `for` property) to the cell that names. `onSource(source)` runs once
 * linked, after every update of that cell, and when one of the host's `watched` properties (its
 * other wiring attributes, such as value-of) changes; `onBroken()` when `for` names no cell.
 * `heldBy`: the label of the exercise that holds the linked cell back (heldBackBy), else ''; while
 * it is set, the host shows a notice saying so, unless `{ sayHeld: false }` (it says so itself).
 */
export class CellLink {
  constructor(host, onSource, onBroken = () => {}, watched = [], { sayHeld = true } = {}) {
    this.host = host;
    this.onSource = onSource;
    this.onBroken = onBroken;
    this.watched = watched;
    this.sayHeld = sayHeld;
    this._key = '';
    /** The linked cell, or null. */
    this.source = null;
    /** The label of the exercise that holds the linked cell back, or ''. */
    this.heldBy = '';
    this._id = undefined; // the `for` linked (or being linked) to
    this._watch = null; // the controller added to the source
    this._reveal = null; // [the attn-reveal around the source, the controller added to it]
    this._problem = '';
    this._heldNotice = '';
    host.addController(this);
  }

  /** Before each update of the host: a new `for` links again, a new value-of (or field) reads again. */
  hostUpdate() {
    const id = this.host.for ?? '';
    const key = JSON.stringify(this.watched.map((name) => this.host[name]));
    if (id === this._id && key === this._key) return;
    this._key = key;
    if (id === this._id) {
      // after this update (a change made during it would miss the host's willUpdate)
      const source = this.source;
      if (source) this.host.settleAfter(Promise.resolve().then(() => this.source === source && this._read(source)));
      return;
    }
    this._unlink();
    this._id = id;
    this.report('');
    if (id) this.host.settleAfter(this._link(id));
  }

  hostConnected() {
    if (this._id === undefined) this.host.requestUpdate(); // (put back in a page) link in the next update
  }

  hostDisconnected() {
    this._unlink();
    this._id = undefined;
  }

  _unlink() {
    this.source?.removeController(this._watch);
    this._reveal?.[0].removeController(this._reveal[1]);
    this.source = null;
    this._watch = null;
    this._reveal = null;
    this._held('');
  }

  /** Reads the source (onSource), then whether it is held back. */
  _read(source) {
    this.onSource(source);
    this._held(heldBackBy(source));
  }

  _held(label) {
    const notice = label && this.sayHeld ? `Waits for ${label}: check an answer there first.` : '';
    if (this._heldNotice && this._problem === this._heldNotice && notice !== this._heldNotice) this.report('');
    if (notice && !this._problem) this.report(notice);
    this._heldNotice = notice;
    if (label === this.heldBy) return;
    this.heldBy = label;
    this.host.requestUpdate();
  }

  async _link(id) {
    await null; // after the host's update, with the page's other cells in place
    if (document.readyState === 'loading') {
      await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
    }
    if (this._id !== id || !this.host.isConnected) return;
    const found = this.host.getRootNode().getElementById?.(id) ?? null;
    let problem = '';
    if (!found) problem = `Attribute for: no cell with id "${clip(id)}" on this page.`;
    else if (found === this.host) problem = 'Attribute for: a cell cannot be wired to itself.';
    else if (typeof found.addController !== 'function' || !found.constructor.stateFields) {
      problem = `Attribute for: #${clip(id)} is a <${found.localName}>, not an attn-* cell.`;
    }
    if (problem) {
      this.report(problem);
      this.onBroken();
      return;
    }
    this.source = found;
    this._watch = { hostUpdated: () => this._read(found) };
    found.addController(this._watch);
    // a cell held back for an exercise: read again when it is let out (its attn-reveal updates)
    const reveal = found.closest('attn-reveal');
    if (typeof reveal?.addController === 'function') {
      this._reveal = [reveal, { hostUpdated: () => this.source === found && this._read(found) }];
      reveal.addController(this._reveal[1]);
    }
    this._read(found);
  }

  /** Shows `message` as the host's notice (or clears the one this link showed). */
  report(message) {
    const host = this.host;
    if (message) host._notice = message;
    else if (this._problem && host._notice === this._problem) host._notice = '';
    this._problem = message;
  }
}

/**
 * Two-way link of a control's value with one setting (`field`) of the cell its `for` names.
 * `io`: { kind: 'number' | 'numbers' | 'matrix', get(): the control's value, set(value) }.
 */
export class FieldLink {
  constructor(host, io) {
    this.host = host;
    this.io = io;
    this.synced = undefined; // the value both sides last agreed on
    this.ok = false; // linked to a setting of the right kind
    this.link = new CellLink(
      host,
      (source) => this._pull(source),
      () => (this.ok = false),
      ['field'],
    );
    host.addController(this);
  }

  _pull(source) {
    const field = this.host.field ?? '';
    const fields = source.constructor.stateFields;
    const of = `#${clip(source.id)}`;
    const [kindName, fits] = KINDS[this.io.kind];
    this.ok = false;
    if (!field)
      return this.link.report(
        `Attribute field is missing: name the setting of ${of} to change (${Object.keys(fields).join(', ')}).`,
      );
    if (!Object.hasOwn(fields, field)) {
      return this.link.report(
        `Attribute field: ${of} has no setting "${clip(field)}" (it has ${Object.keys(fields).join(', ')}).`,
      );
    }
    this.ok = true;
    const value = source[field];
    if (value === null || value === undefined) return this._push(source); // automatic until set: take ours
    if (!fits(value)) {
      this.ok = false;
      return this.link.report(
        `Attribute field: ${of}'s ${field} is ${describeValue(value)}; a <${this.host.localName}> sets ${kindName}.`,
      );
    }
    this.link.report('');
    if (same(value, this.synced)) return;
    this.synced = structuredClone(value);
    this.io.set(structuredClone(value));
  }

  /** After each update of the control: a value the cell does not have yet goes to the cell. */
  hostUpdated() {
    const source = this.link.source;
    if (source && this.ok && !same(this.io.get(), this.synced)) this._push(source);
  }

  _push(source) {
    const value = this.io.get();
    this.synced = structuredClone(value);
    const field = this.host.field;
    try {
      source.beginEdit?.(); // the cell's own Reset goes back to what the page wrote
      source.setStateFromText({ [field]: formatField(value, { type: this.io.kind }) });
      this.link.report('');
    } catch (error) {
      this.link.report(`#${clip(source.id)} did not take this value: ${error.message}.`);
    }
  }

  /**
   * The control's Reset while linked: the setting goes back to what the page wrote on the cell it
   * drives (its attribute, else its default), and the control follows. False when not linked, or
   * when that setting is automatic until set (the control then resets itself and sets it).
   */
  resetSource() {
    const source = this.link.source;
    if (!source || !this.ok) return false;
    const field = this.host.field;
    const spec = source.constructor.stateFields[field];
    let value = structuredClone(spec.default);
    const text = source.getAttribute(field);
    try {
      if (text !== null) value = parseField(text, field, spec);
    } catch {
      // an invalid attribute already showed its notice on that cell; the default stands
    }
    if (value === null || value === undefined) return false;
    source[field] = value;
    source.stateChanged();
    return true;
  }
}

/** The attributes of a control driven by `for` and `field`, for its `static properties`. */
export const fieldLinkProperties = { for: { type: String }, field: { type: String } };

/** The attributes of a reader (`for` and `value-of`), for its `static properties`. */
export const readerProperties = { for: { type: String }, valueOfPath: { type: String, attribute: 'value-of' } };
