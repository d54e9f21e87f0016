/**
 * A lesson as a Jupyter notebook (nbformat 4.5, Python 3 kernel), from plain parts in reading order:
 *
 *   { kind: 'markdown', text }                      prose, maths as $…$ / $$…$$
 *   { kind: 'code', source, cell? }                 Python; `cell` is the id of the lesson cell it
 *                                                   belongs to, for `# needs: <cell id>`
 *   { kind: 'checks', cell, checks: [{ label, python, comparison, threshold, tolerance, yesNo }] }
 *                                                   a lab's Verified checks: one assert each, with
 *                                                   the page's threshold (attn-check.js)
 *   { kind: 'exercise', id, label, prompt, options?, answer, explanation }
 *                                                   Markdown texts; `answer` and `explanation` go
 *                                                   into the teacher's notebook only
 *
 * notebookFromParts({ id, title, summary?, parts, teacher?, sdpaReference }) → the notebook as a
 * plain object (JSON.stringify it for a .ipynb file). Its cells:
 *   - the title and summary, and one line on how the notebook came about;
 *   - where any code calls F.scaled_dot_product_attention, `sdpaReference`: the cell that supplies
 *     PyTorch 2's documented reference on PyTorch 1.13, guarded by hasattr (sdpa_reference.py, which
 *     the Python test layer runs too), so the notebook needs no file beside it;
 *   - the parts in order. A code cell whose first line is `# needs: <cell id>` is moved after the
 *     last code cell of that lesson cell when it stood before it, and loses the marker. So is a
 *     checks part (a lesson's text may put its Verified line above the code): its asserts need the
 *     code's names, so the checks of a cell with no code cell are left out; consecutive checks of
 *     one cell make one code cell;
 *   - each exercise as Markdown (its label as a heading, the question, the options as a list) and
 *     an answer cell: empty for a learner, the answer and its explanation for a teacher.
 * Cell ids are `<lesson id>-<n>` (nbformat 4.5). A text that still holds an `<attn-` tag or a
 * `{{` placeholder is a bug of the caller: it throws, naming the cell.
 *
 * No DOM here: notebook-dom.js reads the parts from a lesson page, and the build and the tests
 * call this module in Node too.
 */

const NEEDS = /^#\s*needs:\s*(\S+)[^\n]*\n?/;
const LEFTOVER = /<attn-|\{\{/;

/** `text` as nbformat's list of lines, each but the last ending in "\n". */
function lines(text) {
  const all = text.split('\n');
  return all.map((line, i) => (i < all.length - 1 ? `${line}\n` : line)).filter((line) => line !== '');
}

/** The lesson cell a part must follow the code of: a code cell's `# needs:`, or a checks part's cell. */
function needed(part) {
  if (part.kind === 'checks') return part.cell;
  return (part.kind === 'code' && part.source.match(NEEDS)?.[1]) || null;
}

/**
 * The parts in an order that meets every `# needs:` (markers removed) and puts every checks part
 * after its cell's code; checks of a cell with no code are left out, and consecutive checks parts
 * of one cell merged.
 */
function orderCode(parts) {
  const out = [...parts];
  for (let i = 0; i < out.length; i += 1) {
    const part = out[i];
    const cell = needed(part);
    if (!cell) continue;
    let last = -1;
    out.forEach((other, j) => {
      if (other.kind === 'code' && other.cell === cell && other !== part) last = j;
    });
    if (part.kind === 'code') {
      if (last < 0) throw new Error(`notebook: a code cell needs "${cell}", which has no code cell in this lesson`);
      out[i] = { ...part, source: part.source.replace(NEEDS, '') };
    } else if (last < 0) {
      out.splice(i, 1); // checks with nothing to assert on
      i -= 1;
      continue;
    }
    if (last > i) {
      const [moving] = out.splice(i, 1);
      let at = last; // right after the code it needs (now at last - 1), after checks moved there before it
      while (part.kind === 'checks' && out[at]?.kind === 'checks' && out[at].cell === cell) at += 1;
      out.splice(at, 0, moving);
      i -= 1; // the part that moved up into place i is still to be read
    }
  }
  const merged = [];
  for (const part of out) {
    const before = merged.at(-1);
    if (part.kind === 'checks' && before?.kind === 'checks' && before.cell === part.cell) {
      merged[merged.length - 1] = { ...before, checks: [...before.checks, ...part.checks] };
    } else merged.push(part);
  }
  return merged;
}

const OPERATORS = { le: '<=', lt: '<', ge: '>=', gt: '>' };
const SYMBOLS = { le: '≤', lt: '<', ge: '≥', gt: '>', eq: '=' };

/** A JS number as a Python literal. */
function pythonNumber(x) {
  if (x === Infinity) return 'float("inf")';
  if (x === -Infinity) return 'float("-inf")';
  if (!Number.isFinite(x)) throw new Error(`notebook: a check's threshold is ${x}`);
  return String(x);
}

/** One check as a Python assert, with the page's comparison and threshold; its label says which. */
function assertLine({ label, python, comparison = 'le', threshold, tolerance = 0, yesNo }) {
  if (yesNo) return `assert ${python}, ${JSON.stringify(label)}`;
  const message = JSON.stringify(`${label} ${SYMBOLS[comparison] ?? comparison} ${threshold}`);
  if (comparison === 'eq') {
    return `assert abs(float(${python}) - ${pythonNumber(threshold)}) <= ${pythonNumber(tolerance)}, ${message}`;
  }
  if (!OPERATORS[comparison]) throw new Error(`notebook: unknown check comparison "${comparison}"`);
  return `assert float(${python}) ${OPERATORS[comparison]} ${pythonNumber(threshold)}, ${message}`;
}

function checksCode({ cell, checks }) {
  const title = `# The page's checks${cell ? ` of "${cell}"` : ''} (its Verified line), with the same thresholds`;
  return [title, ...checks.map(assertLine)].join('\n');
}

function exerciseMarkdown({ label, prompt, options }) {
  const list = options?.length ? `\n\n${options.map((o) => `- ${o}`).join('\n')}` : '';
  return `### ${label}\n\n${prompt}${list}`;
}

function answerMarkdown({ answer, explanation }, teacher) {
  if (!teacher) return '';
  return [answer && `**Answer:** ${answer}`, explanation].filter(Boolean).join('\n\n');
}

/**
 * @param {{ id: string, title: string, summary?: string, parts: object[], teacher?: boolean,
 *   sdpaReference: string }} lesson
 * @returns {object} an nbformat 4.5 notebook
 */
export function notebookFromParts({ id, title, summary = '', parts, teacher = false, sdpaReference }) {
  if (!/^[a-z0-9-]+$/.test(id)) throw new Error(`notebook: bad lesson id "${id}"`);
  const cells = [];
  const add = (type, text, metadata = {}) => {
    const where = `${id}, cell ${cells.length + 1}`;
    if (LEFTOVER.test(text))
      throw new Error(`notebook: ${where} still holds a tag or placeholder: ${text.slice(0, 80)}`);
    const cell = { cell_type: type, id: `${id}-${cells.length + 1}`, metadata, source: lines(text) };
    if (type === 'code') Object.assign(cell, { execution_count: null, outputs: [] });
    cells.push(cell);
  };
  const ordered = orderCode(parts);
  const shim = ordered.some((p) => p.kind === 'code' && p.source.includes('scaled_dot_product_attention'));
  const note = teacher
    ? 'The teacher’s notebook of this attnbook lesson: the answers to its exercises are filled in.'
    : 'This attnbook lesson as a notebook: its text, its code in the state you left it, and an empty cell after each exercise for your answer.';
  add('markdown', [`# ${title}`, summary, `_${note}_`].filter(Boolean).join('\n\n'));
  if (shim) {
    if (!sdpaReference)
      throw new Error('notebook: the code calls F.scaled_dot_product_attention and no reference cell was given');
    add('code', sdpaReference.trim());
  }
  for (const part of ordered) {
    if (part.kind === 'markdown') {
      if (part.text.trim()) add('markdown', part.text.trim());
    } else if (part.kind === 'code') {
      add('code', part.source.trim());
    } else if (part.kind === 'checks') {
      add('code', checksCode(part), { tags: ['checks'] });
    } else if (part.kind === 'exercise') {
      add('markdown', exerciseMarkdown(part));
      add('markdown', answerMarkdown(part, teacher), { tags: ['answer'], attnbook: { exercise: part.id } });
    } else {
      throw new Error(`notebook: unknown part kind "${part.kind}"`);
    }
  }
  return {
    cells,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      language_info: { name: 'python' },
      attnbook: { lesson: id, teacher },
    },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

/** The notebook's file text: JSON, one space indent as Jupyter writes it, and a final newline. */
export function notebookText(notebook) {
  return `${JSON.stringify(notebook, null, 1)}\n`;
}
