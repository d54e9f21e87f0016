/**
 * Permalinks: the state of every cell with an id, as URL parameters
 * `<cellId>.<field>=<text>`, using each cell's declared stateFields
 * (getState() + formatField to write, parseField + setStateFromText to read).
 *
 * Reading is all-or-nothing per cell: if any of a cell's parameters is bad
 * (unknown field, bad number, out of range, too long, a field given twice),
 * none is applied and the cell keeps the settings the lesson gave it. Every problem comes back as a
 * short plain-text message; nothing from the URL is evaluated or inserted as HTML.
 *
 * Old links keep working when a lesson merges cells: the merged cell lists the ids it took over in
 * `data-aliases` (`<attn-softmax-temperature id="t" data-aliases="lab three">`), and a link's
 * `lab.temperature=0` applies to it. An old link holds every field of every cell, so of the values
 * one link gives a merged cell's field (under its id and its aliases), the first that differs from
 * the lesson's own setting wins: the one the reader had changed.
 */
import { formatField, parseField } from '../cells/base/state-fields.js';
import { clip } from './route.js';

/** Does `el` carry permalink state? (an attn-* cell with an id and a state table) */
function isCell(el) {
  const fields = el.constructor?.stateFields;
  return (
    el.localName.startsWith('attn-') &&
    el.id !== '' &&
    fields !== undefined &&
    Object.keys(fields).length > 0 &&
    typeof el.getState === 'function' &&
    typeof el.setStateFromText === 'function'
  );
}

/** Map id -> cell for the cells under `root`. */
export function cellsIn(root) {
  const cells = new Map();
  if (!root) return cells;
  for (const el of root.querySelectorAll('[id]')) if (isCell(el) && !cells.has(el.id)) cells.set(el.id, el);
  return cells;
}

/** Map old id -> cell for the merged cells under `root` (data-aliases; an id in use is not an alias). */
export function aliasesIn(root, cells = cellsIn(root)) {
  const aliases = new Map();
  if (!root) return aliases;
  for (const el of root.querySelectorAll('[data-aliases]')) {
    if (!isCell(el)) continue;
    for (const alias of (el.dataset?.aliases ?? '').split(/\s+/)) {
      if (alias && !cells.has(alias) && !aliases.has(alias)) aliases.set(alias, el);
    }
  }
  return aliases;
}

/** The current state of every cell under `root`: [{ cell, field, text }]. */
export function collectState(root) {
  const params = [];
  for (const [id, el] of cellsIn(root)) {
    const fields = el.constructor.stateFields;
    const state = el.getState();
    for (const [field, spec] of Object.entries(fields)) {
      if (state[field] === null || state[field] === undefined) continue; // unset (automatic): nothing to restore
      params.push({ cell: id, field, text: formatField(state[field], spec) });
    }
  }
  return params;
}

/**
 * Applies URL parameters to the cells under `root`.
 * @param {Element} root
 * @param {{ cell: string, field: string, text: string }[]} params
 * @returns {{ issues: string[], defaulted: string[] }} what was ignored (one message each)
 *   and the ids of the cells left at their default settings because of it
 */
export function applyState(root, params) {
  const cells = cellsIn(root);
  const aliases = aliasesIn(root, cells);
  // merged cells: their own settings (as text) and the fields a link has already changed
  const merged = new Map([...new Set(aliases.values())].map((el) => [el, { own: textState(el), changed: new Set() }]));
  const byCell = new Map();
  for (const param of params) {
    if (!byCell.has(param.cell)) byCell.set(param.cell, []);
    byCell.get(param.cell).push(param);
  }
  const issues = [];
  const defaulted = [];
  for (const [id, list] of byCell) {
    const el = cells.get(id) ?? aliases.get(id);
    if (!el) {
      issues.push(`${clip(id)}: no such cell in this lesson`);
      continue;
    }
    const fields = el.constructor.stateFields;
    const texts = {};
    const problems = [];
    const given = new Set();
    for (const { field, text } of list) {
      if (!Object.hasOwn(fields, field)) {
        problems.push(`${clip(id)}.${clip(field)}: not a setting of this cell`);
        continue;
      }
      if (given.has(field)) {
        problems.push(`${clip(id)}.${clip(field)}: given more than once`);
        continue;
      }
      given.add(field);
      try {
        parseField(text, field, fields[field]);
        texts[field] = text;
      } catch (error) {
        problems.push(`${clip(id)}.${error.message}`);
      }
    }
    const merge = merged.get(el);
    if (merge && problems.length === 0) {
      for (const field of Object.keys(texts)) {
        const text = formatField(parseField(texts[field], field, fields[field]), fields[field]);
        if (merge.changed.has(field))
          delete texts[field]; // an earlier id of this cell changed it
        else if (text !== merge.own[field]) merge.changed.add(field);
      }
    }
    if (problems.length === 0) {
      try {
        el.setStateFromText(texts);
      } catch (error) {
        problems.push(`${clip(id)}.${error.message}`);
      }
    }
    if (problems.length > 0) {
      issues.push(...problems);
      defaulted.push(id);
    }
  }
  return { issues, defaulted };
}

/** A cell's state as the text a link would hold, field by field. */
function textState(el) {
  const fields = el.constructor.stateFields;
  const state = el.getState();
  return Object.fromEntries(
    Object.entries(fields).map(([field, spec]) => [field, state[field] == null ? '' : formatField(state[field], spec)]),
  );
}
