// What the trainer tests share (trainer.test.js, text-trainer.test.js): an engine loaded before
// the tests, trainers made through it and disposed of after them, and `refuses`, which asserts an
// AttentionError of a kind with a message.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { AttentionError, loadAttention } from 'attnbook';

/**
 * Loads the engine before the file's tests (handing it to `loaded`) and disposes of its trainers
 * after them.
 * @param {(attn: import('attnbook').Attention) => void} loaded
 * @returns {{ trainer: (options: object) => import('attnbook').Trainer, keep: (t: object) => object }}
 */
export function trainerSuite(loaded) {
  let attn;
  const made = [];
  before(async () => {
    attn = await loadAttention();
    loaded(attn);
  });
  after(() => made.forEach((t) => t.dispose()));
  const keep = (t) => {
    made.push(t);
    return t;
  };
  return { trainer: (options) => keep(attn.createTrainer(options)), keep };
}

/** Asserts that `call` throws an AttentionError of `kind` whose message matches `message`. */
export function refuses(call, kind, message) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof AttentionError, `expected an AttentionError, got ${error?.stack ?? error}`);
    assert.equal(error.kind, kind, `kind of "${error.message}"`);
    assert.match(error.message, message);
    return true;
  });
}
