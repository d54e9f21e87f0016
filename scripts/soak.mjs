// npm run soak: one lesson page in headless Chromium under scripted interaction
// for a while (not part of npm test), with the page's memory sampled as it goes.
//
//   node scripts/soak.mjs [--minutes 10] [--lesson softmax-temperature] [--seed 1]
//
// Builds first if dist/site is missing, serves dist/site on 127.0.0.1 with the
// strict CSP and opens #/<lesson>. Then, until time is up, it repeats a random
// (seeded) choice of what a learner does: arrow keys and PageUp/PageDown/Home/End
// on a slider or an editable bar, a mouse drag of an editable bar, typing valid
// and invalid numbers into an editor field (then its old text again), a Reset
// button, a permalink change of the hash (the lesson is rebuilt), the theme toggle.
// Every 30 s it forces a garbage collection (DevTools HeapProfiler.collectGarbage)
// and samples:
//   JS heap        performance.memory.usedJSHeapSize (Chromium runs with
//                  --enable-precise-memory-info, so it is not rounded)
//   wasm memory    the engine's wasm memory size and the bytes malloc'd in it,
//                  from engine.memory() (the page's engine, which every cell
//                  reaches with engine(); read through <attn-app>: no extra hook)
//   DOM            nodes and event listeners (DevTools Memory.getDOMCounters)
// It prints a table and a verdict (growth from the first sample to the last),
// writes the same report to bench/results/soak-<date>.txt (ignored by git), and
// exits non-zero if the page logged a console error, threw, opened a dialog or crashed.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { build } from './build.mjs';
import { CHROMIUM, chromiumLaunchOptions, root, step } from './lib.mjs';
import { serve, STRICT_CSP } from './serve.mjs';

const { values: options } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    lesson: { type: 'string', default: 'softmax-temperature' },
    seed: { type: 'string', default: '1' },
  },
});
const MINUTES = Number(options.minutes);
if (!(MINUTES > 0)) throw new Error(`--minutes must be a positive number, not ${options.minutes}`);
const SAMPLE_EVERY_MS = 30000;
const MiB = 1024 * 1024;

/** mulberry32: a small seeded generator, so a run can be repeated. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(Number(options.seed));
const pick = (list) => list[Math.floor(random() * list.length)];

const site = path.join(root, 'dist', 'site');
if (!existsSync(path.join(site, 'index.html'))) {
  step('dist/site is missing: building first');
  await build();
}

step(`soak: #/${options.lesson} for ${MINUTES} min in headless Chromium (dist/site over http, strict CSP)`);
const server = await serve(site, { headers: { 'Content-Security-Policy': STRICT_CSP } });
const browser = await chromium.launch(
  chromiumLaunchOptions(['--enable-precise-memory-info'], { executablePath: CHROMIUM }),
);
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
const problems = [];
let crashed = false;
page.on('console', (message) => {
  if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
});
page.on('pageerror', (error) => problems.push(`uncaught exception: ${error.message}`));
page.on('crash', () => {
  crashed = true;
  problems.push('the page crashed');
});
page.on('dialog', async (dialog) => {
  problems.push(`dialog: ${dialog.message()}`);
  await dialog.dismiss();
});
const cdp = await context.newCDPSession(page);

const lessonUrl = `${server.url}#/${options.lesson}`;
await page.goto(lessonUrl, { timeout: 60000 });
await page.locator('.lesson-body > *').first().waitFor({ timeout: 60000 });
if ((await page.locator('.not-found').count()) > 0) throw new Error(`no lesson called ${options.lesson}`);

/** Scrolls through the page, so every figure has drawn (they draw when first visible). */
async function scrollThrough() {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
      scrollTo({ top: y, behavior: 'instant' });
      await frame();
      await frame();
    }
  });
}
await scrollThrough();
page.setDefaultTimeout(5000); // one step of the loop; a slow step is skipped, not fatal
const permalinks = [page.url()];

// What a learner does. Each returns a short name of what it did; a step that finds
// nothing to act on (say, a figure not drawn yet after a hash change) returns null.
const actions = {
  async sliderKeys() {
    const sliders = page.getByRole('slider');
    const n = await sliders.count();
    if (n === 0) return null;
    await sliders.nth(Math.floor(random() * n)).focus();
    for (let i = 0; i < 4; i++)
      await page.keyboard.press(pick(['ArrowUp', 'ArrowDown', 'ArrowRight', 'PageUp', 'PageDown', 'Home', 'End']));
    return 'slider keys';
  },
  async barDrag() {
    const bars = page.getByRole('slider', { name: /^Bar / });
    const n = await bars.count();
    if (n === 0) return null;
    const bar = bars.nth(Math.floor(random() * n));
    await bar.scrollIntoViewIfNeeded();
    const box = await bar.boundingBox();
    if (!box) return null;
    const x = box.x + box.width / 2;
    await page.mouse.move(x, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(x, box.y + box.height / 2 + (random() - 0.5) * 160, { steps: 8 });
    await page.mouse.up();
    return 'bar drag';
  },
  async typeInEditor() {
    const fields = page.locator(':is(attn-vector-editor, attn-matrix-editor) input[type=text]');
    const n = await fields.count();
    if (n === 0) return null;
    const field = fields.nth(Math.floor(random() * n));
    const before = await field.inputValue();
    const numbers = before.split(',').map((x) => Number(x) + Math.round((random() - 0.5) * 20) / 10);
    const texts = [numbers.join(', '), `${before}, abc`, 'NaN', '', '1e999', `[${before}]`, '<b>1</b>'];
    await field.fill(pick(texts));
    await field.fill(before);
    return 'editor text';
  },
  async reset() {
    const buttons = page.getByRole('button', { name: /^Reset/ });
    const n = await buttons.count();
    if (n === 0) return null;
    await buttons.nth(Math.floor(random() * n)).click();
    return 'Reset';
  },
  async permalink() {
    // The app keeps the URL up to date: remember this state, then go to an earlier one.
    const now = page.url();
    if (!permalinks.includes(now)) permalinks.push(now);
    if (permalinks.length > 20) permalinks.splice(1, 1);
    const target = pick(permalinks.filter((url) => url !== now)) ?? lessonUrl;
    await page.evaluate((hash) => (location.hash = hash), new URL(target).hash);
    await page.locator('.lesson-body > *').first().waitFor();
    await scrollThrough();
    return 'permalink';
  },
  async theme() {
    const group = page.getByRole('group', { name: 'Colour theme' });
    await group.getByRole('button', { name: pick(['Dark', 'Light', 'System']) }).click();
    return 'theme';
  },
};
// Relative frequencies: mostly input on the figures, now and then a whole new lesson state.
const plan = [
  ...Array(6).fill('sliderKeys'),
  ...Array(5).fill('barDrag'),
  ...Array(4).fill('typeInEditor'),
  ...Array(2).fill('reset'),
  'permalink',
  'theme',
];

async function sample(elapsedMs, interactions) {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { jsHeap, wasm } = await page.evaluate(async () => {
    const engine = await document.querySelector('attn-app').engine();
    return { jsHeap: performance.memory.usedJSHeapSize, wasm: engine.memory() };
  });
  const dom = await cdp.send('Memory.getDOMCounters');
  return {
    minutes: elapsedMs / 60000,
    interactions,
    jsHeapMiB: jsHeap / MiB,
    wasmMiB: wasm.heapBytes / MiB,
    wasmInUseKiB: wasm.inUseBytes / 1024,
    nodes: dom.nodes,
    listeners: dom.jsEventListeners,
    consoleErrors: problems.length,
  };
}

const columns = [
  ['min', (s) => s.minutes.toFixed(1)],
  ['interactions', (s) => String(s.interactions)],
  ['JS heap MiB', (s) => s.jsHeapMiB.toFixed(2)],
  ['wasm memory MiB', (s) => s.wasmMiB.toFixed(2)],
  ['wasm in use KiB', (s) => s.wasmInUseKiB.toFixed(1)],
  ['DOM nodes', (s) => String(s.nodes)],
  ['listeners', (s) => String(s.listeners)],
  ['errors', (s) => String(s.consoleErrors)],
];
const line = (cells) => cells.map((c, i) => c.padStart(Math.max(columns[i][0].length, 6))).join('  ');
const report = [];
const say = (text) => {
  report.push(text);
  console.log(text);
};

say(`soak: #/${options.lesson}, ${MINUTES} min, seed ${options.seed}, Chromium ${browser.version()}`);
say(line(columns.map(([name]) => name)));
const samples = [];
const counts = {};
let interactions = 0;
let skipped = 0;
const started = Date.now();
const record = async () => {
  const s = await sample(Date.now() - started, interactions);
  samples.push(s);
  say(line(columns.map(([, format]) => format(s))));
};
await record();
let nextSample = started + SAMPLE_EVERY_MS;
const end = started + MINUTES * 60000;
while (Date.now() < end && !crashed) {
  const name = pick(plan);
  try {
    const done = await actions[name]();
    if (done) {
      interactions += 1;
      counts[done] = (counts[done] ?? 0) + 1;
    } else skipped += 1;
  } catch (error) {
    if (crashed) break;
    // An element that went away mid-step (a figure redrawn, the lesson rebuilt): not the page's fault.
    if (!/Timeout|detached|not attached|Target closed/i.test(error.message)) throw error;
    skipped += 1;
  }
  if (Date.now() >= nextSample || Date.now() >= end) {
    await record();
    while (nextSample <= Date.now()) nextSample += SAMPLE_EVERY_MS; // a slow step: skip, do not catch up
  }
}

const first = samples[0];
const last = samples.at(-1);
const growth = (a, b, unit = 'MiB') =>
  `${a.toFixed(2)} -> ${b.toFixed(2)} ${unit} (${b >= a ? '+' : ''}${(b - a).toFixed(2)} ${unit})`;
// The first half minute also loads code and fills caches: growth after it says more about leaks.
const settled = samples[1] ?? first;
say(
  `interactions: ${Object.entries(counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}; ${skipped} steps found nothing to act on`,
);
for (const problem of problems.slice(0, 20)) say(`  ${problem}`);
say(
  `verdict: ${interactions} interactions in ${last.minutes.toFixed(1)} min; JS heap ${growth(first.jsHeapMiB, last.jsHeapMiB)} ` +
    `(from ${settled.minutes.toFixed(1)} min: ${growth(settled.jsHeapMiB, last.jsHeapMiB)}); ` +
    `wasm memory ${growth(first.wasmMiB, last.wasmMiB)}, in use ${growth(first.wasmInUseKiB, last.wasmInUseKiB, 'KiB')}; ` +
    `DOM nodes ${first.nodes} -> ${last.nodes}; ${problems.length} console errors${crashed ? '; the page CRASHED' : ''}`,
);

await browser.close();
await server.close();
const results = path.join(root, 'bench', 'results');
await mkdir(results, { recursive: true });
const file = path.join(results, `soak-${new Date().toISOString().replace(/:/g, '-').replace(/\..*/, '')}.txt`);
await writeFile(file, `${report.join('\n')}\n`);
console.log(`written: ${path.relative(root, file)}`);
process.exit(problems.length > 0 || crashed ? 1 : 0);
