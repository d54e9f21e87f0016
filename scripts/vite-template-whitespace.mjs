// A Vite plugin that drops the indentation of the front end's Lit templates from the builds:
// in every html`…`, svg`…` and css`…` of web/src, each line break with the spaces around it
// becomes one space, which HTML, SVG and CSS read the same way. About 30 KB of the single file
// was such indentation. Templates with a <pre> or <textarea> in their own text keep their
// spaces; values (${…}) are never touched, and nor is any other template literal (the Python of
// the code cells keeps its lines).
import { parse } from 'acorn';

const TAGS = new Set(['html', 'svg', 'css']);

/** Every html/svg/css tagged template of an ESTree `node`, depth first. */
function* taggedTemplates(node) {
  if (!node || typeof node.type !== 'string') return;
  if (node.type === 'TaggedTemplateExpression' && node.tag.type === 'Identifier' && TAGS.has(node.tag.name))
    yield node.quasi;
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const child of value) yield* taggedTemplates(child);
    else if (value && typeof value === 'object') yield* taggedTemplates(value);
  }
}

/** `code` with the templates' line breaks and indentation folded; the same code when there are none. */
export function foldTemplateWhitespace(code) {
  const ast = parse(code, { ecmaVersion: 'latest', sourceType: 'module' });
  const edits = [];
  for (const template of taggedTemplates(ast)) {
    const text = template.quasis.map((q) => code.slice(q.start, q.end));
    if (text.some((t) => /<(pre|textarea)\b/i.test(t))) continue;
    template.quasis.forEach((q, i) => {
      const folded = text[i].replace(/[ \t]*\r?\n\s*/g, ' ');
      if (folded !== text[i]) edits.push([q.start, q.end, folded]);
    });
  }
  let out = code;
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + text + out.slice(end);
  return out;
}

export default function templateWhitespace() {
  return {
    name: 'attnbook-template-whitespace',
    apply: 'build',
    transform(code, id) {
      if (!/\/web\/src\/.*\.js$/.test(id.split('?')[0]) || !/\b(html|svg|css)`/.test(code)) return null;
      return { code: foldTemplateWhitespace(code), map: null };
    },
  };
}
