// Lessons without style attributes, so they hold under a Content-Security-Policy with no
// 'unsafe-inline' for styles (README.md, "Embedding"): such a policy refuses every style="…"
// attribute a page parses, and KaTeX sizes its boxes with them (struts, vlists, spaces:
// style="height:0.6833em;vertical-align:-0.0833em;"), about 500 a lesson.
//
//   const { html, styles } = styleClasses(lessonHtml, file);
//   // html: every style="…" replaced by a class ks-<hash of the declarations>;
//   // styles: Map(class name -> declarations), for lessonStylesheet()
//   lessonStylesheet(styles)   // '.ks-1x2y3z4{height:0.6833em!important}\n…', sorted by class name
//
// A class's name is a hash of its declarations, so each lesson is rewritten on its own and the
// same declarations get the same class in every lesson and every build. The rules are !important:
// a style attribute outranks every rule of a stylesheet, and KaTeX's own rules set some of the same
// properties on the same boxes (.katex .vlist>span{height:0}); !important keeps that order. (Nothing
// of KaTeX's stylesheet sets these properties !important.) Declarations that could reach outside their
// rule (braces, a comment, an at-rule, markup) stop the build with an error naming the lesson.
import { createHash } from 'node:crypto';

/** Start tags (and comments, kept as they are); quoted attribute values may hold a >. */
const START_TAG = /<!--[\s\S]*?-->|<([A-Za-z][A-Za-z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
/** One attribute of a start tag: name, then a double-quoted, single-quoted or bare value (or none). */
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
/** The same, with the space before it. */
const SPACED_ATTRIBUTE = new RegExp(`(\\s*)${ATTRIBUTE.source}`, 'g');
const ENTITY = /&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos|nbsp));/gi;
const NAMED = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const DECLARATION = /^\s*([a-z-]+)\s*:\s*([^;{}<>@\\]+?)\s*$/i;

/** Error for a style attribute that cannot become a class; it names the lesson. */
export class StyleClassError extends Error {
  constructor(file, message) {
    super(`${file}: ${message}`);
    this.name = 'StyleClassError';
  }
}

function decode(value) {
  return value.replace(ENTITY, (_, dec, hex, name) =>
    name ? NAMED[name.toLowerCase()] : String.fromCodePoint(dec ? Number(dec) : parseInt(hex, 16)),
  );
}

/**
 * A style attribute's value as declarations, "property:value" joined by ";" (empty ones dropped),
 * or throws StyleClassError for one that is not a plain list of declarations.
 */
export function declarations(style, file) {
  const text = decode(style);
  if (/\/\*|\*\//.test(text)) throw new StyleClassError(file, `has style="${style}": comments are not allowed there`);
  const list = [];
  for (const part of text.split(';')) {
    if (part.trim() === '') continue;
    const match = part.match(DECLARATION);
    if (!match) {
      throw new StyleClassError(
        file,
        `has style="${style}": "${part.trim()}" is not a declaration "property: value" (no braces, @, \\, < or >)`,
      );
    }
    list.push(`${match[1].toLowerCase()}:${match[2].replace(/\s*!\s*important$/i, '')}`);
  }
  return list.join(';');
}

/** The class that stands for `declarations`: ks- and 7 base-36 digits of their SHA-256. */
export function className(declarationText) {
  const hash = createHash('sha256').update(declarationText).digest();
  return `ks-${hash.readUInt32BE(0).toString(36).padStart(7, '0')}`;
}

/**
 * A start tag's attributes with the style attribute (and the space before it) taken out and class
 * `extra` (if any) added: to the class attribute, or as a new one before a closing "/". Every other
 * attribute stays exactly as written.
 */
function rewriteAttributes(attributes, extra) {
  let classDone = !extra;
  const out = attributes.replace(SPACED_ATTRIBUTE, (whole, space, name, double, single, bare) => {
    const lower = name.toLowerCase();
    if (lower === 'style') return '';
    if (lower !== 'class' || classDone) return whole;
    classDone = true;
    const value = (double ?? single ?? bare ?? '').trim();
    return `${space}class="${value ? `${value} ` : ''}${extra}"`;
  });
  return classDone ? out : out.replace(/(\s*\/?\s*)$/, ` class="${extra}"$1`);
}

/** One start tag, its style attribute (if any) replaced by a class recorded in `styles`. */
function rewriteTag(tag, name, attributes, file, styles) {
  let style = null;
  for (const [, attribute, double, single, bare] of attributes.matchAll(ATTRIBUTE)) {
    if (attribute.toLowerCase() === 'style') style = double ?? single ?? bare ?? '';
  }
  if (style === null) return tag;
  const text = declarations(style, file);
  if (text === '') return `<${name}${rewriteAttributes(attributes, '')}>`;
  const cls = className(text);
  const known = styles.get(cls);
  if (known !== undefined && known !== text) {
    throw new StyleClassError(file, `has styles "${known}" and "${text}" that share the class ${cls}`);
  }
  styles.set(cls, text);
  return `<${name}${rewriteAttributes(attributes, cls)}>`;
}

/** Raw-text elements whole (their content is text: a tag written there is not an element). */
const RAW_TEXT_ELEMENT = /(<(script|style|textarea|title|xmp)\b(?:[^>"']|"[^"]*"|'[^']*')*>[\s\S]*?<\/\2\s*>)/i;

/**
 * `html` with every style="…" attribute of a start tag replaced by a class (added to the tag's
 * class attribute, or a new one). Returns { html, styles: Map(class -> declarations) }; pass a
 * `styles` map to collect several lessons' in one. Throws StyleClassError naming `file` for a
 * style that is not plain declarations, and for two different styles with one class name (a hash
 * collision: never seen, but never silent). The content of raw-text elements (script, style,
 * textarea, title) is left as written.
 */
export function styleClasses(html, file, styles = new Map()) {
  const parts = html.split(RAW_TEXT_ELEMENT);
  let out = '';
  // split() with two groups: [markup, raw element, its name, markup, raw element, its name, …]
  for (let i = 0; i < parts.length; i += 3) {
    out += parts[i].replace(START_TAG, (tag, name, attributes) =>
      name ? rewriteTag(tag, name, attributes, file, styles) : tag,
    );
    if (i + 1 < parts.length) {
      const element = parts[i + 1];
      const open = element.match(/^<(?:[^>"']|"[^"]*"|'[^']*')*>/)[0];
      out += open.replace(START_TAG, (tag, name, attributes) => rewriteTag(tag, name, attributes, file, styles));
      out += element.slice(open.length);
    }
  }
  return { html: out, styles };
}

/** The stylesheet of `styles` (class -> declarations): one rule a class, sorted by class name. */
export function lessonStylesheet(styles) {
  return [...styles]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(
      ([cls, text]) =>
        `.${cls}{${text
          .split(';')
          .map((d) => `${d}!important`)
          .join(';')}}`,
    )
    .join('\n');
}
