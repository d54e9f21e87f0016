/**
 * State declared as a table, serialised to and from text (URL parameters,
 * HTML attributes). Each cell element declares `static stateFields`:
 *
 *   static stateFields = {
 *     temperature: { type: 'number', default: 1, min: 0, max: 100 },
 *     logits: { type: 'numbers', default: [1.2, 4.5, 2, 0.8], minLength: 1, maxLength: 64 },
 *     mask: { type: 'enum', default: 'causal', values: ['none', 'causal', 'window'] },
 *   };
 *
 * Types: number, integer, numbers (a list), matrix (rows of numbers), boolean, enum.
 * A field of any other type gives its own `parse(text, field)` (returns the value or throws
 * FieldError) and `format(value)` (its inverse), e.g. an attention mask that is 'none', 'causal'
 * or a 0/1 matrix.
 * parseField() never evaluates anything and never returns HTML: text is split
 * and converted with Number(); anything out of the declared bounds is rejected
 * with a FieldError that says which field and why.
 */

export class FieldError extends Error {
  constructor(field, message) {
    super(`${field}: ${message}`);
    this.name = 'FieldError';
    this.field = field;
  }
}

const MAX_TEXT = 20000; // characters in one serialised field
const MAX_ITEMS = 4096; // entries in a list or matrix

function parseNumber(text, field, spec) {
  const trimmed = String(text).trim();
  if (trimmed === '' || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[-+]?Infinity$/.test(trimmed)) {
    throw new FieldError(field, `"${trimmed.slice(0, 40)}" is not a number`);
  }
  const value = Number(trimmed);
  checkNumber(value, field, spec);
  return value;
}

function checkNumber(value, field, { min = -Infinity, max = Infinity, integer = false } = {}) {
  if (Number.isNaN(value)) throw new FieldError(field, 'is not a number');
  if (!Number.isFinite(value) && !(value === max || value === min)) throw new FieldError(field, 'must be finite');
  if (value < min || value > max) throw new FieldError(field, `${value} is outside [${min}, ${max}]`);
  if (integer && !Number.isInteger(value)) throw new FieldError(field, `${value} is not a whole number`);
}

function checkLength(n, field, { minLength = 1, maxLength = MAX_ITEMS } = {}) {
  if (n < minLength || n > Math.min(maxLength, MAX_ITEMS)) {
    throw new FieldError(field, `needs ${minLength} to ${Math.min(maxLength, MAX_ITEMS)} entries, got ${n}`);
  }
}

/** Text -> value of the field's type, or a FieldError. */
export function parseField(text, field, spec) {
  if (typeof text !== 'string') throw new FieldError(field, 'is missing');
  if (text.length > MAX_TEXT) throw new FieldError(field, `is too long (${text.length} characters)`);
  if (typeof spec.parse === 'function') return spec.parse(text, field);
  switch (spec.type) {
    case 'number':
      return parseNumber(text, field, spec);
    case 'integer':
      return parseNumber(text, field, { ...spec, integer: true });
    case 'boolean':
      if (text === '1' || text === 'true') return true;
      if (text === '0' || text === 'false') return false;
      throw new FieldError(field, `"${text.slice(0, 40)}" is not true/false (1/0)`);
    case 'enum':
      if (spec.values.includes(text)) return text;
      throw new FieldError(field, `"${text.slice(0, 40)}" is not one of ${spec.values.join(', ')}`);
    case 'numbers': {
      const parts = text.split(',');
      checkLength(parts.length, field, spec);
      return parts.map((p, i) => parseNumber(p, `${field}[${i}]`, spec));
    }
    case 'matrix': {
      const rows = text.split(';');
      checkLength(rows.length, field, { minLength: spec.minRows ?? 1, maxLength: spec.maxRows ?? MAX_ITEMS });
      const matrix = rows.map((row, r) => row.split(',').map((p, c) => parseNumber(p, `${field}[${r}][${c}]`, spec)));
      const width = matrix[0].length;
      matrix.forEach((row, r) => {
        if (row.length !== width) throw new FieldError(field, `row ${r} has ${row.length} entries, row 0 has ${width}`);
      });
      checkLength(width * matrix.length, field, { minLength: 1, maxLength: MAX_ITEMS });
      return matrix;
    }
    default:
      throw new FieldError(field, `unknown field type ${spec.type}`);
  }
}

/** Value -> text, the inverse of parseField. */
export function formatField(value, spec) {
  if (typeof spec.format === 'function') return spec.format(value);
  switch (spec.type) {
    case 'boolean':
      return value ? '1' : '0';
    case 'numbers':
      return value.map(String).join(',');
    case 'matrix':
      return value.map((row) => row.map(String).join(',')).join(';');
    default:
      return String(value);
  }
}

/** A deep copy of each field's default. */
export function defaults(fields) {
  return Object.fromEntries(Object.entries(fields).map(([name, spec]) => [name, structuredClone(spec.default)]));
}
