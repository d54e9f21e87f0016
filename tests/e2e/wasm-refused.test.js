// The site where WebAssembly is refused: served under exactly `default-src 'self'; script-src 'self'`
// (no 'wasm-unsafe-eval', so compiling wasm throws), every lesson computes through the JS core (the
// C++ core compiled to JavaScript by wasm2js, engine/js-core.js) and every Verified check passes;
// every lab says the JS core computed it (data-core="js"). Where wasm is allowed the JS core's chunk
// is never fetched; where neither can load (the chunk answers 404), every figure waits empty with
// its cell's notice and no check passes on numbers that were not computed.
// Style violations of this policy (no 'unsafe-inline' styles) are another matter and are ignored;
// the one script violation allowed is the engine's own probe (features.js wasmCompiles), which
// compiles an empty module once per page or worker to learn that wasm is refused.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { serve } from '../../scripts/serve.mjs';
import { isProjectLesson } from '../fixtures/lessons/project-lessons.js';
import {
  STRICT_CSP,
  cspViolations,
  distDir,
  launch,
  lessonList,
  openAllGates,
  recordCspViolations,
  scrollThrough,
  settled,
  untilInPage,
} from './browser.js';

/** The policy of issue 37: the page's own scripts, nothing else (no 'wasm-unsafe-eval'). */
const NO_WASM_CSP = "default-src 'self'; script-src 'self'";
/** Lessons open at once, each in its own tab of one browser. */
const TABS = 3;
/** The JS core's chunks in dist/site/assets (the page's and the worker's). */
const JS_CORE_CHUNK = /\/assets\/attnbook-js\.web-[^/]*\.js$/;

/**
 * The single file's policy: its inline scripts and its blob: worker, no wasm. The worker starts,
 * cannot load (it carries no JS core: js-core-none-worker.js), and the page computes on the main thread.
 */
const SINGLE_NO_WASM_CSP = "default-src 'self'; script-src 'self' 'unsafe-inline'; worker-src blob:";
/** Figures that draw numbers the page writes down, not computed: they stay when the core is gone. */
const WRITTEN_FIGURES = new Set(['attn-matrix', 'attn-heatmap', 'attn-shape-diagram', 'attn-bars']);

const lessons = await lessonList();
const shared = { browser: null, noWasm: null, strict: null, noCore: null, single: null, copy: null };
before(async () => {
  shared.browser = await launch();
  const site = path.join(distDir, 'site');
  const csp = (policy) => ({ headers: { 'Content-Security-Policy': policy } });
  shared.noWasm = await serve(site, csp(NO_WASM_CSP));
  shared.strict = await serve(site, csp(STRICT_CSP));
  shared.single = await serve(distDir, csp(SINGLE_NO_WASM_CSP));
  // the site without its JS core (a copy, as its service worker would otherwise serve it from cache)
  shared.copy = await mkdtemp(path.join(os.tmpdir(), 'attnbook-no-js-core-'));
  await cp(site, shared.copy, { recursive: true });
  const assets = path.join(shared.copy, 'assets');
  for (const name of await readdir(assets))
    if (JS_CORE_CHUNK.test(`/assets/${name}`)) await rm(path.join(assets, name));
  shared.noCore = await serve(shared.copy, csp(NO_WASM_CSP));
});
after(async () => {
  await shared.browser?.close();
  for (const server of [shared.noWasm, shared.strict, shared.single, shared.noCore]) await server?.close();
  if (shared.copy) await rm(shared.copy, { recursive: true, force: true });
});

/** Every attn-* element through open shadow roots: { tag, figure, shown, status, core, error }. */
function cellsOnPage() {
  const found = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.localName.startsWith('attn-')) {
        const ctor = customElements.get(el.localName);
        const failed = el.shadowRoot?.querySelector('.cell-error');
        found.push({
          tag: el.localName,
          id: el.id,
          wired: el.hasAttribute('for'),
          waiting: Boolean(el.shadowRoot?.querySelector('.waiting')),
          bars: el.shadowRoot?.querySelectorAll('rect.bar').length ?? 0,
          figure: Boolean(ctor && 'figureStyles' in ctor) && el.checkVisibility(),
          shown: el.hasAttribute('data-shown'),
          status: el.getAttribute('data-status'),
          core: el.dataset.core ?? null,
          computedIn: el.dataset.computedIn ?? null,
          error: failed ? failed.textContent.trim() : null,
        });
      }
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return found;
}

/** The build of the page's main-thread engine, asked of the first cell that has engine(). */
function pageEngineBuild() {
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.localName.startsWith('attn-') && typeof el.engine === 'function') return el;
      const inner = el.shadowRoot && visit(el.shadowRoot);
      if (inner) return inner;
    }
    return null;
  };
  const cell = visit(document);
  return cell ? cell.engine().then((engine) => engine.build) : null;
}

/** A tab with its problems recorded: uncaught exceptions, console errors other than the expected ones. */
async function openTab({ ignore = null } = {}) {
  const page = await shared.browser.context.newPage();
  const problems = [];
  const requests = [];
  page.on('pageerror', (error) => problems.push(`uncaught exception: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    // the CSP refusing the engine's probe, and style attributes (not this test's matter)
    if (message.type() !== 'error' || /wasm-unsafe-eval|WebAssembly|style-src|inline style/i.test(text)) return;
    if (ignore?.test(text)) return;
    problems.push(`console error: ${text}`);
  });
  page.on('request', (request) => requests.push(request.url()));
  await recordCspViolations(page);
  return { page, problems, requests };
}

/** Opens lesson `id`, shows every figure, and waits until the app has settled. Returns its cells. */
async function openLesson(page, base, { id, title }) {
  await page.goto(`${base}#/${id}`);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  await openAllGates(page);
  await scrollThrough(page);
  // if not within 20 s, the assertions below name a figure that never drew
  await untilInPage(page, `(${cellsOnPage})().every((c) => !c.figure || c.shown)`, { timeout: 20000 });
  await settled(page.locator('attn-app'));
  return page.evaluate(cellsOnPage);
}

/** Runs `work` for each item, at most `limit` at a time. */
async function inTabs(items, limit, work) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(limit, queue.length) }, async () => {
      while (queue.length) await work(queue.shift());
    }),
  );
}

describe(`the site under "${NO_WASM_CSP}" (no WebAssembly)`, () => {
  test('every lesson computes through the JS core and its Verified checks pass', async () => {
    const failures = [];
    await inTabs(lessons, TABS, async (lesson) => {
      const { page, problems, requests } = await openTab();
      try {
        const cells = await openLesson(page, shared.noWasm.url, lesson);
        const say = (what) => failures.push(`${lesson.id}: ${what}`);
        const checks = cells.filter((c) => c.tag === 'attn-check');
        if (isProjectLesson(lesson.id) && checks.length === 0) say('no checks');
        for (const c of checks.filter((c) => c.status !== 'pass')) say(`check ${JSON.stringify(c)} does not pass`);
        for (const c of cells.filter((c) => c.error)) say(`<${c.tag}> failed: ${c.error}`);
        for (const c of cells.filter((c) => c.figure && !c.shown)) say(`<${c.tag}> never drew`);
        for (const c of cells.filter((c) => c.core !== null && c.core !== 'js'))
          say(`<${c.tag}> ran data-core=${c.core}`);
        const build = await page.evaluate(pageEngineBuild);
        if (build !== 'js') say(`the page's engine runs ${build}, not the JS core`);
        if (!requests.some((url) => JS_CORE_CHUNK.test(url))) say('the JS core chunk was never fetched');
        const scriptViolations = (await cspViolations(page)).filter((v) => !/: style-src/.test(v));
        if (scriptViolations.some((v) => !/script-src blocked wasm-eval$/.test(v)))
          say(`CSP violations other than the wasm probe: ${scriptViolations.join('; ')}`);
        failures.push(...problems.map((p) => `${lesson.id}: ${p}`));
      } finally {
        await page.close();
      }
    });
    assert.deepEqual(failures, []);
  });
});

describe('where WebAssembly is allowed (the strict CSP with wasm-unsafe-eval)', () => {
  test('a lesson runs the wasm build and never fetches the JS core', async () => {
    const { page, problems, requests } = await openTab();
    const lesson = lessons.find((l) => l.id === 'scaled-dot-product') ?? lessons[0];
    const cells = await openLesson(page, shared.strict.url, lesson);
    assert.deepEqual(
      cells.filter((c) => c.tag === 'attn-check' && c.status !== 'pass'),
      [],
    );
    assert.match(await page.evaluate(pageEngineBuild), /^(simd|scalar)$/);
    assert.deepEqual(
      requests.filter((url) => JS_CORE_CHUNK.test(url)),
      [],
      'the JS core is fetched only where wasm is refused',
    );
    assert.deepEqual(await cspViolations(page), [], 'no CSP violation at all (no probe is refused)');
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('where neither WebAssembly nor the JS core can load (its chunk answers 404)', () => {
  test('every computed figure waits empty with its notice; no check passes; written figures stay', async () => {
    const failures = [];
    await inTabs(lessons, TABS, async (lesson) => {
      const page = await shared.browser.context.newPage();
      const uncaught = [];
      page.on('pageerror', (error) => uncaught.push(error.message));
      try {
        const cells = await openLesson(page, shared.noCore.url, lesson);
        const say = (what) => failures.push(`${lesson.id}: ${what}`);
        const figures = cells.filter((c) => c.figure);
        const failed = figures.filter((c) => c.error);
        if (isProjectLesson(lesson.id) && failed.length === 0) say('no figure says the core is missing');
        for (const c of failed.filter((c) => !/could not load the JS core/.test(c.error)))
          say(`<${c.tag}> fails for another reason: ${c.error}`);
        for (const c of figures.filter((c) => !c.error && !WRITTEN_FIGURES.has(c.tag)))
          say(`<${c.tag}> shows a figure with no core to compute it`);
        for (const c of figures.filter((c) => c.tag === 'attn-bars' && c.wired && (!c.waiting || c.bars > 0)))
          say(`wired <attn-bars> shows ${c.bars} bars instead of waiting`);
        for (const c of cells.filter((c) => c.tag === 'attn-check' && c.status === 'pass'))
          say(`a check passes with no core: ${JSON.stringify(c)}`);
        failures.push(...uncaught.map((m) => `${lesson.id}: uncaught exception: ${m}`));
      } finally {
        await page.close();
      }
    });
    assert.deepEqual(failures, []);
  });
});

describe('the single file and the widgets, where WebAssembly is refused', () => {
  test(`dist/attnbook.html under "${SINGLE_NO_WASM_CSP}" computes a lesson through its inlined JS core`, async () => {
    // its icon is a data: URL, which this policy's img-src refuses; and over http it asks for a
    // service worker it has no sw.js for (made for file://, where it does not)
    const { page, problems } = await openTab({
      ignore:
        /^Loading the image 'data:|^A bad HTTP response code \(404\) was received when fetching the script\.$|\/sw\.js' violates/,
    });
    const lesson = lessons.find((l) => l.id === 'scaling-by-sqrt-dk') ?? lessons[0]; // worker labs too
    const cells = await openLesson(page, `${shared.single.url}attnbook.html`, lesson);
    const labs = cells.filter((c) => c.core !== null);
    assert.ok(labs.length > 0);
    assert.deepEqual(
      labs.filter((c) => c.core !== 'js' || (c.computedIn !== null && c.computedIn !== 'main-thread')),
      [],
      'every lab by the JS core, worker labs on the main thread',
    );
    assert.ok(
      labs.some((c) => c.computedIn === 'main-thread'),
      'the lesson has a worker lab',
    );
    const checks = cells.filter((c) => c.tag === 'attn-check');
    assert.ok(checks.length > 0);
    assert.deepEqual(
      checks.filter((c) => c.status !== 'pass'),
      [],
    );
    assert.deepEqual(
      cells.filter((c) => c.error),
      [],
    );
    assert.equal(await page.evaluate(pageEngineBuild), 'js');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the widgets (embed-example.html) compute through their inlined JS core', async () => {
    const { page, problems } = await openTab();
    await page.goto(`${shared.noWasm.url}embed-example.html`);
    const widget = page.locator('attn-softmax-temperature').first();
    await widget.scrollIntoViewIfNeeded();
    await settled(widget);
    const cells = await page.evaluate(cellsOnPage);
    assert.ok(cells.some((c) => c.tag === 'attn-check'));
    assert.deepEqual(
      cells.filter((c) => (c.tag === 'attn-check' && c.status !== 'pass') || c.error),
      [],
    );
    assert.equal(await page.evaluate(pageEngineBuild), 'js');
    assert.deepEqual(problems, []);
    await page.close();
  });
});
