// attn-exercise's pure logic (web/src/cells/notebook/exercise-model.js) and the home page's
// reading of it (web/src/shell/progress.js), in Node: progress records and their migration, the
// attn-progress detail, declared mistakes, variants, "Reset my progress".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkVariant,
  choiceAnswer,
  EMPTY_RECORD,
  gradeAttempt,
  judgeChoice,
  judgeNumber,
  matchMistake,
  nextSeed,
  parseMistake,
  parseRecord,
  progressDetail,
  recordAfter,
  revealsAnswer,
  serializeRecord,
} from '../../web/src/cells/notebook/exercise-model.js';
import { isProgressKey, recordText, resetProgress } from '../../web/src/shell/progress.js';

const wrong = { kind: 'attempt', correct: false };
const right = { kind: 'attempt', correct: true };
const show = { kind: 'show' };
const play = (...events) => events.reduce((r, e) => recordAfter(r, e), EMPTY_RECORD);

test("older versions' plain 'solved' reads as solved; damaged text as never attempted", () => {
  assert.deepEqual(parseRecord('solved'), { status: 'solved', attempts: 1, score: 1 });
  for (const bad of [null, undefined, '', 'Solved', 'true', '{', '{"status":"won"}', '[]', '{"status":null}', 7]) {
    assert.deepEqual(parseRecord(bad), EMPTY_RECORD, String(bad));
  }
  assert.deepEqual(parseRecord('{"status":"attempted","attempts":-3,"score":0.7}'), {
    status: 'attempted',
    attempts: 0,
    score: 0,
  });
  assert.deepEqual(parseRecord('{"status":"solved","attempts":2.5,"score":0}'), {
    status: 'solved',
    attempts: 0,
    score: 1,
  });
});

test('a record survives saving and reading back', () => {
  for (const record of [
    { status: 'attempted', attempts: 3, score: 0 },
    { status: 'solved', attempts: 1, score: 1 },
    { status: 'shown', attempts: 2, score: 0 },
  ]) {
    assert.deepEqual(parseRecord(serializeRecord(record)), record);
  }
});

test('attempts count; a correct attempt solves; a solved exercise stays solved', () => {
  assert.deepEqual(play(wrong), { status: 'attempted', attempts: 1, score: 0 });
  assert.deepEqual(play(wrong, wrong, right), { status: 'solved', attempts: 3, score: 1 });
  assert.deepEqual(play(right, wrong), { status: 'solved', attempts: 2, score: 1 });
  assert.deepEqual(play(right, show), { status: 'solved', attempts: 1, score: 1 });
  assert.deepEqual(recordAfter(parseRecord('solved'), wrong), { status: 'solved', attempts: 2, score: 1 });
});

test('"Show me" counts as shown, not solved, until a fresh question is solved', () => {
  assert.deepEqual(play(wrong, show), { status: 'shown', attempts: 1, score: 0 });
  assert.deepEqual(play(wrong, show, { ...right, counted: false }), { status: 'shown', attempts: 2, score: 0 });
  assert.deepEqual(play(wrong, show, wrong), { status: 'shown', attempts: 2, score: 0 });
  assert.deepEqual(play(wrong, show, { ...right, counted: true }), { status: 'solved', attempts: 2, score: 1 });
});

test('a wrong attempt that puts the answer on show makes the exercise shown; a right answer after it does not solve it', () => {
  assert.deepEqual(play({ ...wrong, reveals: true }), { status: 'shown', attempts: 1, score: 0 });
  assert.deepEqual(play({ ...wrong, reveals: true }, { ...right, counted: false }), {
    status: 'shown',
    attempts: 2,
    score: 0,
  });
  assert.deepEqual(play({ ...right, counted: false }), { status: 'shown', attempts: 1, score: 0 });
  assert.deepEqual(play(right, { ...wrong, reveals: true }), { status: 'solved', attempts: 2, score: 1 });
});

test('the answer is on show after a wrong attempt that opens a held-back figure, or rules out all options but one', () => {
  const options = ['a', 'b', 'c'].map((value) => ({ value, correct: value === 'c' }));
  assert.equal(revealsAnswer({ figure: true }), true);
  assert.equal(revealsAnswer({ figure: false }), false, 'no figure, a number exercise');
  assert.equal(revealsAnswer({ options, ruledOut: ['a'] }), false, 'two options left');
  assert.equal(revealsAnswer({ options, ruledOut: ['a', 'a'] }), false, 'one option tried twice');
  assert.equal(revealsAnswer({ options, ruledOut: ['a', 'b'] }), true, 'one option left');
  assert.equal(revealsAnswer({ options: options.slice(1), ruledOut: ['b'] }), true, 'of two options, one tried');
});

test('gradeAttempt: wrong then right is solved with no answer on show, shown after a figure, and the verdict says so', () => {
  const first = gradeAttempt(EMPTY_RECORD, { correct: false });
  assert.deepEqual(first, { record: { status: 'attempted', attempts: 1, score: 0 }, note: '' });
  assert.equal(gradeAttempt(first.record, { correct: true }).record.status, 'solved');

  const opened = gradeAttempt(EMPTY_RECORD, { correct: false, figure: true, canVary: true });
  assert.equal(opened.record.status, 'shown');
  assert.match(opened.note, /figure below now shows the answer, so this counts as shown, not solved: Try another/);
  const copied = gradeAttempt(opened.record, { correct: true, answerSeen: true });
  assert.equal(copied.record.status, 'shown');
  assert.match(copied.note, /The answer was shown, so this counts as shown, not solved: Reset to earn it\./);

  const options = ['a', 'b'].map((value) => ({ value, correct: value === 'b' }));
  const ruled = gradeAttempt(EMPTY_RECORD, { correct: false, options, ruledOut: ['a'] });
  assert.equal(ruled.record.status, 'shown');
  assert.match(ruled.note, /Only one answer is left/);
  assert.equal(gradeAttempt(EMPTY_RECORD, { correct: true, figure: true }).record.status, 'solved', 'right at once');
});

test('the attn-progress detail has exactly the six fields of protocol version 1', () => {
  const detail = progressDetail('retrieval', 'blend', { status: 'shown', attempts: 2, score: 0 });
  assert.deepEqual(detail, {
    version: 1,
    lesson: 'retrieval',
    exercise: 'blend',
    status: 'shown',
    score: 0,
    attempts: 2,
  });
  assert.deepEqual(Object.keys(detail), ['version', 'lesson', 'exercise', 'status', 'score', 'attempts']);
});

test('a declared mistake gets its own feedback; the answer wins over a mistake', () => {
  const mistakes = [
    { value: 0.5294, tolerance: 0.0006, feedback: 'divided by the sum of the logits.' },
    { value: 0.25, tolerance: 0, feedback: 'the hot limit.' },
  ];
  const question = { answer: 0.8744, tolerance: 0.0006, mistakes };
  assert.deepEqual(judgeNumber(0.529, question), {
    correct: false,
    message: 'divided by the sum of the logits.',
    mistake: 0.5294,
  });
  assert.deepEqual(judgeNumber(0.25, question), { correct: false, message: 'the hot limit.', mistake: 0.25 });
  assert.deepEqual(judgeNumber(0.2501, question), {
    correct: false,
    message: '0.2501 is not it; try again.',
    mistake: null,
  });
  assert.equal(judgeNumber(0.874, question).correct, true);
  assert.equal(
    judgeNumber(0.874, { ...question, mistakes: [{ value: 0.874, tolerance: 0.1, feedback: 'x' }] }).correct,
    true,
  );
  assert.equal(matchMistake(1, []), null);
  assert.equal(judgeNumber(1, { answer: NaN }).correct, false);
});

test('a chosen option is judged by its own feedback; no choice is not an answer', () => {
  const options = [
    { value: 'a', text: 'Sharper', correct: true, feedback: '' },
    { value: 'b', text: 'Flatter', correct: false, feedback: 'a lower τ divides by less.' },
    { value: 'c', text: 'The same', correct: false, feedback: '' },
  ];
  assert.deepEqual(judgeChoice(options, 'a'), { correct: true, message: '“Sharper” is right.', mistake: null });
  assert.deepEqual(judgeChoice(options, 'b'), { correct: false, message: 'a lower τ divides by less.', mistake: 'b' });
  assert.deepEqual(judgeChoice(options, 'c'), { correct: false, message: '“The same” is not it.', mistake: 'c' });
  assert.equal(judgeChoice(options, undefined).message, 'choose one of the answers first.');
  assert.equal(choiceAnswer(options), 'the answer is “Sharper”.');
  assert.equal(choiceAnswer([{ ...options[1], correct: true }]), 'the answer is “Flatter”: a lower τ divides by less.');
  assert.equal(choiceAnswer([]), 'see the explanation.');
});

test('a mistake with a bad value or tolerance is refused with what is wrong', () => {
  assert.deepEqual(parseMistake({ value: '0.5', tolerance: '0.01', feedback: ' Half. ' }), {
    value: 0.5,
    tolerance: 0.01,
    feedback: 'Half.',
  });
  assert.deepEqual(parseMistake({ value: '2', tolerance: null, feedback: '' }), {
    value: 2,
    tolerance: 0,
    feedback: '',
  });
  assert.match(parseMistake({ value: 'half', tolerance: '0' }).error, /value "half" is not a number/);
  assert.match(parseMistake({ value: '', tolerance: '0' }).error, /is not a number/);
  assert.match(parseMistake({ value: '1', tolerance: '-1' }).error, /tolerance "-1" is not a number ≥ 0/);
  assert.match(parseMistake({ value: '1', tolerance: 'NaN' }).error, /tolerance/);
});

test('a variant must give a finite answer; its texts and mistakes are checked', () => {
  assert.deepEqual(checkVariant({ answer: 0.5, prompt: ' At τ = 2? ' }), {
    answer: 0.5,
    tolerance: undefined,
    prompt: 'At τ = 2?',
    hint: '',
    explanation: '',
    mistakes: [],
  });
  assert.equal(
    checkVariant({ answer: 1, tolerance: 0.1, mistakes: [{ value: 2, feedback: 'no' }] }).mistakes[0].value,
    2,
  );
  for (const [bad, why] of [
    [null, /not an object/],
    [{ answer: NaN }, /answer NaN is not a finite number/],
    [{ answer: '0.5' }, /answer 0.5 is not a finite number/],
    [{ answer: 1, tolerance: -1 }, /tolerance -1/],
    [{ answer: 1, prompt: 7 }, /prompt is not text/],
    [{ answer: 1, mistakes: [{ value: 'x' }] }, /a mistake of the variant: value "x"/],
  ]) {
    assert.throws(() => checkVariant(bad), why, JSON.stringify(bad));
  }
});

test('a choice variant gives a prompt and options, exactly one of them right', () => {
  const options = [
    { value: 'a', text: ' (2, 5, 3) ', correct: true, feedback: 'one row per query' },
    { value: 'b', text: '(2, 7, 3)' },
  ];
  assert.deepEqual(checkVariant({ prompt: 'The shape?', options }), {
    options: [
      { value: 'a', text: '(2, 5, 3)', correct: true, feedback: 'one row per query' },
      { value: 'b', text: '(2, 7, 3)', correct: false, feedback: '' },
    ],
    prompt: 'The shape?',
    hint: '',
    explanation: '',
  });
  for (const [bad, why] of [
    [{ options }, /needs its prompt/],
    [{ prompt: 'x', options: [options[0]] }, /two or more/],
    [{ prompt: 'x', options: [options[0], { ...options[1], correct: true }] }, /2 right options/],
    [{ prompt: 'x', options: [options[1], { ...options[1], value: 'c' }] }, /0 right options/],
    [{ prompt: 'x', options: [options[0], { ...options[1], value: 'a' }] }, /option values repeat/],
    [{ prompt: 'x', options: [options[0], { text: 'y' }] }, /option 1 of the variant has no value/],
    [{ prompt: 'x', options: [options[0], 7] }, /option 1 of the variant is not an object/],
  ]) {
    assert.throws(() => checkVariant(bad), why, JSON.stringify(bad));
  }
});

test('seeds go 1, 2, 3', () => {
  assert.equal(nextSeed(0), 1);
  assert.equal(nextSeed(1), 2);
  assert.equal(nextSeed(undefined), 1);
});

test('the progress view words each state', () => {
  assert.equal(recordText({ status: 'solved', attempts: 3 }), 'Solved');
  assert.equal(recordText({ status: 'shown', attempts: 1 }), 'Answer shown');
  assert.equal(recordText({ status: 'attempted', attempts: 1 }), 'Attempted (1 try)');
  assert.equal(recordText({ status: 'attempted', attempts: 4 }), 'Attempted (4 tries)');
  assert.equal(recordText(EMPTY_RECORD), 'Not tried');
});

test('"Reset my progress" removes exercise records and visited marks, nothing else', () => {
  const map = new Map([
    ['attnbook:exercise:retrieval/blend', 'solved'],
    ['attnbook:exercise:gallery/top-weight', '{"status":"shown","attempts":1,"score":0}'],
    ['attnbook:visited:retrieval', 'true'],
    ['attnbook:theme', 'dark'],
    ['attnbook:reading-positions', '{}'],
    ['other', 'x'],
  ]);
  const storage = {
    get length() {
      return map.size;
    },
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => map.delete(k),
  };
  assert.equal(resetProgress(storage), 3);
  assert.deepEqual([...map.keys()], ['attnbook:theme', 'attnbook:reading-positions', 'other']);
  assert.equal(isProgressKey('attnbook:exercise:a/b'), true);
  assert.equal(isProgressKey('attnbook:theme'), false);
  const refusing = {
    get length() {
      throw new DOMException('denied', 'SecurityError');
    },
  };
  assert.equal(resetProgress(refusing), 0, 'storage that throws: nothing removed, nothing thrown');
});
