/**
 * Permalinks: the state of every cell with an id, as URL parameters
 * `<cellId>.<field>=<text>`, using each cell's declared stateFields
 * (getState() + formatField to write, parseField + setStateFromText to read).
 *
 * Reading is all-or-nothing per cell: if any of a cell's parameters is bad
 * (unknown field, bad number, out of range, too long, a field given twice),
 * none is applied and the cell keeps the settings the lesson gave it. Every problem comes back as a
 * short plain-text message; nothing from the URL is evaluated or inserted as HTML.
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
  const byCell = new Map();
  for (const param of params) {
    if (!byCell.has(param.cell)) byCell.set(param.cell, []);
    byCell.get(param.cell).push(param);
  }
  const issues = [];
  const defaulted = [];
  for (const [id, list] of byCell) {
    const el = cells.get(id);
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
