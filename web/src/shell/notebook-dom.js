/**
 * lessonParts(body, { teacher }) → the parts of notebook-format.js, read from a rendered lesson
 * (its .lesson-body) in reading order:
 *   - prose as Markdown: headings, paragraphs, lists, emphasis, code, links; the maths back to its
 *     TeX, from the annotation KaTeX writes beside its rendering ($…$, and $$…$$ for a display);
 *   - every attn-code's current `code`, in a cell's shadow tree or written in the text, with the id
 *     of the cell it belongs to (for `# needs:`), and after a cell's code its checks that have a
 *     Python form (attn-check `python`), to be asserted with the page's thresholds;
 *   - each attn-exercise: its label, question, options, and the answer and explanation (which only
 *     the teacher's notebook shows). A cell inside an exercise's explanation shows the answer: its
 *     code is read for the teacher only.
 * The notebook therefore holds the page's state as it is: a learner's edits carry over.
 */

const TEX = 'annotation[encoding="application/x-tex"]';
const SKIP = new Set(['script', 'style', 'template', 'button', 'svg', 'canvas', 'input', 'select', 'textarea']);
const BLOCKS = new Set(['p', 'div', 'ul', 'ol', 'li', 'h2', 'h3', 'h4', 'pre', 'blockquote', 'table', 'figure']);

function tex(el) {
  return (el.querySelector(TEX)?.textContent ?? '').trim();
}

/** The Markdown of a node's inline content. */
function inline(node) {
  let out = '';
  for (const child of node.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) {
      out += child.textContent.replace(/\s+/g, ' ');
      continue;
    }
    if (child.nodeType !== Node.ELEMENT_NODE) continue;
    const name = child.localName;
    if (SKIP.has(name) || child.getAttribute('aria-hidden') === 'true') continue;
    if (child.classList.contains('katex-display')) out += `\n\n$$\n${tex(child)}\n$$\n\n`;
    else if (child.classList.contains('katex')) out += `$${tex(child)}$`;
    else if (name === 'em' || name === 'i' || name === 'cite') out += `_${inline(child).trim()}_`;
    else if (name === 'strong' || name === 'b') out += `**${inline(child).trim()}**`;
    else if (name === 'code') out += `\`${child.textContent}\``;
    else if (name === 'a') out += `[${inline(child).trim()}](${child.getAttribute('href') ?? ''})`;
    else if (name === 'br') out += '\n';
    else if (!name.startsWith('attn-')) out += inline(child);
  }
  return out;
}

/** The Markdown of a block element (and of its blocks), or '' for none. */
function block(el) {
  const name = el.localName;
  if (/^h[2-4]$/.test(name)) return `${'#'.repeat(Number(name[1]))} ${inline(el).trim()}`;
  if (name === 'ul' || name === 'ol') {
    return [...el.children].map((li, i) => `${name === 'ol' ? `${i + 1}.` : '-'} ${inline(li).trim()}`).join('\n');
  }
  if (name === 'pre') return `\`\`\`\n${el.textContent.replace(/\n$/, '')}\n\`\`\``;
  if (name === 'blockquote')
    return blocks(el)
      .map((t) => `> ${t}`)
      .join('\n>\n');
  const hasBlocks = [...el.children].some((c) => BLOCKS.has(c.localName) || c.localName.startsWith('attn-'));
  return hasBlocks ? blocks(el).join('\n\n') : inline(el).trim();
}

function blocks(el) {
  return [...el.children].map(block).filter(Boolean);
}

/** The elements under `root` that pass `test`, its shadow trees (and theirs) included, in order. */
function deepElements(root, test) {
  const found = [];
  for (const el of root.querySelectorAll('*')) {
    if (test(el)) found.push(el);
    if (el.shadowRoot) found.push(...deepElements(el.shadowRoot, test));
  }
  return found;
}

/** The elements named `name` in a cell's shadow tree (and in the cells inside it), in order. */
function inShadow(host, name) {
  return host.shadowRoot ? deepElements(host.shadowRoot, (el) => el.localName === name) : [];
}

function codePart(el, cell) {
  return { kind: 'code', source: String(el.code ?? ''), cell };
}

/** An attn-check's Python form, for an assert (notebook-format.js). */
function pythonCheck({ label, python, comparison, threshold, tolerance, pass }) {
  return { label, python, comparison, threshold, tolerance, yesNo: threshold === undefined && pass !== undefined };
}

/** The checks of a cell that have a Python form (attn-check `python`), in order. */
function pythonChecks(host) {
  return inShadow(host, 'attn-check')
    .filter((check) => check.python)
    .map(pythonCheck);
}

/** Parts of the cells written inside `el` (light DOM), in order: each one's code, then its checks. */
function cellParts(el) {
  const parts = [];
  for (const cell of [el, ...el.querySelectorAll('*')]) {
    if (cell.localName === 'attn-code') parts.push(codePart(cell, cell.for || cell.id));
    else if (cell.localName === 'attn-check') {
      // written in the lesson's text, wired to a cell: asserted after that cell's code (if it has any)
      if (cell.python && cell.for) parts.push({ kind: 'checks', cell: cell.for, checks: [pythonCheck(cell)] });
    } else if (cell.localName.startsWith('attn-')) {
      const codes = inShadow(cell, 'attn-code').map((c) => codePart(c, cell.id));
      const checks = codes.length ? pythonChecks(cell) : []; // asserts need the code's variables
      parts.push(...codes, ...(checks.length ? [{ kind: 'checks', cell: cell.id, checks }] : []));
    }
  }
  return parts;
}

function exerciseParts(el, teacher) {
  const own = [...el.children];
  const slot = (name) => own.filter((c) => c.getAttribute('slot') === name);
  const question = own.filter(
    (c) => !c.hasAttribute('slot') && !c.localName.startsWith('attn-') && c.localName !== 'option',
  );
  const options = own.filter((c) => c.localName === 'option');
  const correct = options.filter((o) => o.hasAttribute('data-correct')).map((o) => o.textContent.trim());
  const answer = correct.length ? correct.join('; ') : (el.getAttribute('answer') ?? '');
  const explanation = slot('explanation').map(block).filter(Boolean).join('\n\n');
  const parts = [
    {
      kind: 'exercise',
      id: el.id,
      label: el.getAttribute('label') || el.id,
      prompt: question.map(block).filter(Boolean).join('\n\n'),
      options: options.map((o) => o.textContent.trim()),
      answer,
      explanation,
    },
  ];
  const attemptCells = slot('attempt').flatMap(cellParts);
  const explanationCells = teacher ? slot('explanation').flatMap(cellParts) : [];
  return [...parts, ...attemptCells, ...explanationCells];
}

/**
 * @param {Element} body the lesson's .lesson-body
 * @param {{ teacher?: boolean }} [options]
 * @returns {object[]} parts for notebookFromParts
 */
export function lessonParts(body, { teacher = false } = {}) {
  const parts = [];
  let prose = [];
  const flush = () => {
    if (prose.length) parts.push({ kind: 'markdown', text: prose.join('\n\n') });
    prose = [];
  };
  const visit = (el) => {
    const name = el.localName;
    const holdsExercise = !name.startsWith('attn-') && el.querySelector('attn-exercise');
    if (name === 'attn-reveal' || holdsExercise) {
      [...el.children].forEach(visit); // a figure held back for an exercise, or a wrapper: its parts
    } else if (name === 'attn-exercise') {
      flush();
      parts.push(...exerciseParts(el, teacher));
    } else if (name.startsWith('attn-')) {
      flush();
      parts.push(...cellParts(el));
    } else {
      const text = block(el);
      if (text) prose.push(text);
      const inner = cellParts(el);
      if (inner.length) {
        flush();
        parts.push(...inner);
      }
    }
  };
  [...body.children].forEach(visit);
  flush();
  return parts;
}

const SETTLE_TIMEOUT_MS = 60000;

/** Every cell (an element with drawNow) in `root`, its shadow trees included. */
function cellsIn(root) {
  return deepElements(root, (el) => typeof el.drawNow === 'function');
}

function whenSettled(cell) {
  if (cell.hasAttribute('data-settled')) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!cell.hasAttribute('data-settled')) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(cell, { attributes: true, attributeFilter: ['data-settled'] });
  });
}

/**
 * Draws every cell of the lesson now, wherever the reader has scrolled (a cell far from the
 * viewport has not drawn, so its code cells do not exist yet), and resolves once each has settled
 * on its current state. Rejects, naming the cell, when one has not settled within a minute.
 * @param {Element} body @param {(drawn: number, total: number) => void} [progress]
 */
export async function drawEveryCell(body, progress = () => {}) {
  const seen = new Set();
  for (let fresh = cellsIn(body); fresh.length; fresh = cellsIn(body).filter((c) => !seen.has(c))) {
    fresh.forEach((cell) => {
      seen.add(cell);
      cell.drawNow();
    });
    await Promise.all(fresh.map((cell) => cell.updateComplete)); // their shadow trees, and the cells in them
  }
  const cells = [...seen];
  let done = 0;
  await Promise.all(
    cells.map(async (cell) => {
      let timer;
      const late = new Promise((resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${cell.id || cell.localName} did not finish drawing within a minute`)),
          SETTLE_TIMEOUT_MS,
        );
      });
      await Promise.race([whenSettled(cell), late]).finally(() => clearTimeout(timer));
      done += 1;
      progress(done, cells.length);
    }),
  );
}
