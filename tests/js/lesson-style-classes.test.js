// Lessons carry no style attributes (scripts/lesson-style-classes.mjs): a strict CSP refuses them,
// so the build turns each one, KaTeX's sizes above all, into a class whose rule is in a stylesheet
// (virtual:attnbook-lesson-styles.css, which every lesson module imports).
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import katex from 'katex';
import { className, lessonStylesheet, styleClasses } from '../../scripts/lesson-style-classes.mjs';
import { compileLesson, LessonError } from '../../scripts/vite-lessons-plugin.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FRONT = '---\nid: demo\ntitle: Demo\norder: 2\nsummary: A lesson for tests.\n---\n';
const STYLE_ATTRIBUTE = /<[A-Za-z][^>]*\sstyle\s*=/;

test('KaTeX sizes become classes: the same declarations, the same class, and the rule says them', () => {
  const source = katex.renderToString('\\frac{QK^\\top}{\\sqrt{d_k}}', { displayMode: true });
  assert.match(source, /style="height:/, 'KaTeX writes its sizes as style attributes');
  const { html, styles } = styleClasses(source, 'demo.md');
  assert.doesNotMatch(html, STYLE_ATTRIBUTE);
  const strut = source.match(/<span class="strut" style="([^"]*)">/)[1]; // e.g. height:2.4em;vertical-align:-0.9em;
  const expected = className(strut.replace(/;$/, ''));
  assert.ok(html.includes(`<span class="strut ${expected}">`), `the strut has class ${expected}`);
  const sheet = lessonStylesheet(styles);
  const rule = `.${expected}{${strut
    .replace(/;$/, '')
    .split(';')
    .map((d) => `${d}!important`)
    .join(';')}}`;
  assert.ok(sheet.split('\n').includes(rule), `the stylesheet has ${rule}`);
  assert.equal(sheet.split('\n').length, styles.size, 'one rule a class');
  assert.deepEqual(sheet.split('\n'), [...sheet.split('\n')].sort(), 'sorted by class name');
});

test('a tag without a class gets one (before a closing /), one with a class keeps it first; other attributes stay as written', () => {
  const { html, styles } = styleClasses(
    `<svg xmlns="http://www.w3.org/2000/svg" width="0.9em" style="width:0.9em" viewBox="0 0 9 1"></svg>` +
      `<p title='a  "b"' style='color: red; ' class=note>x</p><b style="">y</b><br style="top: 1px" />`,
    'demo.md',
  );
  const width = className('width:0.9em');
  const red = className('color:red');
  const top = className('top:1px');
  assert.equal(
    html,
    `<svg xmlns="http://www.w3.org/2000/svg" width="0.9em" viewBox="0 0 9 1" class="${width}"></svg>` +
      `<p title='a  "b"' class="note ${red}">x</p><b>y</b><br class="${top}" />`,
  );
  assert.deepEqual([...styles], [
    [width, 'width:0.9em'],
    [red, 'color:red'],
    [top, 'top:1px'],
  ]); // prettier-ignore
});

test('the content of script, style and textarea is left as written', () => {
  const text = '<textarea style="a:b"><span style="color:red"></span></textarea>';
  const { html } = styleClasses(text, 'demo.md');
  assert.equal(html, `<textarea class="${className('a:b')}"><span style="color:red"></span></textarea>`);
});

test('a style that is not plain declarations stops the build, naming the lesson', () => {
  for (const style of ['color:red}body{color:blue', 'color:red /* x */', '@import x', 'background:url(a)\\;']) {
    assert.throws(
      () => compileLesson(`${FRONT}<p style="${style}">x</p>\n`, 'web/lessons/demo.md'),
      (error) => error instanceof LessonError && /^web\/lessons\/demo\.md: has style="/.test(error.message),
      style,
    );
  }
});

test('no lesson of the course has a style attribute once compiled', async () => {
  const dir = path.join(root, 'web', 'lessons');
  for (const file of (await readdir(dir)).filter((name) => name.endsWith('.md'))) {
    const { html, styles } = compileLesson(await readFile(path.join(dir, file), 'utf8'), file);
    assert.doesNotMatch(html, STYLE_ATTRIBUTE, file);
    for (const name of styles.keys()) assert.ok(html.includes(name), `${file}: ${name} is used`);
  }
});
