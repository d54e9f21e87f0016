// Hostile permalinks (tests/e2e/hostile-urls.txt) in headless Chromium, over
// http (dist/site, strict CSP) and from file:// (dist/attnbook.html, no CSP to
// fall back on): every entry, on three lessons, shows the lesson with every
// cell at its defaults and a plain-text notice of what was ignored (or, for a
// bad lesson name, "Lesson not found"); no dialog opens, no element or event
// handler is injected, nothing runs (window.__pwned stays unset), the console
// has no error, nothing throws and Object.prototype is untouched. A refused `host=` is named in the
// notice.
// Each entry runs on one lesson per target (a different one on each target;
// links over 16 KB over http only), applied by hashchange on one page per
// lesson; the first entry of each class is a fresh page load instead.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { lessonList, settled, singleFileUrl, useBrowserAndSite, watch } from './browser.js';

const site = useBrowserAndSite();
const TITLES = new Map((await lessonList()).map((lesson) => [lesson.id, lesson.title]));

// Each lesson's settings that the corpus's $NUM, $LIST and $CELL stand for.
const LESSONS = [
  { id: 'softmax-temperature', num: 't.temperature', list: 't.logits' },
  { id: 'attention-matrix', num: 'am.seed', list: 'am.scores' },
  { id: 'retrieval', num: 'retrieve.query', list: 'builder.mix' },
];

/** The corpus as [{ name, entries: string[] }] (see the format at the top of the file). */
async function readCorpus() {
  const text = await readFile(new URL('./hostile-urls.txt', import.meta.url), 'utf8');
  const classes = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line === '' || line === '#' || line.startsWith('# ')) continue;
    if (line.startsWith('## ')) classes.push({ name: line.slice(3), entries: [] });
    else if ((line.startsWith('?') || line.startsWith('#/')) && classes.length > 0) classes.at(-1).entries.push(line);
    else throw new Error(`hostile-urls.txt line ${i + 1}: not a comment, class or entry: ${line.slice(0, 60)}`);
  }
  return classes;
}

const CORPUS = await readCorpus();

/** An entry as the hash to set for `lesson`. */
function hashFor(entry, lesson) {
  const cell = lesson.num.split('.')[0];
  const text = entry
    .replace(/\$NUM\b/g, lesson.num)
    .replace(/\$LIST\b/g, lesson.list)
    .replace(/\$CELL\b/g, cell)
    .replace(/\$REPEAT\((\d+),([^)]*)\)/g, (_, n, repeated) => repeated.repeat(Number(n)));
  return text.startsWith('#/') ? text : `#/${lesson.id}${text}`;
}

/**
 * Installed in the page before its scripts (a test helper, not part of the app):
 * window.__hostile.inspect() reads what the test compares before and after each
 * entry; window.__hostile.apply(hash) sets the hash and resolves once its
 * hashchange has been dispatched (the app handles the new route, and stops being
 * settled, only then: a task after the hash is set).
 */
function installHelpers() {
  function inspect() {
    const all = [];
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        all.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    const embedded = {};
    for (const el of all) {
      if (/^(script|iframe|frame|object|embed|img|base|form|style|link|meta)$/.test(el.localName)) {
        embedded[el.localName] = (embedded[el.localName] ?? 0) + 1;
      }
    }
    const handlers = all
      .filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value)))
      .map((el) => el.outerHTML.slice(0, 120));
    const cells = [...document.querySelectorAll('.lesson-body [id]')].filter(
      (el) => el.localName.startsWith('attn-') && typeof el.getState === 'function',
    );
    const notice = document.querySelector('.link-notice');
    const tags = (els) => [...new Set([...els].map((el) => el.localName))].sort();
    return {
      title: document.querySelector('h1')?.textContent.trim() ?? null,
      documentTitle: document.title,
      states: Object.fromEntries(cells.map((el) => [el.id, el.getState()])),
      embedded,
      handlers,
      notice: notice?.textContent.replace(/\s+/g, ' ').trim() ?? null,
      noticeRole: notice?.getAttribute('role') ?? null,
      noticeVisible: notice ? notice.getClientRects().length > 0 : false,
      noticeTags: notice ? tags(notice.querySelectorAll('*')) : [],
      notFound: document.querySelector('.not-found')?.textContent.replace(/\s+/g, ' ').trim() ?? null,
      notFoundTags: tags(document.querySelectorAll('.not-found *')),
      pwned: typeof window.__pwned,
      prototypeKeys: Object.getOwnPropertyNames(Object.prototype).sort(),
      polluted: [{}.polluted, {}.x, [].polluted].filter((v) => v !== undefined).length,
    };
  }
  function apply(hash) {
    const before = location.href;
    return new Promise((resolve, reject) => {
      window.addEventListener('hashchange', () => resolve(), { once: true });
      location.hash = hash;
      // the same URL again fires no hashchange (nor makes the app draw anything anew)
      if (location.href === before) reject(new Error(`the link is the page's current one: ${hash.slice(0, 60)}`));
    });
  }
  window.__hostile = { inspect, apply };
}

/** What the test compares, once the app has drawn the route (its notice and its cells' states). */
async function inspectSettled(page) {
  await settled(page.locator('attn-app'));
  return page.evaluate(() => window.__hostile.inspect());
}

/** A fresh page load of `url` in `page` (a new document, not a same-document hash change). */
async function freshLoad(page, url) {
  await page.goto('about:blank');
  await page.goto(url);
  return inspectSettled(page);
}

/** `hash` applied by hashchange on the page as it is. */
async function hashChange(page, hash) {
  await page.evaluate((h) => window.__hostile.apply(h), hash);
  return inspectSettled(page);
}

function check(seen, baseline, lesson, entry, problems) {
  const what = `${lesson.id}: ${entry.slice(0, 80)}`;
  assert.deepEqual(problems, [], `${what}: console errors, exceptions or dialogs`);
  assert.equal(seen.pwned, 'undefined', `${what}: a payload ran`);
  assert.deepEqual(seen.handlers, [], `${what}: an element with an event handler or script URL`);
  assert.deepEqual(seen.embedded, baseline.embedded, `${what}: elements injected`);
  assert.deepEqual(seen.prototypeKeys, baseline.prototypeKeys, `${what}: Object.prototype changed`);
  assert.equal(seen.polluted, 0, `${what}: a prototype was polluted`);
  if (entry.startsWith('#/')) {
    assert.equal(seen.title, 'Lesson not found', what);
    assert.match(seen.notFound, /There is no lesson called “[^”]*”/, what);
    assert.deepEqual(seen.notFoundTags, ['a', 'h1', 'p'], `${what}: markup in the not-found page`);
    return;
  }
  assert.equal(seen.title, TITLES.get(lesson.id), what);
  assert.equal(seen.documentTitle, `${TITLES.get(lesson.id)} — attnbook`, what);
  assert.deepEqual(seen.states, baseline.states, `${what}: a cell left its defaults`);
  assert.equal(seen.noticeRole, 'status', what);
  assert.ok(seen.noticeVisible, `${what}: the notice is visible`);
  assert.match(seen.notice, /^Some settings in this link were ignored: /, what);
  // a refused host= (docs/progress-protocol.md) is named in the notice (so no progress is ever sent)
  if (/[?&]host=/.test(entry))
    assert.match(seen.notice, /host: (".*" is not a web origin|is too long|used only)/, what);
  assert.deepEqual(seen.noticeTags, seen.noticeTags.includes('p') ? ['li', 'p', 'ul'] : ['li', 'ul'], what);
}

const targets = [
  ['the static site over http (strict CSP)', () => site.server.url],
  ['dist/attnbook.html from file://', () => singleFileUrl],
];

test('the corpus has every class of hostile link and over 40 entries', () => {
  const entries = CORPUS.flatMap((c) => c.entries);
  assert.ok(entries.length >= 40, `${entries.length} entries`);
  assert.equal(new Set(entries).size, entries.length, 'no entry twice');
  for (const name of ['script', 'javascript:', 'entities', 'template', 'prototype', 'huge', 'nesting', 'wrong types']) {
    assert.ok(
      CORPUS.some((c) => c.name.includes(name)),
      `a class for ${name}`,
    );
  }
});

const ENTRIES = CORPUS.flatMap(({ entries }) => entries.map((entry, i) => ({ entry, fresh: i === 0 })));

for (const [t, [name, base]] of targets.entries()) {
  describe(name, () => {
    LESSONS.forEach((lesson, index) => {
      // Entry k runs on lesson (k + t) mod 3: every lesson gets a share of every class, and
      // each entry runs on two different lessons over the two targets.
      // Links over 16 KB run over http only: Chromium takes seconds to take in each (about 10 s
      // for the 1 MB one with DevTools attached), and the single file handles them with the same code.
      const mine = ENTRIES.filter((_, k) => (k + t) % LESSONS.length === index).filter(
        ({ entry }) => t === 0 || hashFor(entry, lesson).length <= 16384,
      );
      test(`${lesson.id}: ${mine.length} hostile links show the defaults and a notice, and run nothing`, async () => {
        const page = await site.browser.context.newPage();
        page.setDefaultTimeout(60000); // a 1 MB URL takes Chromium seconds to take in
        const { problems } = watch(page);
        page.on('dialog', async (dialog) => {
          problems.push(`dialog: ${dialog.type()} ${dialog.message()}`);
          await dialog.dismiss();
        });
        await page.addInitScript(installHelpers);
        await page.goto(`${base()}#/${lesson.id}`);
        const baseline = await inspectSettled(page);
        assert.equal(baseline.notice, '', 'a clean link has no notice');
        assert.ok(Object.keys(baseline.states).length > 0, 'the lesson has cells');
        for (const { entry, fresh } of mine) {
          const hash = hashFor(entry, lesson);
          const seen = fresh ? await freshLoad(page, `${base()}${hash}`) : await hashChange(page, hash);
          check(seen, baseline, lesson, entry, problems);
        }
        await page.close();
      });
    });
  });
}
