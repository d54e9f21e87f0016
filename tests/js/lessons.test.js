// The lesson authoring pipeline (scripts/vite-lessons-plugin.mjs) and the
// permalink route parser (web/src/shell/route.js), in Node. The course is every lesson found in
// web/lessons (or ATTNBOOK_LESSONS_DIR: tests/e2e/teacher-lesson.test.js runs this file on a copy
// of the course with a teacher's lesson added); what is checked of the project's own lessons only
// is listed in tests/fixtures/lessons/project-lessons.js.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import lessonsPlugin, {
  compileLesson,
  dropUnusedFonts,
  registeredTags,
  woff2Only,
} from '../../scripts/vite-lessons-plugin.mjs';
import { buildHash, parseHash } from '../../web/src/shell/route.js';
import { PROJECT_LESSONS } from '../fixtures/lessons/project-lessons.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The course: web/lessons, or the folder ATTNBOOK_LESSONS_DIR names. */
const LESSONS_DIR = path.resolve(root, process.env.ATTNBOOK_LESSONS_DIR || 'web/lessons');

/** Every lesson of the course, compiled with the cells the front end defines: [{ name, lesson }]. */
async function courseLessons() {
  const knownTags = await registeredTags(['web/src/cells', 'web/src/labs'].map((dir) => path.join(root, dir)));
  const names = (await readdir(LESSONS_DIR)).filter((n) => n.endsWith('.md')).sort();
  const found = [];
  for (const name of names) {
    const source = await readFile(path.join(LESSONS_DIR, name), 'utf8');
    found.push({ name, lesson: compileLesson(source, `web/lessons/${name}`, { knownTags }) });
  }
  return found;
}

const FILE = 'web/lessons/demo.md';
const FRONT = `---
id: demo
title: Demo
order: 2
summary: A lesson for tests.
sources:
  - Vaswani et al. 2017
---
`;

const lesson = (body, front = FRONT) => compileLesson(front + body, FILE);
const withField = (line, replace) => FRONT.replace(new RegExp(`^${replace}:.*$`, 'm'), line);

describe('compileLesson', () => {
  test('renders maths with KaTeX at build time, inline and display', () => {
    const { html } = lesson('Inline $\\tau > 0$ and\n\n$$\n\\alpha_j = \\frac{a}{b}\n$$\n');
    assert.match(html, /<span class="katex">/);
    assert.match(html, /class="katex-display"/);
    assert.match(html, /<annotation encoding="application\/x-tex">\\alpha_j = \\frac\{a\}\{b\}/);
  });

  test('keeps inline cells as elements, unwrapped from <p>, and counts exercises', () => {
    const { html, meta } = lesson(
      '<attn-softmax-temperature id="t" temperature="2"></attn-softmax-temperature>\n\n' +
        '<attn-exercise id="e1" label="Exercise 1: first"></attn-exercise>\n\n' +
        'Text <attn-exercise id="e2"></attn-exercise> inline.\n\n' +
        '<attn-reveal after="e1"><attn-softmax-temperature id="t2"></attn-softmax-temperature></attn-reveal>\n',
    );
    assert.match(html, /^<attn-softmax-temperature id="t" temperature="2"><\/attn-softmax-temperature>/);
    assert.match(html, /<p>Text <attn-exercise lesson="demo" id="e2"><\/attn-exercise> inline.<\/p>/);
    assert.throws(
      () => lesson('<attn-exercise id="e1"></attn-exercise>\n\n<attn-reveal after="e9"></attn-reveal>\n'),
      /demo\.md: has <attn-reveal after="e9">: "after" must be the id of an <attn-exercise> in this lesson \(e1\)/,
    );
    assert.equal(meta.exercises, 2);
    assert.deepEqual(meta.exerciseIds, ['e1', 'e2']);
    assert.deepEqual(meta.exerciseLabels, { e1: 'Exercise 1: first', e2: 'e2' });
    assert.deepEqual(
      { id: meta.id, title: meta.title, order: meta.order, sources: meta.sources },
      { id: 'demo', title: 'Demo', order: 2, sources: ['Vaswani et al. 2017'] },
    );
  });

  test('gives headings unique ids for the table of contents', () => {
    const { html, headings } = lesson(
      '## Why it works\n\n### Détails\n\n## Why it works\n\n#### Deep\n\n<attn-x id="t"></attn-x>\n\n## T\n',
    );
    assert.deepEqual(headings, [
      { id: 'why-it-works', text: 'Why it works', level: 2 },
      { id: 'details', text: 'Détails', level: 3 },
      { id: 'why-it-works-2', text: 'Why it works', level: 2 },
      { id: 't-2', text: 'T', level: 2 },
    ]);
    assert.match(html, /<h2 id="why-it-works-2">/);
    assert.match(html, /<h4 id="deep">/);
  });

  const bad = [
    ['a missing field', FRONT.replace(/^summary:.*\n/m, ''), '', /demo\.md: front matter field "summary" is missing/],
    [
      'an order that is not a number',
      withField('order: third', 'order'),
      '',
      /field "order" must be a number, got "third"/,
    ],
    ['an id unlike the file name', withField('id: other', 'id'), '', /field "id" must match the file name "demo"/],
    ['an id with capitals', withField('id: Demo', 'id'), '', /field "id" must be lower-case words/],
    [
      'sources that are not a list',
      FRONT.replace(/^sources:\n.*\n/m, 'sources: Vaswani et al.\n'),
      '',
      /field "sources" must be a list of credit lines \(or left out\), got "Vaswani et al\."/,
    ],
    [
      'an empty credit line',
      FRONT.replace(/^sources:\n.*\n/m, "sources:\n  - ''\n"),
      '',
      /field "sources" entry 0 must be non-empty text/,
    ],
    [
      "another lesson's exercise",
      FRONT,
      '<attn-exercise id="e1" lesson="other"></attn-exercise>\n',
      /demo\.md: has <attn-exercise id="e1" lesson="other">: an exercise belongs to the lesson it is in; leave lesson out \(or write lesson="demo"\)/,
    ],
    [
      'a variant without a number for its answer',
      FRONT,
      '<attn-exercise id="e1" mode="number" answer="1">\n<attn-variant answer="half"></attn-variant>\n</attn-exercise>\n',
      /demo\.md: has <attn-variant answer="half">: "answer" must be a number/,
    ],
    ['an unknown field', FRONT.replace('order: 2', 'order: 2\nauthor: me'), '', /field "author" is not a known field/],
    ['no front matter', '', '# Hi\n', /demo\.md: needs YAML front matter/],
    ['a # heading', FRONT, '# Title again\n', /has a # heading "Title again"/],
    ['maths KaTeX cannot parse', FRONT, '$\\frac{1}{$\n', /demo\.md: has maths KaTeX cannot render/],
    [
      'two cells with one id',
      FRONT,
      '<attn-a id="t"></attn-a>\n\n<attn-b id="t"></attn-b>\n',
      /two elements with id "t"/,
    ],
    ['a cell id with a dot', FRONT, '<attn-a id="a.b"></attn-a>\n', /<attn-a id="a\.b">: a cell id is a letter/],
  ];
  for (const [what, front, body, message] of bad) {
    test(`refuses ${what}, naming the file and field`, () => {
      assert.throws(() => compileLesson(front + body, FILE), message);
    });
  }

  test('sources may be left out or left empty: a lesson need not credit anyone', () => {
    const none = FRONT.replace(/^sources:\n.*\n/m, '');
    assert.deepEqual(compileLesson(`${none}Text.\n`, FILE).meta.sources, []);
    assert.deepEqual(compileLesson(`${none.replace('---\n', '---\nsources: []\n')}Text.\n`, FILE).meta.sources, []);
    assert.deepEqual(compileLesson(`${none.replace('---\n', '---\nsources:\n')}Text.\n`, FILE).meta.sources, []);
  });

  test("an exercise's lesson is implied by the page: the build writes it into every exercise without one", () => {
    const { html } = lesson(
      '<attn-exercise id="e1" mode="number" answer="1"><p>One?</p></attn-exercise>\n\n' +
        'Inline <attn-exercise id="e2"></attn-exercise> too.\n\n' +
        '<attn-exercise id="e3" lesson="demo" label="Exercise 3"></attn-exercise>\n\n' +
        '`<attn-exercise id="shown">` in code is left alone.\n',
    );
    assert.match(html, /<attn-exercise lesson="demo" id="e1" mode="number" answer="1">/);
    assert.match(html, /Inline <attn-exercise lesson="demo" id="e2">/);
    assert.match(html, /<attn-exercise id="e3" lesson="demo" label="Exercise 3">/, 'one written as the page is kept');
    assert.match(html, /<code>&lt;attn-exercise id=&quot;shown&quot;&gt;<\/code>/);
    assert.equal((html.match(/lesson="demo"/g) ?? []).length, 3);
  });

  test('the course: every lesson builds with the cells the front end defines, with at least two exercises', async () => {
    const found = await courseLessons();
    assert.ok(found.length > 0, `lessons in ${LESSONS_DIR}`);
    for (const { name, lesson } of found) {
      assert.equal(`${lesson.meta.id}.md`, name);
      assert.ok(lesson.meta.exercises >= 2, `${name} has ${lesson.meta.exercises} exercises; every lesson needs two`);
      // every exercise saves its progress under this lesson's id (written by the build where left out)
      const lessons = [...lesson.html.matchAll(/<attn-exercise\b[^>]*\blesson="([^"]*)"/g)].map((m) => m[1]);
      assert.deepEqual(new Set(lessons), new Set([lesson.meta.id]), `${name}: each exercise's lesson`);
    }
  });

  test("the project's own lessons: in their order, each crediting the paper and a source notebook by title", async () => {
    const metas = (await courseLessons())
      .map(({ lesson }) => lesson.meta)
      .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
    const own = metas.filter((meta) => PROJECT_LESSONS.includes(meta.id));
    assert.deepEqual(
      own.map((meta) => meta.id),
      PROJECT_LESSONS,
    );
    for (const meta of own) {
      assert.ok(
        meta.sources.some((s) => s.includes('arXiv:1706.03762')),
        `${meta.id} credits Vaswani et al.`,
      );
      assert.ok(
        meta.sources.some((s) => /Attention as a Weighted Mixture|Lesson 44: The Attention Mechanism/.test(s)),
        `${meta.id} credits a source notebook by title`,
      );
    }
  });
});

test('woff2Only drops the woff and ttf fallbacks from KaTeX CSS', () => {
  const css =
    '@font-face{font-family:KaTeX_Main;src:url(fonts/KaTeX_Main-Regular.woff2) format("woff2"),' +
    'url(fonts/KaTeX_Main-Regular.woff) format("woff"),url(fonts/KaTeX_Main-Regular.ttf) format("truetype")}';
  assert.equal(
    woff2Only(css),
    '@font-face{font-family:KaTeX_Main;src:url(fonts/KaTeX_Main-Regular.woff2) format("woff2")}',
  );
});

describe('parseHash', () => {
  test('routes', () => {
    assert.equal(parseHash('').page, 'home');
    assert.equal(parseHash('#/').page, 'home');
    assert.deepEqual(parseHash('#/softmax-temperature/'), {
      page: 'lesson',
      lessonId: 'softmax-temperature',
      params: [],
      embed: false,
      host: null,
      at: null,
      issues: [],
    });
    assert.equal(parseHash('#main'), null, 'an in-page fragment is not a route');
  });

  test('reads cell settings and embed, and reports what it cannot read', () => {
    const route = parseHash('#/l?t.logits=1,2,3&t.temperature=%3Cb%3E&embed=1&bad&x.y=%E0%A4%A&.z=1');
    assert.equal(route.embed, true);
    assert.deepEqual(route.params, [
      { cell: 't', field: 'logits', text: '1,2,3' },
      { cell: 't', field: 'temperature', text: '<b>' },
    ]);
    assert.deepEqual(route.issues, [
      'bad: not a cell setting (expected cell.field=value)',
      'x.y: not valid percent-encoding',
      '.z: not a cell setting (expected cell.field=value)',
    ]);
    assert.match(parseHash(`#/l?t.a=${'1'.repeat(100001)}`).issues[0], /too long/);
  });

  test('buildHash is the inverse of parseHash', () => {
    const params = [
      { cell: 't', field: 'logits', text: '1.2,-4.5e-3' },
      { cell: 'm', field: 'grid', text: '1,0;0,1' },
      { cell: 'n', field: 'note', text: 'a&b=c #d' },
    ];
    const hash = buildHash('softmax-temperature', params, { embed: true });
    assert.equal(hash.split('?')[1].split('&')[0], 't.logits=1.2,-4.5e-3');
    const route = parseHash(hash);
    assert.deepEqual(route.params, params);
    assert.equal(route.embed, true);
    assert.equal(route.lessonId, 'softmax-temperature');
  });

  test('at= names the exercise or section an assignment link opens at; buildHash keeps it', () => {
    assert.equal(parseHash('#/l?t.x=1&at=cold-limit').at, 'cold-limit');
    assert.deepEqual(parseHash('#/l?at=cold-limit').params, []);
    assert.deepEqual(parseHash('#/l?at=%3Cb%3E').issues, ['at: "<b>" is not the id of an exercise or a section']);
    assert.equal(parseHash('#/l?at=%3Cb%3E').at, null);
    assert.deepEqual(parseHash('#/l?at=a&at=b').issues, ['at: given more than once (the first one counts)']);
    assert.equal(parseHash('#/l?at=a&at=b').at, 'a');
    const hash = buildHash('l', [{ cell: 't', field: 'x', text: '1' }], { at: 'cold-limit' });
    assert.equal(hash, '#/l?t.x=1&at=cold-limit');
    assert.equal(parseHash(hash).at, 'cold-limit');
  });
});

test('dropUnusedFonts keeps KaTeX_Main and the families the lessons use, drops the rest', () => {
  const css = [
    '@font-face{font-family:"KaTeX_Main";src:url(fonts/KaTeX_Main-Regular.woff2) format("woff2")}',
    '@font-face{font-family:KaTeX_Math;font-style:italic;src:url(fonts/KaTeX_Math-Italic.woff2) format("woff2")}',
    '@font-face{font-family:"KaTeX_Fraktur";src:url(fonts/KaTeX_Fraktur-Regular.woff2) format("woff2")}',
    '@font-face{font-family:"KaTeX_Size1";src:url(fonts/KaTeX_Size1-Regular.woff2) format("woff2")}',
    '.katex{font:normal 1.21em KaTeX_Main}',
    '.katex .mathnormal{font-family:KaTeX_Math;font-style:italic}',
    '.katex .mathfrak,.katex .textfrak{font-family:KaTeX_Fraktur}',
    '@media screen{.katex .op-symbol.small-op{font-family:KaTeX_Size1}}',
  ].join('');
  const kept = (classes) =>
    [...dropUnusedFonts(css, new Set(classes)).matchAll(/@font-face\{font-family:"?(\w+)/g)].map((m) => m[1]);
  assert.deepEqual(kept(['katex', 'mathnormal']), ['KaTeX_Main', 'KaTeX_Math']);
  assert.deepEqual(kept(['katex', 'textfrak', 'op-symbol']), ['KaTeX_Main', 'KaTeX_Fraktur']);
  assert.deepEqual(kept(['katex', 'op-symbol', 'small-op']), ['KaTeX_Main', 'KaTeX_Size1']);
  assert.deepEqual(kept([]), ['KaTeX_Main']);
  assert.match(dropUnusedFonts(css, new Set()), /\.katex \.mathfrak,\.katex \.textfrak\{font-family:KaTeX_Fraktur\}/);
});

test('compress: the lesson module carries its HTML gzipped (the single file), which inflates to the same HTML', async () => {
  const context = {
    error: (message) => {
      throw new Error(message);
    },
  };
  const source = `${FRONT}## A section\n\nSome maths: $x^2$.\n`;
  const file = '/course/web/lessons/demo.md';
  const plain = await lessonsPlugin().transform.call(context, source, file);
  const packed = await lessonsPlugin({ compress: true }).transform.call(context, source, file);
  const html = JSON.parse(plain.code.match(/^export const html = (.*);$/m)[1]);
  const gzipped = JSON.parse(packed.code.match(/^export const htmlGzip = (.*);$/m)[1]);
  assert.match(html, /<h2 id="a-section">A section<\/h2>/);
  assert.match(packed.code, /^export const html = null;$/m);
  assert.equal(gunzipSync(Buffer.from(gzipped, 'base64')).toString('utf8'), html);
});
