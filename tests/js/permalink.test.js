// Permalink state (web/src/shell/permalink.js) without a browser: cells are stand-ins
// with the same interface as AttnCell (a state table, getState, setStateFromText).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyState, collectState } from '../../web/src/shell/permalink.js';
import { parseHash } from '../../web/src/shell/route.js';
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
