// Property-based fuzzing (fast-check) of the parsers of user text and URL state: the field table
// (parseField / formatField), the editors' number parsers (parseNumberText / parseNumberList), the
// hash router (parseHash / buildHash) and permalinks (applyState). libFuzzer cannot reach JS; these
// run a bounded number of generated inputs each (about 10 s in all) with fixed seeds, so a failure
// reproduces. Properties: only FieldError (or an { error } result) for bad text, never a non-finite
// number where a finite one is required, under 50 ms per input, and parse(format(x)) == x.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import fc from 'fast-check';
import { FieldError, formatField, parseField } from '../../web/src/cells/base/state-fields.js';
import { parseNumberList, parseNumberText } from '../../web/src/cells/base/cell-support.js';
import { buildHash, parseHash } from '../../web/src/shell/route.js';
import { applyState } from '../../web/src/shell/permalink.js';

const RUNS = 400;
const MAX_MS = 50;

/**
 * Runs `fn`, failing when it takes longer than MAX_MS twice in a row (a slow input is slow every
 * time; one slow run can be a GC pause or a busy machine).
 */
function timed(what, fn) {
  let ms = Infinity;
  let result;
  for (let attempt = 0; attempt < 2 && ms >= MAX_MS; attempt++) {
    const start = performance.now();
    result = fn();
    ms = performance.now() - start;
  }
  assert.ok(ms < MAX_MS, `${what} took ${ms.toFixed(1)} ms`);
  return result;
}

// Text a person or a link might hold: number-like tokens, separators and junk, joined at random.
const token = fc.oneof(
  fc.double().map(String),
  fc.integer().map(String),
  fc.constantFrom('', ' ', ',', ';', '-', '+', '.', 'e', 'E', 'e+', '1e999', '-1e999', 'Infinity', '-Infinity'),
  fc.constantFrom(
    'inf',
    '∞',
    '−1',
    'NaN',
    '0x10',
    '1_000',
    '1,5',
    '[1,2]',
    '<script>alert(1)</script>',
    '%',
    '%E0%A4%A',
  ),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.array(token, { maxLength: 40 }).map((parts) => parts.join('')),
  fc.array(token, { maxLength: 40 }).map((parts) => parts.join(',')),
  fc
    .array(fc.array(fc.double().map(String), { minLength: 1, maxLength: 8 }), { maxLength: 8 })
    .map((rows) => rows.map((r) => r.join(',')).join(';')),
  // long inputs near and beyond the limits (4096 entries, 20000 characters)
  fc.integer({ min: 1, max: 6000 }).map((n) => Array.from({ length: n }, (_, i) => i % 10).join(',')),
);

const SPECS = {
  number: { type: 'number', default: 1, min: -100, max: 100 },
  temperature: { type: 'number', default: 1, min: 0, max: Infinity },
  integer: { type: 'integer', default: 2, min: 1, max: 64 },
  numbers: { type: 'numbers', default: [1], minLength: 1, maxLength: 64, min: -1e9, max: 1e9 },
  matrix: { type: 'matrix', default: [[1]], min: -1e9, max: 1e9, maxRows: 16 },
  boolean: { type: 'boolean', default: false },
  mask: { type: 'enum', default: 'none', values: ['none', 'causal', 'window'] },
};

/** A parsed value is of the spec's type and within its bounds (finite unless a bound is ±Infinity). */
function checkValue(value, spec, what) {
  const number = (x) => {
    assert.equal(typeof x, 'number', `${what}: ${x} is not a number`);
    assert.ok(!Number.isNaN(x), `${what}: NaN`);
    assert.ok(Number.isFinite(x) || x === spec.min || x === spec.max, `${what}: ${x} is not finite`);
    assert.ok(x >= (spec.min ?? -Infinity) && x <= (spec.max ?? Infinity), `${what}: ${x} out of bounds`);
  };
  switch (spec.type) {
    case 'number':
      return number(value);
    case 'integer':
      number(value);
      return assert.ok(Number.isInteger(value), `${what}: ${value} is not whole`);
    case 'numbers':
      assert.ok(Array.isArray(value) && value.length >= 1 && value.length <= spec.maxLength, `${what}: length`);
      return value.forEach(number);
    case 'matrix':
      assert.ok(Array.isArray(value) && value.length >= 1 && value.length <= spec.maxRows, `${what}: rows`);
      for (const row of value) {
        assert.equal(row.length, value[0].length, `${what}: ragged`);
        row.forEach(number);
      }
      return undefined;
    case 'boolean':
      return assert.equal(typeof value, 'boolean');
    default:
      return assert.ok(spec.values.includes(value), `${what}: ${value} is not a declared value`);
  }
}

test('parseField: any text gives a value of the field type within bounds, or a FieldError', () => {
  fc.assert(
    fc.property(text, fc.constantFrom(...Object.keys(SPECS)), (input, name) => {
      const spec = SPECS[name];
      let value;
      try {
        value = timed(`parseField(${name})`, () => parseField(input, name, spec));
      } catch (error) {
        if (error instanceof assert.AssertionError) throw error;
        assert.ok(error instanceof FieldError, `threw ${error?.name}: ${error?.message}`);
        assert.ok(error.message.length < 300, 'the message quotes a bounded piece of the text');
        return;
      }
      checkValue(value, spec, `parseField(${JSON.stringify(input.slice(0, 60))}, ${name})`);
    }),
    { numRuns: RUNS * 3, seed: 6001 },
  );
});

test('parseField rejects non-strings and unknown types with a FieldError', () => {
  fc.assert(
    fc.property(fc.anything(), fc.constantFrom(...Object.keys(SPECS), 'unknown'), (input, name) => {
      const spec = SPECS[name] ?? { type: 'unknown' };
      try {
        checkValue(parseField(input, name, spec), spec, name);
        assert.equal(typeof input, 'string', 'only strings are parsed');
      } catch (error) {
        if (error instanceof assert.AssertionError) throw error;
        assert.ok(error instanceof FieldError, `threw ${error?.name}: ${error?.message}`);
      }
    }),
    { numRuns: RUNS, seed: 6002 },
  );
});

// Valid values of each type (−0 is written "0" and read back as 0, the same number to a person).
const finite = (min, max) => fc.double({ min, max, noNaN: true }).map((x) => (Object.is(x, -0) ? 0 : x));
const VALID = {
  number: finite(-100, 100),
  temperature: fc.oneof(finite(0, 1e300), fc.constant(Infinity)),
  integer: fc.integer({ min: 1, max: 64 }),
  numbers: fc.array(finite(-1e9, 1e9), { minLength: 1, maxLength: 64 }),
  matrix: fc
    .tuple(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 16 }))
    .chain(([r, c]) =>
      fc.array(fc.array(finite(-1e9, 1e9), { minLength: c, maxLength: c }), { minLength: r, maxLength: r }),
    ),
  boolean: fc.boolean(),
  mask: fc.constantFrom('none', 'causal', 'window'),
};

test('parseField(formatField(x)) === x for every valid value of every type', () => {
  for (const [name, arbitrary] of Object.entries(VALID)) {
    fc.assert(
      fc.property(arbitrary, (value) => {
        const spec = SPECS[name];
        const back = timed(`round trip ${name}`, () => parseField(formatField(value, spec), name, spec));
        assert.deepStrictEqual(back, value, `${name}: ${formatField(value, spec)}`);
      }),
      { numRuns: RUNS, seed: 6003 },
    );
  }
});

test('parseNumberText / parseNumberList: a finite value within bounds, or an { error } message, never a throw', () => {
  fc.assert(
    fc.property(text, fc.boolean(), finite(-1e6, 0), finite(0, 1e6), (input, allowInfinite, min, max) => {
      const one = timed('parseNumberText', () => parseNumberText(input, { min, max, allowInfinite }));
      if ('error' in one) assert.equal(typeof one.error, 'string');
      else {
        assert.ok(!Number.isNaN(one.value) && one.value >= min && one.value <= max, `value ${one.value}`);
        assert.ok(allowInfinite || Number.isFinite(one.value), `${one.value} although infinities are not allowed`);
      }
      const list = timed('parseNumberList', () => parseNumberList(input, { min, max, maxCount: 64 }));
      if ('error' in list) assert.equal(typeof list.error, 'string');
      else {
        assert.ok(list.values.length >= 1 && list.values.length <= 64, `${list.values.length} values`);
        for (const x of list.values) assert.ok(Number.isFinite(x) && x >= min && x <= max, `value ${x}`);
      }
    }),
    { numRuns: RUNS * 2, seed: 6004 },
  );
  fc.assert(
    fc.property(fc.array(finite(-1e300, 1e300), { minLength: 1, maxLength: 64 }), (values) => {
      assert.deepStrictEqual(parseNumberList(values.map(String).join(', ')).values, values);
      assert.deepStrictEqual(parseNumberList(`[${values.join(',')}]`).values, values);
    }),
    { numRuns: RUNS, seed: 6005 },
  );
});

// Hashes: route-like text with percent escapes (valid and broken), keys, separators and junk.
const hashPart = fc.oneof(
  token,
  fc.constantFrom(
    '#',
    '#/',
    '/',
    '?',
    '&',
    '=',
    '.',
    'embed=1',
    'embed=yes',
    'host=',
    'host=https://',
    'https://course.example',
    'http://127.0.0.1:8080/',
    ':',
    '@',
    '%',
    '%2',
    '%zz',
    '%C3%28',
    '%ED%A0%80',
    '%00',
  ),
  fc.string({ unit: 'binary', maxLength: 12 }).map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, ''))),
);
const hash = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.array(hashPart, { maxLength: 60 }).map((parts) => `#/${parts.join('')}`),
  fc.integer({ min: 99990, max: 100010 }).map((n) => `#/l?a.b=${'1'.repeat(n)}`),
);

test('parseHash: any hash gives null or a route of plain strings, never a throw', () => {
  fc.assert(
    fc.property(hash, (input) => {
      const route = timed('parseHash', () => parseHash(input));
      if (route === null) return;
      assert.ok(route.page === 'home' || route.page === 'lesson');
      assert.equal(typeof route.embed, 'boolean');
      assert.ok(route.host === null || (route.embed && /^https?:\/\/[^/?#@\s]+$/.test(route.host)), route.host);
      for (const issue of route.issues) assert.ok(typeof issue === 'string' && issue.length < 300, issue);
      for (const { cell, field, text: value } of route.params) {
        assert.ok(cell.length > 0 && !cell.includes('.') && field.length > 0, `key ${cell}.${field}`);
        assert.equal(typeof value, 'string');
      }
    }),
    { numRuns: RUNS * 3, seed: 6006 },
  );
});

const wellFormed = (opts) => fc.string({ unit: 'grapheme', ...opts });
test('parseHash(buildHash(lesson, params)) gives back the lesson, the params, embed and host', () => {
  const param = fc
    .record({
      cell: wellFormed({ minLength: 1, maxLength: 12 }).filter((s) => !s.includes('.')),
      field: wellFormed({ minLength: 1, maxLength: 12 }),
      text: wellFormed({ maxLength: 40 }),
    })
    .map((p) => ({ ...p })); // plain objects, as parseHash returns
  fc.assert(
    fc.property(
      wellFormed({ minLength: 1, maxLength: 20 }).filter((s) => !/^\/|\/$/.test(s)),
      fc.array(param, { maxLength: 8 }),
      fc.boolean(),
      fc.constantFrom(null, 'https://course.example', 'http://127.0.0.1:8080', 'https://xn--bcher-kva.example'),
      (lessonId, params, embed, host) => {
        const route = parseHash(buildHash(lessonId, params, { embed, host }));
        assert.deepStrictEqual(
          {
            lessonId: route.lessonId,
            params: route.params,
            embed: route.embed,
            host: route.host,
            issues: route.issues,
          },
          { lessonId, params, embed, host: embed ? host : null, issues: [] },
        );
      },
    ),
    { numRuns: RUNS, seed: 6007 },
  );
});

// A stand-in cell with the AttnCell interface (as in permalink.test.js).
class FakeCell {
  static stateFields = SPECS;
  localName = 'attn-fake';
  constructor(id) {
    this.id = id;
    this.state = structuredClone(Object.fromEntries(Object.entries(SPECS).map(([k, s]) => [k, s.default])));
  }
  getState() {
    return this.state;
  }
  setStateFromText(texts) {
    for (const [name, value] of Object.entries(texts)) this.state[name] = parseField(value, name, SPECS[name]);
  }
}

test('applyState: any params leave each cell either fully set from valid text or at its defaults', () => {
  const param = fc.record({
    cell: fc.constantFrom('a', 'b', 'missing', '__proto__', 'constructor'),
    field: fc.constantFrom(...Object.keys(SPECS), '__proto__', 'toString', 'nope'),
    text,
  });
  fc.assert(
    fc.property(fc.array(param, { maxLength: 12 }), (params) => {
      const cells = [new FakeCell('a'), new FakeCell('b')];
      const before = cells.map((c) => structuredClone(c.state));
      const { issues, defaulted } = timed('applyState', () => applyState({ querySelectorAll: () => cells }, params));
      for (const issue of issues) assert.ok(typeof issue === 'string' && issue.length < 400, issue);
      cells.forEach((cell, i) => {
        if (defaulted.includes(cell.id)) assert.deepStrictEqual(cell.state, before[i], `${cell.id} changed`);
        for (const [name, spec] of Object.entries(SPECS)) checkValue(cell.state[name], spec, `${cell.id}.${name}`);
      });
    }),
    { numRuns: RUNS, seed: 6008 },
  );
});
