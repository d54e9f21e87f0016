// Permalink state (web/src/shell/permalink.js) without a browser: cells are stand-ins
// with the same interface as AttnCell (a state table, getState, setStateFromText).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyState, collectState } from '../../web/src/shell/permalink.js';
import { buildHash, MAX_HOST, parseHash, parseOrigin } from '../../web/src/shell/route.js';
import { parseField } from '../../web/src/cells/base/state-fields.js';

class FakeHeatmap {
  static stateFields = {
    values: { type: 'matrix', default: [[1]], min: -1e9, max: 1e9 },
    min: { type: 'number', default: null, min: -1e9, max: 1e9 },
  };
  localName = 'attn-heatmap';
  constructor(id, state) {
    this.id = id;
    Object.assign(this, state);
  }
  getState() {
    return { values: this.values, min: this.min };
  }
  setStateFromText(texts) {
    for (const [name, text] of Object.entries(texts))
      this[name] = parseField(text, name, FakeHeatmap.stateFields[name]);
  }
}

const rootOf = (...cells) => ({ querySelectorAll: () => cells });

test('an unset optional field (null) is left out of the permalink, and the link restores', () => {
  const source = new FakeHeatmap('h', {
    values: [
      [1, 2],
      [3, 4],
    ],
    min: null,
  });
  const params = collectState(rootOf(source));
  assert.deepEqual(params, [{ cell: 'h', field: 'values', text: '1,2;3,4' }]);

  const target = new FakeHeatmap('h', { values: [[0]], min: null });
  assert.deepEqual(applyState(rootOf(target), params), { issues: [], defaulted: [] });
  assert.deepEqual(target.values, [
    [1, 2],
    [3, 4],
  ]);
  assert.equal(target.min, null);
});

test('a set optional field is written and read back', () => {
  const source = new FakeHeatmap('h', { values: [[1]], min: -2.5 });
  const params = collectState(rootOf(source));
  assert.deepEqual(params.at(-1), { cell: 'h', field: 'min', text: '-2.5' });
  const target = new FakeHeatmap('h', { values: [[0]], min: null });
  applyState(rootOf(target), params);
  assert.equal(target.min, -2.5);
});

test('a field given twice is refused (not last-wins): the cell keeps its settings and the link says so', () => {
  const target = new FakeHeatmap('h', { values: [[0]], min: null });
  const params = [
    { cell: 'h', field: 'values', text: '5' },
    { cell: 'h', field: 'min', text: '1' },
    { cell: 'h', field: 'min', text: '2' },
  ];
  assert.deepEqual(applyState(rootOf(target), params), {
    issues: ['h.min: given more than once'],
    defaulted: ['h'],
  });
  assert.deepEqual(target.values, [[0]]);
  assert.equal(target.min, null);
});

test('embed given twice: the first one counts and the link says so (embed=1&embed=0 is not last-wins)', () => {
  for (const [query, embed] of [
    ['embed=1&embed=0', true],
    ['embed=0&embed=1', false],
    ['embed=1&embed=1', true],
  ]) {
    const route = parseHash(`#/mix?${query}`);
    assert.equal(route.embed, embed, query);
    assert.deepEqual(route.issues, ['embed: given more than once (the first one counts)'], query);
  }
  assert.deepEqual(parseHash('#/mix?embed=1').issues, []);
});

/** A merged cell (softmax-temperature's lab took over the cells `lab` and `three`): data-aliases. */
class FakeLab {
  static stateFields = {
    logits: { type: 'numbers', default: [1.2, 4.5, 2, 0.8], minLength: 1, maxLength: 64, min: -1e4, max: 1e4 },
    temperature: { type: 'number', default: 1, min: 0, max: Infinity },
    temperatures: { type: 'numbers', default: [0.25, 1, 5], minLength: 1, maxLength: 4, min: 1e-3, max: 1e3 },
  };
  localName = 'attn-softmax-temperature';
  constructor(id, aliases) {
    this.id = id;
    this.dataset = { aliases };
    Object.assign(this, { logits: [1.2, 4.5, 2, 0.8], temperature: 1, temperatures: [0.25, 1, 5] });
  }
  getState() {
    return { logits: this.logits, temperature: this.temperature, temperatures: this.temperatures };
  }
  setStateFromText(texts) {
    for (const [name, text] of Object.entries(texts)) this[name] = parseField(text, name, FakeLab.stateFields[name]);
  }
}

const linkOf = (query) => parseHash(`#/softmax-temperature?${query}`).params;

test('old ids of a merged cell (data-aliases) open at the state they linked to', () => {
  const cases = [
    ['t.temperature=2', { temperature: 2 }],
    ['lab.temperature=0&lab.logits=1,3,3,0', { temperature: 0, logits: [1, 3, 3, 0] }],
    ['three.logits=1,2&three.temperatures=0.5,2', { logits: [1, 2], temperatures: [0.5, 2] }],
    // an old full link holds every cell: the value the reader had changed wins, wherever it is
    [
      't.logits=1.2,4.5,2,0.8&t.temperature=2.51&three.logits=1.2,4.5,2,0.8&three.temperatures=0.25,1,5&lab.logits=1.2,4.5,2,0.8&lab.temperature=1',
      { temperature: 2.51, logits: [1.2, 4.5, 2, 0.8] },
    ],
    [
      't.logits=1.2,4.5,2,0.8&t.temperature=1&three.logits=1.2,4.5,2,0.8&three.temperatures=0.1,10&lab.logits=1,3,3,0&lab.temperature=Infinity',
      { temperature: Infinity, logits: [1, 3, 3, 0], temperatures: [0.1, 10] },
    ],
    // both changed: the cell's own id comes first in the link and wins
    ['t.temperature=2&lab.temperature=0', { temperature: 2 }],
  ];
  for (const [query, expected] of cases) {
    const cell = new FakeLab('t', 'lab three');
    assert.deepEqual(applyState(rootOf(cell), linkOf(query)), { issues: [], defaulted: [] }, query);
    for (const [field, value] of Object.entries(expected)) assert.deepEqual(cell[field], value, `${query}: ${field}`);
  }
});

test('a bad setting under an old id is named by that id; an alias never shadows a cell that has the id', () => {
  const cell = new FakeLab('t', 'lab three');
  assert.deepEqual(applyState(rootOf(cell), linkOf('lab.temperature=-1&lab.colour=red')), {
    issues: ['lab.temperature: -1 is outside [0, Infinity]', 'lab.colour: not a setting of this cell'],
    defaulted: ['lab'],
  });
  assert.equal(cell.temperature, 1);
  const other = new FakeHeatmap('lab', { values: [[0]], min: null });
  const merged = new FakeLab('t', 'lab');
  applyState(rootOf(other, merged), linkOf('lab.values=7'));
  assert.deepEqual(other.values, [[7]]);
  // collectState writes the merged cell under its own id only
  assert.deepEqual(
    collectState(rootOf(merged)).map((p) => p.cell),
    ['t', 't', 't'],
  );
});

test('a number too large for a double is not the limit Infinity: only the word is', () => {
  const cell = new FakeLab('t', '');
  assert.deepEqual(applyState(rootOf(cell), linkOf('t.temperature=1e999')).issues, ['t.temperature: must be finite']);
  assert.deepEqual(applyState(rootOf(cell), linkOf(`t.temperature=${'9'.repeat(400)}`)).issues, [
    't.temperature: must be finite',
  ]);
  assert.deepEqual(applyState(rootOf(cell), linkOf('t.temperature=Infinity')).issues, []);
  assert.equal(cell.temperature, Infinity);
});

test('host: an http(s) origin, normalised, kept only with embed=1', () => {
  const hostOf = (query) => parseHash(`#/mix?${query}`);
  for (const [given, origin] of [
    ['https://course.example', 'https://course.example'],
    ['https://course.example/', 'https://course.example'],
    ['HTTPS://Course.Example:443', 'https://course.example'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://localhost:3000/', 'http://localhost:3000'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['https%3A%2F%2Fcourse.example', 'https://course.example'],
  ]) {
    assert.deepEqual(parseOrigin(decodeURIComponent(given)), { origin }, given);
    const route = hostOf(`embed=1&host=${given}`);
    assert.equal(route.host, origin, given);
    assert.deepEqual(route.issues, [], given);
    assert.equal(hostOf(`host=${given}&embed=1`).host, origin, `${given}, before embed`);
  }
});

test('host: anything but an http(s) origin is refused with a notice, and no host is kept', () => {
  const refused = [
    'javascript:alert(1)',
    'javascript://course.example/%0Aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'ftp://course.example',
    'file:///etc/passwd',
    'blob:https://course.example/1',
    '/course',
    '//course.example',
    'course.example',
    'https:course.example',
    'https://',
    'https://:443',
    'https://course.example/grades',
    'https://course.example//',
    'https://course.example?x=1',
    'https://course.example/?',
    'https://course.example#top',
    'https://user:pw@course.example',
    'https://evil.example@course.example',
    'https://course.example\\evil',
    'https://course.example:99999',
    'https://course example',
    ' https://course.example',
    'https://course.example\u0000',
    'https://course.example\n',
    '<script>alert(1)</script>',
    '*',
    'null',
    '',
  ];
  for (const text of refused) {
    const result = parseOrigin(text);
    assert.ok('error' in result, `${JSON.stringify(text)} gave ${JSON.stringify(result)}`);
    assert.match(result.error, /^host: ".*" is not a web origin such as https:\/\/course\.example$/s, text);
    const route = parseHash(`#/mix?embed=1&host=${encodeURIComponent(text)}`);
    assert.equal(route.host, null, text);
    assert.equal(route.embed, true, text);
    assert.deepEqual(route.issues, [result.error], text);
  }
  const long = `https://${'a'.repeat(MAX_HOST)}.example`;
  assert.deepEqual(parseHash(`#/mix?embed=1&host=${long}`).issues, [
    `host: is too long (${long.length} characters, at most ${MAX_HOST})`,
  ]);
  assert.match(parseOrigin('x'.repeat(1e6)).error, /too long/);
  // quoted untrusted text is clipped
  assert.ok(parseOrigin(`javascript:${'x'.repeat(200)}`).error.length < 120);
});

test('host without embed=1 is ignored and the link says so; given twice, the first counts', () => {
  for (const query of ['host=https://course.example', 'embed=0&host=https://course.example']) {
    const route = parseHash(`#/mix?${query}`);
    assert.equal(route.host, null, query);
    assert.deepEqual(route.issues, ['host: used only with embed=1, so ignored'], query);
  }
  const twice = parseHash('#/mix?embed=1&host=https://course.example&host=https://evil.example');
  assert.equal(twice.host, 'https://course.example');
  assert.deepEqual(twice.issues, ['host: given more than once (the first one counts)']);
  assert.equal(parseHash('#/mix?embed=1').host, null);
});

test('buildHash keeps the host with embed (the URL the app rewrites keeps reporting), not without', () => {
  const params = [{ cell: 't', field: 'temperature', text: '2' }];
  const hash = buildHash('mix', params, { embed: true, host: 'http://127.0.0.1:8080' });
  assert.equal(hash, '#/mix?t.temperature=2&embed=1&host=http://127.0.0.1:8080');
  assert.equal(parseHash(hash).host, 'http://127.0.0.1:8080');
  assert.equal(buildHash('mix', params, { embed: false, host: 'https://course.example' }), '#/mix?t.temperature=2');
});
