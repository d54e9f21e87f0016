// Lesson heads-that-copy's lab models (web/src/labs/heads-that-copy/copy-model.js,
// copy-circuits-model.js) in Node: the text field's limit, the committed model unpacked exactly as
// the engine predicts with it, the heads' roles, the curves and crossings, the time still to go,
// attention rows, the reader's input, the circuits cut to the letters.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { loadAttention } from 'attnbook';
import { packState } from '../../scripts/vite-trained-plugin.mjs';
import { DEFAULT_TEXT } from '../../web/src/engine/text-corpus.js';
import { diagonalPeaks, letterRows } from '../../web/src/labs/heads-that-copy/copy-circuits-model.js';
import {
  attentionRow,
  COPY_FIELDS,
  crossings,
  curveDomain,
  curveSeries,
  HEAD_LIST,
  headRoles,
  historyFromRows,
  historyRow,
  isCommitted,
  mostWeight,
  PROSE_REPEATS_FROM,
  readerInput,
  RUN_TO,
  stateFromPacked,
  strongestHead,
  textProblem,
  timeToGo,
} from '../../web/src/labs/heads-that-copy/copy-model.js';

const STATE_FILE = new URL('../../web/src/labs/heads-that-copy/trained-text.json', import.meta.url);
const HISTORY_FILE = new URL('../../web/src/labs/heads-that-copy/trained-text-history.json', import.meta.url);
let attn;
before(async () => {
  attn = await loadAttention({ simd: true });
});

const probe = (previousToken, prefixMatching, copiesInContext = false) => ({
  previousToken,
  prefixMatching,
  secondCopyAccuracy: 0.5,
  firstCopyAccuracy: 0.04,
  copiesInContext,
});

test('the text field takes up to 16 KB of UTF-8 and names what is wrong beyond', () => {
  const { text } = COPY_FIELDS;
  assert.equal(text.parse('héllo', 'text'), 'héllo');
  assert.equal(text.parse('a'.repeat(16384), 'text').length, 16384);
  assert.throws(() => text.parse('é'.repeat(8193), 'text'), /text: is 16,386 bytes; at most 16,384/);
  assert.equal(textProblem('ab ab'), '');
  assert.match(textProblem(''), /empty/);
  assert.match(textProblem('aaaa'), /two different characters/);
  assert.match(textProblem('x'.repeat(20000)), /20,000 bytes; the lab takes at most 16,384/);
});

test('the packed committed model predicts, attends and probes exactly as the committed state', () => {
  const state = JSON.parse(readFileSync(STATE_FILE, 'utf8'));
  const packed = JSON.parse(JSON.stringify(packState(state))); // as the page gets it
  assert.equal(packed.config.text, undefined, 'the default text is not packed twice');
  assert.ok(isCommitted({ seed: 1, steps: state.step, text: '' }, packed));
  assert.ok(!isCommitted({ seed: 2, steps: state.step, text: '' }, packed));
  assert.ok(!isCommitted({ seed: 1, steps: state.step, text: 'ab' }, packed));
  const unpacked = stateFromPacked(packed, DEFAULT_TEXT);
  assert.equal(unpacked.config.text, DEFAULT_TEXT);
  const a = attn.loadTrainer(state);
  const b = attn.loadTrainer(unpacked);
  try {
    assert.deepEqual(b.copyingProbe(), a.copyingProbe());
    const ids = a.encode('mr dursley said hello to mr dursley');
    const [pa, pb] = [a.predict(ids), b.predict(ids)];
    assert.deepEqual(pb.output, pa.output);
    assert.deepEqual(Array.from(pb.attention.data), Array.from(pa.attention.data));
  } finally {
    a.dispose();
    b.dispose();
  }
});

test('heads, roles and the strongest head of a layer', () => {
  assert.deepEqual(
    HEAD_LIST.map((h) => h.key),
    ['0.0', '0.1', '1.0', '1.1'],
  );
  const p = probe([0.1, 0.9, 0, 0], [0, 0, 0.2, 0.7]);
  assert.deepEqual(headRoles(p), ['', 'previous-token', '', 'induction']);
  assert.equal(strongestHead(p, 0, 'previousToken').head, 1);
  assert.equal(strongestHead(p, 1, 'prefixMatching').head, 1);
});

test('curves and crossings from a history; the committed history crosses before it copies', () => {
  const history = [
    { step: 20, loss: 4 },
    { step: 50, loss: 3.9, probe: probe([0, 0.2, 0, 0], [0, 0, 0.1, 0.1]) },
    { step: 100, loss: 3.5, probe: probe([0, 0.5, 0, 0], [0, 0, 0.45, 0.1]) },
    { step: 150, loss: 3, probe: probe([0, 0.6, 0, 0], [0, 0, 0.6, 0.42], true) },
  ];
  const c = curveSeries(history);
  assert.equal(c.loss.length, 4);
  assert.deepEqual(c.prefix[0], [
    [50, 0.1],
    [100, 0.45],
    [150, 0.6],
  ]);
  assert.deepEqual(crossings(history), {
    heads: [
      { key: '1.0', name: 'layer 1, head 0', step: 100 },
      { key: '1.1', name: 'layer 1, head 1', step: 150 },
    ],
    copied: 150,
  });
  const committed = historyFromRows(JSON.parse(readFileSync(HISTORY_FILE, 'utf8')));
  const { heads, copied } = crossings(committed);
  assert.ok(heads.length >= 1 && copied !== null && heads[0].step <= copied);
  assert.equal(committed.at(-1).step, RUN_TO);
  assert.ok(copied < PROSE_REPEATS_FROM, 'it copied on random letters alone');
  assert.deepEqual(curveDomain(RUN_TO), [0, RUN_TO]);
  assert.deepEqual(curveDomain(RUN_TO + 50), [0, 4000]);
});

test('the time still to go says the spread between seeds and this machine’s pace', () => {
  assert.match(timeToGo({ at: 0, stepsPerSecond: null, copied: null }), /Seeds 1–5 began to copy after/);
  assert.match(timeToGo({ at: 300, stepsPerSecond: 40, copied: null }), /about \d+–\d+ s more at 40 steps a second/);
  assert.equal(
    timeToGo({ at: 900, stepsPerSecond: 40, copied: 850 }),
    'Copies in context since step 850; about 40 s to step 2,500 at 40 steps a second here.',
  );
  assert.equal(timeToGo({ at: 2500, stepsPerSecond: null, copied: 850 }), 'Copies in context since step 850.');
  assert.match(timeToGo({ at: 1600, stepsPerSecond: 40, copied: null }), /takes longer than seeds 1–5 did/);
});

test('attention rows, the reader input and the circuits cut to the letters', () => {
  // (layers 2, heads 2, T 3, T 3): head (1, 0), query 2 is [0.2, 0.3, 0.5]
  const data = new Float32Array(2 * 2 * 3 * 3);
  data.set([0.2, 0.3, 0.5], ((1 * 2 + 0) * 3 + 2) * 3);
  const row = attentionRow({ data, shape: [2, 2, 3, 3] }, 1, 0, 2);
  assert.deepEqual(
    row.map((x) => Math.round(x * 10) / 10),
    [0.2, 0.3, 0.5],
  );
  assert.equal(mostWeight(row), 2);
  assert.deepEqual(readerInput('ab', 'ab'), { text: 'ab', unknown: [] });
  assert.deepEqual(readerInput('aZ', 'ab').unknown, ['Z']);
  assert.match(readerInput('', 'ab').error, /at least one/);
  assert.match(readerInput('a'.repeat(65), 'a').error, /at most 64 characters; this is 65/);
  // a vocabulary " ab?" + unknown: the letters are a and b
  const v = 5;
  const ov = { data: Float32Array.from({ length: v * v }, (_, i) => (i % (v + 1) === 0 ? 1 : 0)), shape: [v, v] };
  const r = letterRows(' ab?', ov, ov);
  assert.deepEqual(r.letters, ['a', 'b']);
  assert.deepEqual(r.ov, [
    [1, 0],
    [0, 1],
  ]);
  assert.equal(diagonalPeaks(r.ov), 2);
  assert.equal(
    diagonalPeaks([
      [0, 1],
      [0, 1],
    ]),
    1,
  );
});

test('a history row keeps what the curves draw, to 4 decimals', () => {
  const h = {
    step: 50,
    loss: 4.27851234,
    probe: {
      firstCopyAccuracy: 0.03291,
      secondCopyAccuracy: 0.9449013,
      previousToken: [0.1, 0.94210573, 0, 0],
      prefixMatching: [0, 0, 0.80166604, 0.8363264],
      copiesInContext: true,
      inductionHeads: 2,
    },
  };
  assert.deepEqual(historyRow(h), [50, 4.2785, 0.0329, 0.9449, [0.1, 0.9421, 0, 0], [0, 0, 0.8017, 0.8363], 1]);
  assert.deepEqual(historyFromRows([historyRow(h)])[0].probe.prefixMatching, [0, 0, 0.8017, 0.8363]);
  assert.equal(historyFromRows([historyRow(h)])[0].probe.copiesInContext, true);
});
