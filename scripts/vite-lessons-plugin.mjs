// Vite plugin: lessons authored as Markdown, compiled at build time.
//
//   import { meta, html, headings } from '../lessons/softmax-temperature.md';
//
// Each web/lessons/<id>.md starts with YAML front matter
//   id: softmax-temperature       same as the file name; lower-case words joined by hyphens
//   title: Softmax temperature    shown as the page's <h1>
//   order: 3                      position in the course (a number; lessons are sorted by it)
//   summary: One or two sentences for the lesson list.
//   sources: [ ... ]              optional: credit lines (strings), listed under the lesson
// and continues in Markdown: $…$ and $$…$$ are rendered by KaTeX here, at build
// time (the page only needs KaTeX's CSS and fonts), and so is $…$ in the text of a raw HTML
// block (an exercise's <p> prompt, its hint), though not in attributes nor in the text the page
// reads at run time (<option>, <attn-mistake>, <attn-variant>, <attn-code>, <pre>, <code>, …:
// cells/base/math.js typesets that); HTML is allowed, so cells are
// written inline as custom elements (<attn-softmax-temperature id="t" …>). An
// element on a line of its own is not wrapped in a <p>.
//
// An <attn-exercise> needs no lesson="…": the build writes the lesson's id into each one that has
// none (its progress is saved under attnbook:exercise:<lesson id>/<exercise id>); one written with
// another lesson's id stops the build.
//
// The module exports
//   meta      the front matter (sources [] when none) plus exercises (number of
//             <attn-exercise id=…>), exerciseIds and exerciseLabels ({ id: its label attribute, else the id })
//   html      the lesson body (no <h1>: headings start at ##), or null with
//   htmlGzip  the body gzipped, base64 (option compress, for the single file)
//   headings  [{ id, text, level }] for ## and ### headings, with the ids set in html
// and imports the course's style classes (below).
// Bad front matter, a # heading, bad TeX, a duplicate or unsafe cell id, or two
// lessons with one id stop the build with an error naming the file and field.
// So does an attn-* element no cell defines (a misspelt tag would otherwise be an
// empty box on the page): the error names the file, the line and the tag. The
// known elements are read from the front end's files, every
// customElements.define('attn-…') under web/src/cells and web/src/labs, so adding
// a cell is adding its file. An attn-* start tag that Markdown would print as text
// (a block's start tag spread over several lines) stops it too, naming the line.
// Option lessonsDir builds the course from another folder (tests/fixtures/build-site.mjs).
//
// No lesson carries a style="…" attribute: a Content-Security-Policy without 'unsafe-inline' for
// styles (README.md, "Embedding": default-src 'self'; script-src 'self' 'wasm-unsafe-eval') refuses
// every one, and KaTeX sizes its boxes with them (about 500 a lesson). Each becomes a class named
// for a hash of its declarations (scripts/lesson-style-classes.mjs), and the rules of the whole
// course are one stylesheet, virtual:attnbook-lesson-styles.css, which every lesson module imports:
// Vite bundles it as a CSS file of the site, linked like KaTeX's own (not an inline <style>, which
// the policy refuses too). The same declarations get the same class in every lesson and build. Its
// rules are !important, as a style attribute outranks the stylesheets (KaTeX's own sets some of the
// same properties). The dev server makes it again when a lesson is saved, added or deleted.
//
// The plugin also trims KaTeX's stylesheet: it drops the .woff and .ttf
// fallbacks (every browser the site supports reads woff2) and, in a build, the
// font families no lesson uses, since the single-file build inlines every font
// it references.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import frontMatter from 'front-matter';
import katex from 'katex';
import MarkdownIt from 'markdown-it';
import markdownItKatexModule from '@vscode/markdown-it-katex';
import { TAG_ALIASES } from '../web/src/cells/tag-aliases.js';
import { lessonStylesheet, StyleClassError, styleClasses } from './lesson-style-classes.mjs';

const markdownItKatex = markdownItKatexModule.default ?? markdownItKatexModule;

const ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const CELL_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;
const REQUIRED = ['id', 'title', 'order', 'summary'];
const FIELDS = [...REQUIRED, 'sources'];

/** Error thrown for a lesson that cannot be built; `field` names the culprit. */
export class LessonError extends Error {
  constructor(file, field, message) {
    super(`${file}: ${field ? `front matter field "${field}" ` : ''}${message}`);
    this.name = 'LessonError';
    this.file = file;
    this.field = field;
  }
}

function describe(value) {
  if (value === undefined) return 'nothing';
  return JSON.stringify(value)?.slice(0, 60) ?? String(value);
}

/** Checks the front matter; returns the normalised meta or throws LessonError. */
export function validateMeta(attributes, file) {
  const name = path.basename(file, '.md');
  if (attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)) {
    throw new LessonError(file, null, `needs YAML front matter between --- lines with ${REQUIRED.join(', ')}`);
  }
  const fail = (field, message) => {
    throw new LessonError(file, field, message);
  };
  for (const field of REQUIRED) if (!(field in attributes)) fail(field, 'is missing');
  for (const field of Object.keys(attributes)) {
    if (!FIELDS.includes(field)) fail(field, `is not a known field (known: ${FIELDS.join(', ')})`);
  }
  const { id, title, order, summary, sources = [] } = attributes;
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    fail('id', `must be lower-case words joined by hyphens, got ${describe(id)}`);
  }
  if (id !== name) fail('id', `must match the file name "${name}", got ${describe(id)}`);
  if (typeof title !== 'string' || title.trim() === '') fail('title', `must be non-empty text, got ${describe(title)}`);
  if (typeof order !== 'number' || !Number.isFinite(order)) fail('order', `must be a number, got ${describe(order)}`);
  if (typeof summary !== 'string' || summary.trim() === '') {
    fail('summary', `must be non-empty text, got ${describe(summary)}`);
  }
  if (!Array.isArray(sources ?? [])) {
    fail('sources', `must be a list of credit lines (or left out), got ${describe(sources)}`);
  }
  (sources ?? []).forEach((source, i) => {
    if (typeof source !== 'string' || source.trim() === '') {
      fail('sources', `entry ${i} must be non-empty text, got ${describe(source)}`);
    }
  });
  return { id, title: title.trim(), order, summary: summary.trim(), sources: (sources ?? []).map((s) => s.trim()) };
}

function slugify(text) {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'section';
}

const ELEMENT_TAG = /<(attn-[a-z0-9-]+)\b([^>]*)>/gi;
const ID_ATTRIBUTE = /(?:^|\s)id\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
const LABEL_ATTRIBUTE = /(?:^|\s)label\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
const AFTER_ATTRIBUTE = /(?:^|\s)after\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
const LESSON_ATTRIBUTE = /(?:^|\s)lesson\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
const ANSWER_ATTRIBUTE = /(?:^|\s)answer\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
const EXERCISE_TAG = /<attn-exercise(?=[\s/>])([^>]*)>/gi;

const DEFINE = /customElements\.define\(\s*(['"`])(attn-[a-z0-9-]+)\1/g;

/**
 * Every attn-* element the front end defines: each customElements.define('attn-…') in the .js
 * files under `dirs` (the plugin reads web/src/cells and web/src/labs), and each old name of the
 * alias table (web/src/cells/tag-aliases.js) whose lab is among them.
 * @param {string[]} dirs @returns {Promise<Set<string>>}
 */
export async function registeredTags(dirs) {
  const tags = new Set();
  for (const dir of dirs) {
    // a folder that is not there defines nothing (then every attn-* tag is refused, loudly)
    const names = await readdir(dir, { recursive: true }).catch((error) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const files = names.filter((name) => name.endsWith('.js'));
    for (const name of files) {
      for (const match of (await readFile(path.join(dir, name), 'utf8')).matchAll(DEFINE)) tags.add(match[2]);
    }
  }
  for (const [old, tag] of Object.entries(TAG_ALIASES)) if (tags.has(tag)) tags.add(old);
  return tags;
}

/** Edit distance of two short strings (for "did you mean"). */
function distance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

/**
 * The attn-* start tags in the lesson's HTML (blocks and inline HTML, not code), each with its
 * line in the file: [{ tag, line }]. `firstLine`: the file's line number of the body's first line.
 */
function attnTagLines(tokens, firstLine) {
  const found = [];
  const scan = (text, start, at) => {
    for (const match of text.matchAll(ELEMENT_TAG)) {
      const line = firstLine + at + (start + text.slice(0, match.index)).split('\n').length - 1;
      found.push({ tag: match[1].toLowerCase(), line });
    }
  };
  for (const token of tokens) {
    if (!token.map) continue;
    if (token.type === 'html_block') scan(token.content, '', token.map[0]);
    if (token.type !== 'inline') continue;
    let cursor = 0;
    for (const child of token.children.filter((t) => t.type === 'html_inline')) {
      const at = Math.max(cursor, token.content.indexOf(child.content, cursor));
      cursor = at + child.content.length;
      scan(child.content, token.content.slice(0, at), token.map[0]);
    }
  }
  return found;
}

/** Refuses an attn-* element that is not in `known`, naming the file, line and tag. */
function checkTags(tokens, firstLine, known, file) {
  for (const { tag, line } of attnTagLines(tokens, firstLine)) {
    if (known.has(tag)) continue;
    const near = [...known].filter((t) => distance(t, tag) <= 3).sort((a, b) => distance(a, tag) - distance(b, tag));
    const error = new LessonError(
      `${file}:${line}`,
      null,
      `<${tag}> is not a known element: no file under web/src/cells or web/src/labs defines it` +
        (near.length ? ` (did you mean <${near[0]}>?)` : ''),
    );
    Object.assign(error, { file, line, tag });
    throw error;
  }
}

/**
 * Refuses an attn-* start tag that Markdown did not read as HTML and would print as text (a start
 * tag that begins a block but spreads over several lines, one without its >). Tags in code are
 * text on purpose and pass.
 */
function checkUnreadTags(tokens, firstLine, file) {
  for (const token of tokens) {
    if (token.type !== 'inline' || !token.map) continue;
    let rest = token.content; // the paragraph's source, with its HTML and code blanked out (lines kept)
    for (const child of token.children) {
      if (child.type === 'html_inline' || child.type === 'code_inline') {
        rest = rest.replace(child.content, child.content.replace(/[^\n]/g, ' '));
      }
    }
    const match = rest.match(/<attn-[a-z0-9-]*/i);
    if (!match) continue;
    const line = firstLine + token.map[0] + rest.slice(0, match.index).split('\n').length - 1;
    const error = new LessonError(
      `${file}:${line}`,
      null,
      `${match[0]} … is not read as an element but as text: write its start tag on one line, from < to >`,
    );
    throw Object.assign(error, { file, line, tag: match[0].slice(1).toLowerCase() });
  }
}

/** The attn-* elements written in `html`: [{ tag, id }]. */
function attnElements(html) {
  return [...html.matchAll(ELEMENT_TAG)].map(([, tag, attributes]) => {
    const m = attributes.match(ID_ATTRIBUTE);
    const attribute = (pattern) => {
      const found = attributes.match(pattern);
      return found ? (found[1] ?? found[2] ?? found[3]) : null;
    };
    return {
      tag: tag.toLowerCase(),
      id: m ? (m[1] ?? m[2] ?? m[3]) : null,
      label: attribute(LABEL_ATTRIBUTE),
      after: attribute(AFTER_ATTRIBUTE),
      lesson: attribute(LESSON_ATTRIBUTE),
      answer: attribute(ANSWER_ATTRIBUTE),
    };
  });
}

function createMarkdown() {
  const md = new MarkdownIt({ html: true, linkify: false, typographer: true });
  // The plugin renders bad TeX as an error span; compileLesson checks every formula first.
  md.use(markdownItKatex, { throwOnError: false });

  // A paragraph holding nothing but one inline attn-* element (open and close
  // tags on one line) is not wrapped in <p>: the cells are blocks.
  md.core.ruler.push('attn_cell_blocks', (state) => {
    const tokens = state.tokens;
    for (let i = 1; i < tokens.length - 1; i++) {
      const inline = tokens[i];
      if (inline.type !== 'inline' || tokens[i - 1].type !== 'paragraph_open') continue;
      const parts = inline.children.filter(
        (t) => !(t.type === 'text' && t.content.trim() === '') && t.type !== 'softbreak',
      );
      if (parts.length > 0 && parts.every((t) => t.type === 'html_inline') && /^<attn-/i.test(parts[0].content)) {
        tokens[i - 1].hidden = true;
        tokens[i + 1].hidden = true;
      }
    }
  });
  return md;
}

const markdown = createMarkdown();

/** Elements whose text the page reads at run time (as text, typeset there): no KaTeX inside. */
const RUN_TIME_TEXT = new Set([
  'option',
  'attn-mistake',
  'attn-variant',
  'attn-code',
  'pre',
  'code',
  'script',
  'style',
  'template',
  'textarea',
]);
// a comment, or a start or end tag (quoted attribute values may hold a >)
const HTML_TAG = /<!--[\s\S]*?-->|<(\/?)([A-Za-z][A-Za-z0-9-]*)(?:[^>"']|"[^"]*"|'[^']*')*>/g;
const HTML_MATH = /(?<!\\)\$((?:\\.|[^\\$])+?)\$/g;
const ENTITIES = { lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'", nbsp: '\u00a0' };

/**
 * The maths of a raw HTML block: each $…$ in its text rendered by KaTeX as Markdown maths is
 * (\$ is a dollar sign). Not in a tag's attributes, nor in the text of the RUN_TIME_TEXT
 * elements. `line`: the file's line number of the block's first line; a formula KaTeX cannot
 * render throws LessonError naming its line.
 */
export function renderHtmlMaths(content, line, file) {
  if (!content.includes('$')) return content;
  const open = []; // the RUN_TIME_TEXT elements we are inside, innermost last
  let out = '';
  let at = 0;
  const text = (from, to) => {
    const part = content.slice(from, to);
    if (open.length > 0 || !part.includes('$')) return part;
    return part
      .replace(HTML_MATH, (_, source, offset) => {
        const tex = source.replace(/&(lt|gt|amp|quot|#39|nbsp);/g, (_, name) => ENTITIES[name]);
        try {
          return katex.renderToString(tex, { throwOnError: true, displayMode: false });
        } catch (error) {
          const where = line + content.slice(0, from + offset).split('\n').length - 1;
          throw new LessonError(file, null, `has maths KaTeX cannot render on line ${where}: ${error.message}`);
        }
      })
      .replace(/\\\$/g, '$');
  };
  for (const match of content.matchAll(HTML_TAG)) {
    out += text(at, match.index) + match[0];
    at = match.index + match[0].length;
    const [tag, closing, rawName] = match;
    if (!rawName) continue;
    const name = rawName.toLowerCase();
    if (closing) {
      if (open.at(-1) === name) open.pop();
    } else if (RUN_TIME_TEXT.has(name) && !tag.endsWith('/>')) {
      open.push(name);
    }
  }
  return out + text(at, content.length);
}

/**
 * Markdown source -> { meta, html, headings }; throws LessonError. `file` is for messages.
 * With `knownTags` (a Set, see registeredTags), every attn-* element must be one of them.
 */
export function compileLesson(source, file, { knownTags = null } = {}) {
  let parsed;
  try {
    parsed = frontMatter(source);
  } catch (error) {
    throw new LessonError(file, null, `has front matter that is not valid YAML: ${error.message.split('\n')[0]}`);
  }
  if (!/^\uFEFF?---/.test(source)) {
    throw new LessonError(file, null, `needs YAML front matter between --- lines with ${REQUIRED.join(', ')}`);
  }
  const meta = validateMeta(parsed.attributes, file);

  const env = {};
  const tokens = markdown.parse(parsed.body, env);
  const all = tokens.flatMap((t) => (t.type === 'inline' ? t.children : [t]));

  const bodyStart = source.split('\n').length - parsed.body.split('\n').length;
  // Cells: every attn-* start tag read as an element, and (with knownTags) one the front end defines.
  checkUnreadTags(tokens, bodyStart + 1, file);
  if (knownTags) checkTags(tokens, bodyStart + 1, knownTags, file);

  // Maths: every formula must render; the error names the line and the formula.
  for (const block of tokens) {
    for (const token of block.type === 'inline' ? block.children : [block]) {
      if (!token.type.startsWith('math_')) continue;
      try {
        katex.renderToString(token.content, { throwOnError: true, displayMode: token.type !== 'math_inline' });
      } catch (error) {
        const where = block.map ? ` on line ${bodyStart + block.map[0] + 1}` : '';
        throw new LessonError(file, null, `has maths KaTeX cannot render${where}: ${error.message}`);
      }
    }
  }

  // Cells: ids must be unique and safe in a permalink (cellId.field=value).
  const rawHtml = all
    .filter((t) => t.type === 'html_block' || t.type === 'html_inline')
    .map((t) => t.content)
    .join('\n');
  const elements = attnElements(rawHtml);
  const taken = new Set();
  for (const { tag, id } of elements) {
    if (id === null) continue;
    if (!CELL_ID_PATTERN.test(id)) {
      throw new LessonError(file, null, `has <${tag} id="${id}">: a cell id is a letter then letters, digits, _ or -`);
    }
    if (taken.has(id)) throw new LessonError(file, null, `has two elements with id "${id}"`);
    taken.add(id);
  }
  // An exercise's lesson is the page's: written into each <attn-exercise> that has no lesson="…".
  for (const { id, lesson } of elements.filter((e) => e.tag === 'attn-exercise')) {
    if (lesson !== null && lesson !== meta.id) {
      throw new LessonError(
        file,
        null,
        `has <attn-exercise${id ? ` id="${id}"` : ''} lesson="${lesson}">: an exercise belongs to the lesson it is in;` +
          ` leave lesson out (or write lesson="${meta.id}")`,
      );
    }
  }
  for (const token of all.filter((t) => t.type === 'html_block' || t.type === 'html_inline')) {
    token.content = token.content.replace(EXERCISE_TAG, (tag, attributes) =>
      LESSON_ATTRIBUTE.test(attributes) ? tag : `<attn-exercise lesson="${meta.id}"${attributes}>`,
    );
  }
  // A "Try another" question written in the lesson: its answer is a number.
  for (const { answer } of elements.filter((e) => e.tag === 'attn-variant')) {
    if (answer === null || answer.trim() === '' || !Number.isFinite(Number(answer))) {
      throw new LessonError(file, null, `has <attn-variant answer="${answer ?? ''}">: "answer" must be a number`);
    }
  }
  // Maths in the text of raw HTML (an exercise's prompt and hint): KaTeX, as in Markdown.
  for (const token of tokens.filter((t) => t.type === 'html_block')) {
    token.content = renderHtmlMaths(token.content, bodyStart + token.map[0] + 1, file);
  }
  const exercises = elements.filter((e) => e.tag === 'attn-exercise' && e.id);
  const exerciseIds = exercises.map((e) => e.id);
  const exerciseLabels = Object.fromEntries(exercises.map((e) => [e.id, e.label ?? e.id]));
  // A figure held back until an exercise is attempted must name an exercise of this lesson.
  for (const { after } of elements.filter((e) => e.tag === 'attn-reveal')) {
    if (!after || !exerciseIds.includes(after)) {
      throw new LessonError(
        file,
        null,
        `has <attn-reveal after="${after ?? ''}">: "after" must be the id of an <attn-exercise> in this lesson` +
          ` (${exerciseIds.length ? exerciseIds.join(', ') : 'it has none'})`,
      );
    }
  }

  // Headings: ids for the table of contents, unique and distinct from cell ids.
  const headings = [];
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return;
    const level = Number(token.tag.slice(1));
    const text = tokens[i + 1].children
      .filter((t) => t.type === 'text' || t.type === 'code_inline' || t.type === 'math_inline')
      .map((t) => t.content)
      .join('')
      .trim();
    if (level === 1) {
      throw new LessonError(
        file,
        null,
        `has a # heading "${text}": the title comes from the front matter, start at ##`,
      );
    }
    let id = slugify(text);
    for (let n = 2; taken.has(id); n++) id = `${slugify(text)}-${n}`;
    taken.add(id);
    token.attrSet('id', id);
    if (level <= 3) headings.push({ id, text, level });
  });

  // No style attributes (a strict CSP refuses them): KaTeX's sizes become classes (lesson-style-classes.mjs).
  let rendered;
  try {
    rendered = styleClasses(markdown.renderer.render(tokens, markdown.options, env), file);
  } catch (error) {
    if (error instanceof StyleClassError) throw new LessonError(file, null, error.message.slice(file.length + 2));
    throw error;
  }
  const { html, styles } = rendered;
  return { meta: { ...meta, exercises: exerciseIds.length, exerciseIds, exerciseLabels }, html, headings, styles };
}

const KATEX_CSS = /[\\/]katex[\\/]dist[\\/]katex(?:\.min)?\.css$/;

/** KaTeX's stylesheet with only the woff2 fonts. */
export function woff2Only(css) {
  return css.replace(/,\s*url\([^)]*\.(?:woff|ttf)\)\s*format\((["'])(?:woff|truetype)\1\)/g, '');
}

/** The class names used in `html` (every class="…" attribute). */
export function classNames(html) {
  const names = new Set();
  for (const [, list] of html.matchAll(/class="([^"]*)"/g)) {
    for (const name of list.split(/\s+/)) if (name) names.add(name);
  }
  return names;
}

/**
 * KaTeX's stylesheet without the @font-face rules of the font families no
 * lesson uses. A family is used when a rule that sets it has a selector whose
 * classes all occur in the lessons' HTML (`classes`); KaTeX_Main, the base font
 * of .katex, is always kept. Every face of a used family is kept.
 */
export function dropUnusedFonts(css, classes) {
  const used = new Set(['KaTeX_Main']);
  for (const [, selectors, body] of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const family = body.match(/font-family:\s*"?(KaTeX_\w+)/)?.[1];
    if (!family || selectors.includes('@font-face')) continue;
    const applies = selectors
      .split(',')
      .some((selector) => (selector.match(/\.[\w-]+/g) ?? []).every((c) => classes.has(c.slice(1))));
    if (applies) used.add(family);
  }
  return css.replace(/@font-face\{[^}]*font-family:\s*"?(KaTeX_\w+)[^}]*\}/g, (rule, family) =>
    used.has(family) ? rule : '',
  );
}

/**
 * Every lesson in `dir` compiled (so with KaTeX's markup): { classes: the class names their HTML
 * uses, styles: Map(class -> declarations) of the classes that stand for style attributes }.
 */
async function compileCourse(dir) {
  const classes = new Set();
  const styles = new Map();
  for (const file of (await readdir(dir)).filter((n) => n.endsWith('.md')).sort()) {
    const lesson = compileLesson(await readFile(path.join(dir, file), 'utf8'), file);
    for (const name of classNames(lesson.html)) classes.add(name);
    for (const [name, text] of lesson.styles) styles.set(name, text);
  }
  return { classes, styles };
}

/** The stylesheet of the lessons' style classes, imported by every lesson module. */
export const LESSON_STYLES = 'virtual:attnbook-lesson-styles.css';
const RESOLVED_LESSON_STYLES = `\0${LESSON_STYLES}`;

/** The course's glob in shell/lessons.js, which the lessonsDir option points elsewhere. */
const COURSE_GLOB = "import.meta.glob('../../lessons/*.md'";

/**
 * @param {{ compress?: boolean, lessonsDir?: string }} [options] compress: export each lesson's HTML
 *   gzipped, as base64 (`htmlGzip`, with `html` null), for the single file: a
 *   large inline module script is slow to compile, and only one lesson is shown
 *   at a time (shell/lessons.js lessonHtml() inflates it).
 *   lessonsDir: build the course from the Markdown files of this folder instead of web/lessons
 *   (the browser tests build a site of fixture lessons so; the site's own build never sets it).
 */
export default function lessonsPlugin({ compress = false, lessonsDir = null } = {}) {
  let root = process.cwd();
  let build = false;
  let lessons = '';
  let tags = null; // the attn-* elements the front end defines; read again for each build
  const owners = new Map(); // lesson id -> file, to refuse two lessons with one id
  let course = null; // compileCourse(lessons), once a build; again after a lesson changes (dev)
  const compiled = () => (course ??= compileCourse(lessons));
  const knownTags = async () => {
    if (!tags || !build) tags = await registeredTags([path.join(root, 'src', 'cells'), path.join(root, 'src', 'labs')]);
    return tags;
  };
  return {
    name: 'attnbook-lessons',
    enforce: 'pre',
    configResolved(config) {
      root = config.root;
      build = config.command === 'build';
      lessons = lessonsDir ? path.resolve(lessonsDir) : path.join(root, 'lessons');
    },
    buildStart() {
      owners.clear();
      tags = null;
      course = null;
    },
    resolveId(id) {
      return id === LESSON_STYLES ? RESOLVED_LESSON_STYLES : null;
    },
    async load(id) {
      if (id !== RESOLVED_LESSON_STYLES) return null;
      try {
        return { code: `${lessonStylesheet((await compiled()).styles)}\n`, map: null };
      } catch (error) {
        course = null;
        this.error(error.message);
      }
    },
    // The dev server: a lesson saved, added or deleted can change the style classes: the
    // stylesheet is made again when the page reloads.
    hotUpdate({ file }) {
      if (!file.endsWith('.md') || path.dirname(path.resolve(file)) !== lessons) return;
      course = null;
      const styles = this.environment.moduleGraph.getModuleById(RESOLVED_LESSON_STYLES);
      if (styles) this.environment.moduleGraph.invalidateModule(styles);
    },
    async transform(code, id) {
      const file = id.split('?')[0];
      if (KATEX_CSS.test(file)) {
        // In a build, only the fonts the lessons use (the dev server keeps all: lessons change under it).
        const css = woff2Only(code);
        return { code: build ? dropUnusedFonts(css, (await compiled()).classes) : css, map: null };
      }
      if (lessonsDir && /[\\/]src[\\/]shell[\\/]lessons\.js$/.test(file)) {
        if (!code.includes(COURSE_GLOB))
          this.error(`lessonsDir: ${file} has no ${COURSE_GLOB}…) to point at ${lessons}`);
        const glob = path.relative(path.dirname(file), lessons).split(path.sep).join('/');
        return { code: code.replace(COURSE_GLOB, `import.meta.glob('${glob}/*.md'`), map: null };
      }
      if (!file.endsWith('.md')) return null;
      const name = path.relative(path.resolve(root, '..'), file);
      let lesson;
      try {
        lesson = compileLesson(code, name, { knownTags: await knownTags() });
      } catch (error) {
        this.error(error.message);
      }
      const owner = owners.get(lesson.meta.id);
      if (owner && owner !== file) {
        this.error(`${name}: front matter field "id" "${lesson.meta.id}" is already used by ${path.basename(owner)}`);
      }
      owners.set(lesson.meta.id, file);
      // '<' escaped so no '</script>' can appear when the single file inlines the bundle.
      const literal = (value) => JSON.stringify(value).replace(/</g, '\\u003c');
      return {
        code: [
          `import ${JSON.stringify(LESSON_STYLES)};`,
          `export const meta = ${literal(lesson.meta)};`,
          compress
            ? `export const html = null;\nexport const htmlGzip = ${literal(gzipSync(lesson.html, { level: 9 }).toString('base64'))};`
            : `export const html = ${literal(lesson.html)};\nexport const htmlGzip = null;`,
          `export const headings = ${literal(lesson.headings)};`,
          'export default { meta, html, htmlGzip, headings };',
        ].join('\n'),
        map: null,
      };
    },
  };
}
