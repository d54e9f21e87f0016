// The home page's wording of progress (web/src/shell/progress.js) and the reading-position
// bookkeeping (web/src/shell/reading-position.js), in Node: no browser, no storage.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { count, courseProgress, courseText, exercisesSolved, progressText } from '../../web/src/shell/progress.js';
import { isPosition, MAX_ENTRIES, pickAnchor, rememberPosition } from '../../web/src/shell/reading-position.js';

test('exercise counts agree with their total: "1 of 1 exercise", "0 of 2 exercises"', () => {
  assert.equal(exercisesSolved(0, 1), '0 of 1 exercise solved');
  assert.equal(exercisesSolved(1, 1), '1 of 1 exercise solved');
  assert.equal(exercisesSolved(1, 2), '1 of 2 exercises solved');
  assert.equal(exercisesSolved(0, 3), '0 of 3 exercises solved');
  assert.equal(count(1, 'lesson'), '1 lesson');
  assert.equal(count(10, 'lesson'), '10 lessons');
  assert.equal(count(0, 'lesson'), '0 lessons');
});

test('a card says whether the lesson was opened, and its exercises only if it has some', () => {
  assert.equal(progressText({ solved: 0, total: 0, visited: false }), 'Not started');
  assert.equal(progressText({ solved: 0, total: 0, visited: true }), 'Visited');
  assert.equal(progressText({ solved: 0, total: 1, visited: false }), 'Not started · 0 of 1 exercise solved');
  assert.equal(progressText({ solved: 2, total: 3, visited: true }), 'Visited · 2 of 3 exercises solved');
  for (const solved of [0, 1]) {
    for (const total of [0, 1, 2]) {
      const text = progressText({ solved, total, visited: true });
      assert.doesNotMatch(text, /no exercises|exercises yet|\b1 exercises\b/, text);
    }
  }
});

test('the course: lessons opened, exercises solved over every lesson, and the first lesson not opened', () => {
  const none = courseProgress([
    { solved: 0, total: 0, visited: false },
    { solved: 0, total: 1, visited: false },
    { solved: 0, total: 2, visited: false },
  ]);
  assert.deepEqual(none, { lessons: 3, visited: 0, solved: 0, total: 3, next: 0 });
  assert.equal(courseText(none), '3 lessons · 0 of 3 exercises solved');

  const some = courseProgress([
    { solved: 0, total: 0, visited: true },
    { solved: 1, total: 1, visited: true },
    { solved: 0, total: 0, visited: false },
  ]);
  assert.deepEqual(some, { lessons: 3, visited: 2, solved: 1, total: 1, next: 2 });
  assert.equal(courseText(some), '2 of 3 lessons opened · 1 of 1 exercise solved');

  const all = courseProgress([{ solved: 0, total: 0, visited: true }]);
  assert.equal(all.next, null);
  assert.equal(courseText(all), '1 of 1 lesson opened', 'no exercises: nothing said about them');
  assert.equal(courseText(courseProgress([])), '0 lessons');
});

test('the anchor is the first block that starts on screen, else the one across the top', () => {
  const boxes = [
    { top: -900, bottom: -400 },
    { top: -400, bottom: -30 },
    { top: -30, bottom: 250 },
    { top: 250, bottom: 800 },
  ];
  assert.deepEqual(pickAnchor(boxes, 900), { anchor: 3, offset: 250 });
  assert.deepEqual(pickAnchor([{ top: 80.4, bottom: 300 }], 900), { anchor: 0, offset: 80 });
  const tall = [
    { top: -2000, bottom: -10 },
    { top: -10, bottom: 1500 },
    { top: 1500, bottom: 1700 },
  ];
  assert.deepEqual(pickAnchor(tall, 900), { anchor: 1, offset: -10 }, 'a block taller than the screen');
  assert.deepEqual(pickAnchor([{ top: -200, bottom: 0 }], 900), { anchor: -1, offset: 0 }, 'a block ending at the top');
  assert.deepEqual(pickAnchor([{ top: 950, bottom: 1000 }], 900), { anchor: -1, offset: 0 }, 'below the screen');
  assert.deepEqual(pickAnchor([], 900), { anchor: -1, offset: 0 });
});

test('positions are kept for the latest entries only, the entry just saved last', () => {
  let entries = {};
  for (let i = 0; i < MAX_ENTRIES + 5; i += 1) {
    entries = rememberPosition(entries, `k${i}`, { anchor: i, offset: 0, y: i });
  }
  const keys = Object.keys(entries);
  assert.equal(keys.length, MAX_ENTRIES);
  assert.equal(keys[0], 'k5', 'the oldest are dropped');
  entries = rememberPosition(entries, 'k5', { anchor: 1, offset: -3, y: 99 });
  assert.equal(Object.keys(entries).at(-1), 'k5', 'saved again: now the latest');
  assert.equal(Object.keys(entries).length, MAX_ENTRIES);
  assert.deepEqual(entries.k5, { anchor: 1, offset: -3, y: 99 });
  assert.deepEqual(Object.keys(rememberPosition({ a: 1, b: 2, c: 3 }, 'd', 4, 2)), ['c', 'd']);
});

test('only a well-formed position is restored (session storage may hold anything)', () => {
  assert.equal(isPosition({ anchor: 3, offset: -20, y: 1200 }), true);
  assert.equal(isPosition({ anchor: -1, offset: 0, y: 0 }), true);
  for (const bad of [null, 7, 'x', [], {}, { anchor: 1.5, offset: 0, y: 0 }, { anchor: 1, offset: NaN, y: 0 }]) {
    assert.equal(isPosition(bad), false, JSON.stringify(bad));
  }
  assert.equal(isPosition({ anchor: 1, offset: 0, y: Infinity }), false);
});
