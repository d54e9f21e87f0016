// README.md's "Embedding" examples, as a course page would use them, under exactly the policy the
// README states (`Content-Security-Policy: …` in that section, which must be tests/e2e/browser.js
// STRICT_CSP), in headless Chromium. The code blocks are read from the README, so the test follows
// it: a page with the script tag and the element (attn-widgets.js next to it), and a page of the
// same site as dist/site/ with the iframe, the stylesheet rule and the module script. Neither the
// page nor the frame may see a CSP violation:
// - the widget computes its bars (softmax of its logits); its PNG export, which needs blob: images,
//   says so instead of tripping the policy, and its SVG export downloads;
// - the iframe spans the page's width, takes the height its lesson reports (the lesson fits, no
//   inner scrolling), shows the lesson preset by its link (τ = 0.25), and the lesson's maths is
//   intact: no style attribute in KaTeX's markup, every strut with its height.
// Waits for signals (attributes, the status line, the frame's height), never for a fixed time.
import assert from 'node:assert/strict';
import { copyFile, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { serve } from '../../scripts/serve.mjs';
import {
  cspViolations,
  distDir,
  launch,
  recordCspViolations,
  settled,
  showFigure,
  STRICT_CSP,
  watch,
} from './browser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** README.md's "Embedding" section: { policy, blocks: [{ lang, code }] }. */
async function embeddingSection() {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const section = readme.match(/^## Embedding\n([\s\S]*?)(?=^## )/m)?.[1];
  assert.ok(section, 'README.md has an "## Embedding" section');
  const policy = section.match(/`Content-Security-Policy: ([^`]+)`/)?.[1];
  assert.ok(policy, 'the section states a Content-Security-Policy');
  const blocks = [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map(([, lang, code]) => ({ lang, code }));
  return { policy, blocks };
}

/** The one block of `lang` whose code matches `pattern`. */
function block(blocks, lang, pattern) {
  const found = blocks.filter((b) => b.lang === lang && pattern.test(b.code));
  assert.equal(found.length, 1, `README.md's Embedding section has one \`\`\`${lang} block with ${pattern}`);
  return found[0].code;
}

const page = (title, head, body) =>
  `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${title}</title>${head}</head>\n<body>\n<h1>${title}</h1>\n${body}</body>\n</html>\n`;

let browser;
let server;
let scratch;
let policy;

before(async () => {
  const readme = await embeddingSection();
  policy = readme.policy;
  assert.equal(policy, STRICT_CSP, "the README's policy is the one every browser test serves");
  const widget = block(readme.blocks, 'html', /<script src="attn-widgets\.js">/);
  const iframe = block(readme.blocks, 'html', /<iframe/);
  const css = block(readme.blocks, 'css', /./);
  const js = block(readme.blocks, 'js', /attnbook:height/);

  browser = await launch();
  scratch = await mkdtemp(path.join(os.tmpdir(), 'attnbook-readme-embed-'));
  // "Put dist/site/ on your site": the course pages sit beside it, on its origin
  await cp(path.join(distDir, 'site'), scratch, { recursive: true });
  // "Copy it next to your page"
  await copyFile(path.join(distDir, 'embed', 'attn-widgets.js'), path.join(scratch, 'attn-widgets.js'));
  await writeFile(path.join(scratch, 'widget.html'), page('Week 3: softmax', '', widget));
  await writeFile(path.join(scratch, 'course.css'), css);
  await writeFile(path.join(scratch, 'course.js'), js);
  const head = '<link rel="stylesheet" href="course.css"><script type="module" src="course.js"></script>';
  await writeFile(path.join(scratch, 'lesson.html'), page('Week 3: a lesson', head, iframe));
  await writeFile(path.join(scratch, 'favicon.ico'), ''); // the browser's own request: no 404
  server = await serve(scratch, { headers: { 'Content-Security-Policy': policy } });
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A page watched for console errors, exceptions, remote requests and CSP violations (every frame). */
async function open(file) {
  const tab = await browser.context.newPage();
  const { problems } = watch(tab);
  await recordCspViolations(tab);
  await tab.goto(new URL(file, server.url).href);
  return { tab, problems };
}

function softmax(x, tau) {
  const m = Math.max(...x);
  const e = x.map((v) => Math.exp((v - m) / tau));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

test("README's script embed under README's CSP: the figure computes, PNG export says what it needs, SVG exports", async () => {
  const { tab, problems } = await open('widget.html');
  const figure = await showFigure(tab, 'attn-softmax-temperature');
  const bars = await figure
    .locator('rect.bar')
    .evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute('data-value'))));
  const expected = softmax([1.2, 4.5, 2, 0.8], 1); // the README's logits and temperature
  assert.equal(bars.length, expected.length, 'one bar a logit');
  bars.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) <= 1e-5, `bar ${i}: ${v}, expected ${expected[i]}`));

  const menu = figure.locator('.toolbar details.export-menu');
  await menu.locator('summary').click();
  await figure.getByRole('button', { name: 'Export the figure as PNG' }).click();
  await figure
    .locator('.toolbar .status')
    .getByText(/^Could not export PNG: this page's Content-Security-Policy does not allow blob: images/)
    .waitFor();
  await menu.locator('summary').click();
  const [download] = await Promise.all([
    tab.waitForEvent('download'),
    figure.getByRole('button', { name: 'Export the figure as SVG' }).click(),
  ]);
  assert.match(download.suggestedFilename(), /\.svg$/);

  assert.deepEqual(await cspViolations(tab), []);
  assert.deepEqual(problems, []);
  await tab.close();
});

test("README's iframe embed under README's CSP: full width, sized by the lesson, preset, its maths intact", async () => {
  const { tab, problems } = await open('lesson.html');
  const frame = tab.frameLocator('#lesson');
  await showFigure(frame, 'attn-softmax-temperature#t');
  await frame.locator('attn-softmax-temperature#t[data-settled] output').getByText('τ = 0.250').waitFor(); // from the src
  await settled(frame.locator('attn-app')); // every cell shown has drawn: the lesson's height is final

  // the README's script sets the iframe's height from the lesson's messages: the lesson fits
  const fit = await tab.waitForFunction(() => {
    const f = document.getElementById('lesson');
    const body = f.contentDocument?.body;
    if (!body || f.style.height === '') return false;
    if (Math.abs(parseFloat(f.style.height) - body.getBoundingClientRect().height) > 1) return false;
    const html = f.contentDocument.documentElement;
    return {
      width: f.getBoundingClientRect().width,
      room: document.body.clientWidth - parseFloat(getComputedStyle(document.body).paddingLeft) * 2,
      border: getComputedStyle(f).borderTopWidth,
      height: f.getBoundingClientRect().height,
      scrolls: html.scrollHeight > html.clientHeight + 1,
    };
  });
  const { width, room, border, height, scrolls } = await fit.jsonValue();
  assert.ok(Math.abs(width - room) <= 1 && width > 300, `the iframe is ${width} px wide, the page's text ${room} px`);
  assert.equal(border, '0px', "the README's stylesheet rule applies: no border");
  assert.ok(height > 200, `iframe height ${height}`);
  assert.equal(scrolls, false, 'the lesson fits its iframe');

  // the lesson's maths: KaTeX's markup with its sizes as classes, each box sized
  const maths = await frame.locator('.lesson-body').evaluate((body) => {
    const katex = body.querySelectorAll('.katex');
    const struts = [...body.querySelectorAll('.katex-html .strut')]; // each formula's height and depth
    return {
      formulas: katex.length,
      styled: body.querySelectorAll('.katex[style], .katex [style]').length, // (the page may size a formula through the CSSOM: .katex-display)
      struts: struts.length,
      // the computed style: a paragraph not laid out yet (content-visibility: auto) has it too
      unsized: struts.filter((el) => !(parseFloat(getComputedStyle(el).height) > 0)).length,
      fractions: body.querySelectorAll('.katex .mfrac').length,
    };
  });
  assert.ok(maths.formulas > 20 && maths.fractions > 0, `the lesson's maths: ${JSON.stringify(maths)}`);
  assert.equal(maths.styled, 0, "no style attribute in KaTeX's markup");
  assert.ok(maths.struts >= maths.formulas, 'a strut in each formula');
  assert.equal(maths.unsized, 0, 'struts without their height');

  assert.equal(tab.frames().length, 2);
  assert.deepEqual(await cspViolations(tab), []); // the page and the iframe
  assert.deepEqual(problems, []);
  await tab.close();
});
