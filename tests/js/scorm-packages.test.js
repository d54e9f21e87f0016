// scripts/scorm.mjs in Node: the manifests (an item and a SCO per lesson, launch hrefs naming the
// lesson, the site's files through one shared asset), the chosen-set command line and its errors,
// and a package written from a small site. The zips of the real build, under an LMS runtime, are
// tests/e2e/scorm.test.js.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { unzipSync } from 'fflate';
import {
  chooseLessons,
  courseLessons,
  manifest,
  namedSchemas,
  parseScormArgs,
  slug,
  writeChosenPackages,
} from '../../scripts/scorm.mjs';

const LESSONS = [
  { id: 'convex-hull', title: 'Mixtures & hulls', exerciseIds: ['cold-limit', 'corner'] },
  { id: 'notes', title: 'Notes', exerciseIds: [] },
];
const FILES = ['assets/app.js', 'index.html'];

const items = (text) =>
  [...text.matchAll(/<item identifier="([^"]+)" identifierref="([^"]+)"/g)].map((m) => m.slice(1));
const hrefs = (text) => [...text.matchAll(/scorm[tT]ype="sco" href="([^"]+)"/g)].map((m) => m[1]);

for (const version of ['scorm12', 'scorm2004']) {
  test(`${version} manifest: an item and a SCO per lesson, each launching its lesson`, () => {
    const text = manifest(version, { identifier: 'pack', title: 'Week <5>', lessons: LESSONS, files: FILES });
    assert.match(text, /<organization identifier="pack-organization">\s*<title>Week &lt;5&gt;<\/title>/);
    assert.deepEqual(items(text), [
      ['item-convex-hull', 'sco-convex-hull'],
      ['item-notes', 'sco-notes'],
    ]);
    assert.match(text, /<title>Mixtures &amp; hulls<\/title>/);
    assert.deepEqual(hrefs(text), [
      `index.html?lms=${version}&amp;lesson=convex-hull`,
      `index.html?lms=${version}&amp;lesson=notes`,
    ]);
    // every SCO depends on the one asset resource that lists the site
    assert.equal([...text.matchAll(/<dependency identifierref="attnbook-files"\/>/g)].length, 2);
    const asset = /<resource identifier="attnbook-files"[^>]*scorm[tT]ype="asset">([\s\S]*?)<\/resource>/.exec(text);
    assert.deepEqual(
      [...asset[1].matchAll(/<file href="([^"]+)"\/>/g)].map((m) => m[1]),
      FILES,
    );
    // a mastery score for the lesson with exercises only
    const mastery = version === 'scorm12' ? /<adlcp:masteryscore>80</g : /<imsss:minNormalizedMeasure>0.8</g;
    assert.equal([...text.matchAll(mastery)].length, 1);
    assert.ok(namedSchemas(text).length >= 3);
    assert.throws(
      () => manifest(version, { identifier: 'x', title: 'x', lessons: [], files: FILES }),
      /at least one lesson/,
    );
  });
}

test('the course: every lesson of web/lessons, in course order, with its exercises', async () => {
  const course = await courseLessons();
  assert.ok(course.length >= 12);
  assert.equal(new Set(course.map((lesson) => lesson.id)).size, course.length);
  assert.ok(course.every((lesson) => lesson.title && Array.isArray(lesson.exerciseIds)));
  assert.equal(course[0].id, 'convex-combinations');
});

test('a chosen set: course order, and unknown, repeated or no lessons named clearly', () => {
  const course = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
  assert.deepEqual(
    chooseLessons(course, ['c', 'a']).map((l) => l.id),
    ['a', 'c'],
  );
  assert.throws(() => chooseLessons(course, ['a', 'zz']), /no lesson "zz"; the lessons are a, b, c/);
  assert.throws(() => chooseLessons(course, ['a', 'a']), /lesson a named twice/);
  assert.throws(() => chooseLessons(course, []), /no lessons named/);
});

test('the command line: --lessons with --title, --out; anything else says how to call it', () => {
  assert.deepEqual(parseScormArgs(['--lessons', 'a, b', '--title', 'Week 5']).ids, ['a', 'b']);
  assert.equal(parseScormArgs(['--title=Week 5', '--lessons=a']).title, 'Week 5');
  assert.equal(parseScormArgs(['--out', 'x']).outDir, path.resolve('x'));
  assert.equal(parseScormArgs([]).ids, null, 'no options: every package');
  assert.throws(() => parseScormArgs(['--lessons', 'a']), /--lessons needs --title/);
  assert.throws(() => parseScormArgs(['--title', 'x']), /--title names a chosen set/);
  assert.throws(() => parseScormArgs(['--lessons']), /--lessons needs a value\nusage:/);
  assert.throws(() => parseScormArgs(['--lesson', 'a']), /unknown argument "--lesson"\nusage:/);
  assert.equal(slug('Week 5: Attention (é)'), 'week-5-attention-e');
  assert.equal(slug('Week 5'), 'week-5');
  assert.equal(slug('  ---  '), '');
});

test('writeChosenPackages: both zips of the set, named by the title, with the schemas and the site', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'attnbook-scorm-pack-'));
  try {
    const site = path.join(dir, 'site');
    await mkdir(path.join(site, 'gallery'), { recursive: true });
    await writeFile(path.join(site, 'index.html'), '<!doctype html><title>x</title>');
    await writeFile(path.join(site, 'gallery', 'index.html'), 'a demo page');
    const written = await writeChosenPackages({
      ids: ['softmax-temperature', 'convex-hull'],
      title: 'Week 5',
      siteDir: site,
      outDir: path.join(dir, 'out'),
    });
    assert.deepEqual(
      Object.values(written).map((file) => path.basename(file)),
      ['week-5-scorm12.zip', 'week-5-scorm2004.zip'],
    );
    for (const file of Object.values(written)) {
      const zip = unzipSync(await readFile(file));
      const text = new TextDecoder().decode(zip['imsmanifest.xml']);
      assert.deepEqual(
        items(text).map(([item]) => item),
        ['item-convex-hull', 'item-softmax-temperature'],
      );
      assert.match(text, /<title>Week 5<\/title>/);
      for (const schema of namedSchemas(text)) assert.ok(zip[schema], `${schema} shipped`);
      assert.ok(zip['index.html']);
      assert.equal(zip['gallery/index.html'], undefined, 'no demo page');
    }
    await assert.rejects(
      writeChosenPackages({ ids: ['convex-hull'], title: '!!!', siteDir: site, outDir: dir }),
      /the title "!!!" has no letters or digits/,
    );
    await assert.rejects(
      writeChosenPackages({ ids: ['convex-hull'], title: 'x', siteDir: path.join(dir, 'none'), outDir: dir }),
      /does not exist: build the site first/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
