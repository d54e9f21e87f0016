// Writing lessons (scripts/vite-lessons-plugin.mjs): the build refuses an attn-* element that no
// cell defines (the known elements are read from the front end's files; the error names the file,
// line and tag, and a real build of a fixture lesson with a misspelt tag fails) and a start tag that
// Markdown would print as text; web/README's walk-through quotes the tested fixture lesson; a
// teacher's lesson (tests/fixtures/lessons/teacher/) builds with no lesson= and with "Try another"
// questions written as <attn-variant> children, which Try another asks in order.
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { compileLesson, registeredTags } from '../../scripts/vite-lessons-plugin.mjs';
import { checkVariant, declaredVariant } from '../../web/src/cells/notebook/exercise-model.js';
import { buildLessonsSite, root } from '../fixtures/build-site.mjs';

const CELL_DIRS = ['web/src/cells', 'web/src/labs'].map((dir) => path.join(root, dir));
const FRONT = `---
id: demo
title: Demo
order: 2
summary: A lesson for tests.
sources:
  - Vaswani et al. 2017
---
`;
const FRONT_LINES = FRONT.split('\n').length - 1; // the body starts on line FRONT_LINES + 1
const known = new Set(['attn-bars', 'attn-heatmap', 'attn-slider', 'attn-attention']);
const compile = (body) => compileLesson(FRONT + body, 'web/lessons/demo.md', { knownTags: known });

test('the known elements are every customElements.define under web/src/cells and web/src/labs', async () => {
  const tags = await registeredTags(CELL_DIRS);
  for (const tag of [
    'attn-bars',
    'attn-heatmap',
    'attn-attention',
    'attn-check',
    'attn-code',
    'attn-softmax-temperature',
  ]) {
    assert.ok(tags.has(tag), `${tag} is known`);
  }
  assert.ok(!tags.has('attn-app'), 'the app shell is not a cell a lesson may use');
  // every element the course's lessons use is known: the site's build passes the check
  const lessonsDir = path.resolve(root, process.env.ATTNBOOK_LESSONS_DIR || path.join('web', 'lessons'));
  for (const name of (await readdir(lessonsDir)).filter((n) => n.endsWith('.md'))) {
    const source = await readFile(path.join(lessonsDir, name), 'utf8');
    assert.doesNotThrow(() => compileLesson(source, `web/lessons/${name}`, { knownTags: tags }), name);
  }
});

test('adding a cell is adding its file: a new define is known with no list to edit', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'attnbook-cells-'));
  try {
    await mkdir(path.join(dir, 'figures'));
    await writeFile(
      path.join(dir, 'figures', 'attn-new-cell.js'),
      "class AttnNewCell extends HTMLElement {}\ncustomElements.define('attn-new-cell', AttnNewCell);\n",
    );
    const tags = await registeredTags([...CELL_DIRS, dir]);
    assert.ok(tags.has('attn-new-cell'));
    assert.equal(tags.size, (await registeredTags(CELL_DIRS)).size + 1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an unknown element stops the lesson, naming the file, the line and the tag', () => {
  const body =
    '## Intro\n\nText.\n\n<attn-bars values="1,2"></attn-bars>\n\n<attn-heatmapp values="1"></attn-heatmapp>\n';
  assert.throws(
    () => compile(body),
    (error) =>
      error.message ===
        `web/lessons/demo.md:${FRONT_LINES + 7}: <attn-heatmapp> is not a known element: no file under web/src/cells or web/src/labs defines it (did you mean <attn-heatmap>?)` &&
      error.file === 'web/lessons/demo.md' &&
      error.line === FRONT_LINES + 7 &&
      error.tag === 'attn-heatmapp',
  );
});

test('the line is found inside a multi-line block and inside a paragraph', () => {
  const nested =
    '<attn-attention id="a">\n  <attn-slider slot="controls"></attn-slider>\n  <attn-sliderr></attn-sliderr>\n</attn-attention>\n';
  assert.throws(() => compile(`Intro.\n\n${nested}`), new RegExp(`demo\\.md:${FRONT_LINES + 5}: <attn-sliderr>`));
  const inline =
    'First line of a paragraph\nwith a cell <attn-bars></attn-bars> and\nthen <attn-barz></attn-barz> inline.\n';
  assert.throws(
    () => compile(inline),
    new RegExp(`demo\\.md:${FRONT_LINES + 3}: <attn-barz> .*did you mean <attn-bars>`),
  );
  assert.throws(
    () => compile('<ATTN-WHATEVER></ATTN-WHATEVER>\n'),
    /demo\.md:\d+: <attn-whatever> is not a known element[^(]*$/,
  );
});

test('tags in code are text, not elements: a lesson may show markup', () => {
  const body =
    'Write `<attn-anything>` in a lesson:\n\n```html\n<attn-made-up for="x"></attn-made-up>\n```\n\n    <attn-indented></attn-indented>\n';
  assert.doesNotThrow(() => compile(body));
  assert.doesNotThrow(
    () => compileLesson(FRONT + '<attn-made-up></attn-made-up>\n', 'web/lessons/demo.md'),
    'no check without knownTags',
  );
});

test('building a fixture lesson with a misspelt tag fails, naming the file, line and tag', async () => {
  const file = 'tests/fixtures/lessons-unknown-tag/unknown-tag.md';
  const lines = (await readFile(path.join(root, file), 'utf8')).split('\n');
  const line = lines.findIndex((l) => l.includes('<attn-heatmapp')) + 1;
  assert.ok(line > 0, 'the fixture has the misspelt tag');
  const out = await mkdtemp(path.join(os.tmpdir(), 'attnbook-unknown-tag-'));
  try {
    await assert.rejects(buildLessonsSite(path.dirname(file), path.relative(root, out)), (error) =>
      error.message.includes(`${file}:${line}: <attn-heatmapp> is not a known element`),
    );
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

test('a start tag Markdown would print as text stops the lesson, naming the line', () => {
  const spread = 'Intro.\n\n<attn-attention\n  id="att"\n>\n</attn-attention>\n';
  assert.throws(
    () => compile(spread),
    (error) =>
      error.message ===
        `web/lessons/demo.md:${FRONT_LINES + 3}: <attn-attention … is not read as an element but as text: write its start tag on one line, from < to >` &&
      error.tag === 'attn-attention',
  );
  assert.throws(() => compile('Text <attn-bars values="1"\n\nmore.\n'), /demo\.md:\d+: <attn-bars … is not read/);
  // inline HTML may span lines, and code or an entity is text on purpose
  assert.doesNotThrow(() => compile('A <attn-bars\nvalues="2"></attn-bars> inline.\n'));
  assert.doesNotThrow(() => compile('Write `<attn-bars>` or &lt;attn-bars&gt; as text.\n'));
});

test('web/README’s walk-through quotes the fixture lesson that the browser tests run', async () => {
  const readme = await readFile(path.join(root, 'web', 'README.md'), 'utf8');
  const fixture = await readFile(path.join(root, 'tests', 'fixtures', 'lessons', 'authoring-fixture.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### A lesson from generic cells'), readme.indexOf('## Routes'));
  const snippets = [...section.matchAll(/```markdown\n([\s\S]*?)```/g)].map((m) => m[1].trim());
  assert.ok(snippets.length >= 6, `${snippets.length} snippets`);
  for (const snippet of snippets) {
    for (const part of snippet.split('\n\n')) assert.ok(fixture.includes(part), `the fixture has:\n${part}`);
  }
  // and the fixture uses only elements the front end defines
  const tags = await registeredTags(CELL_DIRS);
  assert.doesNotThrow(() => compileLesson(fixture, 'tests/fixtures/lessons/authoring-fixture.md', { knownTags: tags }));
});

test("a teacher's lesson: generic cells only, no lesson= to write, Try another written in the lesson", async () => {
  const file = 'tests/fixtures/lessons/teacher/teacher-lesson.md';
  const source = await readFile(path.join(root, file), 'utf8');
  assert.doesNotMatch(source, /\blesson=/, 'the fixture leaves lesson= out');
  assert.doesNotMatch(source, /^sources:/m, 'and credits nobody');
  const { meta, html } = compileLesson(source, file, { knownTags: await registeredTags(CELL_DIRS) });
  assert.deepEqual(meta.exerciseIds, ['w0', 'cold']);
  assert.deepEqual(meta.sources, []);
  assert.equal((html.match(/<attn-exercise lesson="teacher-lesson" /g) ?? []).length, 2);
  assert.match(html, /<attn-reveal after="w0">/);
  assert.match(html, /<attn-variant answer="0\.6652" tolerance="0\.0006">/);
});

test('written variants are asked in order, from seed 1, and start again after the last', () => {
  const variants = [{ answer: 1 }, { answer: 2 }, { answer: 3 }];
  assert.deepEqual(
    [1, 2, 3, 4, 5, 7].map((seed) => declaredVariant(variants, seed).answer),
    [1, 2, 3, 1, 2, 1],
  );
  assert.equal(declaredVariant([], 1), null);
  // what declaredVariants reads from an <attn-variant> passes the check every variant passes
  const read = {
    answer: 0.6652,
    tolerance: 0.0006,
    prompt: 'Now the scores are s = (1, 2, 3). What is α2?',
    hint: '',
    explanation: 'About 0.665.',
    mistakes: [{ value: '0.5', tolerance: '0.0006', feedback: '3 / 6 divides by the sum of the scores.' }],
  };
  assert.deepEqual(checkVariant(read).mistakes, [
    { value: 0.5, tolerance: 0.0006, feedback: '3 / 6 divides by the sum of the scores.' },
  ]);
  assert.throws(() => checkVariant({ ...read, answer: NaN }), /the variant's answer NaN is not a finite number/);
});

test('web/README’s "Writing a lesson" names every course-wide test and quotes the teacher’s lesson', async () => {
  const readme = await readFile(path.join(root, 'web', 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Writing a lesson'),
    readme.indexOf('### A lesson from generic cells'),
  );
  const named = [...section.matchAll(/^\| `tests\/e2e\/(course-[\w-]+\.test\.js)` /gm)].map((m) => m[1]).sort();
  const files = (await readdir(path.join(root, 'tests', 'e2e'))).filter((f) => /^course-.*\.test\.js$/.test(f)).sort();
  assert.deepEqual(named, files, 'each course-wide test file has its row, saying what it holds every lesson to');
  const fixture = await readFile(
    path.join(root, 'tests', 'fixtures', 'lessons', 'teacher', 'teacher-lesson.md'),
    'utf8',
  );
  const variant = section.match(/```markdown\n(\s*<attn-variant[\s\S]*?)```/)?.[1];
  assert.ok(variant, 'the section shows an <attn-variant>');
  for (const line of variant
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    assert.ok(fixture.includes(line), `the teacher's lesson has: ${line}`);
  }
});
