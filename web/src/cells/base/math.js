/**
 * Maths in text made at run time (labels, captions, table heads, readouts of a lab): a small
 * TeX subset typeset as HTML, the shared formatter for every cell. Markdown maths is KaTeX at
 * build time; this is for text a lab builds from its state, so it costs no KaTeX script.
 *
 *   tex`y_{${i}} = \sum_j A_{${i}j} v_j`       // a Lit template: <span class="math">…</span>
 *   tex`\sqrt{d_k}`  tex`\frac{QK^\top}{\sqrt{d_k}}`  tex`\operatorname{softmax}(s / \tau)`
 *
 * Interpolated values are text (numbers, indices): they are never read as TeX commands, only
 * their characters are typeset. What it knows: single letters in italic (as TeX does), numbers,
 * operators with TeX's spacing, _ and ^ (a character or a {group}), Greek letters (\alpha … \Omega,
 * or written as α, τ, …), \sqrt{…} with its bar over the whole radicand, \frac{…}{…},
 * \left( … \right) whose brackets grow around a fraction, \operatorname{…}, \text{…}, \mathrm{…},
 * \mathbf{…}, \mathbb{R}, \sum, \top, \cdot, \times, \le, \ge, \ne, \approx, \in, \to, \infty,
 * \ldots, \dots, \exp, \log, \max, \min and the spaces \, \; \quad. An unknown command is shown as
 * its name, upright. Styles: mathStyles (cells/base/math-styles.js), in every cell's shadow root.
 */
import { html, nothing } from 'lit';

const GREEK = {
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', varepsilon: 'ε', zeta: 'ζ', eta: 'η',
  theta: 'θ', iota: 'ι', kappa: 'κ', lambda: 'λ', mu: 'μ', nu: 'ν', xi: 'ξ', pi: 'π', rho: 'ρ',
  sigma: 'σ', tau: 'τ', upsilon: 'υ', phi: 'ϕ', varphi: 'φ', chi: 'χ', psi: 'ψ', omega: 'ω',
  Gamma: 'Γ', Delta: 'Δ', Theta: 'Θ', Lambda: 'Λ', Xi: 'Ξ', Pi: 'Π', Sigma: 'Σ', Phi: 'Φ', Psi: 'Ψ', Omega: 'Ω',
}; // prettier-ignore
const SYMBOLS = {
  sum: ['∑', 'op big'], top: ['⊤', 'ord'], cdot: ['·', 'bin'], times: ['×', 'bin'], pm: ['±', 'bin'], div: ['÷', 'bin'],
  le: ['≤', 'rel'], leq: ['≤', 'rel'], ge: ['≥', 'rel'], geq: ['≥', 'rel'], ne: ['≠', 'rel'],
  approx: ['≈', 'rel'], in: ['∈', 'rel'], to: ['→', 'rel'], mapsto: ['↦', 'rel'], propto: ['∝', 'rel'],
  infty: ['∞', 'ord'], ldots: ['…', 'ord'], dots: ['…', 'ord'], cdots: ['⋯', 'ord'], prime: ['′', 'ord'],
  ',': ['\u2009', 'space'], ';': ['\u2005', 'space'], quad: ['\u2003', 'space'], '!': ['', 'space'],
  '{': ['{', 'open'], '}': ['}', 'close'], '|': ['‖', 'ord'], '%': ['%', 'ord'], '#': ['#', 'ord'],
}; // prettier-ignore
const PLAIN = { sqrt: '√', div: '÷', left: '', right: '' };
const WORDS = new Set(['exp', 'log', 'ln', 'max', 'min', 'softmax', 'argmax', 'sin', 'cos', 'mean', 'var']);
const ARG_COMMANDS = new Set(['sqrt', 'frac', 'operatorname', 'text', 'mathrm', 'mathbf', 'mathbb', 'hat', 'bar']);
const RELATIONS = new Set(['=', '<', '>', '≤', '≥', '≈', '≠', '→', '∈', '↦']);
const BINARIES = new Set(['+', '−', '·', '×', '±', '÷']);
const GREEK_LETTERS = new Set(Object.values(GREEK));

/** Tokens of a TeX source in which `values` (interpolations) are kept as literal text tokens. */
function tokenize(strings, values) {
  const tokens = [];
  strings.forEach((s, k) => {
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === '\\') {
        const name = /^[A-Za-z]+/.exec(s.slice(i + 1))?.[0] ?? s[i + 1] ?? '';
        tokens.push({ command: name });
        i += name.length;
      } else if (!/\s/.test(c)) {
        tokens.push({ char: c });
      }
    }
    if (k < values.length) tokens.push({ literal: String(values[k]) });
  });
  return tokens;
}

/** Parses tokens[at…] into a list of nodes, until `}` (consumed) or the end. */
function parseList(tokens, state, until = '}') {
  const nodes = [];
  while (state.at < tokens.length) {
    const t = tokens[state.at];
    if (t.char === until) {
      state.at += 1;
      break;
    }
    const atom = parseAtom(tokens, state);
    if (!atom) continue;
    // scripts: _x ^y in either order
    while (tokens[state.at]?.char === '_' || tokens[state.at]?.char === '^') {
      const kind = tokens[state.at].char === '_' ? 'sub' : 'sup';
      state.at += 1;
      atom[kind] = parseArgument(tokens, state);
    }
    nodes.push(atom);
  }
  return nodes;
}

/** One argument: a {group}, or the next atom alone. */
function parseArgument(tokens, state) {
  if (tokens[state.at]?.char === '{') {
    state.at += 1;
    return parseList(tokens, state);
  }
  const atom = parseAtom(tokens, state);
  return atom ? [atom] : [];
}

/** The raw text of the next {group} (for \text and \operatorname). */
function rawArgument(tokens, state) {
  if (tokens[state.at]?.char !== '{') return '';
  state.at += 1;
  let text = '';
  for (let depth = 1; state.at < tokens.length; state.at++) {
    const t = tokens[state.at];
    if (t.char === '{') depth += 1;
    if (t.char === '}' && --depth === 0) break;
    text += t.literal ?? t.char ?? (t.command in SYMBOLS ? SYMBOLS[t.command][0] : t.command);
  }
  state.at += 1;
  return text;
}

function parseAtom(tokens, state) {
  const t = tokens[state.at++];
  if (!t) return null; // the source ended where an argument was due
  if (t.literal !== undefined)
    return { kind: /^[−-]?[\d.]/.test(t.literal) ? 'number' : 'ident', text: t.literal.replace(/-/g, '−') };
  if (t.char === '{') return { kind: 'group', children: parseList(tokens, state) };
  if (t.char !== undefined) return charAtom(t.char, tokens, state);
  const name = t.command;
  if (name in GREEK) return { kind: /[a-z]/.test(name[0]) ? 'ident' : 'upright', text: GREEK[name] };
  if (name in SYMBOLS) {
    const [text, role] = SYMBOLS[name];
    return { kind: 'op', role, text };
  }
  if (WORDS.has(name)) return { kind: 'word', text: name };
  if (name === 'left' || name === 'right') return parseFence(name, tokens, state);
  if (!ARG_COMMANDS.has(name)) return { kind: 'upright', text: name };
  if (name === 'sqrt') return { kind: 'sqrt', children: parseArgument(tokens, state) };
  if (name === 'frac') return { kind: 'frac', num: parseArgument(tokens, state), den: parseArgument(tokens, state) };
  if (name === 'mathbf') return { kind: 'bold', children: parseArgument(tokens, state) };
  if (name === 'hat' || name === 'bar') return { kind: name, children: parseArgument(tokens, state) };
  const text = rawArgument(tokens, state);
  if (name === 'mathbb') return { kind: 'upright', text: { R: 'ℝ', N: 'ℕ', Z: 'ℤ' }[text] ?? text };
  return { kind: name === 'text' ? 'text' : 'word', text };
}

/** \left( … \right): brackets that grow with what they hold (a fraction). */
function parseFence(name, tokens, state) {
  const open = tokens[state.at++];
  const bracket = open?.command === '{' ? '{' : open?.command === '|' ? '‖' : (open?.char ?? '');
  if (name === 'right') return { kind: 'op', role: 'close fence', text: bracket === '.' ? '' : bracket };
  return { kind: 'op', role: 'open fence', text: bracket === '.' ? '' : bracket };
}

function charAtom(c, tokens, state) {
  if (/[A-Za-z]/.test(c) || GREEK_LETTERS.has(c)) return { kind: 'ident', text: c };
  if (/[\d.]/.test(c)) {
    let text = c;
    while (/[\d.]/.test(tokens[state.at]?.char ?? '')) text += tokens[state.at++].char;
    return { kind: 'number', text };
  }
  const text = c === '-' ? '−' : c === '*' ? '∗' : c === "'" ? '′' : c;
  const role = RELATIONS.has(text)
    ? 'rel'
    : BINARIES.has(text)
      ? 'bin'
      : '([{'.includes(text)
        ? 'open'
        : ')]}'.includes(text)
          ? 'close'
          : text === ','
            ? 'punct'
            : 'ord';
  return { kind: 'op', role, text };
}

/**
 * A list of nodes as Lit templates; a binary operator at the start (a sign) gets no space, and a
 * relation or operator at either end of the formula none on that side, as in TeX ("are ≥ 0",
 * "y = " before a number written after it: no doubled space).
 */
function renderList(nodes) {
  return nodes.map((node, i) => {
    const unary =
      node.kind === 'op' &&
      node.role === 'bin' &&
      (i === 0 || ['rel', 'open', 'bin', 'punct'].includes(nodes[i - 1].role));
    if (unary) return renderNode({ ...node, role: 'ord' });
    const edge = i === 0 ? 'first' : i === nodes.length - 1 ? 'last' : '';
    return renderNode(edge && node.kind === 'op' ? { ...node, edge } : node);
  });
}

function renderNode(node) {
  const base = renderBase(node);
  if (!node.sub && !node.sup) return base;
  const sub = node.sub ? html`<span class="sub">${renderList(node.sub)}</span>` : nothing;
  const sup = node.sup ? html`<span class="sup">${renderList(node.sup)}</span>` : nothing;
  return html`<span class="scripts"
    >${base}<span class="script${node.sub && node.sup ? ' both' : ''}">${sup}${sub}</span></span
  >`;
}

function renderBase(node) {
  switch (node.kind) {
    case 'ident':
      return html`<i class="mi">${node.text}</i>`;
    case 'number':
      return html`<span class="mn">${node.text}</span>`;
    case 'op': {
      // relations and binary operators carry real spaces: copied or read aloud, "τ = 2"
      const spaced = node.role === 'rel' || node.role === 'bin';
      if (!spaced) return html`<span class="mo ${node.role}">${node.text}</span>`;
      const text = `${node.edge === 'first' ? '' : ' '}${node.text}${node.edge === 'last' ? '' : ' '}`;
      return html`<span class="mo ${node.role}${node.edge ? ` ${node.edge}` : ''}">${text}</span>`;
    }
    case 'word':
      return html`<span class="mw">${node.text}</span>`;
    case 'text':
      return html`<span class="mtext">${node.text}</span>`;
    case 'upright':
      return html`<span class="mn">${node.text}</span>`;
    case 'bold':
      return html`<b class="mb">${renderList(node.children)}</b>`;
    case 'hat':
    case 'bar':
      return html`<span class="accent ${node.kind}">${renderList(node.children)}</span>`;
    case 'sqrt':
      return html`<span class="msqrt"
        ><span class="radical">√</span><span class="radicand">${renderList(node.children)}</span></span
      >`;
    case 'frac':
      return html`<span class="mfrac"
        ><span class="num">${renderList(node.num)}</span><span class="den">${renderList(node.den)}</span></span
      >`;
    default:
      return html`<span class="mrow">${renderList(node.children ?? [])}</span>`;
  }
}

/** The TeX subset as a Lit template (see the top of this file). */
export function tex(strings, ...values) {
  const tokens = tokenize(typeof strings === 'string' ? [strings] : strings.raw, values); // raw: \tau stays a command
  const nodes = parseList(tokens, { at: 0 }, null);
  return html`<span class="math">${renderList(nodes)}</span>`;
}

/** The same for a display formula: its own line, centred, scaled down to fit a narrow box. */
export function texDisplay(strings, ...values) {
  return html`<span class="math-display">${tex(strings, ...values)}</span>`;
}

/** `symbol = value` typeset, the symbol read as TeX (\theta_Q, τ) and the value as text. */
export function texValue(symbol, value) {
  return tex({ raw: [`${symbol} = `, ''] }, value);
}

/**
 * Text with maths between $…$ (a label, a caption, feedback): the maths typeset, the rest as
 * text. \$ is a dollar sign.
 */
export function mathText(text) {
  const parts = String(text ?? '').split(/(?<!\\)\$/);
  if (parts.length < 3) return String(text ?? '').replace(/\\\$/g, '$');
  return parts.map((part, i) => (i % 2 ? tex(part) : part.replace(/\\\$/g, '$')));
}

/** The same text for an accessible name or a tooltip: the maths as plain characters. */
export function mathPlain(text) {
  return String(text ?? '')
    .split(/(?<!\\)\$/)
    .map((part, i) => (i % 2 ? plainTex(part) : part.replace(/\\\$/g, '$')))
    .join('');
}

function plainTex(source) {
  return source
    .replace(/\\frac\{([^{}]*)\}\{([^{}]*)\}/g, '$1/$2')
    .replace(/\\(operatorname|text|mathrm|mathbf)\{([^{}]*)\}/g, '$2')
    .replace(/\^\\top/g, 'ᵀ')
    .replace(/\\([A-Za-z]+)/g, (_, name) => GREEK[name] ?? SYMBOLS[name]?.[0] ?? PLAIN[name] ?? name)
    .replace(/[_^{}]/g, '')
    .replace(/\\(.)/g, '$1');
}
