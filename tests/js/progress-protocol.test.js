// The iframe half of the progress protocol (docs/progress-protocol.md) without a browser: which
// `attn-progress` details become an `attnbook:progress` message (web/src/shell/embed.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROGRESS_STATUSES, progressMessage } from '../../web/src/shell/embed.js';

const good = { version: 1, lesson: 'softmax-temperature', exercise: 'peak', status: 'solved', score: 1, attempts: 2 };

test('a version 1 detail becomes the message, with the protocol fields only', () => {
  assert.deepEqual(progressMessage(good), { type: 'attnbook:progress', ...good });
  assert.deepEqual(progressMessage({ ...good, extra: 'x', element: {} }), { type: 'attnbook:progress', ...good });
  for (const status of PROGRESS_STATUSES) assert.equal(progressMessage({ ...good, status })?.status, status);
  assert.deepEqual(PROGRESS_STATUSES, ['attempted', 'solved', 'shown']);
  for (const score of [0, 0.5, 1]) assert.equal(progressMessage({ ...good, score })?.score, score);
  assert.equal(progressMessage({ ...good, attempts: 0 })?.attempts, 0);
});

test('anything else is not forwarded', () => {
  const bad = [
    null,
    undefined,
    'solved',
    42,
    [],
    {},
    { ...good, version: 2 },
    { ...good, version: '1' },
    { ...good, version: undefined },
    { ...good, lesson: '' },
    { ...good, lesson: 7 },
    { ...good, lesson: 'x'.repeat(201) },
    { ...good, exercise: null },
    { ...good, status: 'passed' },
    { ...good, status: 'toString' },
    { ...good, score: -0.1 },
    { ...good, score: 1.01 },
    { ...good, score: Number.NaN },
    { ...good, score: '1' },
    { ...good, attempts: -1 },
    { ...good, attempts: 1.5 },
    { ...good, attempts: Number.POSITIVE_INFINITY },
    { ...good, attempts: '2' },
  ];
  for (const detail of bad) assert.equal(progressMessage(detail), null, JSON.stringify(detail));
});
