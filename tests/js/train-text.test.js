// The model lesson 13 opens on (issue 38 §3): web/src/labs/heads-that-copy/trained-text.json is
// what `npm run train:text` makes, bit for bit (the same run here, on the wasm SIMD build), and it
// is what the lesson promises: loaded, it copies in context, its previous-token heads matter, and
// it reads held-out prose at least 0.8 bits per character under the unigram entropy.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { loadAttention } from 'attnbook';
import { stateFileText, trainText, TRAINED_TEXT_FILE, TRAIN_TEXT } from '../../scripts/train-text.mjs';

let attn;
const committed = () => readFileSync(TRAINED_TEXT_FILE, 'utf8');

before(async () => {
  attn = await loadAttention({ simd: true });
});

test('npm run train:text reproduces the committed state bit for bit', () => {
  const { state, copiedAt } = trainText(attn);
  assert.equal(state.step, copiedAt + TRAIN_TEXT.after);
  assert.ok(
    stateFileText(state) === committed(),
    'the committed trained-text.json differs from a fresh run: run npm run train:text',
  );
});

test('the committed model copies in context and reads prose', () => {
  const trainer = attn.loadTrainer(JSON.parse(committed()));
  try {
    assert.equal(trainer.task.id, 'text');
    const probe = trainer.copyingProbe({ count: 128, seed: 11 }); // strings it was not checked on
    assert.ok(probe.copiesInContext, JSON.stringify(probe));
    assert.ok(probe.secondCopyAccuracy >= 0.8 && probe.firstCopyAccuracy < 0.5);
    const { loss } = trainer.evaluate({ samples: 256 });
    assert.ok(
      loss <= trainer.task.unigramBits - 0.8,
      `held-out ${loss} bits/char, unigram ${trainer.task.unigramBits}`,
    );
  } finally {
    trainer.dispose();
  }
});
