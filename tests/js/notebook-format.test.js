// The lesson-as-notebook writer (web/src/shell/notebook-format.js) in Node: nbformat 4.5's shape,
// `# needs:` met by moving a cell after the code it needs, the exercises with an empty answer cell
// (the answers only in the teacher's notebook), the PyTorch 1.13 cell where code needs it, and
// the errors for a left-over tag or placeholder, an unmet need and a bad id.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { notebookFromParts, notebookText } from '../../web/src/shell/notebook-format.js';

const exercise = {
  kind: 'exercise',
  id: 'cold',
  label: 'Exercise 1: the cold limit',
  prompt: 'Where does $y(\\tau)$ go as $\\tau \\to 0$?',
  options: ['To the mean', 'To $v_1$'],
  answer: 'To $v_1$',
  explanation: 'The largest score wins.',
};
const parts = [
  { kind: 'markdown', text: '## Scores\n\nA score $s_j$ for each key.' },
  { kind: 'code', source: '# needs: am\nplt.imshow(A)', cell: 'plot' },
  { kind: 'code', source: 'import numpy as np\nA = np.eye(3)', cell: 'am' },
  exercise,
  { kind: 'code', source: 'y = F.scaled_dot_product_attention(q, k, v)', cell: 'sdpa' },
];

const text = (cell) => cell.source.join('');
const sdpaReference =
  'if not hasattr(F, "scaled_dot_product_attention"):\n    F.scaled_dot_product_attention = reference\n';

test('a notebook is nbformat 4.5 with a Python 3 kernel, ids, and its parts in reading order', () => {
  const nb = notebookFromParts({
    id: 'convex-hull',
    title: 'Mixtures stay inside the hull',
    summary: 'S.',
    parts,
    sdpaReference,
  });
  assert.equal(nb.nbformat, 4);
  assert.equal(nb.nbformat_minor, 5);
  assert.deepEqual(nb.metadata.kernelspec, { name: 'python3', display_name: 'Python 3', language: 'python' });
  assert.equal(new Set(nb.cells.map((c) => c.id)).size, nb.cells.length);
  for (const cell of nb.cells) {
    assert.match(cell.id, /^[a-zA-Z0-9-_]{1,64}$/);
    assert.ok(Array.isArray(cell.source));
    if (cell.cell_type === 'code') assert.deepEqual([cell.execution_count, cell.outputs], [null, []]);
  }
  assert.match(text(nb.cells[0]), /^# Mixtures stay inside the hull\n\nS\./);
  assert.equal(text(nb.cells[1]), sdpaReference.trim());
  assert.equal(text(nb.cells[2]), '## Scores\n\nA score $s_j$ for each key.');
  // the plot needs am: it moves after am's code and loses its marker
  assert.equal(text(nb.cells[3]), 'import numpy as np\nA = np.eye(3)');
  assert.equal(text(nb.cells[4]), 'plt.imshow(A)');
  assert.equal(JSON.parse(notebookText(nb)).cells.length, nb.cells.length);
});

test('an exercise is Markdown and an empty answer cell; the teacher’s notebook fills it in', () => {
  const learner = notebookFromParts({ id: 'l', title: 'T', parts: [exercise] });
  const [, question, answer] = learner.cells;
  assert.equal(
    text(question),
    '### Exercise 1: the cold limit\n\nWhere does $y(\\tau)$ go as $\\tau \\to 0$?\n\n- To the mean\n- To $v_1$',
  );
  assert.deepEqual(answer.source, []);
  assert.deepEqual(answer.metadata.tags, ['answer']);
  assert.doesNotMatch(JSON.stringify(learner), /largest score wins/);
  const teacher = notebookFromParts({ id: 'l', title: 'T', parts: [exercise], teacher: true });
  assert.equal(text(teacher.cells[2]), '**Answer:** To $v_1$\n\nThe largest score wins.');
  assert.equal(teacher.metadata.attnbook.teacher, true);
});

test('no PyTorch cell where no code calls scaled_dot_product_attention', () => {
  const nb = notebookFromParts({ id: 'l', title: 'T', parts: parts.slice(0, 3) });
  assert.equal(nb.cells.filter((c) => c.cell_type === 'code').length, 2);
});

test('a left-over tag or placeholder, an unmet need, an unknown part, a bad id and a missing reference cell are refused by name', () => {
  assert.throws(
    () => notebookFromParts({ id: 'l', title: 'T', parts: [{ kind: 'code', source: 'x = {{tau}}' }] }),
    /l, cell 2 still holds a tag or placeholder: x = \{\{tau\}\}/,
  );
  assert.throws(
    () => notebookFromParts({ id: 'l', title: 'T', parts: [{ kind: 'markdown', text: '<attn-bars></attn-bars>' }] }),
    /still holds a tag/,
  );
  assert.throws(
    () => notebookFromParts({ id: 'l', title: 'T', parts: [{ kind: 'code', source: '# needs: am\nx', cell: 'b' }] }),
    /needs "am", which has no code cell/,
  );
  assert.throws(
    () => notebookFromParts({ id: 'l', title: 'T', parts: [{ kind: 'figure' }] }),
    /unknown part kind "figure"/,
  );
  assert.throws(() => notebookFromParts({ id: 'Bad id', title: 'T', parts: [] }), /bad lesson id "Bad id"/);
  assert.throws(
    () => notebookFromParts({ id: 'l', title: 'T', parts: parts.slice(4) }),
    /calls F.scaled_dot_product_attention and no reference cell was given/,
  );
  assert.throws(
    () => notebookFromParts({ id: 'l', title: 'T', parts: parts.slice(4) }),
    /calls F.scaled_dot_product_attention and no reference cell was given/,
  );
});

test('checks written above their cell’s code follow it, merged; checks of a cell with no code are left out', () => {
  const check = (cell, label) => ({ kind: 'checks', cell, checks: [{ label, python: 'x', threshold: 1 }] });
  const nb = notebookFromParts({
    id: 'l',
    title: 'T',
    parts: [
      check('att', 'first'),
      check('att', 'second'),
      check('figure', 'of a cell with no code'),
      { kind: 'markdown', text: 'Prose.' },
      { kind: 'code', source: 'x = 0.5', cell: 'att' },
      { kind: 'markdown', text: 'More.' },
    ],
  });
  assert.deepEqual(
    nb.cells.slice(1).map((c) => (c.metadata.tags?.[0] ?? c.cell_type) + ': ' + text(c).split('\n').at(-1)),
    ['markdown: Prose.', 'code: x = 0.5', 'checks: assert float(x) <= 1, "second ≤ 1"', 'markdown: More.'],
  );
  assert.match(text(nb.cells[3]), /assert float\(x\) <= 1, "first ≤ 1"\nassert/);
});

test('a lab’s checks become one assert each, with the page’s comparison and threshold', () => {
  const checks = {
    kind: 'checks',
    cell: 'am',
    checks: [
      { label: 'max $|\\sum_j A_{ij} - 1|$', python: 'abs(A.sum(-1) - 1).max()', comparison: 'le', threshold: 1e-6 },
      { label: 'smallest entry', python: 'A.min()', comparison: 'ge', threshold: 0 },
      { label: 'width', python: 'w', comparison: 'eq', threshold: 3, tolerance: 0.5 },
      { label: 'Y.shape = (5, 4)', python: 'tuple(Y.shape) == (5, 4)', yesNo: true },
    ],
  };
  const nb = notebookFromParts({ id: 'l', title: 'T', parts: [{ kind: 'code', source: 'A = 1', cell: 'am' }, checks] });
  const cell = nb.cells.at(-1);
  assert.deepEqual(cell.metadata.tags, ['checks']);
  assert.equal(
    text(cell),
    [
      `# The page's checks of "am" (its Verified line), with the same thresholds`,
      'assert float(abs(A.sum(-1) - 1).max()) <= 0.000001, "max $|\\\\sum_j A_{ij} - 1|$ ≤ 0.000001"',
      'assert float(A.min()) >= 0, "smallest entry ≥ 0"',
      'assert abs(float(w) - 3) <= 0.5, "width = 3"',
      'assert tuple(Y.shape) == (5, 4), "Y.shape = (5, 4)"',
    ].join('\n'),
  );
  assert.throws(
    () =>
      notebookFromParts({
        id: 'l',
        title: 'T',
        parts: [{ kind: 'checks', checks: [{ label: 'x', python: 'x', comparison: 'near', threshold: 1 }] }],
      }),
    /unknown check comparison "near"/,
  );
});
