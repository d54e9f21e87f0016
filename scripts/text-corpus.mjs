// Makes the text task's default corpus, web/src/engine/text-corpus.js: the prose of the course's
// first twelve lessons (a fixed list, so adding a lesson changes neither the corpus nor the model
// trained on it), lower-cased, without front matter, code, maths or markup, in the default
// alphabet of core/include/attn/train/text.hpp. Run once by hand when the list changes:
//
//   node scripts/text-corpus.mjs            writes the file
//   node scripts/text-corpus.mjs --check    exits 1 when the committed file differs
//
// The exports (CORPUS_LESSONS, DEFAULT_ALPHABET, corpusText, corpusModule) are what
// tests/js/text-corpus.test.js checks.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './lib.mjs';

/** The lessons whose prose the corpus holds, in course order. */
export const CORPUS_LESSONS = [
  'convex-combinations',
  'convex-hull',
  'softmax-temperature',
  'attention-matrix',
  'queries-keys-values',
  'scaled-dot-product',
  'scaling-by-sqrt-dk',
  'multi-head',
  'retrieval',
  'causal-masking',
  'attention-at-scale',
  'learning-to-attend',
];

/** kDefaultAlphabet of text.hpp: the characters the corpus may use, in code-point order. */
export const DEFAULT_ALPHABET = " !'(),-.0123456789:;?abcdefghijklmnopqrstuvwxyz";

export const corpusFile = path.join(root, 'web', 'src', 'engine', 'text-corpus.js');

// Inline maths that is one symbol becomes its letters ($T$ → t, $d_k$ → dk, $x_{i}$ → xi); any
// other inline maths goes.
const inlineMaths = (tex) => {
  const symbol = /^\s*([a-zA-Z])(?:_\{?([a-zA-Z0-9]+)\}?)?\s*$/.exec(tex);
  return symbol ? symbol[1] + (symbol[2] ?? '') : ' ';
};

/** One lesson's Markdown as corpus text. */
export function proseOf(markdown) {
  const text = markdown
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/\$\$[\s\S]*?\$\$/g, ' ')
    .replace(/\$([^$\n]+)\$/g, (_, tex) => inlineMaths(tex))
    .replace(/<[^>]*>/g, ' ')
    .replace(/`[^`]*`/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_]/g, '')
    .toLowerCase()
    .replace(/[‐-―−]/g, '-')
    .replace(/[“”‘’"]/g, "'");
  return Array.from(text, (c) => (DEFAULT_ALPHABET.includes(c) ? c : ' '))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The corpus: the lessons' prose, one space apart. */
export function corpusText() {
  return CORPUS_LESSONS.map((id) => proseOf(readFileSync(path.join(root, 'web', 'lessons', `${id}.md`), 'utf8'))).join(
    ' ',
  );
}

/** The module's source. The corpus has no '"' or '\', so it sits in a plain double-quoted string. */
export function corpusModule(text = corpusText()) {
  return `// The text task's default corpus (createTrainer({ task: 'text' }) without a text of its own): the
// prose of the course's first twelve lessons, lower-cased, without maths, code or markup, in the
// default alphabet (core/include/attn/train/text.hpp). ${text.length} characters. Made by
// \`node scripts/text-corpus.mjs\`; do not edit.
export const DEFAULT_TEXT =
  "${text}";
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const source = corpusModule();
  if (process.argv.includes('--check')) {
    const same = readFileSync(corpusFile, 'utf8') === source;
    console.log(same ? 'text-corpus.js is up to date' : 'text-corpus.js differs: run node scripts/text-corpus.mjs');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(corpusFile, source);
  console.log(`wrote ${path.relative(root, corpusFile)} (${source.length} bytes)`);
}
