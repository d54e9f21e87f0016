// The attention cell's PyTorch code (web/src/cells/figures/attention-model.js ATTENTION_CODE, which
// <attn-code for="<id>"> shows with the cell's values filled in) run by Debian's Python for several
// states of the cell: its printed weights and output must be the ones the core computed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
import { pythonLiteral } from '../../web/src/cells/base/cell-support.js';
import { ATTENTION_CODE, computeAttention } from '../../web/src/cells/figures/attention-model.js';

const PYTHON = '/usr/bin/python3'; // Debian's, with PyTorch

/** The template with {{name}} filled as attn-code fills it (pythonLiteral of each value). */
const fill = (values) => ATTENTION_CODE.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name) => pythonLiteral(values[name]));

const base = {
  q: [
    [1, 0],
    [0, 2],
    [1, 1],
  ],
  k: [
    [1, 0],
    [0, 1],
    [2, 1],
  ],
  v: [
    [1, 2],
    [3, 4],
    [5, 6],
  ],
  mask: 'causal',
  temperature: 1,
  scale: null,
};

const states = [
  ['the fixture lesson’s state', {}],
  ['no mask, τ = 2, scale 0.5', { mask: 'none', temperature: 2, scale: 0.5 }],
  ['τ = 0 (argmax) under the causal mask', { temperature: 0 }],
  ['τ = ∞ (equal weights) with no mask', { mask: 'none', temperature: Infinity }],
  [
    'a 0/1 mask with a row that sees no key',
    {
      mask: [
        [1, 0, 1],
        [0, 0, 0],
        [1, 1, 0],
      ],
    },
  ],
  [
    'two queries over three keys, ties at τ = 0',
    {
      q: [
        [0, 0],
        [1, 1],
      ],
      mask: 'none',
      temperature: 0,
    },
  ],
];

for (const [name, change] of states) {
  test(`the code prints the core's weights and output: ${name}`, async () => {
    const engine = await loadAttention();
    const state = { ...base, ...change };
    const result = computeAttention(engine, state);
    const code = `${fill(state)}\nimport json\nprint(json.dumps({"weights": weights.tolist(), "output": output.tolist()}))\n`;
    const run = spawnSync(PYTHON, ['-c', code], { encoding: 'utf8', timeout: 120000 });
    assert.equal(run.status, 0, `Python failed:\n${run.stderr.slice(-2000)}\n${code}`);
    const printed = JSON.parse(run.stdout.trim().split('\n').at(-1));
    for (const key of ['weights', 'output']) {
      printed[key].flat().forEach((x, i) => {
        const want = result[key].flat()[i];
        assert.ok(Math.abs(x - want) <= 1e-5, `${key} entry ${i}: Python ${x}, core ${want}`);
      });
    }
  });
}
