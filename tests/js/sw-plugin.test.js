// scripts/vite-sw-plugin.mjs: the service worker's precache list and version.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fillServiceWorker, versionOf } from '../../scripts/vite-sw-plugin.mjs';

const template = await readFile(new URL('../../web/sw.js', import.meta.url), 'utf8');

test('fillServiceWorker puts the file list and version into web/sw.js', () => {
  const out = fillServiceWorker(template, ['./', 'index.html', 'assets/a-1.js'], '0123456789abcdef');
  assert.match(out, /const VERSION = "0123456789abcdef";/);
  const files = JSON.parse(out.match(/const FILES = (\[[^\]]*\]);/)[1]);
  assert.deepEqual(files, ['./', 'index.html', 'assets/a-1.js']);
  assert.doesNotMatch(out, /'development'/);
});

test('fillServiceWorker refuses a template without the placeholder lines', () => {
  assert.throws(() => fillServiceWorker('const FILES = [];', [], 'x'), /must contain the lines/);
});

test('versionOf changes with any name or content and ignores the order', () => {
  const a = versionOf([
    ['index.html', '<html>'],
    ['assets/a.js', 'x'],
  ]);
  assert.match(a, /^[0-9a-f]{16}$/);
  assert.equal(
    a,
    versionOf([
      ['assets/a.js', 'x'],
      ['index.html', '<html>'],
    ]),
  );
  assert.notEqual(
    a,
    versionOf([
      ['index.html', '<html>'],
      ['assets/a.js', 'y'],
    ]),
  );
  assert.notEqual(
    a,
    versionOf([
      ['index.htm', '<html>'],
      ['assets/a.js', 'x'],
    ]),
  );
});
